import Foundation
import HLS

/// Rewrites the relative URIs of a master written to another place than the one it was read
/// from, so that they still name the same files: the variant URI lines and the `URI` (and
/// `SERVER-URI`) attributes of every tag, except the renditions Subweave writes beside the new
/// master.
///
/// A relative URI becomes the path from the new master's folder to the file (`../hls/v0.m3u8`),
/// or, with a base URL, that URL joined with the URI (`https://cdn.example/title/v0.m3u8`). A
/// master read over HTTP gets absolute URLs. Absolute URIs, absolute paths and URIs with
/// variable references (`{$name}`, resolved only by the player) are kept as they are; the last are
/// reported.
struct URIRebase: URIRewriting {
    /// Where the master was read from.
    let source: URL
    /// Where the new master goes.
    let output: URL
    /// What relative URIs are resolved against instead of the source's folder (``PackageRequest/baseURL``).
    let baseURL: URL?
    /// URIs (as written in the new master) of the renditions written beside it.
    let written: Set<String>
    /// The folders of the source and of the output, as decoded path segments (found once, not per URI).
    private let sourceFolder: [String]
    private let outputFolder: [String]
    /// True when the new master is not in the folder the old one was read from (or a base is given).
    let isNeeded: Bool

    init(source: URL, output: URL, baseURL: URL?, written: Set<String>) {
        (self.source, self.output, self.baseURL, self.written) = (source, output, baseURL, written)
        let (from, to) = (source.deletingLastPathComponent().standardizedFileURL.path, output.deletingLastPathComponent().standardizedFileURL.path)
        (sourceFolder, outputFolder) = (Self.components(from), Self.components(to))
        isNeeded = baseURL != nil || !source.isFileURL || from != to
    }

    /// Rewrites the URIs of `master`; returns how many were rewritten and the URIs kept for a
    /// reason worth a warning.
    ///
    /// Its URI lines go through ``Playlist/rewriteURIs(_:)`` (one rewriter for every line, however
    /// many variants), the `URI` attributes of its tags as edits.
    func apply(to master: inout MasterPlaylist) throws(HLSError) -> (rewritten: Int, kept: [String]) {
        guard isNeeded else { return (0, []) }
        var edits: [MasterPlaylist.Edit] = []
        var kept: [String] = []
        var rewritten = 0
        let playlist = master.playlist
        for index in 0..<playlist.count {
            switch playlist.lineClass(index) {
            case .uri:
                guard case .uri(let uri) = playlist.lines[index].kind else { continue }
                switch rebase(String(uri)) {
                case .changed: rewritten += 1
                case .keptWithVariable: kept.append(String(uri))
                case .kept: break
                }
            case .tag(let name):
                guard let list = (try? playlist.attributes(ofLine: index)) ?? nil, let edit = tagEdit(index, name, list, &kept) else { continue }
                edits.append(edit)
            default:
                continue
            }
        }
        try master.apply(edits)
        if rewritten > 0 { try master.rewriteURIs(self) }
        return (rewritten + edits.count, kept)
    }

    /// The edit of the tag on line `index` whose `URI` or `SERVER-URI` is rebased, if any.
    private func tagEdit(_ index: Int, _ name: String, _ attributes: AttributeList, _ kept: inout [String]) -> MasterPlaylist.Edit? {
        var list = attributes
        var changed = false
        for key in ["URI", "SERVER-URI"] {
            guard let attribute = list[key], attribute.isQuoted else { continue }
            let uri = attribute.unquoted
            if written.contains(uri) { continue }
            switch rebase(uri) {
            case .changed(let new):
                list.set(key, .quoted(new), order: [])
                changed = true
            case .keptWithVariable: kept.append(uri)
            case .kept: break
            }
        }
        return changed ? .setTag(line: index, name: name, attributes: list) : nil
    }

    func rewrittenURI(_ uri: String) -> String? {
        guard case .changed(let new) = rebase(uri) else { return nil }
        return new
    }

    enum Outcome: Equatable {
        case changed(String)
        case kept
        case keptWithVariable
    }

    /// `uri` (relative to the source master) as the new master must write it.
    func rebase(_ uri: String) -> Outcome {
        if uri.isEmpty || uri.hasPrefix("/") || uri.hasPrefix("#") || Self.hasScheme(uri) { return .kept }
        if uri.contains("{$") { return .keptWithVariable }
        if let baseURL {
            guard let url = URL(string: uri, relativeTo: baseURL) else { return .kept }
            return .changed(url.absoluteString)
        }
        guard source.isFileURL else {
            guard let url = MediaReader.resolve(uri, against: source) else { return .kept }
            return .changed(url.absoluteString)
        }
        return .changed(Self.relative(uri, from: sourceFolder, to: outputFolder))
    }

    /// A URI scheme (`https:`, `data:`, `skd:`): letters, digits, `+ - .`, then a colon, before any slash.
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// A folder's path as decoded segments.
    static func components(_ path: String) -> [String] { path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) } }

    /// `uri`, relative to the folder `sourceFolder` (decoded segments), as a URI relative to the
    /// folder `outputFolder`.
    ///
    /// The URI's own path segments stay as written (percent-encoded); segments taken from the
    /// folders are percent-encoded.
    static func relative(_ uri: String, from sourceFolder: [String], to outputFolder: [String]) -> String {
        var pathPart = Substring(uri)
        var suffix = Substring("")
        if let cut = uri.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            pathPart = uri[..<cut]
            suffix = uri[cut...]
        }
        func encode(_ segment: String) -> String {
            segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))) ?? segment
        }
        // The target as folder segments (decoded) plus the URI's segments (as written).
        var target: [(decoded: String, written: String?)] = sourceFolder.map { ($0, nil) }
        for segment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case ".", "": continue
            case "..": if !target.isEmpty { target.removeLast() }
            default: target.append((String(segment).removingPercentEncoding ?? String(segment), String(segment)))
            }
        }
        var common = 0
        while common < outputFolder.count, common < target.count - 1, outputFolder[common] == target[common].decoded { common += 1 }
        let ups = Array(repeating: "..", count: outputFolder.count - common)
        return (ups + target[common...].map { $0.written ?? encode($0.decoded) }).joined(separator: "/") + suffix
    }
}
