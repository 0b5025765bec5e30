import Foundation
import TestSupport
import Testing

/// Concurrent and killed runs: several runs on one folder must all land, and a run killed at any
/// moment (`kill -9`) must leave a presentation whose master names only complete files, with the
/// next run removing every leftover.
///
/// The checks read the files as text, independently of Subweave.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"), .serialized)
struct CrashSafetyTests {
    /// The example asset with a long reference playlist (the same five segments listed again and
    /// again), so that a run writes thousands of files and a kill lands in the middle of it.
    static func longAsset(segments: Int) throws -> String {
        let dir = try Fixtures.copyExample()
        let original = try String(contentsOfFile: dir + "/video/low/prog.m3u8", encoding: .utf8)
        let entries = original.components(separatedBy: "\n").filter { $0.hasSuffix(".ts") }
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<segments { text += "#EXTINF:2.000000,\n\(entries[index % entries.count])\n" }
        text += "#EXT-X-ENDLIST\n"
        try text.write(toFile: dir + "/video/low/prog.m3u8", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=160000,RESOLUTION=320x180\nvideo/low/prog.m3u8\n".write(
            toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        var srt = ""
        for i in 0..<segments / 2 { srt += "\(i + 1)\n\(SubtitleText.time(Double(i * 4) + 0.5)) --> \(SubtitleText.time(Double(i * 4) + 2.5))\nLine \(i)\n\n" }
        try srt.write(toFile: dir + "/subs/long.srt", atomically: true, encoding: .utf8)
        return dir
    }

    /// What is wrong with the presentation in `dir` as a player would read it: every rendition the
    /// master names has its playlist, every segment that playlist lists exists and is WebVTT, and
    /// all of them sit in the playlist's own folder (one generation).
    static func inconsistencies(_ dir: String) throws -> [String] {
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        guard master.hasPrefix("#EXTM3U") else { return ["the master is not a playlist"] }
        var problems: [String] = []
        for line in master.components(separatedBy: "\n") where line.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") {
            guard let start = line.range(of: "URI=\""), let end = line[start.upperBound...].firstIndex(of: "\"") else { continue }
            let uri = String(line[start.upperBound..<end])
            let playlistPath = dir + "/" + uri
            guard let playlist = try? String(contentsOfFile: playlistPath, encoding: .utf8) else {
                problems.append("\(uri) is missing")
                continue
            }
            let segments = playlist.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.hasPrefix("#") }
            if !playlist.contains("#EXT-X-ENDLIST") { problems.append("\(uri) is cut short") }
            let folder = (playlistPath as NSString).deletingLastPathComponent
            for segment in segments {
                if segment.contains("/") { problems.append("\(uri) names \(segment) outside its generation") }
                guard let text = try? String(contentsOfFile: folder + "/" + segment, encoding: .utf8), text.hasPrefix("WEBVTT") else {
                    problems.append("\(uri): \(segment) is missing or not WebVTT")
                    break
                }
            }
        }
        return problems
    }

    /// Entries a killed run may leave (Subweave names them `.subweave-*`).
    static func leftovers(_ dir: String) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: dir)
        while let path = enumerator?.nextObject() as? String {
            if (path as NSString).lastPathComponent.hasPrefix(".subweave-") { found.append(path) }
        }
        return found
    }

    /// The generation folders under `dir/subtitles/<x>/` that the master does not name.
    static func orphanGenerations(_ dir: String) throws -> [String] {
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        var orphans: [String] = []
        for root in ["subtitles", "captions"] {
            for rendition in (try? FileManager.default.contentsOfDirectory(atPath: dir + "/" + root)) ?? [] where !rendition.hasPrefix(".") {
                for generation in (try? FileManager.default.contentsOfDirectory(atPath: dir + "/\(root)/\(rendition)")) ?? []
                where !generation.hasPrefix(".") && !master.contains("\(root)/\(rendition)/\(generation)/") {
                    orphans.append("\(root)/\(rendition)/\(generation)")
                }
            }
        }
        return orphans
    }

    @Test func killedAtRandomMomentsEveryStateIsConsistent() throws {
        let dir = try Self.longAsset(segments: 600)
        let binary = try #require(BuiltTool.subweave)
        func arguments(_ trial: Int) -> [String] {
            // The delay changes every trial, so each run writes a new generation over the last.
            [
                "package", dir + "/master.m3u8", "--captions", "off",
                "--subtitle", "url=\(dir)/subs/long.srt,language=en,delay=\(Double(trial % 7) / 10)",
                "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr,delay=\(Double(trial % 5) / 10)",
            ]
        }
        // How long a whole run takes here, to spread the kills over it: timed on a run like the
        // trials' (the first run also reads the video for its captions, which later runs answer
        // from its record, so timing it would put most kills after the end).
        #expect(try Tools.run(binary, arguments(0)).status == 0)
        let started = Date()
        #expect(try Tools.run(binary, arguments(100)).status == 0)
        let runTime = max(0.05, Date().timeIntervalSince(started))
        var generator = SystemRandomNumberGenerator()
        var killedMidRun = 0
        for trial in 1...100 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments(trial)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0...runTime * 1.2, using: &generator) * 1_000_000))
            if process.isRunning { killedMidRun += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let problems = try Self.inconsistencies(dir)
            #expect(problems.isEmpty, "trial \(trial): \(problems)")
            if !problems.isEmpty { return }
        }
        #expect(killedMidRun >= 20, "most kills should land while the run is working (\(killedMidRun) of 100)")
        // The next complete run removes what the killed ones left, and only that (with no grace
        // period, the generations the master no longer names too).
        #expect(try Tools.run(binary, arguments(101) + ["--retire-after", "0"]).status == 0)
        #expect(Self.leftovers(dir) == [])
        #expect(try Self.orphanGenerations(dir) == [])
        #expect(try Self.inconsistencies(dir) == [])
        #expect(FileManager.default.fileExists(atPath: dir + "/video/low/seg_000.ts"), "the video is untouched")
    }

    @Test func concurrentRunsAllLand() throws {
        let binary = try #require(BuiltTool.subweave)
        for repetition in 1...20 {
            let dir = try Fixtures.copyExample()
            var processes: [Process] = []
            for (id, language) in [("en", "en"), ("fr", "fr"), ("de", "de"), ("es", "es")] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: binary)
                let source = id == "fr" ? "\(dir)/subs/fr.vtt" : "\(dir)/subs/en.srt"
                process.arguments = ["package", dir + "/master.m3u8", "--captions", "off", "--subtitle", "url=\(source),id=\(id),language=\(language)"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                processes.append(process)
            }
            for process in processes {
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "repetition \(repetition)")
            }
            let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
            for language in ["en", "fr", "de", "es"] {
                #expect(master.contains("LANGUAGE=\"\(language)\""), "repetition \(repetition): the \(language) rendition was lost")
            }
            #expect(try Self.inconsistencies(dir) == [])
            #expect(Self.leftovers(dir) == [])
        }
    }
}
