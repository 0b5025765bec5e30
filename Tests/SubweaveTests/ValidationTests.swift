import Foundation
import HLS
import Subweave
import TestSupport
import Testing
import Timebase

/// `subweave package` output passes `subweave validate`, and the validator catches the classic
/// subtitle breakages.
struct ValidationTests {
    static let fixtures = [
        "media/ts-bframes/master.m3u8", "media/ts-bframes/complex.m3u8", "media/fmp4/master.m3u8",
        "media/discontinuity/master.m3u8", "media/pts-wrap/master.m3u8", "media/fmp4-hevc/master.m3u8",
        "media/fmp4-nob/master.m3u8", "media/audio-first/master.m3u8",
    ]

    /// Packages `fixture` (a copy) with an SRT and a VTT that cross segment boundaries.
    static func packaged(_ fixture: String, preferred: String? = "en") async throws -> String {
        let folder = try Fixtures.copy(String(fixture.split(separator: "/").dropLast().joined(separator: "/")))
        let master = folder + "/" + fixture.split(separator: "/").last!
        try "1\n00:00:00,500 --> 00:00:02,500\nOne\n\n2\n00:00:03,900 --> 00:00:06,100\nTwo, across\n".write(
            toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:01.000 --> 00:05.000\nUn\n".write(toFile: folder + "/fr.vtt", atomically: true, encoding: .utf8)
        let tracks = try SubtitleTrack.register([
            try TrackDescriptor(parsing: "url=\(folder)/en.srt,language=en", origin: "1"),
            try TrackDescriptor(parsing: "url=\(folder)/fr.vtt,language=fr,forced", origin: "2"),
        ])
        _ = try await Packager().run(
            master: URL(fileURLWithPath: master), PackageRequest(tracks: tracks, preferredLanguage: preferred.flatMap(LanguageTag.init(parsing:))))
        return master
    }

    @Test(arguments: fixtures)
    func packagedOutputHasNoErrors(_ fixture: String) async throws {
        let master = try await Self.packaged(fixture)
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: master))
        #expect(report.findings.filter { $0.severity == .error } == [], "\(report.findings)")
        #expect(!report.findings.contains { $0.rule == "RFC 8216bis §3.1.4" }, "the timing checks ran and passed")
    }

    @Test func catchesAMissingMapAMisplacedMapAndALostRepeat() async throws {
        let master = try await Self.packaged("media/ts-bframes/master.m3u8")
        let folder = try Packaged.generation(master: master, folder: "subtitles/en-en")
        // Segment 2: drop the map. Segment 1 (4.004-8.008 s): move the map after the blank line and
        // lose the cue "Two, across" (3.9-6.1 s) that segment 0 says spans into it.
        var s2 = try String(contentsOfFile: folder + "/00002.vtt", encoding: .utf8)
        let mapLine = try #require(s2.split(separator: "\n").first { $0.hasPrefix("X-TIMESTAMP-MAP=") })
        s2 = s2.replacingOccurrences(of: mapLine + "\n", with: "")
        try s2.write(toFile: folder + "/00002.vtt", atomically: true, encoding: .utf8)
        var s1 = try String(contentsOfFile: folder + "/00001.vtt", encoding: .utf8)
        s1 = "WEBVTT\n\n\(mapLine)\n\n"
        try s1.write(toFile: folder + "/00001.vtt", atomically: true, encoding: .utf8)
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: master))
        let errors = report.findings.filter { $0.severity == .error }
        #expect(errors.contains { $0.file.hasSuffix("00002.vtt") && $0.rule == "Apple HLS Authoring Spec 5.3" })
        #expect(errors.contains { $0.file.hasSuffix("00001.vtt") && $0.rule == "RFC 8216bis §3.1.4" && $0.message.contains("after the first blank line") })
        #expect(errors.contains { $0.file.hasSuffix("00001.vtt") && $0.message.contains("but is not in it") })
    }

    /// A map anchored on the first fragment's decode time (tfdt) puts every cue early by the
    /// composition offset; the validator compares it with the first presented frame.
    @Test func catchesAMapAnchoredOnTheDecodeTime() async throws {
        let master = try await Self.packaged("media/fmp4/master.m3u8")
        let folder = try Packaged.generation(master: master, folder: "subtitles/en-en")
        var segment = try String(contentsOfFile: folder + "/00000.vtt", encoding: .utf8)
        let mapLine = try #require(segment.split(separator: "\n").first { $0.hasPrefix("X-TIMESTAMP-MAP=") })
        #expect(await PresentationValidator().validate(master: URL(fileURLWithPath: master)).errors == 0)
        let tfdt = 0  // ffmpeg's fMP4 starts its decode times at 0; the first frame is shown 2 frames later
        segment = segment.replacingOccurrences(of: mapLine, with: "X-TIMESTAMP-MAP=MPEGTS:\(tfdt),LOCAL:00:00:00.000")
        try segment.write(toFile: folder + "/00000.vtt", atomically: true, encoding: .utf8)
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: master))
        #expect(
            report.findings.contains { $0.severity == .error && $0.file.hasSuffix("00000.vtt") && $0.message.contains("decode time") },
            "\(report.findings)")
    }

    @Test func catchesAShortSubtitlePlaylist() async throws {
        let master = try await Self.packaged("media/ts-bframes/master.m3u8")
        let playlist = try Packaged.generation(master: master, folder: "subtitles/fr-fr") + "/index.m3u8"
        var text = try String(contentsOfFile: playlist, encoding: .utf8)
        text = text.replacingOccurrences(of: "#EXTINF:4.004000,\n00002.vtt\n", with: "")
        try text.write(toFile: playlist, atomically: true, encoding: .utf8)
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: master))
        #expect(
            report.findings.contains {
                $0.severity == .error && $0.rule == "Apple HLS Authoring Spec 5.5" && $0.file.hasSuffix("index.m3u8") && $0.file.contains("fr-fr/")
            })
    }
}

/// Every master Subweave writes parses with the python m3u8 library (PyPI), a second reader.
@Suite(.enabled(if: ThirdPartyReaders.pythonM3U8, "python3 with the m3u8 package is not installed (pip install m3u8)"))
struct ThirdPartyParserTests {
    @Test(arguments: ValidationTests.fixtures)
    func pythonM3U8ReadsOurMasters(_ fixture: String) async throws {
        let master = try await ValidationTests.packaged(fixture)
        let script = """
            import json, sys, m3u8
            p = m3u8.load(sys.argv[1])
            subs = [m for m in p.media if m.type == "SUBTITLES"]
            print(json.dumps({"variants": len(p.playlists), "subtitles": [[m.name, m.language, m.default, m.autoselect, m.forced, m.uri] for m in subs],
                              "cc": [pl.stream_info.closed_captions for pl in p.playlists]}))
            """
        let outcome = try Tools.run(Tools.which("python3")!, ["-c", script, master])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let subs = try #require(json["subtitles"] as? [[Any]])
        #expect(subs.contains { ($0[0] as? String) == "English" && ($0[2] as? String) == "YES" && ($0[3] as? String) == "YES" })
        #expect(subs.contains { ($0[0] as? String) == "Français (Forced)" && ($0[4] as? String) == "YES" })
        #expect((json["cc"] as? [String])?.allSatisfy { $0 == "NONE" } == true)
    }

    @Test(arguments: PlaylistCorpusFiles.files)
    func pythonM3U8ReadsOurRewritesOfTheCorpus(_ file: String) throws {
        let folder = try Scratch.make().path
        try FileManager.default.copyItem(atPath: Fixtures.path("playlists/" + file), toPath: folder + "/master.m3u8")
        let master = try MasterPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/master.m3u8"))), source: file)
        let rendition = NewSubtitleRendition(
            identity: "external:x:es", name: "Español", language: .init(parsing: "es")!, forced: false, characteristics: .none,
            prefersDefault: false, uri: "subtitles/x-es/index.m3u8", origin: "x")
        let before = MasterRules.check(master).filter { $0.severity == .error }.count
        let result = try MasterRewriter(preferredLanguage: .init(parsing: "es")).rewrite(master, renditions: [rendition])
        #expect(MasterRules.check(result.master).filter { $0.severity == .error }.count <= before, "rewriting adds no error")
        try result.master.playlist.text.write(toFile: folder + "/out.m3u8", atomically: true, encoding: .utf8)
        let outcome = try Tools.run(
            Tools.which("python3")!,
            ["-c", "import sys, m3u8; p = m3u8.load(sys.argv[1]); print(sum(1 for m in p.media if m.language == 'es'))", folder + "/out.m3u8"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "0")
    }
}

enum PlaylistCorpusFiles {
    static let files = [
        "apple-advanced-style.m3u8", "shaka-packager-style.m3u8", "ffmpeg-master-style.m3u8", "bento4-style.m3u8",
        "mediaconvert-style.m3u8", "steering-define-ll.m3u8", "hand-edited-bom-crlf.m3u8", "multi-angle-video.m3u8",
    ]
}

enum ThirdPartyReaders {
    static let pythonM3U8: Bool = {
        guard let python = Tools.which("python3") else { return false }
        return (try? Tools.run(python, ["-c", "import m3u8"]).status) == 0
    }()
}

/// Every finding carries a stable identifier from a rule table, and docs/checking.md lists them.
struct RuleIdentifierTests {
    @Test func everyFindingNamesARuleOfTheTables() async throws {
        let known = Set(PresentationValidator.ruleIdentifiers)
        #expect(known.count == PresentationValidator.ruleIdentifiers.count, "identifiers are unique")
        var findings: [ValidationFinding] = []
        // Broken segments and playlists of a packaged title, and every master of the corpus.
        let master = try await ValidationTests.packaged("media/ts-bframes/master.m3u8")
        let folder = try Packaged.generation(master: master, folder: "subtitles/en-en")
        try "WEBVTT\n\nX-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00:00.000\n\n00:00.000 --> 00:01.000\n<b>x\n".write(
            toFile: folder + "/00001.vtt", atomically: true, encoding: .utf8)
        try "not webvtt".write(toFile: folder + "/00002.vtt", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:4.5,\n00000.vtt\n".write(
            toFile: try Packaged.generation(master: master, folder: "subtitles/fr-fr") + "/index.m3u8", atomically: true, encoding: .utf8)
        findings += await PresentationValidator().validate(master: URL(fileURLWithPath: master)).findings
        for file in PlaylistCorpusFiles.files {
            findings += await PresentationValidator().validate(master: URL(fileURLWithPath: Fixtures.path("playlists/" + file))).findings
        }
        #expect(findings.count > 20)
        let unnamed = findings.filter { !known.contains($0.id) }
        #expect(unnamed.isEmpty, "findings without a table's identifier: \(unnamed.prefix(5))")
        let found = Set(findings.map(\.id))
        #expect(found.count >= 10, "the corpus exercises many rules (\(found.count))")
    }

    @Test func theDocsListEveryIdentifier() throws {
        let docs = try String(contentsOf: Fixtures.repository.appendingPathComponent("docs/checking.md"), encoding: .utf8)
        let missing = PresentationValidator.ruleIdentifiers.filter { !docs.contains("`\($0)`") }
        #expect(missing.isEmpty, "docs/checking.md does not list: \(missing)")
    }
}
