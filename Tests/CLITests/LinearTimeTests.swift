import Foundation
import TestSupport
import Testing

/// Hostile files that made a scan look ahead to the end of the text at every position.
///
/// Such a parse is quadratic: 200 KB of `<` in a SubRip cue took 4.9 s; a megabyte would take
/// minutes, ten an hour. Each file here is about a megabyte, read by the built binary, which is
/// killed after a minute: read linearly, each takes a second or two even as a debug build under
/// load.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct LinearTimeTests {
    static let size = 1 << 20

    /// Runs `subweave` on a file holding `text`, killed after a minute.
    static func run(_ command: String, _ name: String, _ text: String, _ extra: [String] = []) throws -> Tools.Outcome {
        let path = try Scratch.make().path + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let binary = try #require(BuiltTool.subweave)
        let outcome = try Tools.run(binary, [command, path] + extra, timeout: 60)
        #expect(outcome.status == 0 || outcome.status == 1, "killed after a minute or crashed: \(outcome.status) \(outcome.stderr.prefix(300))")
        return outcome
    }

    static func srt(_ text: String) -> String { "1\n00:00:01,000 --> 00:00:02,000\n\(text)\n" }

    @Test func subRipLessThanSigns() throws {
        let outcome = try Self.run("cues", "lt.srt", Self.srt(String(repeating: "<", count: Self.size)), ["--json"])
        #expect(outcome.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let text = ((json?["cues"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        let escaped = text == String(repeating: "&lt;", count: Self.size)
        #expect(escaped, "every < is text, escaped as &lt; (\(text.utf8.count) bytes)")
    }

    @Test func subRipTagsThatAreNotTagsBeforeOneGreaterThanSign() throws {
        // Every `<ix` could start a tag running to the one `>` at the end; none is one.
        let outcome = try Self.run("cues", "ix.srt", Self.srt(String(repeating: "<ix", count: Self.size / 3) + ">"))
        #expect(outcome.status == 0)
    }

    @Test func subRipLessThanSignsThenSpacesThenGreaterThan() throws {
        let text = String(repeating: "<", count: Self.size / 2) + String(repeating: " ", count: Self.size / 2) + ">"
        #expect(try Self.run("cues", "spaces.srt", Self.srt(text)).status == 0)
    }

    @Test func subRipOverrideBlocksNeverClosed() throws {
        #expect(try Self.run("cues", "braces.srt", Self.srt(String(repeating: "{\\", count: Self.size / 2))).status == 0)
    }

    @Test func assOverrideBlocksNeverClosed() throws {
        let ass = """
            [Script Info]
            ScriptType: v4.00+

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\(String(repeating: "{", count: Self.size))x

            """
        #expect(try Self.run("cues", "braces.ass", ass).status == 0)
    }

    @Test func variableReferencesNeverClosed() throws {
        let master =
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n" + String(repeating: "{$", count: Self.size / 2) + ".m3u8\n"
        let outcome = try Self.run("validate", "master.m3u8", master)
        #expect(outcome.status == 1, "the variant's playlist does not exist: \(outcome.stderr.prefix(300))")
    }
}
