import Foundation
import TestSupport
import Testing

/// `subweave cues` and `subweave convert` through the built binary.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct CueCommandTests {
    @Test func cuesAsJSONUseVTTCueNames() throws {
        let vtt = """
            WEBVTT

            REGION
            id:r width:50% lines:2 regionanchor:0%,100% viewportanchor:10%,90% scroll:up

            c1
            00:00:01.000 --> 00:00:02.500 line:-2 position:30%,line-left size:60% align:start
            <i>Hello</i>

            00:00:03.000 --> 00:00:04.000 region:r
            Second

            """
        let outcome = try BuiltTool.run(["cues", "-", "--json"], input: Array(vtt.utf8))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let cues = try #require(json["cues"] as? [[String: Any]])
        #expect(cues.count == 2)
        let first = cues[0]
        #expect(first["id"] as? String == "c1")
        #expect(first["startTime"] as? Double == 1)
        #expect(first["endTime"] as? Double == 2.5)
        #expect(first["text"] as? String == "<i>Hello</i>")
        #expect(first["vertical"] as? String == "")
        #expect(first["snapToLines"] as? Bool == true)
        #expect(first["line"] as? Double == -2)
        #expect(first["lineAlign"] as? String == "start")
        #expect(first["position"] as? Double == 30)
        #expect(first["positionAlign"] as? String == "line-left")
        #expect(first["size"] as? Double == 60)
        #expect(first["align"] as? String == "start")
        #expect(first["region"] is NSNull)
        let second = cues[1]
        #expect(second["line"] as? String == "auto")
        #expect(second["position"] as? String == "auto")
        #expect(second["positionAlign"] as? String == "auto")
        #expect(second["size"] as? Double == 100)
        #expect(second["align"] as? String == "center")
        let region = try #require(second["region"] as? [String: Any])
        #expect(region["id"] as? String == "r")
        #expect(region["width"] as? Double == 50)
        #expect(region["lines"] as? Int == 2)
        #expect(region["viewportAnchorX"] as? Double == 10)
        #expect(region["scroll"] as? String == "up")
    }

    @Test func invalidWebVTTExitsWithTheReason() throws {
        let dir = try Scratch.make().path
        try "WEBVTTX\n\n00:01.000 --> 00:02.000\nx\n".write(toFile: dir + "/bad.vtt", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["cues", dir + "/bad.vtt"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("bad.vtt"))
        #expect(outcome.stderr.contains("not a WebVTT file"))
    }

    @Test func cuesOfAnSRTShowTheConversion() throws {
        let outcome = try BuiltTool.run(["cues", Fixtures.path("subtitles/wild/markup.srt")])
        #expect(outcome.status == 0)
        // A SubRip counter is not a cue identifier: the cues have none, as a browser would show.
        #expect(outcome.stdout.hasPrefix("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>Italic</i> <b>bold</b> <u>under</u>\n\n"))
        #expect(outcome.stdout.contains("00:00:05.000 --> 00:00:06.000 line:0\nTop centre\n"))
    }

    @Test func convertWritesWebVTTAndReportsFallback() throws {
        let dir = try Scratch.make().path
        let outcome = try BuiltTool.run(["convert", Fixtures.path("subtitles/wild/cp1252.srt"), "-o", dir + "/out.vtt"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // A sure guess is a note (not a warning) naming the encoding and how often such guesses are right.
        #expect(outcome.stderr.contains("not UTF-8; read as windows-1252") && !outcome.stderr.contains("warning"), "\(outcome.stderr)")
        let text = try String(contentsOfFile: dir + "/out.vtt", encoding: .utf8)
        #expect(text == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nCafé – naïve “quotes” € œuvre\n\n")
    }

    @Test func convertWithForcedEncoding() throws {
        let outcome = try BuiltTool.run(["convert", Fixtures.path("subtitles/wild/cp1251.srt"), "--encoding", "windows-1251"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Привет, мир"))
        #expect(!outcome.stderr.contains("UTF-8"))
    }

    @Test func cuesFromAURL() throws {
        let root = try Scratch.make().path
        try FileManager.default.copyItem(atPath: Fixtures.path("subtitles/wild/overlapping.srt"), toPath: root + "/o.srt")
        guard let server = try TestHTTPServer(root: root) else { return }
        let outcome = try BuiltTool.run(["cues", server.url("files/o.srt"), "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"text\" : \"Inside\""))
        let missing = try BuiltTool.run(["cues", server.url("missing/o.srt")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("HTTP 404"))
    }
}
