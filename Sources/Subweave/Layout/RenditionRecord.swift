import Foundation
import HLS
import TimedText

/// What Subweave records beside each rendition it writes (`rendition.json` in the generation
/// folder), so a later run can list it, take it out, or segment it again: who it is, where it
/// came from, and its cues (kept in `cues.vtt` beside it, on the programme timeline).
public struct RenditionRecord: Codable, Sendable, Equatable {
    /// The record's shape and version.
    public var schema = "subweave.rendition/1"
    /// `external:<sourceID>:<language>` or `cea608:CC1`.
    public let identity: String
    public let sourceID: String
    public let language: String
    public let name: String
    public let forced: Bool
    /// Carries the SDH pair of characteristics.
    public let sdh: Bool
    /// The characteristics besides the SDH pair, in order (`characteristics`, written only when
    /// there are some, so a record without them reads as before).
    public let otherCharacteristics: [String]
    /// Advisory `default` from the descriptor.
    public let prefersDefault: Bool
    /// `vtt`, `srt_converted`, `scc_converted`, `cea608`.
    public let ingestFormat: String
    /// Where the cues came from (a path or URL), for people.
    public let source: String
    public let cueCount: Int
    /// The segments and the kept cues are AES-128 encrypted under the title's key (`encrypted`,
    /// written only when true).
    public var encrypted = false

    /// The record's file name in a generation.
    public static let fileName = "rendition.json"
    /// The cues' file name in a generation: the rendition's cues, programme time, no map.
    public static let cuesFileName = "cues.vtt"

    enum CodingKeys: String, CodingKey {
        case schema, identity, sourceID = "source_id", language, name, forced, sdh, otherCharacteristics = "characteristics"
        case prefersDefault = "prefers_default"
        case ingestFormat = "ingest_format", source, cueCount = "cue_count", encrypted
    }

    package init(
        identity: String, sourceID: String, language: String, name: String, forced: Bool, characteristics: MediaCharacteristics,
        prefersDefault: Bool, ingestFormat: String, source: String, cueCount: Int
    ) {
        self.identity = identity
        self.sourceID = sourceID
        self.language = language
        self.name = name
        self.forced = forced
        sdh = characteristics.isSDH
        otherCharacteristics = characteristics.values.filter { !MediaCharacteristics.sdh.contains($0) }
        self.prefersDefault = prefersDefault
        self.ingestFormat = ingestFormat
        self.source = source
        self.cueCount = cueCount
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decode(String.self, forKey: .schema)
        identity = try c.decode(String.self, forKey: .identity)
        sourceID = try c.decode(String.self, forKey: .sourceID)
        language = try c.decode(String.self, forKey: .language)
        name = try c.decode(String.self, forKey: .name)
        forced = try c.decode(Bool.self, forKey: .forced)
        sdh = try c.decode(Bool.self, forKey: .sdh)
        otherCharacteristics = try c.decodeIfPresent([String].self, forKey: .otherCharacteristics) ?? []
        prefersDefault = try c.decode(Bool.self, forKey: .prefersDefault)
        ingestFormat = try c.decode(String.self, forKey: .ingestFormat)
        source = try c.decode(String.self, forKey: .source)
        cueCount = try c.decode(Int.self, forKey: .cueCount)
        encrypted = try c.decodeIfPresent(Bool.self, forKey: .encrypted) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schema, forKey: .schema)
        try c.encode(identity, forKey: .identity)
        try c.encode(sourceID, forKey: .sourceID)
        try c.encode(language, forKey: .language)
        try c.encode(name, forKey: .name)
        try c.encode(forced, forKey: .forced)
        try c.encode(sdh, forKey: .sdh)
        if !otherCharacteristics.isEmpty { try c.encode(otherCharacteristics, forKey: .otherCharacteristics) }
        try c.encode(prefersDefault, forKey: .prefersDefault)
        try c.encode(ingestFormat, forKey: .ingestFormat)
        try c.encode(source, forKey: .source)
        try c.encode(cueCount, forKey: .cueCount)
        if encrypted { try c.encode(encrypted, forKey: .encrypted) }
    }

    /// The rendition's `CHARACTERISTICS`: the SDH pair when it is SDH, then the others.
    public var characteristics: MediaCharacteristics {
        (sdh ? MediaCharacteristics.sdh : .none).union(MediaCharacteristics(values: otherCharacteristics))
    }

    /// The record as written: pretty, sorted keys, a final newline (deterministic bytes).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
