import Containers
import HLS
import Subweave
import TestSupport
import Testing
import Timebase
import TimedText

/// The X-TIMESTAMP-MAP arithmetic on its own, without media or ffprobe: cues are written on the
/// media timeline under an identity map, and a player that computes
/// `cue − LOCAL + (MPEGTS − first frame) + sequence start` (RFC 8216bis §3.1.4, as hls.js does)
/// lands every cue on its programme time.
struct TimestampMapArithmeticTests {
    /// A timeline of two discontinuity sequences of 6 s each, whose first frames are `first` and `second`.
    func timeline(_ first: Int64, _ second: Int64) throws -> ProgrammeTimeline {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n"
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "p")
        return ProgrammeTimeline(
            playlist: playlist,
            probes: [
                0: SegmentTimeline(container: .mpegTS, start: first, source: .video, videoLanguage: nil),
                1: SegmentTimeline(container: .mpegTS, start: second, source: .video, videoLanguage: nil),
            ])
    }

    /// Where a player shows a cue written at `written` under `map`, in sequence `sequence`.
    func shown(_ written: MediaTime, _ map: TimestampMap, _ start: ProgrammeTimeline.SequenceStart) -> MediaTime {
        written - map.local + MediaTime(ticks: PresentationTimestamp.wrappedDifference(map.mpegts, start.media.start)) + start.playlistStart
    }

    static let cases: [SourceRow<(first: Int64, second: Int64, cues: [Int64])>] = [
        SourceRow((133_200, 900_000, [0, 1_000, 5_999, 6_000, 11_000])),  // ffmpeg's 1.48 s, Apple's 10 s
        SourceRow((132_006, 126_000, [0, 2_500, 7_000])),  // a first frame between two milliseconds
        SourceRow(((1 << 33) - 45_000, 90_000_000, [0, 200, 499, 501, 5_000, 9_000])),  // the 2^33 wrap half a second in
        SourceRow((5_000, 0, [4_000, 6_500])),  // a new encode from PTS 0
    ]

    @Test func everyCueLandsOnItsProgrammeTime() throws {
        for row in Self.cases {
            let t = try timeline(row.value.first, row.value.second)
            for (index, start) in t.sequences.enumerated() {
                // The earliest cue this sequence carries: one spanning in from the previous sequence.
                let earliest = index == 0 ? MediaTime.zero : MediaTime(milliseconds: 4_000)
                let mapping = t.mapping(forSequence: index, earliestCue: earliest)
                #expect(mapping.map.local.ticks % 90 == 0, "LOCAL is a whole millisecond (line \(row.line))")
                #expect(
                    PresentationTimestamp.wrapped(mapping.map.local.ticks) == mapping.map.mpegts
                        || mapping.map.local.ticks - mapping.offset.ticks + start.playlistStart.ticks != mapping.map.mpegts,
                    "LOCAL and MPEGTS name one instant unless the sequence had to move later (line \(row.line))")
                for ms in row.value.cues where MediaTime(milliseconds: ms) >= earliest {
                    let programme = MediaTime(milliseconds: ms)
                    // What the segment holds: the time rounded to the millisecond a WebVTT timestamp can hold.
                    let written = MediaTime(milliseconds: (programme + mapping.offset).milliseconds)
                    #expect(written >= .zero, "no negative timestamp (line \(row.line))")
                    let error = shown(written, mapping.map, start) - programme
                    #expect(abs(error.ticks) <= 45, "cue at \(ms) ms shows \(error.ticks) ticks off (line \(row.line))")
                }
            }
        }
    }

    @Test func aCueBeforeTheSequencesMediaZeroMovesTheSequenceLater() throws {
        let t = try timeline(900_000, 45_000)  // the second encode starts at PTS 0.5 s, 6 s into the programme
        let mapping = t.mapping(forSequence: 1, earliestCue: MediaTime(milliseconds: 5_000))
        #expect(mapping.offset == MediaTime(ticks: 45_000 - 540_000 + 45_000))
        #expect(mapping.map.local - MediaTime(ticks: mapping.map.mpegts) == MediaTime(ticks: 45_000))
    }

    @Test func withoutSuchACueTheMapIsTheIdentity() throws {
        let t = try timeline(133_200, 900_000)
        for index in t.sequences.indices {
            let mapping = t.mapping(forSequence: index, earliestCue: nil)
            #expect(mapping.map.local.ticks == mapping.map.mpegts, "LOCAL names the same instant as MPEGTS")
        }
    }
}
