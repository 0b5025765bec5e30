import Foundation
import TestSupport
import Testing

/// MacCaption files: the 608 and 708 services they carry, read through the decoders captions in
/// video go through, checked against ffmpeg's MCC reader and against the same captions in video.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
struct MCCCommandTests {
    /// Fixtures/captions/programme.mcc, made by Fixtures/captions/make-mcc.sh (ffmpeg 8.1's muxer)
    /// from programme.ts with CEA-708 services added.
    static var fixture: String { Fixtures.path("captions/programme.mcc") }

    typealias Timed = (start: Double, end: Double, text: String)

    static func cues(_ arguments: [String]) throws -> [Timed] {
        let outcome = try BuiltTool.run(["cues"] + arguments + ["--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return ((json?["cues"] as? [[String: Any]]) ?? []).map {
            ($0["startTime"] as? Double ?? -1, $0["endTime"] as? Double ?? -1, $0["text"] as? String ?? "")
        }
    }

    /// ffmpeg's MCC demuxer and 608 decoder give CC1's captions at the same times, with the same
    /// text (its SubRip output wraps each in a font tag and an {\an7} placement).
    @Test func cc1AsFFmpegReadsIt() throws {
        let ffmpeg = try Tools.run(Tools.ffmpeg!, ["-hide_banner", "-loglevel", "error", "-i", Self.fixture, "-f", "srt", "-"])
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let theirs = SubRipBlocks.parse(ffmpeg.stdout).map { block -> Timed in
            let text = block.text.replacingOccurrences(of: #"<[^>]*>|\{[^}]*\}"#, with: "", options: .regularExpression)
            return (block.start, block.end, text)
        }
        let ours = try Self.cues([Self.fixture])
        #expect(ours.count == 9 && theirs.count == ours.count, "\(ours.count) cues, ffmpeg \(theirs.count)")
        for (a, b) in zip(ours, theirs) {
            #expect(a.text == b.text)
            #expect(abs(a.start - b.start) < 0.002 && abs(a.end - b.end) < 0.002, "\(a) against ffmpeg's \(b)")
        }
    }

    /// Every service of the MCC file equals the same service decoded from its video.
    ///
    /// The file was made from that video; ffmpeg wrote the 29.97 fps video's times as 30 fps timecodes (the nearest frame), so
    /// read at the file's own rate each time is within half a 30 fps frame of the video's.
    @Test func everyServiceAsInTheVideo() throws {
        let dir = try Scratch.make().path
        let clip = dir + "/clip.ts", video = dir + "/p708.ts"
        let encoded = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-i", Fixtures.path("captions/programme.ts"), "-vf", "scale=320:180", "-c:v", "libx264",
                "-preset", "ultrafast", "-bf", "0", "-a53cc", "1", "-an", "-f", "mpegts", clip,
            ])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let injected = try Tools.run("/usr/bin/env", ["python3", Fixtures.repository.appendingPathComponent("Benchmarks/dtvcc_inject.py").path, clip, video])
        try #require(injected.status == 0, "\(injected.stderr)")
        let listed = try BuiltTool.run(["captions", video, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let services = try #require(json["services"] as? [[String: Any]])
        #expect(services.compactMap { $0["service"] as? String } == ["CC1", "CC3", "SERVICE1", "SERVICE2"])
        for service in services {
            let name = try #require(service["service"] as? String)
            let inVideo = ((service["cues"] as? [[String: Any]]) ?? []).map {
                ($0["startTime"] as? Double ?? -1, $0["endTime"] as? Double ?? -1, $0["text"] as? String ?? "")
            }
            let inFile = try Self.cues([Self.fixture, "--service", name])
            #expect(inFile.count == inVideo.count && !inFile.isEmpty, "\(name): \(inFile.count) cues, \(inVideo.count) in the video")
            for (a, b) in zip(inFile, inVideo) {
                #expect(a.text == b.2, "\(name)")
                #expect(abs(a.start - b.0) <= 0.0167 && abs(a.end - b.1) <= 0.0167, "\(name): \(a) against the video's \(b)")
            }
        }
        // `captions FILE.mcc` lists the same services.
        let fromFile = try BuiltTool.run(["captions", Self.fixture])
        #expect(fromFile.status == 0 && fromFile.stdout.contains("SERVICE2: 20 cues") && fromFile.stdout.contains("CC3: 15 cues"), "\(fromFile.stdout)")
    }

    /// As a sidecar: every service with text becomes a rendition, with the --caption-service
    /// settings in-band captions take; a track naming its service= takes that one; a damaged file
    /// is refused by name; what is written validates.
    @Test func sidecarTakesItsService() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: dir + "/subs/cc.mcc")
        let every = try BuiltTool.run([
            "package", master, "--subtitle", "url=\(dir)/subs/cc.mcc,language=en", "--caption-service", "SERVICE2:language=es,name=Español",
            "--caption-service", "CC3:publish=no", "--json",
        ])
        #expect(every.status == 0, "\(every.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(every.stdout.utf8)) as? [String: Any])
        let tracks = try #require(report["tracks"] as? [[String: Any]])
        #expect(
            tracks.compactMap { $0["identity"] as? String }.sorted() == ["external:cc-cc1:en", "external:cc-service1:en", "external:cc-service2:es"],
            "\(tracks)")
        #expect(tracks.allSatisfy { $0["ingest_format"] as? String == "mcc_converted" })
        let text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(text.contains("NAME=\"English (CC1)\"") && text.contains("NAME=\"Español\"") && text.contains("NAME=\"English (SERVICE1)\""), "\(text)")
        let validated = try BuiltTool.run(["validate", master])
        #expect(validated.status == 0 && validated.stderr.contains("0 errors"), "\(validated.stdout)\(validated.stderr)")

        // Later commands keep them: refresh, then one taken out by its id.
        let refreshed = try BuiltTool.run(["refresh", master])
        let afterRefresh = try String(contentsOfFile: master, encoding: .utf8)
        #expect(refreshed.status == 0 && afterRefresh == text, "\(refreshed.stderr)")
        let removed = try BuiltTool.run(["remove", master, "--id", "cc-service1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let after = try String(contentsOfFile: master, encoding: .utf8)
        #expect(!after.contains("English (SERVICE1)") && after.contains("NAME=\"Español\""), "\(after)")
        let revalidated = try BuiltTool.run(["validate", master])
        #expect(revalidated.status == 0 && revalidated.stderr.contains("0 errors"), "\(revalidated.stdout)\(revalidated.stderr)")

        let single = try BuiltTool.run([
            "package", master, "--subtitle", "url=\(dir)/subs/cc.mcc,id=cc-es,language=es,name=Subtítulos,service=SERVICE2", "--dry-run", "--json",
        ])
        #expect(single.status == 0, "\(single.stderr)")
        let singleReport = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
        let added = (singleReport["tracks"] as? [[String: Any]])?.first { $0["identity"] as? String == "external:cc-es:es" }
        #expect(added?["cue_count"] as? Int == 10, "\(singleReport["tracks"] ?? "")")
        try "File Format=MacCaption_MCC V1.0\n\n00:00:00:00\tT13S135F43ZZ72E2QR74ZZ8B75\n00:00:01:00\tT13S13X\n".write(
            toFile: dir + "/subs/bad.mcc", atomically: true, encoding: .utf8)
        let damaged = try BuiltTool.run(["cues", dir + "/subs/bad.mcc"])
        #expect(damaged.status == 0 && damaged.stderr.contains("line 4: line skipped") && damaged.stderr.contains("U+0058"), "\(damaged.stderr)")
        try "File Format=SomethingElse\n".write(toFile: dir + "/subs/not.mcc", atomically: true, encoding: .utf8)
        let refused = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/not.mcc,language=en", "--dry-run"])
        #expect(refused.status == 1 && refused.stderr.contains("not.mcc") && refused.stderr.contains("MacCaption_MCC"), "\(refused.stderr)")
    }
}

/// SubRip blocks as ffmpeg writes them, for comparison.
enum SubRipBlocks {
    static func parse(_ text: String) -> [(start: Double, end: Double, text: String)] {
        func seconds(_ s: Substring) -> Double {
            let parts = s.replacingOccurrences(of: ",", with: ".").split(separator: ":")
            guard parts.count == 3 else { return -1 }
            return (Double(parts[0]) ?? 0) * 3600 + (Double(parts[1]) ?? 0) * 60 + (Double(parts[2]) ?? 0)
        }
        return text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 3, let arrow = lines[1].range(of: " --> ") else { return nil }
            return (seconds(lines[1][..<arrow.lowerBound]), seconds(lines[1][arrow.upperBound...]), lines[2...].joined(separator: "\n"))
        }
    }
}
