import Foundation
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
    public let sdh: Bool
    /// Advisory `default` from the descriptor.
    public let prefersDefault: Bool
    /// `vtt`, `srt_converted`, `scc_converted`, `cea608`.
    public let ingestFormat: String
    /// Where the cues came from (a path or URL), for people.
    public let source: String
    public let cueCount: Int

    /// The record's file name in a generation.
    public static let fileName = "rendition.json"
    /// The cues' file name in a generation: the rendition's cues, programme time, no map.
    public static let cuesFileName = "cues.vtt"

    enum CodingKeys: String, CodingKey {
        case schema, identity, sourceID = "source_id", language, name, forced, sdh, prefersDefault = "prefers_default"
        case ingestFormat = "ingest_format", source, cueCount = "cue_count"
    }

    /// The record as written: pretty, sorted keys, a final newline (deterministic bytes).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
