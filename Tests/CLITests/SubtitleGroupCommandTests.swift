import Foundation
import TestSupport
import Testing

/// `--subtitle-group`: the GROUP-ID of the group Subweave makes, kept for later commands, refused
/// where it would contradict the master.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct SubtitleGroupCommandTests {
    static func groups(_ master: String) -> (media: Set<String>, variants: Set<String>) {
        let lines = master.split(separator: "\n").map(String.init)
        func value(_ line: String, _ name: String) -> String? {
            guard let range = line.range(of: "\(name)=\"") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        let media = lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.compactMap { value($0, "GROUP-ID") }
        let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.map { value($0, "SUBTITLES") ?? "(none)" }
        return (Set(media), Set(variants))
    }

    @Test func theGroupAskedForIsMadeAndLaterCommandsKeepIt() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        let first = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle-group", "text"])
        #expect(first.status == 0, "\(first.stderr)")
        var groups = Self.groups(try String(contentsOfFile: master, encoding: .utf8))
        #expect(groups.media == ["text"] && groups.variants == ["text"], "\(groups)")

        // A later package without the option, a refresh and a removal of one track keep it.
        let second = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try BuiltTool.run(["refresh", master]).status == 0)
        #expect(try BuiltTool.run(["remove", master, "--id", "en"]).status == 0)
        groups = Self.groups(try String(contentsOfFile: master, encoding: .utf8))
        #expect(groups.media == ["text"] && groups.variants == ["text"], "\(groups)")
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        // Every rendition out: the group goes; the next package makes it again under the recorded ID.
        #expect(try BuiltTool.run(["remove", master, "--id", "fr"]).status == 0)
        #expect(Self.groups(try String(contentsOfFile: master, encoding: .utf8)).media.isEmpty)
        #expect(try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en"]).status == 0)
        groups = Self.groups(try String(contentsOfFile: master, encoding: .utf8))
        #expect(groups.media == ["text"] && groups.variants == ["text"], "\(groups)")
        let intent = try String(contentsOfFile: dir + "/.master.m3u8.subweave.json", encoding: .utf8)
        #expect(intent.contains("\"subtitle_group\" : \"text\""), "\(intent)")
    }

    @Test func anotherGroupThanTheVariantsNameIsRefusedAndNothingIsWritten() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        #expect(try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en"]).status == 0)
        let before = try FolderSnapshot(dir)
        let outcome = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr", "--subtitle-group", "text"])
        #expect(outcome.status == 1)
        #expect(
            outcome.stderr.contains("--subtitle-group \"text\": the variants already name SUBTITLES group \"subs\", and Subweave does not rename a group"),
            "\(outcome.stderr)")
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
        // Naming the group the variants already use is no conflict.
        let same = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr", "--subtitle-group", "subs"])
        #expect(same.status == 0, "\(same.stderr)")
    }

    @Test func unusableIDsAreUsageErrors() throws {
        let dir = try Fixtures.copyExample()
        for (id, said) in [("", "it is empty"), ("a\"b", "a double quote"), ("a\u{202E}b", "RIGHT-TO-LEFT OVERRIDE")] {
            let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle-group", id])
            #expect(outcome.status == 64, "\(id): \(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot be a GROUP-ID") && outcome.stderr.contains(said), "\(id): \(outcome.stderr)")
        }
    }
}
