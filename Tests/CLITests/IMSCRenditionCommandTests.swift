import Foundation
import TestSupport
import Testing

/// `--text-format imsc1`: IMSC1 in fragmented MP4, read back by peers that share nothing with
/// Subweave's writer (ffprobe for the boxes, ttconv for each sample's TTML).
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct IMSCRenditionCommandTests {
    static let srt = """
        1
        00:00:01,000 --> 00:00:02,500
        Hello <i>world</i> & co

        2
        00:00:03,500 --> 00:00:05,000
        {\\an8}Two
        lines

        """

    static func packaged() throws -> (dir: String, generation: String) {
        let dir = try Fixtures.copyExample()
        try srt.write(toFile: dir + "/subs/en.srt", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--text-format", "imsc1",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let base = dir + "/subtitles/en-en"
        let generation = try #require(try FileManager.default.contentsOfDirectory(atPath: base).first { !$0.hasPrefix(".") })
        return (dir, base + "/" + generation)
    }

    @Test func theRenditionIsCMAFWithAMapAndTheVariantsNameItsCodec() throws {
        let (dir, generation) = try Self.packaged()
        let names = try FileManager.default.contentsOfDirectory(atPath: generation).sorted()
        #expect(names.contains("init.mp4") && names.contains("00000.m4s") && !names.contains { $0.hasSuffix(".vtt") && $0 != "cues.vtt" }, "\(names)")
        let playlist = try String(contentsOfFile: generation + "/index.m3u8", encoding: .utf8)
        #expect(playlist.contains("#EXT-X-VERSION:6\n"), "\(playlist)")
        #expect(playlist.contains("#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF"), "\(playlist)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        for line in master.split(separator: "\n") where line.hasPrefix("#EXT-X-STREAM-INF") {
            #expect(line.contains(",stpp.ttml.im1t\""), "\(line)")
        }
        // Our own validator, after package and after refresh (the format is kept).
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)
        let refresh = try BuiltTool.run(["refresh", dir + "/master.m3u8"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let after = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(after == master, "a refresh with nothing changed writes the same master")
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)
    }

    /// The format is said, and unsaid, in the master too: back to WebVTT, the variants no longer
    /// name stpp; with every rendition gone, neither.
    @Test func switchingBackOrRemovingEverythingTakesTheCodecOut() throws {
        let (dir, _) = try Self.packaged()
        let master = dir + "/master.m3u8"
        let back = try BuiltTool.run(["package", master, "--text-format", "webvtt"])
        #expect(back.status == 0, "\(back.stderr)")
        var text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(!text.contains("stpp") && text.contains("CODECS=\"avc1.4d4015,mp4a.40.2\""), "\(text)")
        // The generation the master names now (the IMSC1 one stays until it is retired).
        let uri = try #require(text.split(separator: "\"").first { $0.hasPrefix("subtitles/en-en/") }, "\(text)")
        #expect(FileManager.default.fileExists(atPath: dir + "/" + uri.replacingOccurrences(of: "index.m3u8", with: "00000.vtt")), "\(uri)")
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        #expect(try BuiltTool.run(["package", master, "--text-format", "imsc1"]).status == 0)
        #expect(try String(contentsOfFile: master, encoding: .utf8).contains(",stpp.ttml.im1t\""))
        let removed = try BuiltTool.run(["remove", master, "--id", "en"])
        #expect(removed.status == 0, "\(removed.stderr)")
        text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(!text.contains("stpp"), "\(text)")
        #expect(try BuiltTool.run(["validate", master]).status == 0)
    }

    /// A cue across a discontinuity into a sequence that starts near media time 0.
    ///
    /// A WebVTT map shifts that sequence (players cancel it with LOCAL); TTML's absolute times must
    /// not take the shift. Each sequence shows its own part of the cue: the second from its first frame.
    @Test(.enabled(if: Tools.ffprobe != nil, "ffprobe is missing"))
    func aCueBeforeMediaTimeZeroIsNotShifted() throws {
        let site = try Fixtures.copy("media/fmp4")
        let playlist = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:4.004000,
            seg_000.m4s
            #EXTINF:4.004000,
            seg_001.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:4.004000,
            seg_000.m4s
            #EXT-X-ENDLIST

            """
        try playlist.write(toFile: site + "/prog.m3u8", atomically: true, encoding: .utf8)
        try "1\n00:00:07,500 --> 00:00:09,000\nAcross the discontinuity\n".write(toFile: site + "/en.srt", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", site + "/master.m3u8", "--subtitle", "url=\(site)/en.srt,language=en", "--text-format", "imsc1"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let master = try String(contentsOfFile: site + "/master.m3u8", encoding: .utf8)
        let uri = try #require(master.split(separator: "\"").first { $0.hasPrefix("subtitles/en-en/") })
        let generation = site + "/" + uri.replacingOccurrences(of: "/index.m3u8", with: "")
        let fragment = try [UInt8](Data(contentsOf: URL(fileURLWithPath: generation + "/00002.m4s")))
        let text = String(decoding: fragment, as: UTF8.self)
        // The second sequence's first frame, on the 90 kHz clock (its tfdt starts at 0).
        let base = try Tools.firstFrame(segment: site + "/seg_000.m4s", initialization: site + "/init.mp4")
        let endMilliseconds = Int((Double(base) / 90 + (9.0 - 8.008) * 1000).rounded())
        let end = String(format: "00:00:%02d.%03d", endMilliseconds / 1000, endMilliseconds % 1000)
        let begin = String(format: "00:00:00.%03d", Int((Double(base) / 90).rounded()))
        #expect(text.contains("begin=\"\(begin)\" end=\"\(end)\""), "expected \(begin)-\(end) (first frame \(base)): \(text)")
        // The first sequence's part ends at the discontinuity (8.008 s on the first frame's clock).
        let before = String(decoding: try Data(contentsOf: URL(fileURLWithPath: generation + "/00001.m4s")), as: UTF8.self)
        #expect(before.contains("end=\"00:00:08.\(String(format: "%03d", (Int((Double(base) / 90).rounded()) + 8)))\""), "\(before)")
        #expect(try BuiltTool.run(["validate", site + "/master.m3u8"]).status == 0)
    }

    @Test(.enabled(if: Tools.ffprobe != nil, "ffprobe is missing"))
    func ffprobeReadsTheTrackAndItsSamplesOnTheVideosTimeline() throws {
        let (dir, generation) = try Self.packaged()
        // Initialisation segment and the first two fragments, as a player appends them.
        var joined = try Data(contentsOf: URL(fileURLWithPath: generation + "/init.mp4"))
        for n in 0..<2 { joined += try Data(contentsOf: URL(fileURLWithPath: generation + String(format: "/%05d.m4s", n))) }
        let file = generation + "/joined.mp4"
        try joined.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let ffprobe = try #require(Tools.ffprobe)
        let streams = try Tools.run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_tag_string,codec_type:stream_tags=language", "-of", "json", file])
        #expect(streams.status == 0, "\(streams.stderr)")
        // ffmpeg 5.1 reads an stpp track (its own muxer's too) as data, not yet as TTML subtitles.
        #expect(streams.stdout.contains("\"codec_tag_string\": \"stpp\""), "\(streams.stdout)")
        #expect(streams.stdout.contains("\"language\": \"eng\""), "\(streams.stdout)")
        let packets = try Tools.run(ffprobe, ["-v", "error", "-show_entries", "packet=pts", "-of", "csv=p=0", file])
        // Each fragment's tfdt: the video's first frame (MPEGTS 133200 in the example) plus the segment's start (2 s each).
        #expect(packets.stdout.split(separator: "\n").map(String.init) == ["133200", "313200"], "\(packets.stdout)")
        _ = dir
    }

    @Test(.enabled(if: Tools.which("python3") != nil, "python3 is missing"))
    func ttconvReadsEachSampleBackWithItsTextAndTimes() throws {
        let (_, generation) = try Self.packaged()
        let script = """
            import sys, struct, xml.etree.ElementTree as et
            from ttconv.imsc import reader
            def mdat(data):
                i = 0
                while i < len(data):
                    size, kind = struct.unpack(">I4s", data[i:i+8])
                    if kind == b"mdat": return data[i+8:i+size]
                    i += size
            for path in sys.argv[1:]:
                doc = reader.to_model(et.ElementTree(et.fromstring(mdat(open(path, "rb").read()))))
                for p in doc.get_body().dfs_iterator():
                    if type(p).__name__ == "P":
                        text = "".join(s.get_text() if type(s).__name__ == "Text" else "" for s in p.dfs_iterator())
                        br = sum(1 for s in p.dfs_iterator() if type(s).__name__ == "Br")
                        print(f"{path[-9:]}|{float(p.get_begin()):.3f}|{float(p.get_end()):.3f}|{text}|{br}")
            """
        let paths = (0..<3).map { generation + String(format: "/%05d.m4s", $0) }
        let out = try Tools.run("/usr/bin/env", ["python3", "-c", script] + paths)
        guard !out.stderr.contains("No module named 'ttconv'") else { return }
        #expect(out.status == 0, "\(out.stderr)")
        // Media time: programme time + 1.48 s (the example's first frame, MPEGTS 133200).
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("00000.m4s|2.480|3.980|Hello world & co|0"), "\(lines)")
        #expect(lines.contains("00001.m4s|2.480|3.980|Hello world & co|0"), "a cue across a boundary is in both segments: \(lines)")
        #expect(lines.contains("00002.m4s|4.980|6.480|Twolines|1"), "\(lines)")
    }

    static let styledTTML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="ja">
        <head><layout><region xml:id="v" tts:origin="80% 10%" tts:extent="15% 80%" tts:writingMode="tbrl"/></layout></head>
        <body region="v"><div><p begin="1s" end="3s"><span tts:color="#123456" tts:fontFamily="Arial">縦書き</span></p></div></body></tt>
        """

    /// The TTML document each IMSC1 segment of `generation` carries.
    static func documents(_ generation: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: generation).filter { $0.hasSuffix(".m4s") }.sorted().map { name in
            let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: generation + "/" + name)))
            var i = 0
            while i + 8 <= data.count {
                let size = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
                if data[(i + 4)..<(i + 8)].elementsEqual(Array("mdat".utf8)) { return String(decoding: data[(i + 8)..<(i + size)], as: UTF8.self) }
                guard size >= 8 else { break }
                i += size
            }
            return ""
        }
    }

    /// A TTML delivery's colour, font and vertical region: said as left out of WebVTT, kept in
    /// IMSC1, and still kept when the format changes on a later run that reads the cues kept
    /// beside the rendition (the track not given again); `validate` is clean after every step.
    @Test func aTTMLSourcesStylesSurviveEveryCommand() throws {
        let dir = try Fixtures.copyExample()
        try Self.styledTTML.write(toFile: dir + "/subs/ja.ttml", atomically: true, encoding: .utf8)
        let master = dir + "/master.m3u8"
        let first = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/ja.ttml,language=ja"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            (first.stdout + first.stderr).contains("WebVTT segments do not carry the source's colour #123456, font family"), "\(first.stdout)")
        func generation() throws -> String {
            let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
            let uri = try #require(master.split(separator: "\n").first { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }?.split(separator: "\"")[1])
            return dir + "/" + uri.dropLast("/index.m3u8".count)
        }
        let webVTT = try String(contentsOfFile: try generation() + "/00000.vtt", encoding: .utf8)
        #expect(webVTT.contains("vertical:rl line:10%,start position:87.5%,center size:15%\n縦書き\n"), "\(webVTT)")
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        for step in [["package", master, "--text-format", "imsc1"], ["refresh", master]] {
            let run = try BuiltTool.run(step)
            #expect(run.status == 0, "\(step): \(run.stderr)")
            let documents = try Self.documents(try generation())
            let shown = documents.filter { $0.contains("縦書き") }
            #expect(!shown.isEmpty, "\(step): \(documents)")
            for document in shown {
                #expect(
                    document.contains("tts:origin=\"80% 10%\" tts:extent=\"15% 80%\" tts:displayAlign=\"before\" tts:writingMode=\"tbrl\""),
                    "\(step): \(document)")
                #expect(document.contains("<span tts:color=\"#123456\" tts:fontFamily=\"Arial\">縦書き</span>"), "\(step): \(document)")
            }
            let validate = try BuiltTool.run(["validate", master])
            #expect(validate.status == 0, "\(step): \(validate.stdout)")
        }
        let back = try BuiltTool.run(["package", master, "--text-format", "webvtt"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try String(contentsOfFile: try generation() + "/00000.vtt", encoding: .utf8) == webVTT, "back to WebVTT, the same segment")
        #expect(try BuiltTool.run(["validate", master]).status == 0)
    }
}
