import Foundation
import TestSupport
import Testing

/// `subweave captions` on a programme whose teletext stream ffmpeg muxed beside its video.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct TeletextCommandTests {
    @Test func teletextPagesOnTheVideoTimeline() throws {
        let dir = try Scratch.make().path
        // Pages sent 1 s and 4 s after the stream starts, each cleared 2 s later.
        var stream = TeletextStream(transmissions: [
            .init(seconds: 1, rows: [(21, TeletextStream.boxedRow(Array("Bonsoir".utf8)))], national: 4),
            .init(seconds: 3, rows: [], national: 4),
            .init(seconds: 4, rows: [(21, TeletextStream.boxedRow(Array("Voil".utf8) + [0x40] + Array(" l".utf8) + [0x7B] + Array("ge".utf8)))], national: 4),
            .init(seconds: 6, rows: [], national: 4),
        ])
        stream.language = "fra"
        try Data(stream.bytes).write(to: URL(fileURLWithPath: dir + "/teletext.ts"))
        let video = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-t", "8", "-c:v", "libx264", "-f", "mpegts",
                dir + "/video.ts",
            ])
        #expect(video.status == 0, "\(video.stderr)")
        let muxed = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-copyts", "-i", dir + "/video.ts", "-i", dir + "/teletext.ts", "-map", "0:v", "-map", "1:0", "-c",
                "copy",
                "-f", "mpegts", dir + "/programme.ts",
            ])
        #expect(muxed.status == 0, "\(muxed.stderr)")
        let listed = try BuiltTool.run(["captions", dir + "/programme.ts", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let pages = try #require(json["teletext"] as? [[String: Any]])
        #expect(pages.map { $0["page"] as? String } == ["888"] && pages.first?["language"] as? String == "fra", "\(pages)")
        let cues = (pages.first?["cues"] as? [[String: Any]]) ?? []
        #expect(cues.compactMap { $0["text"] as? String } == ["Bonsoir", "Voilà lâge"], "\(cues)")  // French: 0x40 à, 0x7B â
        // On the video's timeline: each page's PES time less the video's first frame, as ffprobe
        // reads them (ffmpeg's muxer moves both; -fix_teletext_pts 0 keeps the PES's own PTS, which
        // ffmpeg otherwise replaces with the PCR's).
        let probe = try Tools.run(
            Tools.ffprobe!, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time", "-of", "csv=p=0", dir + "/programme.ts"])
        let videoStart = try #require(probe.stdout.split(separator: "\n").first.flatMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) })
        let packets = try Tools.run(
            Tools.ffprobe!,
            ["-v", "error", "-fix_teletext_pts", "0", "-select_streams", "s:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", dir + "/programme.ts"])
        let sent = packets.stdout.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))) }.map {
            $0 - videoStart
        }
        try #require(sent.count == 4, "\(packets.stdout)")
        let expected = [sent[0], sent[2]]
        let starts = cues.compactMap { $0["startTime"] as? Double }
        #expect(starts.count == 2 && zip(starts, expected).allSatisfy { abs($0 - $1) < 0.0005 }, "\(starts) against \(expected)")
        let ends = cues.compactMap { $0["endTime"] as? Double }
        #expect(ends.count == 2 && zip(ends, [sent[1], sent[3]]).allSatisfy { abs($0 - $1) < 0.0005 }, "\(ends)")
    }
}
