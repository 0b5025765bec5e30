import Foundation
import HLS
import Timebase
import TimedText

/// One subtitle rendition of a live presentation: its folder, the cues known so far, and what
/// has been published, so that no published byte is ever written again.
///
/// A segment is written once, when its video segment appears, with every cue known then that is
/// shown during it. A cue that becomes known after the segment it starts in was published (a
/// captioner appending to the file late, a roll-up line still being gathered, a caption still on
/// screen when its segment was written) goes into the next segment written: from that segment's
/// start when nothing of it was published, else from where its published part ended, so a player
/// never shows it twice and every published segment carries every cue shown during it.
struct LiveRendition: Codable {
    /// The rendition's folder and live generation, relative to the master.
    let folder: String
    let generation: String
    let record: RenditionRecord
    let headerBlocks: [String]
    /// Segments written, by media sequence number (their files exist and are final).
    var written: Set<Int> = []
    /// The part of a cue a segment published, in ticks of programme time; kept on disk as
    /// `[start, end]`.
    struct PublishedSpan: Codable, Equatable {
        var start: Int64
        var end: Int64

        init(start: Int64, end: Int64) {
            self.start = start
            self.end = end
        }

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            start = try container.decode(Int64.self)
            end = try container.decode(Int64.self)
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(start)
            try container.encode(end)
        }
    }

    /// For each cue (start, text), the last piece of it published.
    var published: [String: PublishedSpan] = [:]
    /// Cues published after their segment was (for the report).
    var lateCues = 0
    /// Cues that became known after every segment they show in was published (keys as in
    /// ``published``): too late for this event's segments, said in the report; a refresh after
    /// the event publishes them (nil in a state written before they were counted).
    var missed: Set<String>?

    /// Parts written (low-latency HLS), by the media sequence number of their segment.
    ///
    /// How many (parts 0 to count - 1, files that exist and are final) and the cue blocks they
    /// published, each once, in order; a segment written after its parts is exactly them. nil
    /// in a state written before parts.
    var parts: [Int: Parts]?

    struct Parts: Codable, Equatable {
        var count: Int
        var blocks: [String]
    }

    var playlistPath: String { RenditionLayout.playlistURI(folder: folder, generation: generation) }
    var generationFolder: String { "\(folder)/\(generation)" }

    static func key(_ cue: Cue) -> String { "\(cue.start.ticks) \(cue.text)" }

    /// The text of segment `number` (programme window `window`) with `cues` (all known, programme
    /// time), and the bookkeeping of what it publishes.
    mutating func segment(_ number: Int, window: Range<MediaTime>, mapping: ProgrammeTimeline.Mapping, cues: [Cue]) -> String {
        let blocks = pieces(window: window, mapping: mapping, cues: cues)
        written.insert(number)
        return WebVTTWriter.file(map: mapping.map, headerBlocks: headerBlocks, cueBlocks: blocks)
    }

    /// The text of part `part` of segment `number` (programme window `window`), published as a
    /// segment is: the same bookkeeping, so a cue that spans parts is repeated exactly in each.
    mutating func part(_ part: Int, of number: Int, window: Range<MediaTime>, mapping: ProgrammeTimeline.Mapping, cues: [Cue]) -> String {
        let blocks = pieces(window: window, mapping: mapping, cues: cues)
        var written = parts?[number] ?? Parts(count: 0, blocks: [])
        written.count = part + 1
        for block in blocks where !written.blocks.contains(block) { written.blocks.append(block) }
        parts = (parts ?? [:]).merging([number: written]) { $1 }
        return WebVTTWriter.file(map: mapping.map, headerBlocks: headerBlocks, cueBlocks: blocks)
    }

    /// The text of segment `number` whose parts were written: what its parts published, each
    /// cue once, so a player that reads the segment sees what one that read the parts saw.
    mutating func segmentFromParts(_ number: Int, mapping: ProgrammeTimeline.Mapping) -> String {
        written.insert(number)
        return WebVTTWriter.file(map: mapping.map, headerBlocks: headerBlocks, cueBlocks: parts?[number]?.blocks ?? [])
    }

    /// The cue blocks shown during `window`, each piece recorded as published.
    private mutating func pieces(window: Range<MediaTime>, mapping: ProgrammeTimeline.Mapping, cues: [Cue]) -> [String] {
        var blocks: [String] = []
        for cue in cues where cue.end > window.lowerBound || published[Self.key(cue)] == nil {
            let key = Self.key(cue)
            var piece = cue
            if let last = published[key] {
                if last.end >= cue.end.ticks {
                    // A boundary cue: repeated exactly as published, so players see one cue.
                    piece.start = MediaTime(ticks: last.start)
                } else {
                    // It has grown since (a caption still on screen): the rest of it, from there.
                    piece.start = MediaTime(ticks: last.end)
                }
            } else if cue.start >= window.upperBound {
                continue
            } else if cue.start < window.lowerBound {
                // Known only now, after the segment it starts in was published (a roll-up line
                // still gathering, a captioner's late cue): shown from this segment on. The
                // published segment cannot gain it, and a segment must carry every cue shown
                // during it (RFC 8216bis §3.1.4), so the cue may not claim the time before.
                guard cue.end > window.lowerBound else {
                    missed = (missed ?? []).union([key])
                    continue
                }
                lateCues += 1
                piece.start = window.lowerBound
            }
            guard piece.end > piece.start, piece.start < window.upperBound else { continue }
            published[key] = PublishedSpan(start: piece.start.ticks, end: piece.end.ticks)
            // Each piece has its own identifier, the same in every segment that repeats it
            // (hls.js takes a known identifier for a repeat).
            piece.identifier = "\(cue.start.ticks)-\(piece.start.ticks)"
            piece.start += mapping.offset
            piece.end += mapping.offset
            guard piece.end > .zero else { continue }
            if piece.start < .zero { piece.start = .zero }
            blocks.append(WebVTTWriter.block(piece))
        }
        return blocks
    }
}
