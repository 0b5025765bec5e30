import Foundation
import HLS
import Sync
import Timebase
import TimedText

/// A presentation at a glance: its segments, the speech in its sound (when it was listened to),
/// a lane per subtitle and caption rendition with its cues, and what is wrong where.
///
/// ``Presentation/overview(listening:)`` makes it; the `report` command draws it as a page.
public struct ProgrammeOverview: Sendable {
    /// Something a lane shows that a person should look at, and where.
    public struct Finding: Sendable, Equatable {
        public enum Kind: String, Sendable {
            /// Cues that start or run past the end of the programme (not shown).
            case pastEnd = "past-end"
            /// A long stretch without a cue (while the programme speaks, when it was listened to).
            case longGap = "long-gap"
            /// A segment in which no cue shows.
            case emptySegment = "empty-segment"
            /// The lane's cues are off the speech (``SyncFinding``).
            case outOfSync = "out-of-sync"
            /// The lane's cues fit no part of the speech.
            case noMatch = "no-match"
        }

        public let kind: Kind
        public let start: MediaTime
        public let end: MediaTime
        public let text: String
    }

    /// A rendition's row.
    public struct Lane: Sendable {
        public let identity: String
        public let name: String
        public let language: String?
        /// `subtitles` or `captions`.
        public let kind: String
        /// Programme time.
        public let cues: [Range<MediaTime>]
        public var findings: [Finding]
        /// What the sync check said, when the sound was listened to.
        public var sync: SyncFinding?
        /// Why the cues could not be drawn, if so.
        public var note: String?
    }

    public let master: String
    public let duration: MediaTime
    /// The reference variant's segments on the programme timeline.
    public let segments: [Range<MediaTime>]
    /// Where the sound is speech; nil when it was not listened to.
    public let speech: [Range<MediaTime>]?
    public var lanes: [Lane]

    /// A gap without a cue this long is a finding.
    public static let longGap = MediaTime(seconds: 60)

    /// The findings of `cues` on a programme of `duration` in `segments`, with `speech` if known.
    static func findings(_ cues: [Range<MediaTime>], duration: MediaTime, segments: [Range<MediaTime>], speech: [Range<MediaTime>]?) -> [Finding] {
        var found: [Finding] = []
        let late = cues.filter { $0.upperBound > duration + ProgrammeTimeline.frameTolerance }
        if let first = late.first {
            found.append(
                Finding(
                    kind: .pastEnd, start: min(first.lowerBound, duration), end: max(duration, late.map(\.upperBound).max() ?? duration),
                    text: "\(late.count.counted("cue")) past the end of the programme (\(duration.decimalSeconds) s), from \(first.lowerBound.decimalSeconds) s"
                ))
        }
        var previousEnd = MediaTime.zero
        for cue in cues.sorted(by: { $0.lowerBound < $1.lowerBound }) + [max(duration, .zero)..<max(duration, .zero)] {
            let gapEnd = min(cue.lowerBound, duration)
            if gapEnd - previousEnd >= longGap {
                let gap = previousEnd..<gapEnd
                let spoken = speech.map { Self.overlap($0, gap) }
                if spoken.map({ ($0.seconds / (gap.upperBound - gap.lowerBound).seconds) > 0.2 }) ?? true {
                    let what = spoken.map { ", while the programme speaks for \(Int($0.seconds.rounded())) s of it" } ?? ""
                    found.append(
                        Finding(
                            kind: .longGap, start: gap.lowerBound, end: gap.upperBound,
                            text: "no cue for \(Int((gap.upperBound - gap.lowerBound).seconds.rounded())) s from \(gap.lowerBound.decimalSeconds) s\(what)"))
                }
            }
            previousEnd = max(previousEnd, cue.upperBound)
        }
        for segment in segments where !cues.contains(where: { $0.lowerBound < segment.upperBound && $0.upperBound > segment.lowerBound }) {
            found.append(
                Finding(
                    kind: .emptySegment, start: segment.lowerBound, end: segment.upperBound,
                    text: "no cue in the segment at \(segment.lowerBound.decimalSeconds) s"))
        }
        return found
    }

    static func overlap(_ ranges: [Range<MediaTime>], _ window: Range<MediaTime>) -> MediaTime {
        ranges.reduce(MediaTime.zero) { sum, r in
            let from = max(r.lowerBound, window.lowerBound), to = min(r.upperBound, window.upperBound)
            return to > from ? sum + (to - from) : sum
        }
    }

    /// The findings a sync check adds to a lane.
    static func findings(_ sync: SyncFinding, duration: MediaTime) -> [Finding] {
        switch sync.verdict {
        case .inSync: return []
        case .noMatch: return [Finding(kind: .noMatch, start: .zero, end: duration, text: "the cues fit no part of the programme's speech")]
        case .ambiguous: return [Finding(kind: .outOfSync, start: .zero, end: duration, text: sync.measure)]
        case .offset, .rate, .rateAndOffset, .partial:
            let end = sync.lead(at: duration.seconds).map { String(format: "; %.2f s %@ by the end", abs($0), $0 > 0 ? "late" : "early") } ?? ""
            return [Finding(kind: .outOfSync, start: .zero, end: duration, text: sync.measure + end)]
        }
    }
}
