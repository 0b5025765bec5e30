import Foundation
import HLS
import Timebase
import TimedText

/// A subtitle track as the user described it: `key=value` pairs, not yet checked.
///
/// From the command line a descriptor is comma-separated, as in Shaka Packager's stream
/// descriptors: `url=subs/en.srt,language=en,name=English,forced`. A value containing a comma is
/// written in double quotes: `name="English, with signs"`. A bare key is a flag set to true. From
/// a tracks file it is a JSON object with the same keys (flags as booleans, `delay` as a number).
public struct TrackDescriptor: Sendable, Equatable {
    /// Where the descriptor came from, for messages: `#2`, `tracks.json[0]`.
    public let origin: String
    /// The pairs in the order written; flags have the value `true`.
    public let pairs: [(key: String, value: String)]

    /// A descriptor of `pairs` from `origin` (for messages).
    public init(origin: String, pairs: [(key: String, value: String)]) {
        self.origin = origin
        self.pairs = pairs
    }

    public static func == (a: TrackDescriptor, b: TrackDescriptor) -> Bool {
        a.origin == b.origin && a.pairs.elementsEqual(b.pairs) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The value of `key` (the last one if repeated; keys match without case).
    public subscript(key: String) -> String? {
        pairs.last { $0.key.lowercased() == key }?.value
    }

    /// Parses the command-line form.
    ///
    /// Fails only on an unterminated quote.
    public init(parsing text: String, origin: String) throws(RegistrationError) {
        var pairs: [(String, String)] = []
        var items: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" {
                inQuotes.toggle()
                continue
            }
            if character == "," && !inQuotes {
                items.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        guard !inQuotes else {
            throw RegistrationError(.invalidValue, descriptor: origin, "a double quote is not closed; quote a whole value, as in name=\"English, SDH\"")
        }
        items.append(current)
        for item in items where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            if let equals = item.firstIndex(of: "=") {
                let key = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                pairs.append((key, String(item[item.index(after: equals)...])))
            } else {
                // A bare item: a flag (matched without case) or, first, a path (kept as written).
                pairs.append((item.trimmingCharacters(in: .whitespaces), "true"))
            }
        }
        self.init(origin: origin, pairs: pairs)
    }

    /// Parses a tracks file: a JSON array of objects with the descriptor keys.
    ///
    /// `file` names it in messages, and a relative `url` is taken from the file's folder (as a
    /// catalogue's paths are), so a tracks file beside its subtitles works from any folder.
    public static func parseTracksFile(_ data: Data, file: String) throws(SubweaveError) -> [TrackDescriptor] {
        let elements: [JSONElement]
        do {
            elements = try JSONDecoder().decode([JSONElement].self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw .registration([
                RegistrationError(
                    .invalidValue, descriptor: file,
                    "not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription)); expected an array of objects such as [{\"url\": \"subs/en.srt\", \"language\": \"en\"}]"
                )
            ])
        } catch {
            throw .registration([
                RegistrationError(
                    .invalidValue, descriptor: file,
                    "expected a JSON array of track objects such as [{\"url\": \"subs/en.srt\", \"language\": \"en\"}]")
            ])
        }
        var result: [TrackDescriptor] = []
        var errors: [RegistrationError] = []
        for (index, element) in elements.enumerated() {
            let origin = "\(file)[\(index)]"
            guard case .object(let object) = element else {
                errors.append(RegistrationError(.invalidValue, descriptor: origin, "expected a JSON object with keys such as url, language, name"))
                continue
            }
            var pairs: [(String, String)] = []
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            for key in object.keys.sorted() {
                switch object[key] {
                case .string(let s)? where SubtitleTrack.isURLKey(key):
                    let resolved = ResourceLocation.resolve(s, in: folder)
                    pairs.append((key.lowercased(), resolved.isFileURL && !s.hasPrefix("file://") ? resolved.path : s))
                case .string(let s)?: pairs.append((key.lowercased(), s))
                case .bool(let b)?: pairs.append((key.lowercased(), b ? "true" : "false"))
                case .number(let n)?: pairs.append((key.lowercased(), n))
                case .null?, nil: continue
                default:
                    errors.append(RegistrationError(.invalidValue, descriptor: origin, "the value of \"\(key)\" must be a string, number or boolean"))
                }
            }
            result.append(TrackDescriptor(origin: origin, pairs: pairs))
        }
        if !errors.isEmpty { throw .registration(errors) }
        return result
    }
}

extension SubtitleTrack {
    /// The keys a descriptor may hold, and the aliases other tools use for them (Shaka
    /// Packager's `in=`/`input=`, `lang=`).
    static let knownKeys: Set<String> = [
        "url", "id", "language", "name", "format", "forced", "sdh", "default", "delay", "offset", "rate", "fps", "service", "encoding",
        "generated", "translated", "easy-to-read", "characteristics",
    ]
    static let aliases: [String: String] = [
        "in": "url", "input": "url", "lang": "language", "label": "name", "machine-generated": "generated", "translation": "translated",
    ]

    /// The flags that name one characteristic each.
    static let characteristicFlags: [(key: String, uti: String)] = [
        ("generated", MediaCharacteristics.machineGenerated), ("translated", MediaCharacteristics.translation),
        ("easy-to-read", MediaCharacteristics.easyToRead),
    ]

    /// Whether `key` names the track's file (`url` or an alias of it).
    static func isURLKey(_ key: String) -> Bool { (aliases[key.lowercased()] ?? key.lowercased()) == "url" }

    /// Checks `descriptors` and makes the tracks; reports every problem of every descriptor at
    /// once, before any file is read.
    public static func register(_ descriptors: [TrackDescriptor]) throws(SubweaveError) -> [SubtitleTrack] {
        var errors: [RegistrationError] = []
        var tracks: [SubtitleTrack] = []
        var seenIDs: [String: String] = [:]
        var seenFolders: [String: String] = [:]
        for descriptor in descriptors {
            let before = errors.count
            guard let fields = descriptor.fields(problems: &errors), errors.count == before,
                let track = check(fields, origin: descriptor.origin, problems: &errors), errors.count == before
            else { continue }
            if let other = seenIDs[track.sourceID] {
                errors.append(
                    RegistrationError(
                        .duplicateSourceID, descriptor: descriptor.origin,
                        "source ID \"\(LabelText.excerpt(track.sourceID))\" is already used by \(other); give each track its own id=…"))
                continue
            }
            let folder = RenditionLayout.folder(for: track.identity)
            if let other = seenFolders[folder] {
                errors.append(
                    RegistrationError(
                        .duplicateSourceID, descriptor: descriptor.origin,
                        "source ID \"\(LabelText.excerpt(track.sourceID))\" would write to \(folder), as \(other) does; choose ids that differ in letters, digits, '.', '_' or '-'"
                    ))
                continue
            }
            seenIDs[track.sourceID] = descriptor.origin
            seenFolders[folder] = descriptor.origin
            tracks.append(track)
        }
        if !errors.isEmpty { throw .registration(errors) }
        return tracks
    }
}

extension TrackDescriptor {
    /// The typed values of the descriptor; every key it cannot read adds a problem.
    func fields(problems: inout [RegistrationError]) -> SubtitleTrack.Fields? {
        var reader = DescriptorValues(origin: origin, values: keyedValues(problems: &problems))
        defer { problems += reader.problems }
        let source = reader.source()
        let format = reader.typed(
            "format", SubtitleFormat.init(label:),
            "is not supported; use one of \(SubtitleFormat.allCases.map { "format=\($0.rawValue)" }.joined(separator: ", "))")
        let language = reader.language(isTTML: (format ?? source.flatMap { SubtitleFormat.inferred(fromPath: $0.pathForExtension) }) == .ttml)
        let delay = reader.typed("delay", Self.signedSeconds, "is not a number of seconds (such as 1.5 or -0.25)")
        let offset = reader.typed(
            "offset", { Self.signedSeconds($0) ?? Self.signedClock($0) },
            "is not a time; write seconds (-3600) or [-]HH:MM:SS[.mmm] (-01:00:00)")
        let rate = reader.typed(
            "rate", ClockRate.init(parsing:),
            "is not a clock rate; write a ratio of frame rates (25/23.976, 23.976/25, 25/24) or a decimal between 0.5 and 2 (1.0427)")
        let fps = reader.typed(
            "fps", TimecodeRate.init(label:), "is not a timecode rate; use one of \(TimecodeRate.labels.joined(separator: ", "))")
        let service = reader.typed(
            "service", CaptionService.init(rawValue:), "is not a caption service; write CC1 to CC4 or SERVICE1 to SERVICE63")
        let encoding = reader.typed(
            "encoding", TextEncoding.init(label:),
            "is not supported; use one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
        let forced = reader.flag("forced"), sdh = reader.flag("sdh"), isDefault = reader.flag("default")
        let flagged = SubtitleTrack.characteristicFlags.filter { reader.flag($0.key) }.map(\.uti)
        guard let source else { return nil }
        var fields = SubtitleTrack.Fields(
            source: source, id: reader.values["id"], language: language, name: reader.values["name"], format: format,
            isForced: forced, isSDH: sdh, isDefault: isDefault, delay: delay ?? .zero, offset: offset ?? .zero,
            encoding: encoding)
        fields.delayText = reader.values["delay"]
        fields.rate = rate ?? .one
        fields.fps = fps
        fields.service = service
        fields.characteristics = MediaCharacteristics(values: flagged).union(MediaCharacteristics(attribute: reader.values["characteristics"]))
        return fields
    }

    /// The pairs by canonical key (aliases resolved); a first bare path is the url; unknown keys
    /// are problems.
    func keyedValues(problems: inout [RegistrationError]) -> [String: String] {
        var values: [String: String] = [:]
        for (index, pair) in pairs.enumerated() {
            let lower = pair.key.lowercased()
            let key = SubtitleTrack.aliases[lower] ?? lower
            if index == 0 && pair.value == "true" && !SubtitleTrack.knownKeys.contains(key) && self["url"] == nil
                && (key.contains("/") || key.contains("."))
            {
                values["url"] = pair.key
                continue
            }
            guard SubtitleTrack.knownKeys.contains(key) else {
                let suggestion = EditDistance.suggestion(for: key, among: SubtitleTrack.knownKeys.sorted()).map { " (did you mean \($0)?)" } ?? ""
                problems.append(
                    RegistrationError(
                        .unknownKey, descriptor: origin,
                        "unknown key \"\(LabelText.excerpt(key))\"\(suggestion); known keys: \(SubtitleTrack.knownKeys.sorted().joined(separator: ", ")) (and in=, input=, lang=)"
                    ))
                continue
            }
            values[key] = pair.value
        }
        return values
    }

    /// An offset as `offset=` reads it: `[+-]seconds[.fraction]` or `[+-]HH:MM:SS[.mmm]`.
    public static func time(_ text: String) -> MediaTime? { signedSeconds(text) ?? signedClock(text) }

    /// `[+-]seconds[.fraction]`.
    static func signedSeconds(_ text: String) -> MediaTime? {
        let negative = text.hasPrefix("-")
        let body = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard let magnitude = MediaTime(decimalSeconds: body) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// `[+-]HH:MM:SS[.mmm]`.
    static func signedClock(_ text: String) -> MediaTime? {
        let negative = text.hasPrefix("-")
        let body = negative || text.hasPrefix("+") ? String(text.dropFirst()) : text
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int64(parts[0]), let m = Int64(parts[1]), m < 60,
            let seconds = MediaTime(decimalSeconds: parts[2]), seconds < MediaTime(seconds: 60),
            let clock = MediaTime(hours: h, minutes: m, seconds: 0, milliseconds: 0)
        else { return nil }
        let value = clock + seconds
        return negative ? -value : value
    }
}

/// A JSON value as a tracks file holds it; numbers keep their text.
private enum JSONElement: Decodable {
    case string(String)
    case bool(Bool)
    case number(String)
    case null
    case object([String: JSONElement])
    case array

    init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONElement] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONElement.self, forKey: key) }
            self = .object(object)
            return
        }
        if (try? decoder.unkeyedContainer()) != nil {
            self = .array
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null; return }
        if let b = try? single.decode(Bool.self) { self = .bool(b); return }
        if let i = try? single.decode(Int.self) { self = .number(String(i)); return }
        if let d = try? single.decode(Double.self) { self = .number(String(d)); return }
        self = .string(try single.decode(String.self))
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Reads a descriptor's values into typed ones, collecting a problem for each it cannot read.
struct DescriptorValues {
    let origin: String
    let values: [String: String]
    var problems: [RegistrationError] = []

    init(origin: String, values: [String: String]) {
        self.origin = origin
        self.values = values
    }

    mutating func fail(_ code: RegistrationError.Code, _ text: String) {
        problems.append(RegistrationError(code, descriptor: origin, text))
    }

    mutating func source() -> SubtitleSource? {
        guard let url = values["url"], !url.trimmingCharacters(in: .whitespaces).isEmpty else {
            fail(.malformedURL, "url= is required: a path, file://, http:// or https:// URL of a .vtt, .srt or .scc file")
            return nil
        }
        do { return try SubtitleSource(parsing: url) } catch {
            problems.append(RegistrationError(error.code, descriptor: origin, error.explanation))
            return nil
        }
    }

    /// The language: BCP 47, required except for TTML.
    ///
    /// `und` says "unknown"; a TTML document names its language. A two-letter code that ISO 639-1 does not have (`xx`) is refused; a three-letter
    /// one is kept (ISO 639-2/3 has thousands: `yue`, `fil`, `qaa`); a language written as a name
    /// (`english`) is refused with the tag to use instead.
    mutating func language(isTTML: Bool) -> LanguageTag {
        guard let text = values["language"], !text.isEmpty else {
            if !isTTML {
                fail(
                    .invalidLanguage,
                    "language= is required: say the track's language as a BCP 47 tag (such as en, pt-BR, zh-Hant), or language=und when it is unknown")
            }
            return .undetermined
        }
        if let tag = LanguageTag(parsing: text) {
            if tag.isKnownLanguage || tag.language.count == 3 || tag.language.isEmpty { return tag }
            if tag.language.count == 2 {
                fail(
                    .invalidLanguage,
                    "language \"\(LabelText.excerpt(text))\" is not an ISO 639 language code; write one such as en, fr or pt-BR, or language=und when it is unknown"
                )
                return .undetermined
            }
        }
        let hint = LanguageTag.suggestion(forName: text).map { "; for \(text) write language=\($0)" } ?? "; use und when it is unknown"
        fail(.invalidLanguage, "language \"\(LabelText.excerpt(text))\" is not a BCP 47 language tag (such as en, pt-BR, zh-Hant)\(hint)")
        return .undetermined
    }

    mutating func flag(_ key: String) -> Bool {
        guard let value = values[key] else { return false }
        switch value.lowercased() {
        case "true", "yes", "1", "": return true
        case "false", "no", "0": return false
        default:
            fail(.invalidValue, "\(key)=\(LabelText.excerpt(value)) is not a flag; write \(key) alone, or \(key)=true / \(key)=false")
            return false
        }
    }

    /// `key`'s value read by `parse`; a value it cannot read is a problem (`key=value <reason>`).
    mutating func typed<T>(_ key: String, _ parse: (String) -> T?, _ reason: String) -> T? {
        guard let text = values[key] else { return nil }
        if let value = parse(text) { return value }
        fail(.invalidValue, "\(key)=\(LabelText.excerpt(text)) \(reason)")
        return nil
    }
}
