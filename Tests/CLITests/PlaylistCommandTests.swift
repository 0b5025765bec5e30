import Foundation
import TestSupport
import Testing

/// `subweave validate` and `subweave inspect` through the built binary.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct PlaylistCommandTests {
    @Test func validateExitsNonZeroOnErrorsAndSpeaksJSON() throws {
        let dir = try Scratch.make().path
        let bad = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"NONE\"\nv.m3u8\n"
        try bad.write(toFile: dir + "/m.m3u8", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nnothing.ts\n#EXT-X-ENDLIST\n".write(toFile: dir + "/v.m3u8", atomically: true, encoding: .utf8)
        let human = try BuiltTool.run(["validate", dir + "/m.m3u8"])
        #expect(human.status == 1)
        #expect(human.stdout.contains("m.m3u8:2: error: CLOSED-CAPTIONS=\"NONE\" names a group called NONE"))
        #expect(human.stdout.contains("[RFC 8216bis §4.4.6.2:"))
        let json = try BuiltTool.run(["validate", dir + "/m.m3u8", "--json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["severity"] as? String == "error" && $0["line"] as? Int == 2 && $0["rule"] as? String == "RFC 8216bis §4.4.6.2" })
        #expect((object["errors"] as? Int ?? 0) >= 1)
    }

    @Test func validatePassesPackagedExample() throws {
        let dir = try Fixtures.copyExample()
        #expect(
            try BuiltTool.run([
                "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en",
                "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr",
            ]).status == 0)
        let outcome = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.stderr.contains("0 errors"))
    }

    @Test func inspectShowsGroupsAndSelection() throws {
        let outcome = try BuiltTool.run(["inspect", Fixtures.path("playlists/multi-angle-video.m3u8"), "--locale", "en-GB", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(groups.map { $0["characteristic"] as? String } == ["audible", "legible", "visual"])
        let selection = try #require(object["selection"] as? [String: Any])
        #expect(selection["audio"] as? String == "English")
        // English audio for an English viewer: no full subtitles; German forced subtitles go with German audio.
        #expect(selection["subtitles"] == nil || selection["subtitles"] is NSNull)
        let pairs = try #require(selection["forced_with_audio"] as? [[String: Any]])
        #expect(pairs.contains { $0["audio"] as? String == "Deutsch" && $0["forced"] as? String == "Deutsch (erzwungen)" })
    }
}
