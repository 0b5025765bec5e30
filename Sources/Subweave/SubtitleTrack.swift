import Foundation
import TimedText
import Timebase

/// A side-loaded subtitle track, checked and ready to load (modelled on the external subtitle
/// tracks of player SDKs such as FastPix's `FastPixExternalSubtitleTrack`).
public struct SubtitleTrack: Sendable, Equatable {
    /// The caller's identifier for the source; unique among the tracks of a run.
    public let sourceID: String
    public let location: SubtitleLocation
    /// The declared language, or `und`; never guessed from the label.
    public let language: LanguageTag
    /// The menu label (`NAME`).
    public let label: String
    /// True when the label was derived from the language rather than given.
    public let labelIsDerived: Bool
    /// The declared format; nil means inferred from the path's extension.
    public let declaredFormat: SubtitleFormat?
    /// The format to read: declared, or inferred from the extension (registration guarantees one).
    public let format: SubtitleFormat
    /// Advisory: breaks ties in the preferred-language rule; never makes a rendition DEFAULT alone.
    public let isDefault: Bool
    public let isForced: Bool
    /// Subtitles for the deaf and hard of hearing (adds the accessibility characteristics).
    public let isSDH: Bool
    /// Added to every cue time (positive shows text later), within ±10 s.
    public let delay: MediaTime
    /// A forced text encoding, or nil to detect.
    public let encoding: TextEncoding?
    /// Things registration adjusted (a clamped delay).
    public let notes: [String]

    /// `external:<sourceID>:<languageTag>`: how Subweave recognises its own rendition on a later
    /// run (its folder is derived from it: ``RenditionLayout/folder(for:)``).
    public var identity: RenditionIdentity { .external(sourceID: sourceID, language: language) }
}

/// Where a subtitle file is.
public enum SubtitleLocation: Sendable, Equatable, CustomStringConvertible {
    /// A local path (from a plain path or a `file://` URL).
    case file(String)
    /// An `http://` or `https://` URL.
    case remote(URL)

    public var description: String {
        switch self {
        case .file(let path): return path
        case .remote(let url): return url.absoluteString
        }
    }

    /// The path component used to infer the format: never the query string.
    public var pathForExtension: String {
        switch self {
        case .file(let path): return path
        case .remote(let url): return url.path
        }
    }
}

/// The subtitle formats Subweave reads.
public enum SubtitleFormat: String, Sendable, CaseIterable {
    case vtt, srt, scc

    /// The format a path's extension names (`.vtt`, `.webvtt`, `.srt`, `.scc`), or nil.
    public static func inferred(fromPath path: String) -> SubtitleFormat? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "vtt", "webvtt": return .vtt
        case "srt": return .srt
        case "scc": return .scc
        default: return nil
        }
    }
}

extension SubtitleTrack {
    static let knownKeys: Set<String> = ["url", "id", "language", "name", "format", "forced", "sdh", "default", "delay", "encoding"]
    /// The largest delay accepted; more is clamped with a warning.
    public static let maximumDelay = MediaTime(seconds: 10)

    /// Checks `descriptors` and makes the tracks; reports every problem of every descriptor at once,
    /// before any file is read.
    public static func register(_ descriptors: [TrackDescriptor]) throws(SubweaveError) -> [SubtitleTrack] {
        var errors: [RegistrationError] = []
        var tracks: [SubtitleTrack] = []
        var seenIDs: [String: String] = [:]
        var seenFolders: [String: String] = [:]
        for descriptor in descriptors {
            let before = errors.count
            let track = make(descriptor, errors: &errors)
            guard let track, errors.count == before else { continue }
            if let other = seenIDs[track.sourceID] {
                errors.append(RegistrationError(.duplicateSourceID, descriptor: descriptor.origin,
                    "source ID \"\(track.sourceID)\" is already used by \(other); give each track its own id=…"))
                continue
            }
            let folder = RenditionLayout.folder(for: track.identity)
            if let other = seenFolders[folder] {
                errors.append(RegistrationError(.duplicateSourceID, descriptor: descriptor.origin,
                    "source ID \"\(track.sourceID)\" would write to \(folder), as \(other) does; choose ids that differ in letters, digits, '.', '_' or '-'"))
                continue
            }
            seenIDs[track.sourceID] = descriptor.origin
            seenFolders[folder] = descriptor.origin
            tracks.append(track)
        }
        if !errors.isEmpty { throw .registration(errors) }
        return tracks
    }

    private static func make(_ d: TrackDescriptor, errors: inout [RegistrationError]) -> SubtitleTrack? {
        let origin = d.origin
        func fail(_ code: RegistrationError.Code, _ text: String) { errors.append(RegistrationError(code, descriptor: origin, text)) }

        for (key, _) in d.pairs where !knownKeys.contains(key) {
            let suggestion = EditDistance.suggestion(for: key, among: knownKeys.sorted()).map { " (did you mean \($0)?)" } ?? ""
            fail(.unknownKey, "unknown key \"\(key)\"\(suggestion); known keys: \(knownKeys.sorted().joined(separator: ", "))")
        }

        // url
        var location: SubtitleLocation?
        if let url = d["url"], !url.trimmingCharacters(in: .whitespaces).isEmpty {
            switch parseLocation(url) {
            case .success(let l): location = l
            case .failure(let e): errors.append(RegistrationError(e.code, descriptor: origin, e.explanation))
            }
        } else {
            fail(.malformedURL, "url= is required: a path, file://, http:// or https:// URL of a .vtt, .srt or .scc file")
        }

        // id
        var sourceID = d["id"]
        if sourceID == nil, let location {
            let name = (location.pathForExtension.split(separator: "/").last.map(String.init)) ?? ""
            sourceID = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        }
        let id = sourceID ?? ""
        if sourceID == nil {
            // The URL was unusable, so no ID could be derived from it; that error says enough.
        } else if id.trimmingCharacters(in: .whitespaces).isEmpty {
            fail(.emptySourceID, "the source ID is empty; set id=… (by default it is the file name without its extension)")
        } else if let bad = id.unicodeScalars.first(where: { $0.properties.generalCategory == .control || $0 == "\"" }) {
            fail(.unsafeText, "the source ID contains \(describe(bad)), which cannot appear in a file name or playlist; use letters, digits, '.', '_' or '-'")
        } else if id == "." || id == ".." || id.contains("/") || id.contains("\\") {
            fail(.unsafeText, "the source ID \"\(id)\" looks like a path; it names a folder inside the output, so it cannot contain '/' or be '.' or '..'")
        }

        // language
        var language = LanguageTag.undetermined
        var languageIsInvalid = false
        if let text = d["language"], !text.isEmpty {
            if let tag = LanguageTag(parsing: text) { language = tag } else {
                languageIsInvalid = true
                fail(.invalidLanguage, "language \"\(text)\" is not a BCP 47 tag (such as en, pt-BR, zh-Hant); use und when it is unknown")
            }
        }

        // flags
        func flag(_ key: String) -> Bool {
            guard let value = d[key] else { return false }
            switch value.lowercased() {
            case "true", "yes", "1", "": return true
            case "false", "no", "0": return false
            default:
                fail(.invalidValue, "\(key)=\(value) is not a flag; write \(key) alone, or \(key)=true / \(key)=false")
                return false
            }
        }
        let forced = flag("forced")
        let sdh = flag("sdh")
        let isDefault = flag("default")

        // name
        var label = d["name"] ?? ""
        var derived = false
        if d["name"] == nil {
            if let autonym = language.autonym {
                label = autonym + (sdh ? " (SDH)" : "") + (forced ? " (Forced)" : "")
                derived = true
            } else if !languageIsInvalid {
                fail(.emptyLabel, language.isUndetermined
                     ? "name= is required: without language= there is no name to derive the menu label from"
                     : "name= is required: no known name for language \"\(language)\"")
            }
        } else if label.trimmingCharacters(in: .whitespaces).isEmpty {
            fail(.emptyLabel, "name= is empty; the NAME attribute is the label players show in the subtitle menu")
        } else if let bad = label.unicodeScalars.first(where: { $0.properties.generalCategory == .control || $0 == "\"" }) {
            fail(.unsafeText, "name \"\(label)\" contains \(describe(bad)); NAME is a quoted-string, which cannot hold a double quote or line break (RFC 8216bis §4.2)")
        }
        label = label.trimmingCharacters(in: .whitespaces)

        // format
        var declared: SubtitleFormat?
        if let text = d["format"] {
            if let f = SubtitleFormat(rawValue: text.lowercased()) ?? (text.lowercased() == "webvtt" ? .vtt : nil) { declared = f } else {
                fail(.invalidValue, "format=\(text) is not supported; use format=vtt, format=srt or format=scc")
            }
        }
        var format = declared
        if format == nil, let location {
            format = SubtitleFormat.inferred(fromPath: location.pathForExtension)
            if format == nil && d["format"] == nil {
                fail(.indeterminateFormat, "cannot tell the format of \(location): the URL path has no .vtt, .webvtt, .srt or .scc extension (the query string is never read); declare format=vtt, format=srt or format=scc")
            }
        }

        // delay
        var delay = MediaTime.zero
        var notes: [String] = []
        if let text = d["delay"] {
            let negative = text.hasPrefix("-")
            let body = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            if let magnitude = MediaTime(decimalSeconds: body) {
                delay = negative ? -magnitude : magnitude
                if delay > maximumDelay || delay < -maximumDelay {
                    let clamped = delay > .zero ? maximumDelay : -maximumDelay
                    notes.append("delay=\(text) s clamped to \(clamped.decimalSeconds) s (at most ±10 s; a larger offset usually means the wrong file)")
                    delay = clamped
                }
            } else {
                fail(.invalidValue, "delay=\(text) is not a number of seconds (such as 1.5 or -0.25)")
            }
        }

        // encoding
        var encoding: TextEncoding?
        if let text = d["encoding"] {
            if let e = TextEncoding(label: text) { encoding = e } else {
                fail(.invalidValue, "encoding=\(text) is not supported; use one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        guard let location, let format, !id.isEmpty else { return nil }
        return SubtitleTrack(sourceID: id, location: location, language: language, label: label, labelIsDerived: derived,
                             declaredFormat: declared, format: format, isDefault: isDefault, isForced: forced, isSDH: sdh,
                             delay: delay, encoding: encoding, notes: notes)
    }

    /// Reads a `url=` value: a plain path, `file://`, `http://` or `https://`.
    public static func parseLocation(_ text: String) -> Result<SubtitleLocation, RegistrationError> {
        func error(_ code: RegistrationError.Code, _ message: String) -> Result<SubtitleLocation, RegistrationError> {
            .failure(RegistrationError(code, descriptor: "", message))
        }
        if text.hasPrefix("//") {
            return error(.malformedURL, "\"\(text)\" is a scheme-relative URL; write http://… or https://…, or a local path")
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
           text[..<colon].count >= 2, text.first?.isLetter == true {
            let scheme = text[..<colon].lowercased()
            let rest = text[text.index(after: colon)...]
            switch scheme {
            case "http", "https":
                guard rest.hasPrefix("//"), let url = URL(string: text), let host = url.host, !host.isEmpty else {
                    return error(.malformedURL, "\"\(text)\" is not a valid \(scheme) URL; expected \(scheme)://host/path/file.vtt")
                }
                return .success(.remote(url))
            case "file":
                guard let url = URL(string: text), rest.hasPrefix("//") else {
                    return error(.malformedURL, "\"\(text)\" is not a valid file URL; expected file:///absolute/path/file.srt")
                }
                guard url.host == nil || url.host == "" || url.host == "localhost" else {
                    return error(.malformedURL, "\"\(text)\" names host \"\(url.host ?? "")\"; file URLs must be local (file:///path)")
                }
                return .success(.file(url.path))
            default:
                return error(.unsupportedScheme, "scheme \"\(scheme):\" is not supported; use a local path, file://, http:// or https://")
            }
        }
        if text.lowercased().hasPrefix("www.") {
            return error(.malformedURL, "\"\(text)\" looks like a web address without a scheme; write https://\(text)")
        }
        if text.contains("\0") || text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return error(.malformedURL, "the path contains a control character")
        }
        return .success(.file(text))
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "a double quote"
        case "\n": return "a line feed"
        case "\r": return "a carriage return"
        default: return "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
    }
}
