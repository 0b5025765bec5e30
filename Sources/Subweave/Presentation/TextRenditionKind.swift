import Containers
import Foundation
import HLS

/// What a subtitle rendition's segments are: WebVTT text files (what HLS defines for WebVTT), or
/// fragmented MP4 (`EXT-X-MAP`, or segments that begin with ISO BMFF boxes) carrying IMSC1
/// (`stpp`) or WebVTT in ISO BMFF (`wvtt`, which HLS does not define: RFC 8216bis §3.1.4 and
/// Apple's HLS Authoring Specification 5.3 have WebVTT as text files, and hls.js does not play it).
enum TextRenditionKind: Equatable, Sendable {
    case webVTTText
    /// Fragmented MP4 whose text track's sample entry is `stpp` (IMSC1), `wvtt`, or another code.
    case fragmented(sampleEntry: String)

    /// The kind of `playlist`'s rendition (at `url`), from its initialisation section or its first
    /// segment's first bytes; text files when neither can be read.
    static func of(_ playlist: MediaPlaylist, at url: URL, reader: MediaReader) async -> TextRenditionKind {
        guard let first = playlist.segments.first(where: { !$0.isGap }) else { return .webVTTText }
        var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
        if first.map != nil {
            let initialization = try? await reader.initializationSection(first, of: url, cache: &initializations)
            return .fragmented(sampleEntry: Self.textEntry(initialization ?? []))
        }
        guard let index = playlist.segments.firstIndex(where: { !$0.isGap }), let segmentURL = MediaReader.resolve(first.uri, against: url),
            let head = try? await reader.segment(index, of: playlist, at: url, segmentURL: segmentURL, kind: .subtitle, what: "a subtitle segment"),
            ISOBMFF.looksLikeISOBMFF(head)
        else { return .webVTTText }
        return .fragmented(sampleEntry: Self.textEntry(head))
    }

    /// The sample entry of the first text or subtitle track of `data` (a `moov`), or "".
    static func textEntry(_ data: [UInt8]) -> String {
        guard let tracks = try? ISOBMFF.tracks(data) else { return "" }
        return (tracks.first { ["text", "subt", "sbtl"].contains($0.handler) } ?? tracks.first)?.sampleEntry ?? ""
    }

    /// How a message names it: "WebVTT in fragmented MP4 (wvtt)", "IMSC1 in fragmented MP4 (stpp)".
    var described: String {
        switch self {
        case .webVTTText: return "WebVTT text files"
        case .fragmented(let entry) where entry == "wvtt": return "WebVTT in fragmented MP4 (wvtt)"
        case .fragmented(let entry) where entry == "stpp": return "IMSC1 (TTML) in fragmented MP4 (stpp)"
        case .fragmented(let entry): return "fragmented MP4 text (\(entry.isEmpty ? "no sample entry read" : entry))"
        }
    }

    /// Whether HLS defines it for subtitles: WebVTT text files, or IMSC1 in fragmented MP4.
    var isHLSSubtitleFormat: Bool { self == .webVTTText || self == .fragmented(sampleEntry: "stpp") }
}
