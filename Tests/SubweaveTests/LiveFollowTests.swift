import Foundation
import HLS
import Subweave
import Synchronization
import TestSupport
import Testing

/// Following live presentations that ffmpeg writes in real time (`-re`).
///
/// An EVENT playlist, a sliding window that deletes its segments, a subtitle file a captioner
/// appends to, in-band captions, and a follow killed and restarted. At every pass the subtitle
/// playlists must mirror the video playlist as it then stands, and no published segment may ever
/// change.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct LiveFollowTests {
    /// Starts ffmpeg writing `seconds` of live HLS (2 s segments) into `folder`, with a master.
    static func liveEncoder(folder: String, seconds: Int, slidingWindow: Int? = nil, input: [String]? = nil) throws -> Process {
        let ffmpeg = try #require(Tools.ffmpeg)
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.42c00c\",RESOLUTION=160x90\nprog.m3u8\n"
            .write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let source =
            input ?? ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", "25"]
        let window =
            slidingWindow.map { ["-hls_list_size", String($0), "-hls_flags", "delete_segments"] } ?? ["-hls_playlist_type", "event"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments =
            ["-nostdin", "-loglevel", "error", "-re"] + source + ["-f", "hls", "-hls_time", "2"] + window
            + ["-hls_segment_filename", folder + "/v%03d.ts", folder + "/prog.m3u8"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The follow starts once the first segment is published.
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: folder + "/prog.m3u8") && Date() < deadline { usleep(50_000) }
        return process
    }

    /// Every pass: the subtitle playlist against the video playlist read right after it.
    final class Observer: Sendable {
        let folder: String
        let problems = Mutex<[String]>([])
        /// Bytes of every subtitle segment when first seen (media sequence number → bytes).
        let seen = Mutex<[String: [UInt8]]>([:])
        let passes = Mutex(0)

        init(folder: String) { self.folder = folder }

        /// `window`: the video playlist's window as the pass read it (the video may have moved on since).
        func check(_ window: (mediaSequence: Int, count: Int)) {
            passes.withLock { $0 += 1 }
            do {
                let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
                guard let start = master.range(of: "URI=\"subtitles/"), let end = master[start.upperBound...].firstIndex(of: "\"") else {
                    return  // the master is written at the end of the first pass
                }
                let playlistPath = folder + "/" + master[master.index(start.lowerBound, offsetBy: 5)..<end]
                let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: playlistPath))), source: playlistPath)
                let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "prog.m3u8")
                let generation = (playlistPath as NSString).deletingLastPathComponent
                for (index, segment) in subtitles.segments.enumerated() {
                    let number = subtitles.mediaSequence + index
                    let position = number - video.mediaSequence
                    if position >= 0 && position < video.segments.count {
                        let theirs = video.segments[position]
                        if theirs.duration != segment.duration || theirs.discontinuity != segment.discontinuity {
                            problems.withLock { $0.append("segment \(number): EXTINF/discontinuity differ from the video's") }
                        }
                    }
                    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: generation + "/" + segment.uri)))
                    guard bytes.starts(with: Array("WEBVTT".utf8)) else {
                        problems.withLock { $0.append("segment \(number) is not WebVTT") }
                        continue
                    }
                    seen.withLock { seen in
                        if let first = seen[segment.uri], first != bytes {
                            problems.withLock { $0.append("published segment \(segment.uri) changed") }
                        } else {
                            seen[segment.uri] = bytes
                        }
                    }
                }
                if subtitles.mediaSequence != window.mediaSequence || subtitles.segments.count != window.count {
                    problems.withLock {
                        $0.append(
                            "the subtitle window (\(subtitles.mediaSequence), \(subtitles.segments.count)) is not the video's (\(window.mediaSequence), \(window.count))"
                        )
                    }
                }
            } catch {
                problems.withLock { $0.append("\(error)") }
            }
        }
    }

    /// Seven cues, "Cue i" from 2i + 0.5 s to 2i + 1.5 s.
    static let everyTwoSeconds: String = {
        var cues: [(Double, Double, String)] = []
        for i in 0..<7 {
            let start = Double(i) * 2 + 0.5
            cues.append((start, start + 1, "Cue \(i)"))
        }
        return SubtitleText.srt(cues)
    }()

    /// Follows `folder/master.m3u8` with `folder/en.srt` to the end, checking every pass.
    static func followEnglish(_ folder: String) async throws {
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 30
        let observer = Observer(folder: folder)
        follower.onUpdate = { update in observer.check((update.mediaSequence, update.segmentCount)) }
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        #expect(observer.problems.withLock { $0 } == [])
    }

    /// Cue times as hls.js places them, from ffprobe's first PTS of the first segment.
    static func placed(_ folder: String, firstSegment: String) throws -> [String: Double] {
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        let start = try #require(master.range(of: "URI=\"subtitles/"))
        let end = try #require(master[start.upperBound...].firstIndex(of: "\""))
        let playlistPath = folder + "/" + master[master.index(start.lowerBound, offsetBy: 5)..<end]
        let generation = (playlistPath as NSString).deletingLastPathComponent
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: playlistPath))), source: playlistPath)
        let firstPTS = try #require(try Tools.lowestVideoPTS(firstSegment))
        var placed: [String: Double] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues { placed[cue.text] = placed[cue.text] ?? cue.start }
        }
        return placed
    }

    /// Runs `subweave` with `arguments` and kills it (SIGKILL) once `rendition`'s playlist lists
    /// more than `segments` segments, whatever the machine's load (30 s at most).
    static func killOncePublished(_ binary: String, _ arguments: [String], master: String, rendition: String, segments: Int) async throws {
        let first = Process()
        first.executableURL = URL(fileURLWithPath: binary)
        first.arguments = arguments
        first.standardError = FileHandle.nullDevice
        try first.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let generation = try? Packaged.generation(master: master, folder: rendition),
                let text = try? String(contentsOfFile: generation + "/index.m3u8", encoding: .utf8),
                text.components(separatedBy: "#EXTINF").count > segments + 1
            {
                break
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
    }

    @Test func followsAnEventPlaylistAndGrowingSubtitles() async throws {
        let folder = try Scratch.make().path
        // The captioner's file: two cues now; appended once segment 3 (6-8 s) is out, one from 5 s
        // to 9 s (its segments 4-6 s and 6-8 s are published: it shows from 8 s), one from 5 s to
        // 7.5 s (every segment it shows in is published: missed, and said), and one for 10 s in time.
        try SubtitleText.srt([(0.5, 1.5, "One"), (3.5, 4.5, "Across four")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try LiveSimulator(folder: folder, seconds: 12)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 30
        let observer = Observer(folder: folder)
        let appended = Mutex(false)
        follower.onUpdate = { update in
            observer.check((update.mediaSequence, update.segmentCount))
            if update.newSegments.contains(3), !appended.withLock({ $0 }) {
                appended.withLock { $0 = true }
                let late = "3\n00:00:05,000 --> 00:00:09,000\nLate cue\n\n4\n00:00:05,000 --> 00:00:07,500\nMissed\n\n5\n00:00:10,000 --> 00:00:11,000\nTen\n\n"
                if let handle = FileHandle(forWritingAtPath: folder + "/en.srt") {
                    handle.seekToEndOfFile()
                    handle.write(Data(late.utf8))
                    try? handle.close()
                }
            }
            encoder.publishNext()
        }
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        #expect(observer.problems.withLock { $0 } == [])
        #expect(observer.passes.withLock { $0 } == 6, "one pass per published segment")
        #expect(report.lateCues == ["external:en:en": 1] && report.missedCues == ["external:en:en": 1], "\(report)")
        let placed = try Self.placed(folder, firstSegment: folder + "/v000.ts")
        #expect(placed.keys.sorted() == ["Across four", "Late cue", "One", "Ten"])
        for (text, time) in [("One", 0.5), ("Across four", 3.5), ("Late cue", 8.0), ("Ten", 10.0)] {
            #expect(abs((placed[text] ?? -1) - time) < 0.0011, "\(text) at \(placed[text] ?? -1)")
        }
        let playlist = try String(
            contentsOfFile: try Packaged.generation(master: folder + "/master.m3u8", folder: "subtitles/en-en") + "/index.m3u8", encoding: .utf8)
        #expect(playlist.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && playlist.hasSuffix("#EXT-X-ENDLIST\n"))
    }

    /// The same with ffmpeg publishing in real time (`-re`): whatever the follow sees of it, the
    /// subtitle playlist mirrors the video's at every pass and the cues land on their times.
    @Test func followsFFmpegInRealTime() async throws {
        let folder = try Scratch.make().path
        try Self.everyTwoSeconds.write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 14)
        defer { encoder.terminate() }
        try await Self.followEnglish(folder)
        let placed = try Self.placed(folder, firstSegment: folder + "/v000.ts")
        for i in 0..<7 { #expect(abs((placed["Cue \(i)"] ?? -1) - (Double(i) * 2 + 0.5)) < 0.0011, "Cue \(i)") }
    }

    /// The command's status: a line per publication pass on stderr (off a terminal), the media
    /// sequence growing, and the segments each pass wrote adding up to the total.
    @Test(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
    func theCommandSaysEachPass() async throws {
        let folder = try Scratch.make().path
        try Self.everyTwoSeconds.write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 8)
        defer { encoder.terminate() }
        let run = try BuiltTool.run([
            "package", folder + "/master.m3u8", "--subtitle", "url=\(folder)/en.srt,language=en", "--captions", "off", "--follow", "--poll", "0.25",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let passes = run.stderr.split(separator: "\n").filter { $0.hasPrefix("pass ") }
        #expect(passes.count >= 2, "\(run.stderr)")
        for (index, line) in passes.enumerated() { #expect(line.hasPrefix("pass \(index + 1): media sequence 0-"), "\(line)") }
        #expect(passes.last?.contains("ended") == true, "\(run.stderr)")
        let written = passes.compactMap { line -> Int? in
            guard let plus = line.range(of: "external:en:en +") else { return nil }
            return Int(line[plus.upperBound...].prefix { $0.isNumber })
        }
        let total = run.stderr.components(separatedBy: "the playlist ended: ").last?.prefix { $0.isNumber }
        #expect(String(written.reduce(0, +)) == total.map(String.init), "\(run.stderr)")
    }

    @Test func slidesWithASlidingWindow() async throws {
        let folder = try Scratch.make().path
        try Self.everyTwoSeconds.write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 14, slidingWindow: 3)
        defer { encoder.terminate() }
        try await Self.followEnglish(folder)
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "subtitles/en-en")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "v")
        #expect(
            subtitles.mediaSequence == video.mediaSequence && video.mediaSequence > 0, "the window slid: \(subtitles.mediaSequence) vs \(video.mediaSequence)")
        #expect(subtitles.segments.count == video.segments.count)
        // Files a window behind are removed; the window's are there.
        let files = try FileManager.default.contentsOfDirectory(atPath: generation).filter { $0.hasSuffix(".vtt") }
        #expect(files.count <= 2 * video.segments.count + 1, "\(files)")
        #expect(!files.contains("00000.vtt"))
    }

    /// A segment the playlist lists but that is not there when read (a sliding window's publisher
    /// deleted it, or has not finished renaming it) is read again on the next pass; with no
    /// retries the follow stops with the file named.
    @Test func retriesASegmentThatIsNotThereYet() async throws {
        let folder = try Scratch.make().path
        try SubtitleText.srt([(0.5, 1.5, "One")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try LiveSimulator(folder: folder, seconds: 4)
        try FileManager.default.moveItem(atPath: folder + "/v000.ts", toPath: folder + "/hidden.ts")
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 60
        follower.readRetries = 0
        do {
            _ = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
            Issue.record("the follow went on without the first segment")
        } catch {
            #expect(error.description.contains("v000.ts") && error.description.contains("does not exist"), "\(error)")
        }
        // The segment appears a moment after the follow starts; a retry budget far longer than
        // the moment keeps the test independent of the machine's load.
        follower.readRetries = 10_000
        let restore = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            try? FileManager.default.moveItem(atPath: folder + "/hidden.ts", toPath: folder + "/v000.ts")
            while !encoder.finished { encoder.publishNext() }
        }
        restore.start()
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        let placed = try Self.placed(folder, firstSegment: folder + "/v000.ts")
        #expect(abs((placed["One"] ?? -1) - 0.5) < 0.0011, "One at \(placed["One"] ?? -1)")
    }

    /// A follow killed (`kill -9`) and started again goes on from what is on disk: every segment
    /// of the finished playlist exists once, and those published before the kill never changed.
    @Test(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
    func resumesAfterKill() async throws {
        let folder = try Scratch.make().path
        try Self.everyTwoSeconds.write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 14)
        defer { encoder.terminate() }
        let binary = try #require(BuiltTool.subweave)
        let arguments = [
            "package", folder + "/master.m3u8", "--subtitle", "url=\(folder)/en.srt,language=en", "--captions", "off", "--follow", "--poll", "0.25",
        ]
        // Killed once it has published two segments (whatever the machine's load).
        try await Self.killOncePublished(binary, arguments, master: folder + "/master.m3u8", rendition: "subtitles/en-en", segments: 1)
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "subtitles/en-en")
        var before: [String: Data] = [:]
        let listed = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        for segment in listed.segments { before[segment.uri] = try Data(contentsOf: URL(fileURLWithPath: generation + "/" + segment.uri)) }
        #expect(!before.isEmpty)
        // What a killed run leaves half-written is removed by the restarted follow.
        let leftover = generation + "/.subweave-live-99999.vtt"
        try "half".write(toFile: leftover, atomically: false, encoding: .utf8)
        let second = try Tools.run(binary, arguments + ["--idle-timeout", "20"], timeout: 60)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("resumed"), "\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover), "the killed run's leftover is gone")
        let final = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "v")
        #expect(final.segments.map(\.uri) == video.segments.indices.map { String(format: "%05d.vtt", $0) })
        #expect(final.hasEndList)
        for (uri, bytes) in before { #expect(try Data(contentsOf: URL(fileURLWithPath: generation + "/" + uri)) == bytes, "\(uri) changed") }
        let placed = try Self.placed(folder, firstSegment: folder + "/v000.ts")
        for i in 0..<7 { #expect(abs((placed["Cue \(i)"] ?? -1) - (Double(i) * 2 + 0.5)) < 0.0011, "Cue \(i)") }
    }

    /// The follow writes the master as `package` does: over the master it last read or wrote
    /// only (a master another writer changed meanwhile is not overwritten), and with the rebase's
    /// warnings kept in its report when the master goes elsewhere.
    @Test func writesTheMasterAsPackageDoes() async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        _ = script.popOn(["Later"], at: 600)
        let ts = try CaptionedStream.make(script: script, frames: 30 * 30, folder: folder)
        let encoder = try LiveSimulator(folder: folder, seconds: 30, input: ts)
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 30
        try SubtitleText.srt([(0.5, 1.5, "One")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var request = PackageRequest(tracks: [track])
        request.captionServices.services["CC1"] = CaptionServiceSetting(language: LanguageTag(parsing: "en"))
        let changed = Mutex(false)
        follower.onUpdate = { _ in
            // Once the first master is out, another writer edits it.
            if !changed.withLock({ $0 }), let text = try? String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8), text.contains("subtitles/en-en") {
                try? (text + "#EXT-X-INDEPENDENT-SEGMENTS\n").write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
                changed.withLock { $0 = true }
            }
            encoder.publishNext()
        }
        do {
            _ = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), request)
            Issue.record("the follow overwrote a master another writer had changed")
        } catch {
            guard case .masterChanged = error else { Issue.record("\(error)"); return }
        }
        #expect(try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8).hasSuffix("#EXT-X-INDEPENDENT-SEGMENTS\n"))

        // Elsewhere: the URIs are rebased and the report says so.
        let other = try Scratch.make().path
        let encoder2 = try LiveSimulator(folder: other, seconds: 8)
        try FileManager.default.createDirectory(atPath: other + "/out", withIntermediateDirectories: true)
        var elsewhere = PackageRequest(tracks: [track], captions: .off)
        elsewhere.output = URL(fileURLWithPath: other + "/out/master.m3u8")
        follower.onUpdate = { _ in encoder2.publishNext() }
        let report = try await follower.follow(master: URL(fileURLWithPath: other + "/master.m3u8"), elsewhere)
        #expect(report.notes.contains { $0.contains("relative URI(s) rewritten") }, "\(report.notes)")
        #expect(try String(contentsOfFile: other + "/out/master.m3u8", encoding: .utf8).contains("../prog.m3u8"))
    }

    /// A reload that fails (the publisher caught writing the playlist) is tried again with a
    /// growing wait, and said, instead of ending the follow.
    @Test func aFailedReloadIsRetried() async throws {
        let folder = try Scratch.make().path
        try SubtitleText.srt([(0.5, 1.5, "One"), (5, 6, "Five")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let encoder = try LiveSimulator(folder: folder, seconds: 8)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 30
        follower.readRetries = 0
        let retries = Mutex<[String]>([])
        let broken = Mutex(false)
        follower.onUpdate = { update in
            if update.newSegments.contains(1), !broken.withLock({ $0 }) {
                broken.withLock { $0 = true }
                // Half-written: the next reload cannot parse it.
                try? "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:two,\n".write(toFile: folder + "/prog.m3u8", atomically: false, encoding: .utf8)
            } else {
                encoder.publishNext()
            }
        }
        follower.onRetry = { message in
            retries.withLock { $0.append(message) }
            encoder.publishNext()  // the publisher finishes its write
        }
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: [track], captions: .off))
        #expect(report.reason == "ended")
        let said = retries.withLock { $0 }
        #expect(said.count >= 1 && said[0].contains("retrying in"), "\(said)")
        let placed = try Self.placed(folder, firstSegment: folder + "/v000.ts")
        #expect(placed.keys.sorted() == ["Five", "One"])
    }
}
