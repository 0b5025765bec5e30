import Containers
import Foundation
import HLS
import Timebase
import TimedText

/// The programme timeline of a live presentation, built as its playlist grows and slides, and
/// kept on disk so a restarted run goes on with the same times.
///
/// Programme time 0 is the first frame of the first segment Subweave saw (a subtitle source's
/// time 0); each later segment starts where the one before it ended, whatever the window shows
/// now. Discontinuity sequence `d`, whose first segment seen starts at programme time `S_d` with
/// first presented frame `B_d`, writes cue time `T` as media time `B_d + (T − S_d)`, under the
/// identity map, as the VOD timeline does.
struct LiveTimeline: Codable, Equatable {
    struct Segment: Codable, Equatable {
        /// Programme start and duration, 90 kHz ticks.
        let start: Int64
        let duration: Int64
        let discontinuitySequence: Int

        /// Where the segment ends on programme time (start and duration are kept within
        /// ``MediaTime/limit``, so the sum cannot overflow).
        var end: Int64 { start + duration }
    }

    struct Sequence: Codable, Equatable {
        /// Programme start of its first segment seen, and that segment's first presented frame.
        let start: Int64
        let media: Int64
    }

    /// Segments by media sequence number (those still useful: the window and the one before).
    var segments: [Int: Segment] = [:]
    var sequences: [Int: Sequence] = [:]
    /// Warnings raised while following (a gap in the media sequence, say).
    var notes: [String] = []

    /// Whether every time kept is within media time's range (a state file read back from disk
    /// may have been edited: its numbers are not trusted).
    var isWithinLimits: Bool {
        let limit = MediaTime.limit
        return segments.values.allSatisfy { (0...limit).contains($0.start) && (0...limit).contains($0.duration) }
            && sequences.values.allSatisfy { (0...limit).contains($0.start) && abs($0.media) <= limit }
    }

    /// The media sequence number of `playlist`'s segment at `index`.
    static func number(_ playlist: MediaPlaylist, _ index: Int) -> Int { playlist.mediaSequence + index }

    /// Adds the segments of `playlist` not seen before, probing the first segment of each new
    /// discontinuity sequence with `probe`; returns their media sequence numbers.
    mutating func extend(
        with playlist: MediaPlaylist, probe: (Int) async throws(SubweaveError) -> SegmentTimeline
    ) async throws(SubweaveError) -> [Int] {
        var added: [Int] = []
        for (index, segment) in playlist.segments.enumerated() {
            let number = Self.number(playlist, index)
            if segments[number] != nil { continue }
            let start: Int64
            if let previous = segments[number - 1] {
                start = previous.end
            } else if segments.isEmpty {
                start = 0
            } else {
                // Segments were missed (a restart after the window slid past): time goes on from
                // the last one known; the gap's own durations are not known.
                let last = segments.max { $0.key < $1.key }.map { $0.value.end } ?? 0
                notes.append("segments before media sequence \(number) were not seen; times continue from \(MediaTime(ticks: last).decimalSeconds) s")
                start = last
            }
            // Every pass adds its durations to the last end: an event whose segments claim more
            // than the range of media time stops with an error, never a sum that wraps.
            guard MediaTime.checkedSum(MediaTime(ticks: start), segment.duration) != nil else {
                throw .media(
                    file: "media sequence \(number)",
                    ContainerError(
                        .malformed, offset: 0,
                        "the event's segments add up past \(MediaTime.limit / 90_000) s, the range of media time Subweave represents"))
            }
            // Probed before the segment is recorded: a segment that could not be read (gone from
            // a sliding window) is new again on the next pass.
            if sequences[segment.discontinuitySequence] == nil {
                let timeline = try await probe(index)
                sequences[segment.discontinuitySequence] = Sequence(start: start, media: timeline.start)
            }
            segments[number] = Segment(start: start, duration: segment.duration.ticks, discontinuitySequence: segment.discontinuitySequence)
            added.append(number)
        }
        // Keep what the window still names, and the segment before it (for the next start).
        if let first = segments.keys.filter({ $0 >= playlist.mediaSequence }).min() {
            segments = segments.filter { $0.key >= first - 1 }
        }
        return added
    }

    /// How segment `number`'s cues are written: `written = programme time + offset`, under `map`.
    func mapping(forSegment number: Int) -> ProgrammeTimeline.Mapping? {
        guard let segment = segments[number], let sequence = sequences[segment.discontinuitySequence] else { return nil }
        let anchor = (sequence.media + 89) / 90 * 90
        return ProgrammeTimeline.Mapping(
            offset: MediaTime(ticks: sequence.media - sequence.start), map: TimestampMap(mpegts: anchor, local: MediaTime(ticks: anchor)))
    }
}
