import Foundation
import TestSupport
import Testing

/// `--rendition-folder TEMPLATE`: side-loaded tracks' renditions in the folders the operator
/// names, recognised, replaced, moved and retired by later commands as the default layout's are.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct RenditionFolderCommandTests {
    /// The URIs of the master's SUBTITLES renditions, in order.
    static func subtitleURIs(_ dir: String) throws -> [String] {
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        return master.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }.compactMap { line in
            line.components(separatedBy: "URI=\"").dropFirst().first?.components(separatedBy: "\"").first
        }
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func renditionsGoWhereTheTemplateSaysAndMoveWhenItChanges() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        let en = "url=\(dir)/subs/en.srt,language=en"
        let fr = "url=\(dir)/subs/fr.vtt,language=fr"
        let first = try BuiltTool.run(["package", master, "--subtitle", en, "--subtitle", fr, "--rendition-folder", "text/{language}/{id}"])
        #expect(first.status == 0, "\(first.stderr)")
        let uris = try Self.subtitleURIs(dir)
        #expect(uris.count == 2 && uris[0].hasPrefix("text/en/en/") && uris[1].hasPrefix("text/fr/fr/"), "\(uris)")
        #expect(Self.exists(dir + "/" + uris[0].replacingOccurrences(of: "index.m3u8", with: "00000.vtt")))
        #expect(!Self.exists(dir + "/subtitles"))
        #expect(try BuiltTool.run(["validate", master]).status == 0)

        // Later commands know them as Subweave's: list, an unchanged refresh, a removal.
        let listed = try BuiltTool.run(["list", master])
        #expect(listed.stdout.contains("external:en:en") && listed.stdout.contains("text/en/en"), "\(listed.stdout)")
        let refreshed = try BuiltTool.run(["refresh", master])
        #expect(refreshed.status == 0 && (refreshed.stdout + refreshed.stderr).contains("unchanged"), "\(refreshed.stdout)\(refreshed.stderr)")
        #expect(try Self.subtitleURIs(dir) == uris)
        let removed = try BuiltTool.run(["remove", master, "--id", "fr", "--retire-after", "0"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try Self.subtitleURIs(dir) == [uris[0]])
        #expect(!Self.exists(dir + "/" + uris[1].replacingOccurrences(of: "/index.m3u8", with: "")), "the removed generation is deleted")

        // The default again: the rendition moves, takes its line (no duplicate NAME), and the
        // old generation is retired, then deleted by a later run once retired long enough.
        let back = try BuiltTool.run(["package", master, "--rendition-folder", "subtitles/{id}-{language}"])
        #expect(back.status == 0, "\(back.stderr)")
        let moved = try Self.subtitleURIs(dir)
        #expect(moved.count == 1 && moved[0].hasPrefix("subtitles/en-en/"), "\(moved)")
        let old = dir + "/" + uris[0].replacingOccurrences(of: "/index.m3u8", with: "")
        #expect(Self.exists(old + "/retired"), "the old generation stays a while for players that read the old master")
        #expect(try BuiltTool.run(["validate", master]).status == 0)
        let intent = try String(contentsOfFile: dir + "/.master.m3u8.subweave.json", encoding: .utf8)
        #expect(intent.contains("\"earlier_rendition_folders\"") && intent.contains("text/{language}/{id}"), "\(intent)")
        #expect(try BuiltTool.run(["refresh", master, "--retire-after", "0"]).status == 0)
        #expect(!Self.exists(old), "a later run finds the earlier template's retired generation")
        #expect(try BuiltTool.run(["validate", master]).status == 0)
    }

    @Test func renditionsThatWouldShareAFolderAreRefused() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        let before = try String(contentsOfFile: master, encoding: .utf8)
        let en = "url=\(dir)/subs/en.srt,language=en"
        let other = "id=b,url=\(dir)/subs/fr.vtt,language=en,name=Other"
        // Two tracks of one language in a template without {id}.
        let both = try BuiltTool.run(["package", master, "--subtitle", en, "--subtitle", other, "--rendition-folder", "text/{language}"])
        #expect(both.status != 0 && both.stderr.contains("folder_clash") || both.stderr.contains("no folders of their own"), "\(both.stderr)")
        #expect(both.stderr.contains("text/en"), "\(both.stderr)")
        #expect(try String(contentsOfFile: master, encoding: .utf8) == before)
        #expect(!Self.exists(dir + "/text"))

        // A track that would land in a kept rendition's folder, or inside it.
        #expect(try BuiltTool.run(["package", master, "--subtitle", en, "--rendition-folder", "text/{language}"]).status == 0)
        let again = try BuiltTool.run(["package", master, "--subtitle", other])
        #expect(again.status != 0 && again.stderr.contains("where the rendition \"English\""), "\(again.stderr)")
        let nested = try BuiltTool.run([
            "package", master, "--subtitle", "id=c,url=\(dir)/subs/fr.vtt,language=fr", "--rendition-folder", "{language}x", "--no-refresh",
        ])
        #expect(nested.status == 0, "no clash: \(nested.stderr)")
        // Kept where it is (no refresh), the English rendition's folder would hold the new one.
        let inside = try BuiltTool.run([
            "package", master, "--subtitle", "id=d,url=\(dir)/subs/fr.vtt,language=de", "--rendition-folder", "text/en/{id}", "--no-refresh",
        ])
        #expect(inside.status != 0 && inside.stderr.contains("inside text/en"), "\(inside.stderr)")
        // Refreshed, every side-loaded rendition moves to the new template's folders.
        let moving = try BuiltTool.run(["package", master, "--subtitle", "id=d,url=\(dir)/subs/fr.vtt,language=de", "--rendition-folder", "text/en/{id}"])
        #expect(moving.status == 0, "\(moving.stderr)")
        let uris = try Self.subtitleURIs(dir)
        #expect(uris.count == 3 && uris.allSatisfy { $0.hasPrefix("text/en/") && $0.split(separator: "/").count == 5 }, "\(uris)")
        #expect(!Self.exists(dir + "/frx/index.m3u8") && Self.exists(dir + "/frx"), "the earlier folder keeps its retiring generation")
        #expect(try BuiltTool.run(["validate", master]).status == 0)
    }

    /// A catalogue says the same, per title; a bad template is that title's failure alone.
    @Test func aCatalogueTitleNamesItsFolders() throws {
        let folder = try Scratch.make().path
        for name in ["a", "b"] {
            try FileManager.default.copyItem(atPath: Fixtures.repository.appendingPathComponent("Examples/basic").path, toPath: folder + "/" + name)
        }
        let lines = [
            #"{"id": "a", "master": "a/master.m3u8", "rendition_folder": "text/{language}", "segment_names": "s{n}", "tracks": [{"url": "a/subs/en.srt", "language": "en"}]}"#,
            #"{"id": "b", "master": "b/master.m3u8", "rendition_folder": "../{id}", "tracks": [{"url": "b/subs/en.srt", "language": "en"}]}"#,
        ]
        try lines.joined(separator: "\n").appending("\n").write(toFile: folder + "/catalogue.jsonl", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["batch", folder + "/catalogue.jsonl"])
        #expect(outcome.stdout.contains("cannot name rendition folders"), "\(outcome.stdout)")
        let uris = try Self.subtitleURIs(folder + "/a")
        #expect(uris.count == 1 && uris[0].hasPrefix("text/en/"), "\(uris)")
        #expect(Self.exists(folder + "/a/" + uris[0].replacingOccurrences(of: "index.m3u8", with: "s00000.vtt")))
        #expect(try BuiltTool.run(["validate", folder + "/a/master.m3u8"]).status == 0)
        #expect(try Self.subtitleURIs(folder + "/b").isEmpty)
    }

    @Test func templatesThatCannotNameFoldersAreUsageErrors() throws {
        let dir = try Fixtures.copyExample()
        for (template, says) in [
            ("/abs/{id}", "relative"), ("a//{id}", "empty component"), ("captions/{id}", "in-band captions"), ("../{id}", "dot"),
            ("x/0123456789ab", "generation"), ("a b/{id}", "U+0020 SPACE"), ("a/b/c/d/e/f/g/h/i", "8 components"),
        ] {
            let outcome = try BuiltTool.run([
                "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--rendition-folder", template,
            ])
            #expect(outcome.status == 64, "\(template): \(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot name rendition folders") && outcome.stderr.contains(says), "\(template): \(outcome.stderr)")
        }
    }
}
