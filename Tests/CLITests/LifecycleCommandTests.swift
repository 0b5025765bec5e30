import Foundation
import HLS
import TestSupport
import Testing

/// A title's life through the built binary: list, remove, replace, refresh after a re-encode,
/// retiming another tool's renditions, strict and empty runs, a master written elsewhere.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct LifecycleCommandTests {
    func example() throws -> String { try Fixtures.copyExample() }

    func package(_ dir: String, _ extra: [String] = []) throws -> Tools.Outcome {
        try BuiltTool.run(
            ["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"]
                + extra)
    }

    func json(_ outcome: Tools.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout) \(outcome.stderr)")
    }

    func master(_ dir: String) throws -> MasterPlaylist {
        try MasterPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/master.m3u8"))), source: "master.m3u8")
    }

    /// Another tool's rendition (NAME "Vendor", German), declared before the first variant.
    func addVendorRendition(_ dir: String) throws {
        var text = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        text = text.replacingOccurrences(
            of: "#EXT-X-STREAM-INF",
            with: "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"Vendor\",LANGUAGE=\"de\",URI=\"vendor/de.m3u8\"\n#EXT-X-STREAM-INF",
            options: [], range: text.range(of: "#EXT-X-STREAM-INF"))
        try text.write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
    }

    @Test func listShowsIdentitiesAndOthersRenditions() throws {
        let dir = try example()
        try addVendorRendition(dir)
        #expect(try package(dir).status == 0)
        let listed = try json(try BuiltTool.run(["list", dir + "/master.m3u8", "--json"]))
        let renditions = try #require(listed["renditions"] as? [[String: Any]])
        try #require(renditions.count == 3)
        #expect(renditions.compactMap { $0["identity"] as? String } == ["external:en:en", "external:fr:fr"])
        #expect(renditions.map { $0["managed"] as? Bool } == [false, true, true])
        #expect(renditions[0]["name"] as? String == "Vendor")
        #expect(renditions[1]["cue_count"] as? Int == 4)
        #expect(renditions[1]["folder"] as? String == "subtitles/en-en")
    }

    @Test func removeTakesOutTheLineAndTheFolderAndEmptiesTheGroupLast() throws {
        let dir = try example()
        #expect(try package(dir, ["--preferred-language", "fr"]).status == 0)
        // No grace period: the removed rendition's folder goes at once.
        let removed = try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "fr", "--json", "--retire-after", "0"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let report = try json(removed)
        let gone = try #require(report["removed"] as? [[String: Any]])
        #expect(gone.map { $0["identity"] as? String } == ["external:fr:fr"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/subtitles/fr-fr"))
        var parsed = try master(dir)
        #expect(parsed.renditions.map(\.language) == ["en"])
        #expect(parsed.variants.allSatisfy { $0.attributes["SUBTITLES"]?.unquoted == "subs" })
        // The only one left: removing it drops SUBTITLES from every variant (RFC 8216bis §4.4.6.2).
        #expect(try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "en", "--language", "en", "--retire-after", "0"]).status == 0)
        parsed = try master(dir)
        #expect(parsed.renditions.filter { $0.type == .subtitles }.isEmpty)
        #expect(parsed.variants.allSatisfy { $0.attributes["SUBTITLES"] == nil })
        // Nothing Subweave added remains: the variants have back the CLOSED-CAPTIONS they had (none).
        #expect(parsed.variants.allSatisfy { $0.attributes["CLOSED-CAPTIONS"] == nil })
        #expect(!FileManager.default.fileExists(atPath: dir + "/subtitles/en-en"))
    }

    @Test func removeAppliesTheDefaultRuleToWhatRemains() throws {
        let dir = try example()
        #expect(try package(dir, ["--preferred-language", "en"]).status == 0)
        #expect(try master(dir).renditions.first { $0.language == "en" }?.isDefault == true)
        // Removing the other keeps the earlier DEFAULT; removing the DEFAULT leaves none
        // (no language was preferred in this run).
        #expect(try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "fr"]).status == 0)
        #expect(try master(dir).renditions.first { $0.language == "en" }?.isDefault == true)
    }

    @Test func removeRefusesWhatIsNotThereOrNotSubweaves() throws {
        let dir = try example()
        try addVendorRendition(dir)
        try FileManager.default.createDirectory(atPath: dir + "/vendor", withIntermediateDirectories: true)
        try "#EXTM3U\n".write(toFile: dir + "/vendor/de.m3u8", atomically: true, encoding: .utf8)
        #expect(try package(dir).status == 0)
        let before = try FolderSnapshot(dir)

        let unknown = try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "es"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("source ID \"es\" matches no subtitle rendition"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("en (en)"))
        let foreign = try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "Vendor"])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("which Subweave did not create") && foreign.stderr.contains("--force"), "\(foreign.stderr)")
        let usage = try BuiltTool.run(["remove", dir + "/master.m3u8"])
        #expect(usage.status == 64)
        #expect(try FolderSnapshot(dir).differences(to: before).isEmpty)

        let forced = try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "Vendor", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try master(dir).renditions.map(\.language) == ["en", "fr"])
        #expect(FileManager.default.fileExists(atPath: dir + "/vendor/de.m3u8"), "another tool's files are not Subweave's to delete")
    }

    @Test func replaceKeepsOnlyTheTracksGivenAndALanguageChangeIsExplained() throws {
        let dir = try example()
        #expect(try package(dir).status == 0)
        // The French file relabelled as German: a new identity beside the old one, with a warning.
        let relabelled = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/fr.vtt,language=de,id=fr"])
        #expect(relabelled.status == 0)
        #expect(relabelled.stderr.contains("was packaged before in fr"), "\(relabelled.stderr)")
        #expect(try master(dir).renditions.compactMap(\.language).sorted() == ["de", "en", "fr"])
        let replaced = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/fr.vtt,language=de,id=fr", "--replace", "--retire-after", "0",
        ])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try master(dir).renditions.compactMap(\.language) == ["de"])
        let left = try FileManager.default.contentsOfDirectory(atPath: dir + "/subtitles").sorted()
        #expect(left == ["fr-de"])
    }

    @Test func anEmptyTrackFailsUnlessAllowedAndStrictFailsOnWarnings() throws {
        let dir = try example()
        try "1\n00:10:00,000 --> 00:10:01,000\nafter the end\n".write(toFile: dir + "/late.srt", atomically: true, encoding: .utf8)
        let before = try FolderSnapshot(dir)
        let empty = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/late.srt,language=en"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("has no cue on the programme's timeline") && empty.stderr.contains("--allow-empty"), "\(empty.stderr)")
        #expect(try FolderSnapshot(dir).differences(to: before).isEmpty)
        let jsonError = try json(try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/late.srt,language=en", "--json"]))
        #expect((jsonError["error"] as? [String: Any])?["code"] as? String == "empty_track")

        let allowed = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/late.srt,language=en", "--allow-empty"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("written empty"))

        let strictDir = try example()
        let strictBefore = try FolderSnapshot(strictDir)
        let strict = try BuiltTool.run([
            "package", strictDir + "/master.m3u8", "--subtitle", "url=\(strictDir)/subs/en.srt,language=en", "--preferred-language", "english", "--strict",
        ])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("--strict") && strict.stderr.contains("Did you mean en?"), "\(strict.stderr)")
        #expect(try FolderSnapshot(strictDir).differences(to: strictBefore).isEmpty)
    }

    @Test func aTimecodedSidecarIsRecognisedAndOffsetFixesIt() throws {
        let dir = try example()
        try "1\n01:00:01,000 --> 01:00:02,000\nPrologue\n".write(toFile: dir + "/tc.srt", atomically: true, encoding: .utf8)
        let plain = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/tc.srt,language=en"])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("add offset=-01:00:00"), "\(plain.stderr)")
        let fixed = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/tc.srt,language=en,offset=-01:00:00", "--json"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let tracks = try #require(try json(fixed)["tracks"] as? [[String: Any]])
        #expect(tracks.first?["first_cue_start"] as? Double == 1.0)
    }

    @Test func aMasterWrittenElsewhereStillResolves() throws {
        let dir = try example()
        let elsewhere = try Scratch.make().path + "/out/title.m3u8"
        let outcome = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--output", elsewhere,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let written = try MasterPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: elsewhere))), source: elsewhere)
        let folder = URL(fileURLWithPath: elsewhere).deletingLastPathComponent()
        for variant in written.variants {
            let target = URL(fileURLWithPath: variant.uri, relativeTo: folder).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: target), "\(variant.uri) does not resolve from \(folder.path)")
        }
        for rendition in written.renditions {
            guard let uri = rendition.uri else { continue }
            #expect(FileManager.default.fileExists(atPath: URL(fileURLWithPath: uri, relativeTo: folder).standardizedFileURL.path), "\(uri)")
        }
        // With a base URL, the variants become absolute.
        let based = try Scratch.make().path + "/cdn.m3u8"
        let withBase = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--output", based, "--base-url",
            "https://cdn.example/title/",
        ])
        #expect(withBase.status == 0, "\(withBase.stderr)")
        let text = try String(contentsOfFile: based, encoding: .utf8)
        #expect(text.contains("\nhttps://cdn.example/title/video/high/prog.m3u8\n"), "\(text)")
        #expect(text.contains("URI=\"subtitles/en-en/"))
    }

    /// After a shorter re-encode with other segments and another start, `refresh` writes the
    /// kept cues again on the new timeline: every cue lands on its programme time from the new
    /// media's first frame (read by ffprobe), the segments mirror the new video's, and the old
    /// generation is gone.
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func refreshFollowsAReencode() throws {
        let dir = try Scratch.make().path
        try GeneratedMedia.tsVideo(folder: dir, seconds: 12, segment: 4)
        try SubtitleText.srt([(1, 2, "One"), (3.5, 4.5, "Across four"), (9, 10, "Nine")]).write(toFile: dir + "/en.srt", atomically: true, encoding: .utf8)
        #expect(try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/en.srt,language=en"]).status == 0)
        let oldGeneration = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        let unchanged = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--json"])
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect((try json(unchanged)["tracks"] as? [[String: Any]])?.first?["action"] as? String == "unchanged")

        try GeneratedMedia.tsVideo(folder: dir, seconds: 8, segment: 3, offset: 20, master: false)
        let refreshed = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--json", "--retire-after", "0"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect((try json(refreshed)["tracks"] as? [[String: Any]])?.first?["action"] as? String == "refreshed")
        let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        #expect(generation != oldGeneration)
        #expect(!FileManager.default.fileExists(atPath: oldGeneration))

        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/prog.m3u8"))), source: "prog.m3u8")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "index.m3u8")
        #expect(subtitles.segments.map(\.duration) == video.segments.map(\.duration))
        let firstPTS = try #require(try Tools.lowestVideoPTS(dir + "/" + video.segments[0].uri))
        var placed: [String: Double] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues { placed[cue.text] = cue.start }
        }
        // Nine is past the new 8 s end and is not shown; the others land where they belong.
        #expect(placed.keys.sorted() == ["Across four", "One"])
        #expect(abs((placed["One"] ?? -1) - 1) < 0.0011)
        #expect(abs((placed["Across four"] ?? -1) - 3.5) < 0.0011)
    }

    /// A re-encode that shortens the programme hides the cues past its end, with a warning, and
    /// keeps them: the next re-encode back to the full length shows every cue again.
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func cuesComeBackWhenTheProgrammeGrowsAgain() throws {
        let dir = try Scratch.make().path
        try GeneratedMedia.tsVideo(folder: dir, seconds: 60, segment: 6)
        try SubtitleText.srt([(1, 2, "One"), (20, 21, "Twenty"), (40, 41, "Forty"), (55, 56, "Fifty-five")])
            .write(toFile: dir + "/en.srt", atomically: true, encoding: .utf8)
        #expect(try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/en.srt,language=en"]).status == 0)
        func shown() throws -> [String] {
            let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
            let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
            var texts: Set<String> = []
            for segment in subtitles.segments {
                for cue in PlayerClock.place(
                    segment: try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8), firstPTS: 0, sequenceStart: 0
                ).cues {
                    texts.insert(cue.text)
                }
            }
            return texts.sorted()
        }
        #expect(try shown() == ["Fifty-five", "Forty", "One", "Twenty"])
        try GeneratedMedia.tsVideo(folder: dir, seconds: 50, segment: 6, master: false)
        let shorter = try BuiltTool.run(["refresh", dir + "/master.m3u8"])
        #expect(shorter.status == 0, "\(shorter.stderr)")
        #expect(shorter.stderr.contains("1 of its 4 cues start after the programme's end"), "\(shorter.stderr)")
        #expect(try shown() == ["Forty", "One", "Twenty"])
        try GeneratedMedia.tsVideo(folder: dir, seconds: 60, segment: 6, master: false)
        let longer = try BuiltTool.run(["refresh", dir + "/master.m3u8"])
        #expect(longer.status == 0, "\(longer.stderr)")
        #expect(!longer.stderr.contains("warning"), "\(longer.stderr)")
        #expect(try shown() == ["Fifty-five", "Forty", "One", "Twenty"], "every cue of the source is back")
    }

    /// A generation the master no longer names stays for players that loaded the earlier master:
    /// marked retired by the run that replaces it, removed by the first run the grace period later.
    @Test func aReplacedGenerationRetiresBeforeItGoes() throws {
        let dir = try example()
        #expect(try package(dir).status == 0)
        let first = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        // Another delay: a new generation; the first is retired, not removed.
        let delayed = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en,delay=0.5", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr",
            "--retire-after", "2",
        ])
        #expect(delayed.status == 0, "\(delayed.stderr)")
        let second = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        #expect(second != first)
        #expect(FileManager.default.fileExists(atPath: first + "/index.m3u8"), "players that loaded the old master still find it")
        #expect(FileManager.default.fileExists(atPath: first + "/retired"))
        #expect(!FileManager.default.fileExists(atPath: second + "/retired"))
        // Within the grace period a later run keeps it; after it, the run removes it.
        let again = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--retire-after", "2"])
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: first + "/index.m3u8"))
        sleep(3)
        let later = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--retire-after", "2"])
        #expect(later.status == 0, "\(later.stderr)")
        #expect(!FileManager.default.fileExists(atPath: first), "retired for longer than the grace period")
        #expect(FileManager.default.fileExists(atPath: second + "/index.m3u8"))
        // A removed rendition retires too, and its folder goes with its last generation.
        #expect(try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "fr", "--retire-after", "2"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/subtitles/fr-fr"))
        sleep(3)
        #expect(try BuiltTool.run(["refresh", dir + "/master.m3u8", "--retire-after", "2"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/subtitles/fr-fr"))
    }

    /// A refresh that changes nothing writes nothing: the master keeps its inode and its
    /// modification time.
    @Test func aNoOpRefreshLeavesTheMasterAlone() throws {
        let dir = try example()
        #expect(try package(dir).status == 0)
        var before = stat()
        #expect(stat(dir + "/master.m3u8", &before) == 0)
        usleep(20_000)
        let refresh = try BuiltTool.run(["refresh", dir + "/master.m3u8"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(refresh.stderr.contains("nothing was written") && !refresh.stderr.contains("wrote"), "\(refresh.stderr)")
        let again = try package(dir)
        #expect(again.status == 0 && again.stderr.contains("nothing was written"), "\(again.stderr)")
        var after = stat()
        #expect(stat(dir + "/master.m3u8", &after) == 0)
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }

    /// ffmpeg's own HLS WebVTT rendition has no X-TIMESTAMP-MAP; `refresh --retime-existing`
    /// writes it again with one, in the same place in the master, each cue on the frame the
    /// subtitle file gave it: ffmpeg times its cues from the first decode time, so with B-frames
    /// (the first frame shown two frames later) they were read two frames late.
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"), arguments: [0, 2])
    func retimeExistingFixesFFmpegsRenditions(bFrames: Int) throws {
        let dir = try Scratch.make().path
        try SubtitleText.srt([(1, 2.5, "Hello one"), (5, 6, "Hello two"), (9.5, 10, "Three")]).write(toFile: dir + "/s.srt", atomically: true, encoding: .utf8)
        let made = try Tools.run(
            Tools.ffmpeg!,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-i", dir + "/s.srt", "-t", "12",
                "-map", "0:v", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", "-bf", String(bFrames), "-g", "25", "-c:s", "webvtt", "-f",
                "hls", "-hls_time", "4",
                "-hls_playlist_type", "vod", "-var_stream_map", "v:0,s:0,sgroup:subtitle", "-master_pl_name", "ffmaster.m3u8", dir + "/out_%v.m3u8",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        // ffmpeg 5.1 leaves the variant out of this master: the ladder as a packager writes it.
        let master = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subtitle",NAME="subtitle_0",LANGUAGE="en",DEFAULT=YES,URI="out_0_vtt.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.42c00c",RESOLUTION=160x90,SUBTITLES="subtitle"
            out_0.m3u8

            """
        try master.write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        // What ffmpeg wrote: cue times with no map (programme time to hls.js).
        var intended: [String: Double] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) where name.hasSuffix(".vtt") {
            let text = try String(contentsOfFile: dir + "/" + name, encoding: .utf8)
            #expect(!text.contains("X-TIMESTAMP-MAP"))
            for cue in PlayerClock.place(segment: text, firstPTS: 0, sequenceStart: 0).cues { intended[cue.text] = cue.start }
        }
        #expect(intended.count == 3)

        let warned = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/s.srt,language=fr", "--dry-run"])
        #expect(warned.stderr.contains("no X-TIMESTAMP-MAP") && warned.stderr.contains("--retime-existing"), "\(warned.stderr)")

        let outcome = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--retime-existing", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[2].hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES,URI=\"subtitles/retimed-subtitle_0-en/"), "\(lines[2])")
        #expect(lines[2].contains("NAME=\"subtitle_0\"") && lines[2].contains("DEFAULT=YES"))
        let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/retimed-subtitle_0-en")
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/out_0.m3u8"))), source: "out_0.m3u8")
        let firstPTS = try #require(try Tools.lowestVideoPTS(dir + "/" + video.segments[0].uri))
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "index.m3u8")
        var placed: [String: Double] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            let result = PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0)
            #expect(result.map != nil)
            for cue in result.cues { placed[cue.text] = cue.start }
        }
        #expect(placed.keys.sorted() == intended.keys.sorted())
        // On the frame the subtitle file said, counted from the first frame shown.
        for (text, time) in [("Hello one", 1.0), ("Hello two", 5.0), ("Three", 9.5)] {
            #expect(abs((placed[text] ?? -1) - time) < 0.0011, "\(text) at \(placed[text] ?? -1), ffmpeg wrote \(intended[text] ?? -1)")
        }
        // ffmpeg's files are left where they were.
        #expect(FileManager.default.fileExists(atPath: dir + "/out_0_vtt.m3u8"))
    }

    /// Another tool's rendition with one 0-byte segment: read as no cues there, said by name,
    /// and the missing-map warning still given (the whole run failed, and the warning was hidden).
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func anEmptySegmentOfAnotherToolsRenditionIsNamed() throws {
        let dir = try Scratch.make().path
        try SubtitleText.srt([(1, 2.5, "Hello one"), (5, 6, "Hello two"), (9.5, 10, "Three")]).write(toFile: dir + "/s.srt", atomically: true, encoding: .utf8)
        let made = try Tools.run(
            Tools.ffmpeg!,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-i", dir + "/s.srt", "-t", "12",
                "-map", "0:v", "-map", "1", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:s", "webvtt", "-f", "hls", "-hls_time", "4",
                "-hls_playlist_type", "vod", "-var_stream_map", "v:0,s:0,sgroup:subtitle", "-master_pl_name", "ffmaster.m3u8", dir + "/out_%v.m3u8",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        try """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subtitle",NAME="subtitle_0",LANGUAGE="en",URI="out_0_vtt.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=300000,SUBTITLES="subtitle"
        out_0.m3u8

        """.write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        let vtt = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".vtt") }.sorted()
        try Data().write(to: URL(fileURLWithPath: dir + "/" + vtt[1]))
        let warned = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/s.srt,language=fr", "--dry-run"])
        #expect(warned.status == 0 && warned.stderr.contains("no X-TIMESTAMP-MAP"), "\(warned.stderr)")
        #expect(warned.stderr.contains("\(vtt[1]) is empty (0 bytes)"), "\(warned.stderr)")
        let retimed = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--retime-existing"])
        #expect(retimed.status == 0 && retimed.stderr.contains("is empty (0 bytes)"), "\(retimed.stderr)")
    }

    /// A rendition of WebVTT in fragmented MP4 (`wvtt`), which HLS does not define: named for
    /// what it is by package and validate, and left alone (it was reported as broken text).
    @Test func aWebVTTInFragmentedMP4RenditionIsNamedAndLeftAlone() throws {
        let dir = try example()
        try Data(ISOBoxes.textInitialization(entry: "wvtt")).write(to: URL(fileURLWithPath: dir + "/init.mp4"))
        // A media segment: an empty moof/mdat is enough for what is read (the sample entry).
        try Data(ISOBoxes.box("moof", []) + ISOBoxes.box("mdat", [])).write(to: URL(fileURLWithPath: dir + "/w0.m4s"))
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:10,\nw0.m4s\n#EXT-X-ENDLIST\n"
            .write(toFile: dir + "/wvtt.m3u8", atomically: true, encoding: .utf8)
        let master = dir + "/master.m3u8"
        var text = try String(contentsOfFile: master, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "#EXT-X-INDEPENDENT-SEGMENTS\n",
            with: "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"wvtt\",LANGUAGE=\"de\",URI=\"wvtt.m3u8\"\n")
        text = text.replacingOccurrences(of: "FRAME-RATE=25.000\n", with: "FRAME-RATE=25.000,SUBTITLES=\"subs\"\n")
        try text.write(toFile: master, atomically: true, encoding: .utf8)
        let validated = try BuiltTool.run(["validate", master])
        #expect(validated.stdout.contains("WebVTT in fragmented MP4 (wvtt)"), "\(validated.stdout)")
        #expect(!validated.stdout.contains("WEBVTT signature"), "read as text: \(validated.stdout)")
        let packaged = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--retime-existing"])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        #expect(packaged.stderr.contains("WebVTT in fragmented MP4 (wvtt)") && packaged.stderr.contains("left as it is"), "\(packaged.stderr)")
        #expect(try String(contentsOfFile: master, encoding: .utf8).contains("URI=\"wvtt.m3u8\""))
    }

    /// A TTML track without language= takes its document's xml:lang (identity, folder, label);
    /// without either, the run says what is missing.
    @Test func ttmlTakesItsLanguageFromTheFile() throws {
        let dir = try example()
        let document = """
            <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="de"><body><div>
            <p begin="00:00:01.000" end="00:00:02.000">Guten Tag</p></div></body></tt>
            """
        try document.write(toFile: dir + "/de.ttml", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/de.ttml", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let tracks = try #require(try json(outcome)["tracks"] as? [[String: Any]])
        #expect(tracks.first?["identity"] as? String == "external:de:de")
        #expect(tracks.first?["ingest_format"] as? String == "ttml_converted")
        #expect(try master(dir).renditions.contains { $0.language == "de" && $0.name == "Deutsch" })
        try document.replacingOccurrences(of: " xml:lang=\"de\"", with: "").write(toFile: dir + "/none.ttml", atomically: true, encoding: .utf8)
        let refused = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/none.ttml"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("xml:lang"), "\(refused.stderr)")
    }
}
