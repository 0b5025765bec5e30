import Foundation
import TestSupport
import Testing

/// `--segment-names TEMPLATE`: segment files named as the operator says, kept for later commands.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct SegmentNamesCommandTests {
    static func generation(_ dir: String) throws -> String {
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let uri = try #require(master.split(separator: "\"").first { $0.hasPrefix("subtitles/en-en/") }, "\(master)")
        return dir + "/" + uri.replacingOccurrences(of: "/index.m3u8", with: "")
    }

    @Test func segmentsAreNamedByTheTemplateInEveryFormatAndCommand() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        let first = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--segment-names", "en_seg-{n}"])
        #expect(first.status == 0, "\(first.stderr)")
        var generation = try Self.generation(dir)
        var names = try FileManager.default.contentsOfDirectory(atPath: generation).sorted()
        #expect(names.contains("en_seg-00000.vtt") && !names.contains("00000.vtt"), "\(names)")
        #expect(try String(contentsOfFile: generation + "/index.m3u8", encoding: .utf8).contains("\nen_seg-00001.vtt\n"))
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        // A refresh (nothing said) keeps the names; IMSC1 takes them with its own extension.
        #expect(try BuiltTool.run(["refresh", master]).status == 0)
        #expect(try Self.generation(dir) == generation)
        #expect(try BuiltTool.run(["package", master, "--text-format", "imsc1"]).status == 0)
        generation = try Self.generation(dir)
        names = try FileManager.default.contentsOfDirectory(atPath: generation).sorted()
        #expect(names.contains("en_seg-00000.m4s") && names.contains("init.mp4"), "\(names)")
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        // Back to the default names, said.
        #expect(try BuiltTool.run(["package", master, "--segment-names", "{n}", "--text-format", "webvtt"]).status == 0)
        names = try FileManager.default.contentsOfDirectory(atPath: try Self.generation(dir)).sorted()
        #expect(names.contains("00000.vtt"), "\(names)")
    }

    @Test func templatesThatCannotNameSegmentsAreUsageErrors() throws {
        let dir = try Fixtures.copyExample()
        for (template, says) in [
            ("seg", "{n}"), ("{n}-{n}", "exactly once"), ("a/{n}", "U+002F SOLIDUS"), (".{n}", "dot"), ("s {n}", "U+0020 SPACE"),
        ] {
            let outcome = try BuiltTool.run([
                "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--segment-names", template,
            ])
            #expect(outcome.status == 64, "\(template): \(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot name segments") && outcome.stderr.contains(says), "\(template): \(outcome.stderr)")
        }
    }
}
