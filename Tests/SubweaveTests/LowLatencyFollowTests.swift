import Foundation
import HLS
import Subweave
import Synchronization
import TestSupport
import Testing

/// Following a low-latency video (parts, RFC 8216bis §4.4.3.7-4.4.5): the subtitle playlist
/// mirrors the video's parts at every pass, each cue is in the part of the video it starts in,
/// and no published part or segment ever changes.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct LowLatencyFollowTests {
    /// Every pass: the subtitle playlist against the video playlist as the pass read it.
    final class Observer: Sendable {
        let folder: String
        let problems = Mutex<[String]>([])
        /// Every subtitle part and segment file when first seen (name → text).
        let seen = Mutex<[String: String]>([:])
        let passes = Mutex(0)

        init(folder: String) { self.folder = folder }

        func problem(_ text: String) { problems.withLock { $0.append(text) } }

        func check() {
            passes.withLock { $0 += 1 }
            do {
                guard let generation = try? Packaged.generation(master: folder + "/master.m3u8", folder: "subtitles/en-en") else { return }
                let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "subs")
                let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "prog.m3u8")
                if subtitles.partTarget != video.partTarget { problem("PART-TARGET \(subtitles.partTarget ?? "none") for \(video.partTarget ?? "none")") }
                let control = subtitles.serverControl
                if control?["PART-HOLD-BACK"]?.rawValue != "1.2" || control?["CAN-SKIP-UNTIL"] != nil {
                    problem(
                        "EXT-X-SERVER-CONTROL \(control?.text ?? "missing"): PART-HOLD-BACK kept, CAN-SKIP-UNTIL (a delta update a file cannot give) left out")
                }
                if subtitles.segments.count != video.segments.count { problem("\(subtitles.segments.count) segments for \(video.segments.count)") }
                var listed: [String] = []
                for (ours, theirs) in zip(subtitles.segments, video.segments) {
                    if ours.parts.map(\.durationText) != theirs.parts.map(\.durationText) || ours.parts.map(\.independent) != theirs.parts.map(\.independent) {
                        problem("segment \(ours.uri): parts \(ours.parts.map(\.durationText)) for \(theirs.parts.map(\.durationText))")
                    }
                    listed += ours.parts.map(\.uri) + [ours.uri]
                }
                if subtitles.trailingParts.map(\.durationText) != video.trailingParts.map(\.durationText) {
                    problem("trailing parts \(subtitles.trailingParts.map(\.durationText)) for \(video.trailingParts.map(\.durationText))")
                }
                listed += subtitles.trailingParts.map(\.uri)
                if (subtitles.preloadHint == nil) != (video.preloadHint == nil) { problem("preload hint \(subtitles.preloadHint?.text ?? "none")") }
                // What a playlist lists exists, and never changes once listed.
                for name in listed {
                    guard let text = try? String(contentsOfFile: generation + "/" + name, encoding: .utf8) else {
                        problem("\(name) is listed but missing")
                        continue
                    }
                    seen.withLock { seen in
                        if let first = seen[name], first != text { problems.withLock { $0.append("\(name) changed after it was listed") } }
                        seen[name] = seen[name] ?? text
                    }
                }
            } catch {
                problem("\(error)")
            }
        }
    }

    @Test func partsMirrorTheVideosAndCarryEachCueInThePartItStartsIn() async throws {
        let folder = try Scratch.make().path
        // In one part; across parts of a segment; across two segments' parts.
        let english: [(Double, Double, String)] = [(0.5, 1.0, "Half"), (2.9, 3.1, "In a part"), (4.05, 4.75, "Across parts"), (7.9, 8.3, "Across segments")]
        try SubtitleText.srt(english).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let simulator = try LowLatencySimulator(folder: folder, seconds: 10)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 30
        let observer = Observer(folder: folder)
        follower.onUpdate = { _ in
            observer.check()
            simulator.publishNext()
        }
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        #expect(observer.problems.withLock { $0 } == [])
        #expect(report.partsWritten == 25 && report.segmentsWritten == 5, "\(report)")
        #expect(observer.passes.withLock { $0 } >= 20, "a pass per published part")

        // Each cue is in every part it shows during, from the part it starts in, on its time.
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "subtitles/en-en")
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/v000.ts"))
        for (start, end, text) in english {
            for (segment, part, window) in simulator.partWindows where window.lowerBound < end && window.upperBound > start {
                let name = String(format: "%05d.p%d.vtt", segment, part)
                let content = try String(contentsOfFile: generation + "/" + name, encoding: .utf8)
                let placed = PlayerClock.place(segment: content, firstPTS: firstPTS, sequenceStart: 0).cues.filter { $0.text == text }
                #expect(placed.count == 1, "\(text) in \(name): \(content)")
                if let cue = placed.first { #expect(abs(cue.start - start) < 0.0011 && abs(cue.end - end) < 0.0011, "\(text) in \(name) at \(cue.start)") }
            }
        }
        // A segment is exactly what its parts published: the same cues.
        for segment in 0..<5 {
            let texts = { (name: String) throws -> Set<String> in
                Set(
                    PlayerClock.place(segment: try String(contentsOfFile: generation + "/" + name, encoding: .utf8), firstPTS: firstPTS, sequenceStart: 0).cues
                        .map(\.text))
            }
            let parts = try (0..<5).map { try texts(String(format: "%05d.p%d.vtt", segment, $0)) }.reduce(Set<String>()) { $0.union($1) }
            #expect(try texts(String(format: "%05d.vtt", segment)) == parts, "segment \(segment)")
        }
        // The ended playlist: parts of the last segments, no preload hint, ENDLIST.
        let playlist = try String(contentsOfFile: generation + "/index.m3u8", encoding: .utf8)
        #expect(
            playlist.contains("#EXT-X-PART-INF:PART-TARGET=0.4") && !playlist.contains("PRELOAD-HINT") && playlist.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlist)")
    }
}
