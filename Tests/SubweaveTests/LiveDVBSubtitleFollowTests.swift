import Foundation
import HLS
import Subweave
import TestSupport
import Testing

/// DVB subtitles beside the video of a live stream: `--follow` reads each picture by OCR once,
/// as its segment is published, and its rendition holds each cue from the picture's PTS to
/// the page that ends it.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: BitmapSubtitles.missingTools.isEmpty && Tools.which("tesseract") != nil, "spumux, tesseract, ffmpeg or the DejaVu font is missing"))
struct LiveDVBSubtitleFollowTests {
    @Test func followsDVBSubtitles() async throws {
        let cues: [(Double, Double, String)] = [(1, 3.5, "Live from the harbour."), (5.2, 7, "The tide is turning."), (9, 11.5, "Stay with us.")]
        let made = try Scratch.make().path
        _ = try BitmapSubtitles.dvbTitle([.init(language: "eng", cues: cues)], folder: made, segment: 2)
        let vod = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: made + "/video.m3u8"))), source: "video.m3u8")
        // The live folder: the master now, the segments published one by one (two a second).
        let folder = try Scratch.make().path
        try FileManager.default.copyItem(atPath: made + "/master.m3u8", toPath: folder + "/master.m3u8")
        func publish(_ count: Int, ended: Bool) throws {
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(vod.targetDuration)\n#EXT-X-MEDIA-SEQUENCE:0\n"
            for segment in vod.segments.prefix(count) {
                if !FileManager.default.fileExists(atPath: folder + "/" + segment.uri) {
                    try FileManager.default.copyItem(atPath: made + "/" + segment.uri, toPath: folder + "/" + segment.uri)
                }
                text += "#EXTINF:\(segment.duration.seconds),\n\(segment.uri)\n"
            }
            if ended { text += "#EXT-X-ENDLIST\n" }
            try text.write(toFile: folder + "/video.m3u8", atomically: true, encoding: .utf8)
        }
        try publish(1, ended: false)
        let publisher = Task {
            for count in 2...vod.segments.count {
                try await Task.sleep(nanoseconds: 500_000_000)
                try publish(count, ended: count == vod.segments.count)
            }
        }
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 30
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: []))
        try await publisher.value
        #expect(report.reason == "ended")
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"LANGUAGE="en",NAME="English (DVB0101)""#) && !master.contains("CHARACTERISTICS"), "\(master)")
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/dvb0101")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        #expect(subtitles.hasEndList && subtitles.segments.count == vod.segments.count)
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/" + vod.segments[0].uri))
        var spans: [String: (Double, Double)] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues {
                let old = spans[cue.text]
                spans[cue.text] = (min(old?.0 ?? cue.start, cue.start), max(old?.1 ?? cue.end, cue.end))
            }
        }
        // Each cue read right, on its frame (40 ms), across the segments it spans.
        for (start, end, text) in cues {
            let span = try #require(spans[text], "\(text) not in \(spans)")
            #expect(abs(span.0 - start) <= 0.04 && abs(span.1 - end) <= 0.04, "\(text): \(span)")
        }
        #expect(spans.count == cues.count, "\(spans)")
        let validate = try Tools.run(try #require(BuiltTool.subweave), ["validate", folder + "/master.m3u8"])
        #expect(validate.status == 0 && (validate.stdout + validate.stderr).contains("0 errors, 0 warnings"), "\(validate.stdout)\(validate.stderr)")
    }
}
