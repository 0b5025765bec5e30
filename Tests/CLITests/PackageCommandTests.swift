import Foundation
import TestSupport
import Testing

/// `subweave package` through the built binary: results, reports, exit codes, and that bad input
/// changes nothing.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct PackageCommandTests {
    /// A copy of the example asset with its two subtitle files.
    func example() throws -> String { try Fixtures.copyExample() }

    @Test func helpAndVersionGoToStdoutWithStatusZero() throws {
        let help = try BuiltTool.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("subweave package"))
        #expect(help.stderr.isEmpty)
        let version = try BuiltTool.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("subweave "))
    }

    @Test func usageErrorsExit64WithUsageOnStderr() throws {
        let outcome = try BuiltTool.run(["package", "x.m3u8", "--subtitel", "url=a.srt"])
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("Error: unknown option --subtitel (did you mean --subtitle?)"))
        #expect(outcome.stderr.contains("Usage: subweave package"))
    }

    /// A tracks file's relative urls are taken from its own folder, from whatever folder the
    /// command runs in; a descriptor without language= is refused, asking for it.
    @Test func aTracksFileResolvesFromItsFolderAndTheLanguageIsAskedFor() throws {
        let dir = try Fixtures.copyExample()
        try #"[{"url": "en.srt", "language": "en"}, {"url": "fr.vtt", "language": "fr"}]"#.write(
            toFile: dir + "/subs/tracks.json", atomically: true, encoding: .utf8)
        let run = try BuiltTool.run(["package", dir + "/master.m3u8", "--tracks", dir + "/subs/tracks.json"], directory: "/")
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(text.contains("LANGUAGE=\"en\"") && text.contains("LANGUAGE=\"fr\""), "\(text)")
        let unsaid = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,name=English", "--dry-run"])
        #expect(unsaid.status != 0)
        #expect(unsaid.stderr.contains("language= is required") && unsaid.stderr.contains("language=und"), "\(unsaid.stderr)")
        let unknown = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=xx,name=X", "--dry-run"])
        #expect(unknown.status != 0 && unknown.stderr.contains("not an ISO 639 language code"), "\(unknown.stderr)")
    }

    @Test func packagesAndReportsAsJSON() throws {
        let dir = try example()
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en",
            "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        #expect(tracks.count == 2)
        #expect(tracks[0]["source_id"] as? String == "en")
        #expect(tracks[0]["identity"] as? String == "external:en:en")
        #expect(tracks[0]["ingest_format"] as? String == "srt_converted")
        #expect(tracks[0]["cue_count"] as? Int == 4)
        #expect(tracks[0]["first_cue_start"] as? Double == 0.5)
        #expect(tracks[1]["ingest_format"] as? String == "vtt")
        let files = try #require(tracks[0]["files_written"] as? [String])
        #expect(files.count == 8)  // five segments, the playlist, and the record with its cues
        for file in files { #expect(FileManager.default.fileExists(atPath: dir + "/" + file)) }
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        let uri = String(generation.dropFirst(dir.count + 1)) + "/index.m3u8"
        #expect(master.contains(#"#EXT-X-MEDIA:TYPE=SUBTITLES,URI="\#(uri)",GROUP-ID="subs",LANGUAGE="en",NAME="English",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO"#))
        #expect(master.components(separatedBy: "SUBTITLES=\"subs\",CLOSED-CAPTIONS=NONE\n").count == 3)
    }

    @Test func secondRunIsByteIdenticalWithoutDuplicates() throws {
        let dir = try example()
        let arguments = [
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en",
            "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr", "--preferred-language", "fr",
        ]
        #expect(try BuiltTool.run(arguments).status == 0)
        let first = try FolderSnapshot(dir)
        #expect(try BuiltTool.run(arguments).status == 0)
        let second = try FolderSnapshot(dir)
        #expect(first.differences(to: second) == [])
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(master.components(separatedBy: "TYPE=SUBTITLES").count == 3)
    }

    @Test func dryRunPrintsTheMasterAndWritesNothing() throws {
        let dir = try example()
        let before = try FolderSnapshot(dir)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--dry-run"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("#EXTM3U\n"))
        #expect(outcome.stdout.contains("TYPE=SUBTITLES"))
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
    }

    /// The JSON of a dry run carries the master as `master_text` (streamed into the document):
    /// a JSON parser reads back exactly what the plain dry run prints, escapes and all.
    @Test func dryRunJSONCarriesTheMasterText() throws {
        let dir = try example()
        let path = dir + "/master.m3u8"
        let master = try String(contentsOfFile: path, encoding: .utf8)
        try master.replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n# \"quoted\" \\ back/slash\ttab é 日本 \u{2028} \u{1}\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let arguments = ["package", path, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--dry-run"]
        let plain = try BuiltTool.run(arguments)
        let json = try BuiltTool.run(arguments + ["--json"])
        #expect(plain.status == 0 && json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "subweave.package/1")
        #expect(object["master_text"] as? String == plain.stdout)
        #expect(plain.stdout.contains("\u{1}") && plain.stdout.contains("TYPE=SUBTITLES"))
    }

    @Test func outputWritesElsewhereAndLeavesTheMaster() throws {
        let dir = try example()
        let original = try Data(contentsOf: URL(fileURLWithPath: dir + "/master.m3u8"))
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--output", dir + "/master-subs.m3u8",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/master.m3u8")) == original)
        #expect(try String(contentsOfFile: dir + "/master-subs.m3u8", encoding: .utf8).contains("TYPE=SUBTITLES"))
    }

    /// Each case: what to break, what the message must say; the folder must not change.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let breakIt: @Sendable (String) throws -> Void
        let subtitle: @Sendable (String) -> [String]
        let expected: [String]
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(
            name: "master is not an M3U8",
            breakIt: { dir in try "<html>not a playlist</html>\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8) },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] }, expected: ["master.m3u8:1:", "#EXTM3U"]),
        BadInput(
            name: "missing variant playlist", breakIt: { dir in try FileManager.default.removeItem(atPath: dir + "/video/high/prog.m3u8") },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] }, expected: ["video/high/prog.m3u8", "does not exist", "errno 2"]),
        BadInput(
            name: "segment is neither TS nor fMP4",
            breakIt: { dir in try "garbage".write(toFile: dir + "/video/high/seg_000.ts", atomically: true, encoding: .utf8) },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] }, expected: ["seg_000.ts", "byte offset 0", "neither MPEG-TS", "fragmented MP4"]),
        BadInput(
            name: "subtitle file is not WebVTT",
            breakIt: { dir in try "1\n00:00:01,000 --> 00:00:02,000\nSRT really\n".write(toFile: dir + "/subs/fr.vtt", atomically: true, encoding: .utf8) },
            // Declared WebVTT (a misnamed file is read by its content; a declared format is not second-guessed).
            subtitle: { ["--subtitle", "url=\($0)/subs/fr.vtt,language=fr,format=vtt"] },
            expected: ["fr.vtt", "line 1", "not a WebVTT file", "declared format"]),
        BadInput(
            name: "SubRip file yields no cue",
            breakIt: { dir in try "just some text\nno timings here\n".write(toFile: dir + "/subs/en.srt", atomically: true, encoding: .utf8) },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] },
            expected: ["en.srt", "no cues", "check that the declared format matches the file"]),
        BadInput(
            name: "subtitle file missing", breakIt: { dir in try FileManager.default.removeItem(atPath: dir + "/subs/en.srt") },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] }, expected: ["en.srt", "does not exist", "errno 2"]),
        BadInput(
            name: "media playlist line is malformed",
            breakIt: { dir in
                let path = dir + "/video/high/prog.m3u8"
                let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "#EXTINF:2.000000,", with: "#EXTINF:two,")
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            },
            subtitle: { ["--subtitle", "url=\($0)/subs/en.srt,language=en"] }, expected: ["prog.m3u8:6:", "#EXTINF", "\"two\""]),
    ]

    @Test(arguments: badInputs)
    func badInputChangesNothing(_ bad: BadInput) throws {
        let dir = try example()
        try bad.breakIt(dir)
        let before = try FolderSnapshot(dir)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8"] + bad.subtitle(dir))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.hasPrefix("Error: "))
        for fragment in bad.expected {
            #expect(outcome.stderr.contains(fragment), "stderr should mention \"\(fragment)\": \(outcome.stderr)")
        }
        #expect(before.differences(to: try FolderSnapshot(dir)) == [], "a failed run must not touch the HLS folder")
    }

    @Test func everyRegistrationErrorIsReportedTogetherBeforeAnyIO() throws {
        let dir = try example()
        let before = try FolderSnapshot(dir)
        // The master does not even exist: descriptor problems are found first.
        let outcome = try BuiltTool.run([
            "package", dir + "/no-such-master.m3u8",
            "--subtitle", "url=\(dir)/subs/en.srt,id=,language=en",
            "--subtitle", "url=\(dir)/subs/en.srt,id=dup,language=en",
            "--subtitle", "url=\(dir)/subs/fr.vtt,id=dup,language=fr",
            "--subtitle", "url=\(dir)/subs/fr.vtt,id=nolabel,language=fr,name=",
            "--subtitle", "url=http://,language=en",
            "--subtitle", "url=ftp://example.com/en.srt,language=en",
            "--subtitle", "url=https://example.com/subtitles?file=en.srt,language=en",
            "--subtitle", "url=\(dir)/subs/en.srt,id=q,language=en,name=Line\nbreak",
        ])
        #expect(outcome.status == 1)
        for fragment in [
            "--subtitle #1: the source ID is empty", "--subtitle #3: source ID \"dup\" is already used by --subtitle #2",
            "--subtitle #4: name= is empty", "--subtitle #5: \"http://\" is not a valid http URL",
            "--subtitle #6: scheme \"ftp:\" is not supported", "--subtitle #7: cannot tell the format",
            "query string is never read", "declare format=", "--subtitle #8: name \"Line\\u{A}break\" contains a line feed", "7 problems",
        ] {
            #expect(outcome.stderr.contains(fragment), "stderr should contain \"\(fragment)\": \(outcome.stderr)")
        }
        #expect(!outcome.stderr.contains("no-such-master"))
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
    }
}

@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct TracksFileTests {
    @Test func tracksFileTakesTheSameKeys() throws {
        let dir = try Fixtures.copyExample()
        let json =
            #"[{"url": "\#(dir)/subs/en.srt", "language": "en", "sdh": true}, {"url": "\#(dir)/subs/fr.vtt", "language": "fr", "forced": true, "name": "Français (panneaux)"}]"#
        try json.write(toFile: dir + "/tracks.json", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--tracks", dir + "/tracks.json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(
            master.contains(
                #"NAME="English (SDH)",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound""#
            ))
        #expect(master.contains(#"NAME="Français (panneaux)",DEFAULT=NO,AUTOSELECT=YES,FORCED=YES"#))
    }

    @Test func malformedTracksFileIsAnError() throws {
        let dir = try Fixtures.copyExample()
        try #"{"url": "x.srt"}"#.write(toFile: dir + "/tracks.json", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--tracks", dir + "/tracks.json"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("tracks.json: expected a JSON array"))
    }
}
