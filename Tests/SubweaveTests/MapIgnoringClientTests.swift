import Foundation
import HLS
import Subweave
import TestSupport
import Testing
import Timebase

/// Clients that ignore X-TIMESTAMP-MAP (ffmpeg's HLS demuxer, some TV players) take cue times as
/// media times.
///
/// Subweave writes cues on the media timeline with an identity map, so ffmpeg — run
/// here as that client — puts each cue on its frame too, across a discontinuity as well.
@Suite(.enabled(if: Tools.ffprobe != nil, "ffprobe is not installed (apt-get install -y ffmpeg)"))
struct MapIgnoringClientTests {
    @Test(arguments: ["media/ts-bframes", "media/discontinuity"])
    func ffmpegPlacesCuesOnTheirFrame(_ fixture: String) async throws {
        let folder = try Fixtures.copy(fixture)
        let intended: [(Double, Double, String)] = [(1, 2.5, "First"), (9, 9.5, "Later")]
        try SubtitleText.srt(intended).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let tracks = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(folder)/en.srt,language=en", origin: "en")])
        try await Packager().run(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: tracks, captions: .off))

        let ffprobe = try #require(Tools.ffprobe)
        let outcome = try Tools.run(
            ffprobe,
            [
                "-v", "error", "-strict", "experimental", "-i", folder + "/master.m3u8",
                "-show_entries", "packet=stream_index,pts_time:stream=index,codec_type", "-of", "csv=p=0",
            ])
        let subtitleIndex = try #require(outcome.stdout.split(separator: "\n").first { $0.hasSuffix(",subtitle") }?.split(separator: ",").first)
        let shown = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix(subtitleIndex + ",") }
            .compactMap { Double($0.split(separator: ",")[1]) }.sorted()
        #expect(shown.count == intended.count, "\(outcome.stdout.prefix(400))")
        // Where each cue belongs: the first frame of its discontinuity sequence (ffmpeg passes PTS
        // through) plus its time into the sequence.
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "prog")
        for (time, cue) in zip(shown, intended) {
            let segment = playlist.segments.last { $0.start.seconds <= cue.0 } ?? playlist.segments[0]
            let first = try #require(playlist.segments.first { $0.discontinuitySequence == segment.discontinuitySequence })
            let firstPTS = Double(try #require(try Tools.lowestVideoPTS(folder + "/" + first.uri))) / 90000
            let expected = firstPTS + cue.0 - first.start.seconds
            #expect(abs(time - expected) < 0.002, "\"\(cue.2)\": ffmpeg shows it at \(time) s, its frame is at \(expected) s")
        }
    }
}

/// Which variant the timeline follows, and what a run says when variants disagree.
struct ReferenceVariantTests {
    @Test func audioOnlyFirstVariantIsPassedOver() async throws {
        let folder = try Fixtures.copy("media/audio-first")
        let presentation = try await Presentation(master: URL(fileURLWithPath: folder + "/master.m3u8"))
        #expect(presentation.reference.index == 1)
        #expect(presentation.reference.reason.contains("video"), "\(presentation.reference.reason)")
        #expect(presentation.timeline.sequences.first?.media.source == .video)
    }

    @Test func variantsStartingApartAreReported() async throws {
        let root = try Scratch.make().path
        try FileManager.default.copyItem(atPath: Fixtures.path("media/ts-bframes"), toPath: root + "/a")
        try FileManager.default.copyItem(atPath: Fixtures.path("media/discontinuity"), toPath: root + "/b")
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2,RESOLUTION=320x180\na/prog.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1,RESOLUTION=320x180\nb/prog.m3u8\n"
            .write(toFile: root + "/master.m3u8", atomically: true, encoding: .utf8)
        let presentation = try await Presentation(master: URL(fileURLWithPath: root + "/master.m3u8"))
        #expect(presentation.reference.index == 0)
        let warning = try #require(presentation.warnings.first { $0.code == .variantsDisagree })
        // The difference as ffprobe reads the two first segments.
        if let a = try Tools.lowestVideoPTS(root + "/a/seg_000.ts"), let b = try Tools.lowestVideoPTS(root + "/b/a_000.ts") {
            let difference = MediaTime(ticks: b - a).decimalSeconds
            #expect(warning.message.contains("variant 2") && warning.message.contains("\(difference) s"), "\(warning.message)")
        }
    }
}
