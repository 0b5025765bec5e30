import Foundation
import Subweave
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
        let pages = try #require(json["services"] as? [[String: Any]]).filter { $0["kind"] as? String == "teletext" }
        #expect(pages.map { $0["service"] as? String } == ["888"] && pages.first?["language"] as? String == "fr", "\(pages)")
        #expect(pages.first?["language_source"] as? String == "teletext_descriptor")
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

/// Teletext subtitle pages published as subtitle renditions, through the commands that keep them.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct TeletextRenditionCommandTests {
    /// Page 888 (announced, German) and page 889 (the subtitle bit only, no language), in a
    /// 10-second title of 2-second segments.
    static func title() throws -> String {
        let folder = try Scratch.make().path
        var stream = TeletextStream(transmissions: [
            .init(seconds: 1, rows: [(21, TeletextStream.boxedRow(Array("Guten Abend".utf8)))], national: 1),
            .init(seconds: 1.5, page: 0x89, rows: [(22, TeletextStream.boxedRow(Array("Bonsoir".utf8)))], national: 4),
            .init(seconds: 3, rows: [], national: 1),
            .init(seconds: 3.5, page: 0x89, rows: [], national: 4),
            .init(seconds: 4.5, rows: [(21, TeletextStream.boxedRow(Array("Gr".utf8) + [0x7D] + Array("n".utf8)))], national: 1),
            .init(seconds: 7, rows: [], national: 1),
        ])
        stream.language = "deu"
        _ = try TeletextProgramme.make(stream, seconds: 10, folder: folder)
        return folder
    }

    /// Every page a rendition on the video's timeline (each cue where its PES's PTS puts it, as
    /// ffprobe reads the segments), named and in the language the descriptor or the operator
    /// gives; never declared in-band; kept by refresh, by an in-band run, and removed for good.
    @Test func pagesBecomeRenditionsAndStay() throws {
        let folder = try Self.title()
        let master = folder + "/master.m3u8"
        let run = try BuiltTool.run(["package", master, "--caption-service", "889:language=fr,name=Français", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        #expect(tracks.map { $0["identity"] as? String } == ["teletext:888", "teletext:889"], "\(tracks)")
        #expect(tracks.map { $0["language"] as? String } == ["de", "fr"])
        #expect(tracks.map { $0["ingest_format"] as? String } == ["teletext", "teletext"])
        let captions = try #require(report["captions"] as? [[String: Any]])
        #expect(captions.first?["language_source"] as? String == "teletext_descriptor", "\(captions)")
        var text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(text.contains(#"LANGUAGE="de",NAME="German (888)""#), "\(text)")
        #expect(text.contains(#"LANGUAGE="fr",NAME="Français""#), "\(text)")
        #expect(text.contains("CLOSED-CAPTIONS=NONE") && !text.contains("INSTREAM-ID"), "\(text)")

        // On the video's timeline, to the PES: each page from the PTS of the PES that sends it.
        let segments = (0..<5).map { String(format: "%@/v%03d.ts", folder, $0) }
        let firstPTS = try #require(try Tools.lowestVideoPTS(segments[0]))
        let sent = try TeletextProgramme.pagePTS(segments).map { Double($0 - firstPTS) / 90_000 }
        try #require(sent.count == 6, "\(sent)")
        for (page, expected) in [("888", [("Guten Abend", sent[0], sent[2]), ("Grün", sent[4], sent[5])]), ("889", [("Bonsoir", sent[1], sent[3])])] {
            let generation = try Packaged.generation(master: master, folder: "captions/teletext-\(page)")
            var spans: [String: (Double, Double)] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: generation).filter({ $0.hasSuffix(".vtt") && $0 != "cues.vtt" }) {
                let vtt = try String(contentsOfFile: generation + "/" + name, encoding: .utf8)
                for cue in PlayerClock.place(segment: vtt, firstPTS: firstPTS, sequenceStart: 0).cues {
                    let old = spans[cue.text]
                    spans[cue.text] = (min(old?.0 ?? cue.start, cue.start), max(old?.1 ?? cue.end, cue.end))
                }
            }
            #expect(spans.count == expected.count, "\(page): \(spans)")
            for (words, start, end) in expected {
                let span = try #require(spans[words], "\(page): \(spans)")
                #expect(abs(span.0 - start) < 0.0011 && abs(span.1 - end) < 0.0011, "\(words): \(span) against \(start)-\(end)")
            }
        }
        let validate = try BuiltTool.run(["validate", master])
        #expect(validate.status == 0 && validate.stderr.contains("0 errors, 0 warnings"), "\(validate.stdout)\(validate.stderr)")

        // A plain refresh keeps what the operator said; an in-band run keeps the pages as
        // renditions (HLS cannot declare teletext in-band).
        let refresh = try BuiltTool.run(["refresh", master])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let inBand = try BuiltTool.run(["package", master, "--closed-captions", "in-band"])
        #expect(inBand.status == 0, "\(inBand.stderr)")
        text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(text.contains(#"NAME="Français""#) && text.contains("captions/teletext-888/") && !text.contains("INSTREAM-ID"), "\(text)")
        let listed = try BuiltTool.run(["list", master, "--json"])
        #expect(listed.stdout.contains("\"teletext:888\"") && listed.stdout.contains("\"teletext:889\""), "\(listed.stdout)")

        // Removed by its page number, and not brought back by a refresh.
        let removed = try BuiltTool.run(["remove", master, "--id", "889"])
        #expect(removed.status == 0, "\(removed.stderr)")
        _ = try BuiltTool.run(["refresh", master])
        text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(!text.contains("teletext-889") && text.contains("teletext-888"), "\(text)")
        let after = try BuiltTool.run(["validate", master])
        #expect(after.status == 0 && after.stderr.contains("0 errors, 0 warnings"), "\(after.stdout)\(after.stderr)")
    }

    /// A catalogue line names a page as it names CC1; a number that is no page is refused.
    @Test func aCatalogueNamesPages() {
        let text = """
            {"master": "a/master.m3u8", "tracks": [], "caption_services": {"888": {"language": "de", "name": "Untertitel"}}}
            {"master": "b/master.m3u8", "tracks": [], "caption_services": {"988": {"language": "de"}}}

            """
        let titles = Catalogue.titles(text, path: "/tmp/c.jsonl")
        guard case .success(let first)? = titles.first, case .failure(let second)? = titles.last, titles.count == 2 else {
            Issue.record("\(titles)")
            return
        }
        #expect(first.request.captionServices["888"]?.name == "Untertitel" && first.request.captionServices["888"]?.language?.description == "de")
        #expect(second.line == 2 && second.reason.contains("a teletext page such as 888"), "\(second)")
    }

    /// A page number that cannot be one is refused, saying what a service may be.
    @Test func aPageNumberIsCheckedLikeAService() throws {
        let folder = try Self.title()
        let bad = try BuiltTool.run(["package", folder + "/master.m3u8", "--caption-service", "988:language=de"])
        #expect(bad.status != 0 && bad.stderr.contains("a teletext page such as 888"), "\(bad.stderr)")
    }
}
