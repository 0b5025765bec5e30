import Foundation
import TestSupport
import Testing

/// SCC files at the rate the operator declares (`fps=` on a track, `--fps` on `cues` and
/// `convert`), kept by later commands, refused where they mean nothing.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct TimecodeRateCommandTests {
    /// A pop-on caption whose EOC is the line's 9th word, the line at 00:00:01:00, erased at
    /// 00:00:03:00.
    static let scc = """
        Scenarist_SCC V1.0

        00:00:01:00	9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f

        00:00:03:00	942c 942c

        """

    static func firstStart(_ arguments: [String]) throws -> Double? {
        let outcome = try BuiltTool.run(arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return (json?["cues"] as? [[String: Any]])?.first?["startTime"] as? Double
    }

    @Test func cuesReadsAtTheDeclaredRate() throws {
        let dir = try Scratch.make().path
        try Self.scc.write(toFile: dir + "/vendor.scc", atomically: true, encoding: .utf8)
        // Frame 25 + 8 at 25 fps; frame 30 + 8 at 29.97 (1001/30000 s a frame); 24 + 8 at 23.976.
        func near(_ value: Double?, _ expected: Double) -> Bool { value.map { abs($0 - expected) < 0.0006 } ?? false }
        #expect(near(try Self.firstStart(["cues", dir + "/vendor.scc", "--fps", "25", "--json"]), 1.32))
        #expect(near(try Self.firstStart(["cues", dir + "/vendor.scc", "--json"]), 38 * 1001 / 30000.0))
        #expect(near(try Self.firstStart(["cues", dir + "/vendor.scc", "--fps", "23.976", "--json"]), 32 * 1001 / 24000.0))
        let converted = try BuiltTool.run(["convert", dir + "/vendor.scc", "--fps", "24", "--to", "srt"])
        #expect(converted.status == 0 && converted.stdout.contains("00:00:01,333 --> 00:00:03,000"), "\(converted.stdout)\(converted.stderr)")
        let bad = try BuiltTool.run(["cues", dir + "/vendor.scc", "--fps", "26"])
        #expect(bad.status != 0 && bad.stderr.contains("--fps 26 is not a timecode rate"), "\(bad.stderr)")
        try "1\n00:00:01,000 --> 00:00:02,000\nHi\n".write(toFile: dir + "/plain.srt", atomically: true, encoding: .utf8)
        let meaningless = try BuiltTool.run(["cues", dir + "/plain.srt", "--fps", "25"])
        #expect(meaningless.status != 0 && meaningless.stderr.contains("--fps applies to timecoded files"), "\(meaningless.stderr)")
    }

    /// `fps=25` on a track: the rendition's cues on 40 ms frames, the rate in the intent record,
    /// and a later run without it keeps the cues where they were.
    @Test func packageKeepsTheDeclaredRate() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        try Self.scc.write(toFile: dir + "/subs/vendor.scc", atomically: true, encoding: .utf8)
        let packaged = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/vendor.scc,language=en,fps=25"])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let listed = try BuiltTool.run(["list", master, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let tracks = try #require((object["intent"] as? [String: Any])?["tracks"] as? [[String: Any]])
        #expect(tracks.first?["fps"] as? String == "25", "\(tracks)")
        func cueFile() throws -> String {
            let found = FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String }.filter { $0.hasSuffix("cues.vtt") } ?? []
            return try String(contentsOfFile: dir + "/" + (try #require(found.first)), encoding: .utf8)
        }
        let cues = try cueFile()
        #expect(cues.contains("00:00:01.320 --> 00:00:03.000"), "\(cues)")
        let refreshed = try BuiltTool.run(["refresh", master])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(try cueFile().contains("00:00:01.320 --> 00:00:03.000"))
        let validated = try BuiltTool.run(["validate", master])
        #expect(validated.status == 0 && validated.stderr.contains("0 errors"), "\(validated.stdout)\(validated.stderr)")
        let onSubRip = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en,fps=25", "--dry-run"])
        #expect(onSubRip.status != 0 && onSubRip.stderr.contains("fps=25 applies to timecoded files"), "\(onSubRip.stderr)")
        let unknown = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/vendor.scc,language=en,fps=26", "--dry-run"])
        #expect(unknown.status != 0 && unknown.stderr.contains("is not a timecode rate"), "\(unknown.stderr)")
    }
}
