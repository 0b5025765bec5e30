import Foundation
import HLS
import Subweave
import TestSupport
import Testing
import Timebase
import TimedText

/// End-to-end timing on real media made by ffmpeg (Fixtures/make-fixtures.sh): every cue of every
/// output segment is placed the way hls.js places it — `cue − LOCAL + (MPEGTS − first PTS of the
/// discontinuity) / 90000 + the discontinuity's playlist start` — with the first PTS read by
/// ffprobe, and must land within one frame of the time written in the subtitle file.
@Suite(.enabled(if: Tools.ffprobe != nil, "ffprobe is not installed (apt-get install -y ffmpeg)"))
struct PackagingTimelineTests {
    /// An intended cue: start and end in seconds on the programme timeline, and its text.
    struct Intended: Sendable {
        let start: Double
        let end: Double
        let text: String
    }

    /// A media case: the fixture folder, its frame duration, and the cues to place in it.
    struct Case: Sendable, CustomTestStringConvertible {
        let folder: String
        let master: String
        let frame: Double
        let cues: [Intended]
        /// The video variant's playlist, which a player's timeline follows.
        var video = "prog.m3u8"
        var testDescription: String { "\(folder)/\(master)" }
    }

    static let cases: [Case] = [
        // B-frames and audio; 4.004 s segments; cues across both boundaries and at 0.
        Case(
            folder: "media/ts-bframes", master: "master.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 0, end: 1, text: "At zero"),
                Intended(start: 3.5, end: 4.5, text: "Across 4.004"),
                Intended(start: 7.9, end: 8.2, text: "Across 8.008"),
                Intended(start: 11.5, end: 12.0, text: "Last"),
            ]),
        Case(
            folder: "media/fmp4", master: "master.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 0.25, end: 1, text: "Early"),
                Intended(start: 3.9, end: 4.2, text: "Across 4.004"),
                Intended(start: 10, end: 11, text: "Late"),
            ]),
        // Two encodes, timestamps based at 10 s and 1000 s; the cue at 5.5-6.5 spans the discontinuity.
        Case(
            folder: "media/discontinuity", master: "master.m3u8", frame: 1.0 / 25,
            cues: [
                Intended(start: 1, end: 2.5, text: "First encode"),
                Intended(start: 5.5, end: 6.5, text: "Across the discontinuity"),
                Intended(start: 9, end: 9.5, text: "Second encode"),
                Intended(start: 11.2, end: 11.9, text: "End"),
            ]),
        // PTS wraps past 2^33 about 2.3 s in, inside the second segment.
        Case(
            folder: "media/pts-wrap", master: "master.m3u8", frame: 1.0 / 25,
            cues: [
                Intended(start: 1, end: 3, text: "Across the wrap"),
                Intended(start: 2.4, end: 2.6, text: "Just after the wrap"),
                Intended(start: 7, end: 7.9, text: "Well after"),
            ]),
        // fMP4 with HEVC B-frames, and with H.264 without B-frames (presentation = decode time).
        Case(
            folder: "media/fmp4-hevc", master: "master.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 0.1, end: 1, text: "Early"),
                Intended(start: 3.9, end: 4.2, text: "Across 4.004"),
                Intended(start: 10, end: 11, text: "Late"),
            ]),
        Case(
            folder: "media/fmp4-nob", master: "master.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 0.1, end: 1, text: "Early"),
                Intended(start: 3.9, end: 4.2, text: "Across 4.004"),
            ]),
        // A demuxed ladder whose first variant is audio-only: the subtitles follow the video (p1).
        Case(
            folder: "media/audio-first", master: "master.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 0.5, end: 1, text: "Early"),
                Intended(start: 3.9, end: 4.2, text: "Across 4.004"),
            ], video: "p1.m3u8"),
        // The vendor-style master (CRLF, I-frames, audio group, existing subtitle group) on the TS media.
        Case(
            folder: "media/ts-bframes", master: "complex.m3u8", frame: 1001.0 / 30000,
            cues: [
                Intended(start: 2, end: 6, text: "Long, across 4.004"),
                Intended(start: 6.5, end: 7, text: "Short"),
            ]),
    ]

    @Test(arguments: cases)
    func cuesLandOnTheirFrame(_ testCase: Case) async throws {
        let folder = try Fixtures.copy(testCase.folder)
        let master = folder + "/" + testCase.master
        // The same cues as SRT and as WebVTT, so both ingest paths are timed.
        let srt = SubtitleText.srt(testCase.cues.map { ($0.start, $0.end, $0.text) })
        let vtt = SubtitleText.vtt(testCase.cues.map { ($0.start, $0.end, $0.text) })
        try srt.write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        try vtt.write(toFile: folder + "/fr.vtt", atomically: true, encoding: .utf8)
        let tracks = try SubtitleTrack.register([
            TrackDescriptor(parsing: "url=\(folder)/en.srt,language=en", origin: "en"),
            TrackDescriptor(parsing: "url=\(folder)/fr.vtt,language=fr", origin: "fr"),
        ])
        let result = try await Packager().run(master: URL(fileURLWithPath: master), PackageRequest(tracks: tracks))

        let reference = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + testCase.video))), source: testCase.video)
        #expect(result.report.referencePlaylist.hasSuffix("/" + testCase.video), "the timeline follows the video variant: \(result.report.referenceReason)")
        // First PTS of each discontinuity sequence, read independently of Subweave.
        var firstPTS: [Int: Int64] = [:]
        for (index, segment) in reference.segments.enumerated() where index == 0 || segment.discontinuity {
            firstPTS[segment.discontinuitySequence] = try Tools.firstFrame(
                segment: folder + "/" + segment.uri,
                initialization: segment.map.map { folder + "/" + $0.uri })
        }
        for track in result.report.tracks {
            let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + track.playlist))), source: track.playlist)
            #expect(playlist.segments.count == reference.segments.count)
            #expect(playlist.segments.map(\.durationText) == reference.segments.map(\.durationText))
            #expect(playlist.segments.map(\.discontinuity) == reference.segments.map(\.discontinuity))
            #expect(playlist.targetDuration == reference.targetDuration)
            #expect(playlist.hasEndList == reference.hasEndList)
            let trackFolder = URL(fileURLWithPath: folder + "/" + track.playlist).deletingLastPathComponent().path
            var blocks: [String: String] = [:]
            var identifiers: [String: String] = [:]
            for (index, (segment, videoSegment)) in zip(playlist.segments, reference.segments).enumerated() {
                let text = try String(contentsOfFile: trackFolder + "/" + segment.uri, encoding: .utf8)
                #expect(text.hasPrefix("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:"), "segment \(index) must start with WEBVTT then the map")
                let sequenceStart = reference.segments.first { $0.discontinuitySequence == videoSegment.discontinuitySequence }!.start.seconds
                let placed = PlayerClock.place(segment: text, firstPTS: firstPTS[videoSegment.discontinuitySequence]!, sequenceStart: sequenceStart)
                #expect(placed.map != nil)
                let windowStart = videoSegment.start.seconds, windowEnd = windowStart + videoSegment.duration.seconds
                let expected = testCase.cues.filter { $0.start < windowEnd && $0.end > windowStart }
                #expect(placed.cues.map(\.text) == expected.map(\.text), "segment \(index) of \(track.identity)")
                for (cue, intended) in zip(placed.cues, expected) {
                    #expect(
                        abs(cue.start - intended.start) <= testCase.frame,
                        "\(track.identity) segment \(index): \"\(cue.text)\" shows at \(cue.start) s, intended \(intended.start) s")
                    #expect(abs(cue.end - intended.end) <= testCase.frame)
                    // Repeats within a discontinuity sequence are byte-identical; across one, the
                    // times are on the new sequence's media timeline and the identifier is the same.
                    let key = "\(videoSegment.discontinuitySequence) \(cue.text)"
                    if let earlier = blocks[key] {
                        #expect(earlier == cue.block, "a repeated cue must be byte-identical")
                    }
                    blocks[key] = cue.block
                    if let id = cue.identifier {
                        if let earlier = identifiers[cue.text] { #expect(earlier == id, "a repeated cue keeps its identifier") }
                        identifiers[cue.text] = id
                    }
                }
            }
        }
    }
}

/// Cues against the programme's end: those that start at or after it are left out; once the
/// video playlist has ended, those that run past it end with it.
struct ProgrammeEndTests {
    static func cue(_ start: Int64, _ end: Int64, _ text: String) -> Cue {
        Cue(start: MediaTime(seconds: start), end: MediaTime(seconds: end), text: text)
    }

    @Test func cuesAfterTheEndGoAndCuesPastItAreCut() {
        let cues = [Self.cue(0, 1, "a"), Self.cue(5, 12, "b"), Self.cue(10, 11, "c"), Self.cue(3, 4, "d")]
        let ended = RenditionPlanner.fitted(cues, to: MediaTime(seconds: 10), clampingEnds: true)
        #expect(ended.map(\.text) == ["a", "b", "d"])
        #expect(ended.map(\.end) == [MediaTime(seconds: 1), MediaTime(seconds: 10), MediaTime(seconds: 4)])
        let growing = RenditionPlanner.fitted(cues, to: MediaTime(seconds: 10), clampingEnds: false)
        #expect(growing.map(\.text) == ["a", "b", "d"])
        #expect(growing[1].end == MediaTime(seconds: 12), "a live playlist may still grow past the cue")
    }

    @Test func cuesWithinTheProgrammeAreKeptAsTheyAre() {
        let cues = [Self.cue(0, 1, "a"), Self.cue(5, 10, "b")]
        #expect(RenditionPlanner.fitted(cues, to: MediaTime(seconds: 10), clampingEnds: true) == cues)
    }
}
