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
struct URIRebase {
    /// Where the master was read from.
    let source: URL
    /// Where the new master goes.
    let output: URL
    /// What relative URIs are resolved against instead of the source's folder (`--base-url`).
    let baseURL: URL?
    /// URIs (as written in the new master) of the renditions written beside it.
    let written: Set<String>

    /// True when the new master is not in the folder the old one was read from (or a base is given).
    var isNeeded: Bool {
        baseURL != nil || !source.isFileURL
            || source.deletingLastPathComponent().standardizedFileURL.path != output.deletingLastPathComponent().standardizedFileURL.path
    }

    /// The edits for `master`, and the URIs left as they were for a reason worth a warning.
    func edits(_ master: MasterPlaylist) -> (edits: [MasterPlaylist.Edit], kept: [String]) {
        guard isNeeded else { return ([], []) }
        var edits: [MasterPlaylist.Edit] = []
        var kept: [String] = []
        for (index, line) in master.playlist.lines.enumerated() {
            switch line.kind {
            case .uri(let uri):
                switch rebase(String(uri)) {
                case .changed(let new): edits.append(.setURI(line: index, uri: new))
                case .keptWithVariable: kept.append(String(uri))
                case .kept: break
                }
            case .tag(let name, let value?):
                guard var list = try? AttributeList(parsing: value) else { continue }
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
                if changed { edits.append(.setTag(line: index, name: name, attributes: list)) }
            default:
                continue
            }
        }
        return (edits, kept)
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
        return .changed(
            Self.relative(
                uri, from: source.deletingLastPathComponent().standardizedFileURL.path, to: output.deletingLastPathComponent().standardizedFileURL.path))
    }

    /// A URI scheme (`https:`, `data:`, `skd:`): letters, digits, `+ - .`, then a colon, before any slash.
    static func hasScheme(_ uri: String) -> Bool {
        guard let colon = uri.firstIndex(of: ":") else { return false }
        let scheme = uri[..<colon]
        guard let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }

    /// `uri`, relative to the folder `sourceFolder`, as a URI relative to the folder `outputFolder`.
    ///
    /// The URI's own path segments stay as written (percent-encoded); segments taken from the
    /// folders are percent-encoded.
    static func relative(_ uri: String, from sourceFolder: String, to outputFolder: String) -> String {
        var pathPart = Substring(uri)
        var suffix = Substring("")
        if let cut = uri.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            pathPart = uri[..<cut]
            suffix = uri[cut...]
        }
        func components(_ path: String) -> [String] { path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) } }
        func encode(_ segment: String) -> String {
            segment.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))) ?? segment
        }
        // The target as folder segments (decoded) plus the URI's segments (as written).
        var target: [(decoded: String, written: String)] = components(sourceFolder).map { ($0, encode($0)) }
        for segment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
            switch segment {
            case ".", "": continue
            case "..": if !target.isEmpty { target.removeLast() }
            default: target.append((String(segment).removingPercentEncoding ?? String(segment), String(segment)))
            }
        }
        let base = components(outputFolder)
        var common = 0
        while common < base.count, common < target.count - 1, base[common] == target[common].decoded { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...].map(\.written)).joined(separator: "/") + suffix
    }
}
