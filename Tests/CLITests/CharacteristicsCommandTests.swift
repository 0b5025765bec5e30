import Foundation
import TestSupport
import Testing

/// `CHARACTERISTICS` from descriptor flags and keys, through package, refresh, list and validate.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct CharacteristicsCommandTests {
    static let generated = "public.machine-generated"
    static let translated = "public.translation"
    static let sdhPair = "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"

    /// The EXT-X-MEDIA line whose NAME is `name`.
    static func line(_ master: String, name: String) -> String? {
        master.split(separator: "\n").map(String.init).first { $0.hasPrefix("#EXT-X-MEDIA:") && $0.contains("NAME=\"\(name)\"") }
    }

    @Test func flagsAndFreeFormKeysBecomeCharacteristicsThatLaterCommandsKeep() throws {
        let dir = try Fixtures.copyExample()
        let en = dir + "/subs/en.srt"
        // Given in the "wrong" order: SDH, then general machine-made, then easy-to-read.
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8",
            "--subtitle", "url=\(en),id=en-sdh,language=en,sdh,characteristics=\"com.example.studio-approved\"",
            "--subtitle", "url=\(en),id=en-auto,language=en,name=English (auto),generated,translated",
            "--subtitle", "url=\(en),id=en-easy,language=en,name=English (easy),easy-to-read",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let sdh = try #require(Self.line(master, name: "English (SDH)"))
        let auto = try #require(Self.line(master, name: "English (auto)"))
        let easy = try #require(Self.line(master, name: "English (easy)"))
        #expect(sdh.contains("CHARACTERISTICS=\"\(Self.sdhPair),com.example.studio-approved\""), "\(sdh)")
        #expect(auto.contains("CHARACTERISTICS=\"\(Self.generated),\(Self.translated)\""), "\(auto)")
        #expect(easy.contains("CHARACTERISTICS=\"public.easy-to-read\""), "\(easy)")
        // Each differs from the others in CHARACTERISTICS, so each may be chosen automatically.
        for line in [sdh, auto, easy] { #expect(line.contains("AUTOSELECT=YES"), "\(line)") }
        // General to specific (Apple HLS Authoring Spec 9.17): general, easy-to-read, SDH.
        let order = [auto, easy, sdh].compactMap { master.range(of: $0)?.lowerBound }
        #expect(order == order.sorted() && order.count == 3, "\(master)")

        let validate = try BuiltTool.run(["validate", dir + "/master.m3u8", "--json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(!validate.stdout.contains("subtitles.order") && !validate.stdout.contains("media.characteristics"), "\(validate.stdout)")

        // A refresh writes them again from the renditions' records, unchanged.
        let refresh = try BuiltTool.run(["refresh", dir + "/master.m3u8"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let after = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        for name in ["English (SDH)", "English (auto)", "English (easy)"] {
            #expect(Self.line(after, name: name) == Self.line(master, name: name), "\(name): \(after)")
        }
        let list = try BuiltTool.run(["list", dir + "/master.m3u8"])
        #expect(list.stdout.contains("autoselect,generated,translated"), "\(list.stdout)")
        #expect(list.stdout.contains("autoselect,sdh"), "\(list.stdout)")
        #expect(list.stdout.contains("autoselect,easy-to-read"), "\(list.stdout)")
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)

        // The intent record says them as the descriptor did.
        let intent = try String(contentsOfFile: dir + "/.master.m3u8.subweave.json", encoding: .utf8)
        #expect(intent.contains("\"com.example.studio-approved\""), "\(intent)")
        #expect(intent.contains("\"public.machine-generated\""), "\(intent)")
    }

    @Test func characteristicsThatBreakAppleRulesAreRefusedBeforeAnythingIsWritten() throws {
        let dir = try Fixtures.copyExample()
        let before = try FolderSnapshot(dir)
        let en = dir + "/subs/en.srt"
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8",
            "--subtitle", "url=\(en),id=a,language=en,characteristics=public.accessibility.transcribes-spoken-dialog",
            "--subtitle", "url=\(en),id=b,language=en,characteristics=public.accessibility.describes-video",
            "--subtitle", "url=\(en),id=c,language=en,characteristics=\"public.easy-to-read,not a uti\"",
            "--subtitle", "url=\(en),id=d,language=en,generated=maybe",
        ])
        #expect(outcome.status == 1)
        for fragment in [
            "--subtitle #1: characteristic public.accessibility.transcribes-spoken-dialog alone is half of the SDH pair",
            "--subtitle #2: characteristic public.accessibility.describes-video describes audio description",
            "--subtitle #3: characteristic \"not a uti\" is not a Uniform Type Identifier",
            "--subtitle #4: generated=maybe is not a flag",
        ] {
            #expect(outcome.stderr.contains(fragment), "stderr should contain \"\(fragment)\": \(outcome.stderr)")
        }
        #expect(before.differences(to: try FolderSnapshot(dir)) == [])
    }

    @Test func bothHalvesNamedMakeAnSDHTrack() throws {
        let dir = try Fixtures.copyExample()
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle",
            "url=\(dir)/subs/en.srt,language=en,characteristics=\"public.accessibility.describes-music-and-sound,public.accessibility.transcribes-spoken-dialog\"",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let sdh = try #require(Self.line(master, name: "English (SDH)"), "\(master)")
        #expect(sdh.contains("CHARACTERISTICS=\"\(Self.sdhPair)\""), "\(sdh)")
    }
}
