import Captions
import Foundation
import Platform
import Timebase

/// One title of a catalogue file (`subweave batch catalogue.jsonl`): a JSON object per line.
///
/// ```json
/// {"id": "title-42", "master": "titles/42/master.m3u8",
///  "tracks": [{"url": "titles/42/en.srt", "language": "en"}],
///  "preferred_language": "en", "captions": "auto", "closed_captions": "auto",
///  "replace": false, "allow_empty": false, "strict": false, "output": null}
/// ```
/// `tracks` takes track objects, as ``TrackDescriptor/parseTracksFile(_:file:)`` reads them; relative paths (the master, track URLs, the output)
/// are relative to the catalogue file's folder, so one file drives every machine that mounts the
/// same volume at any path.
public struct CatalogueTitle: Sendable {
    /// The title's position in the catalogue (0-based, blank lines and comments not counted).
    public let index: Int
    /// Its line in the catalogue file (1-based), for messages.
    public let line: Int
    /// `id` from the object, else the master's path.
    public let id: String
    public let master: URL
    public let request: PackageRequest
    /// The object as written, in a canonical form (keys sorted): part of the title's input hash.
    let canonical: String
}

/// Why a catalogue line is not a title.
public struct CatalogueLineError: ExplainedError {
    /// The title's position in the catalogue (as ``CatalogueTitle/index``).
    public let index: Int
    public let line: Int
    public let reason: String
    public var codeName: String { "catalogue_line" }
    public var context: String { "line \(line)" }
    public var explanation: String { reason }
    public var description: String { explainedDescription }
}

/// A catalogue file: a title per line; blank lines and lines starting with `#` are skipped.
public enum Catalogue {
    /// Reads the titles of `text` (from the file at `path`), each line on its own: a line that is
    /// not a valid title is a failure of that title, not of the catalogue.
    ///
    /// With `root`, every path a line names (the master, track files, the output) must resolve,
    /// symbolic links followed, to a place inside `root`, and URLs are refused: a line that names
    /// anything else is a failure of its title, and nothing of it is read.
    public static func titles(_ text: String, path: String, root: URL? = nil) -> [Result<CatalogueTitle, CatalogueLineError>] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let root = root.map(PathConfinement.init)
        var result: [Result<CatalogueTitle, CatalogueLineError>] = []
        var index = 0
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                result.append(.success(try title(String(line), index: index, line: offset + 1, folder: folder, root: root)))
            } catch {
                result.append(.failure(error))
            }
            index += 1
        }
        return result
    }

    /// Parses one line.
    static func title(_ text: String, index: Int, line: Int, folder: URL, root: PathConfinement? = nil) throws(CatalogueLineError) -> CatalogueTitle {
        func fail(_ reason: String) -> CatalogueLineError { CatalogueLineError(index: index, line: line, reason: reason) }
        func resolve(_ text: String, _ key: String) throws(CatalogueLineError) -> URL {
            let url = ResourceLocation.resolve(text, in: folder)
            if let root, let problem = root.problem(with: url) { throw fail("\(key) \(LabelText.excerpt(text)) \(problem)") }
            return url
        }
        guard let data = text.data(using: .utf8), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw fail("not a JSON object (one title per line, such as {\"master\": \"t1/master.m3u8\", \"tracks\": [...]})")
        }
        let known: Set<String> = [
            "id", "master", "tracks", "preferred_language", "subtitle_group", "text_format", "segment_names", "rendition_folder", "captions", "closed_captions",
            "caption_services",
            "caption_language", "replace",
            "allow_empty", "strict", "output",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail("unknown key \"\(LabelText.excerpt(unknown))\"; the keys are \(known.sorted().joined(separator: ", "))")
        }
        guard let masterPath = object["master"] as? String, !masterPath.isEmpty else { throw fail("\"master\" (the master playlist's path) is required") }
        let master = try resolve(masterPath, "master")
        var descriptors: [TrackDescriptor] = []
        for (position, element) in ((object["tracks"] as? [Any]) ?? []).enumerated() {
            guard let track = element as? [String: Any] else { throw fail("tracks[\(position)] is not an object") }
            var pairs: [(key: String, value: String)] = []
            for key in track.keys.sorted() {
                var value: String
                switch track[key] {
                case let s as String: value = s
                case let b as Bool: value = b ? "true" : "false"
                case let n as NSNumber: value = n.stringValue
                default: throw fail("tracks[\(position)].\(key) must be a string, number or boolean")
                }
                if ["url", "in", "input"].contains(key.lowercased()) { value = try resolve(value, "tracks[\(position)].\(key)").absoluteString }
                pairs.append((key.lowercased(), value))
            }
            descriptors.append(TrackDescriptor(origin: "line \(line) tracks[\(position)]", pairs: pairs))
        }
        let tracks: [SubtitleTrack]
        do { tracks = try SubtitleTrack.register(descriptors) } catch { throw fail(error.description) }
        var request = PackageRequest(tracks: tracks)
        if let text = object["preferred_language"] as? String {
            guard let tag = LanguageTag(parsing: text) else { throw fail("preferred_language \(LabelText.excerpt(text)) is not a BCP 47 tag") }
            request.preferredLanguage = tag
        }
        if let text = object["subtitle_group"] as? String {
            if let what = GroupConflict.unusable(text) { throw fail("subtitle_group \"\(LabelText.excerpt(text))\" cannot be a GROUP-ID: \(what)") }
            request.subtitleGroup = text
        }
        if let text = object["text_format"] as? String {
            guard let format = SubtitleTextFormat(label: text) else { throw fail("text_format must be webvtt or imsc1") }
            request.textFormat = format
        }
        if let text = object["rendition_folder"] as? String {
            if let what = RenditionFolderTemplate.problem(text) {
                throw fail("rendition_folder \"\(LabelText.excerpt(text))\" cannot name rendition folders: \(what)")
            }
            request.renditionFolder = RenditionFolderTemplate(text)
        }
        if let text = object["segment_names"] as? String {
            if let what = SegmentNameTemplate.problem(text) { throw fail("segment_names \"\(LabelText.excerpt(text))\" cannot name segments: \(what)") }
            request.segmentNames = SegmentNameTemplate(text)
        }
        if let text = object["captions"] as? String {
            guard let mode = CaptionMode(rawValue: text) else { throw fail("captions must be auto or off") }
            request.captions = mode
        }
        if let text = object["closed_captions"] as? String {
            guard let mode = ClosedCaptionsRequest(rawValue: text) else { throw fail("closed_captions must be auto, none or in-band") }
            request.closedCaptions = mode
        }
        request.captionServices = try captionServices(object, fail: fail)
        request.replace = object["replace"] as? Bool ?? false
        request.allowEmpty = object["allow_empty"] as? Bool ?? false
        request.strict = object["strict"] as? Bool ?? false
        if let output = object["output"] as? String { request.output = try resolve(output, "output") }
        let canonical = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? text
        return CatalogueTitle(
            index: index, line: line, id: (object["id"] as? String) ?? masterPath, master: master, request: request, canonical: canonical)
    }

    /// `caption_services` (`{"CC1": {"language": "en", "name": "English CC", "publish": true}}`)
    /// and `caption_language`, as ``CaptionServiceSettings`` holds them.
    static func captionServices(_ object: [String: Any], fail: (String) -> CatalogueLineError) throws(CatalogueLineError) -> CaptionServiceSettings {
        var settings = CaptionServiceSettings()
        if let value = object["caption_services"] {
            guard let services = value as? [String: Any] else { throw fail("caption_services must be an object such as {\"CC1\": {\"language\": \"en\"}}") }
            for name in services.keys.sorted() {
                guard let service = CaptionService(rawValue: name), service.rawValue == name, let keys = services[name] as? [String: Any] else {
                    throw fail(
                        "caption_services.\(LabelText.excerpt(name)) must name a service (\(CaptionServiceSettings.serviceNamesHelp)) and hold an object")
                }
                var pairs: [(key: String, value: String)] = []
                for key in keys.keys.sorted() {
                    switch keys[key] {
                    case let s as String: pairs.append((key, s))
                    case let b as Bool: pairs.append((key, b ? "yes" : "no"))
                    default: throw fail("caption_services.\(name).\(LabelText.excerpt(key)) must be a string or a boolean")
                    }
                }
                do { try settings.set(name, pairs: pairs, origin: "caption_services.\(name)") } catch { throw fail(error.description) }
            }
        }
        if let value = object["caption_language"] {
            guard let text = value as? String, let tag = LanguageTag(parsing: text), tag.isKnownLanguage else {
                throw fail("caption_language must be a known BCP 47 language such as en (or und)")
            }
            settings.defaultLanguage = tag
        }
        return settings
    }
}

/// A folder every path of a catalogue must stay inside (`batch --root`).
struct PathConfinement {
    /// The root's path with its symbolic links resolved, as components.
    let components: [String]
    let shown: String

    init(_ root: URL) {
        shown = root.path
        components = PathConfinement.resolved(root.standardizedFileURL).pathComponents
    }

    /// Why `url` is not inside the root, or nil when it is.
    func problem(with url: URL) -> String? {
        guard url.isFileURL else { return "is a URL; with --root a catalogue may name only files inside \(LabelText.excerpt(shown))" }
        let resolved = PathConfinement.resolved(url.standardizedFileURL).pathComponents
        guard resolved.count >= components.count, Array(resolved.prefix(components.count)) == components else {
            return
                "resolves to \(LabelText.excerpt(resolved.joined(separator: "/").replacingOccurrences(of: "//", with: "/"))), outside the root \(LabelText.excerpt(shown))"
        }
        return nil
    }

    /// The path with the symbolic links of its longest existing prefix resolved (the rest, not
    /// yet made, cannot be a link).
    ///
    /// Only an absolute path is walked up, one component a step until it exists or is `/`: a
    /// file URL without one (`file://host`, whose path is empty) comes back as it is, and so is
    /// outside any root (walking it up never ended: found by the fuzzer).
    static func resolved(_ url: URL) -> URL {
        var existing = url
        var rest: [String] = []
        while existing.path.hasPrefix("/"), existing.path != "/", !FileSystem.exists(existing.path) {
            rest.append(existing.lastPathComponent)
            let parent = existing.deletingLastPathComponent()
            guard parent.path.count < existing.path.count else { break }
            existing = parent
        }
        guard existing.path.hasPrefix("/") else { return url }
        var result = existing.resolvingSymlinksInPath()
        for component in rest.reversed() { result.appendPathComponent(component) }
        return result.standardizedFileURL
    }
}

/// Which titles one worker of an array job takes: every `count`-th title from `index`, so that
/// the `count` shards of a catalogue together take every title exactly once.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// `I/N` with `0 ≤ I < N` (a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`, an AWS Batch
    /// array job's `AWS_BATCH_JOB_ARRAY_INDEX`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, i >= 0, i < n else { return nil }
        index = i
        count = n
    }

    /// The whole catalogue.
    public static let all = Shard(index: 0, count: 1)

    private init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Whether the title at catalogue position `position` is this shard's.
    public func takes(_ position: Int) -> Bool { position % count == index }

    public var description: String { "\(index)/\(count)" }
}
