import Foundation
import TestSupport
import Testing

/// The surfaces added since the last hardening round, attacked through the built binary.
///
/// Where output goes, what stdout can do to a run, decoders fed a hostile stream, JSON that
/// carries hostile text. Each case ends in a clear error or correct behaviour, never a signal.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct HostileSurfaceTests {
    /// `--output` on a FIFO or a character device writes through it (as a shell's `>` does) and
    /// leaves it what it is; on a link, a socket or a block device it is refused and nothing moves.
    @Test func outputWritesThroughDevicesAndFIFOsAndRefusesLinks() throws {
        let dir = try Fixtures.copyExample()
        let source = dir + "/subs/en.srt"
        // A FIFO with a reader: the text arrives through it, and it is still a FIFO.
        let fifo = dir + "/out.fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = handle.readDataToEndOfFile() }
        }
        reader.start()
        let throughFIFO = try BuiltTool.run(["convert", source, "--output", fifo])
        while !reader.isFinished { usleep(10_000) }
        #expect(throughFIFO.status == 0, "\(throughFIFO.stderr)")
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("WEBVTT"), "\(received.count) bytes")
        #expect(Self.kind(fifo) == S_IFIFO)
        // A character device (/dev/null's twin would need root; /dev/null itself is safe to use):
        // it stays a device.
        let toNull = try BuiltTool.run(["convert", source, "--output", "/dev/null"])
        #expect(toNull.status == 0, "\(toNull.stderr)")
        #expect(Self.kind("/dev/null") == S_IFCHR)
        let report = try BuiltTool.run(["report", dir + "/master.m3u8", "--html", "/dev/null"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(Self.kind("/dev/null") == S_IFCHR)
        // A link: refused, the link and its target untouched.
        let target = dir + "/target.vtt", link = dir + "/link.vtt"
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(symlink(target, link) == 0)
        for arguments in [["convert", source, "--output", link], ["report", dir + "/master.m3u8", "--html", link]] {
            let outcome = try BuiltTool.run(arguments)
            #expect(outcome.status == 1 && outcome.stderr.contains("symbolic link"), "\(arguments[0]): \(outcome.stderr)")
            let kept = try String(contentsOfFile: target, encoding: .utf8)
            #expect(Self.kind(link) == S_IFLNK && kept == "keep")
        }
    }

    /// `package --output` replaces the master by renaming a new file over it: a FIFO, a device or
    /// a link in its place is refused before anything is written.
    @Test func packageOutputRefusesWhatIsNotARegularFile() throws {
        let dir = try Fixtures.copyExample()
        let fifo = dir + "/fifo.m3u8", link = dir + "/link.m3u8"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(symlink(dir + "/elsewhere.m3u8", link) == 0)
        for output in [fifo, "/dev/null", link] {
            let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--output", output])
            #expect(outcome.status == 1, "\(output): \(outcome.status) \(outcome.stderr)")
            let said = outcome.stderr.contains("not a regular file") || outcome.stderr.contains("symbolic link")
            #expect(outcome.stderr.contains(output) && said, "\(outcome.stderr)")
        }
        #expect(Self.kind(fifo) == S_IFIFO && Self.kind(link) == S_IFLNK && Self.kind("/dev/null") == S_IFCHR)
        #expect(!FileManager.default.fileExists(atPath: dir + "/subtitles"), "nothing was written")
        #expect(!FileManager.default.fileExists(atPath: dir + "/elsewhere.m3u8"))
    }

    /// A full disk behind stdout (`/dev/full`): said on stderr, exit 1, never a signal; a batch
    /// whose log cannot be written still finishes its titles.
    @Test func aFullStdoutIsAnErrorNotASignal() throws {
        let dir = try Fixtures.copyExample()
        let binary = try #require(BuiltTool.subweave)
        let shell = "exec \"$0\" \"$@\" > /dev/full"
        for arguments in [["cues", dir + "/subs/en.srt"], ["cues", dir + "/subs/en.srt", "--json"], ["list", dir + "/master.m3u8", "--json"]] {
            let outcome = try Tools.run("/bin/sh", ["-c", shell, binary] + arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot write to standard output") && outcome.stderr.contains("No space left"), "\(outcome.stderr)")
        }
        let catalogue = dir + "/catalogue.jsonl"
        let line = #"{"id": "t", "master": "master.m3u8", "tracks": [{"url": "subs/en.srt", "language": "en"}]}"#
        try line.write(toFile: catalogue, atomically: true, encoding: .utf8)
        let batch = try Tools.run("/bin/sh", ["-c", shell, binary, "batch", catalogue])
        #expect(batch.status == 1, "\(batch.status) \(batch.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("TYPE=SUBTITLES"), "the title was packaged although its line could not be logged")
    }

    /// A reader that goes away (`| head -c 1`): exit 1 with a message, not death by SIGPIPE.
    @Test func aClosedPipeIsAnErrorNotASignal() throws {
        let dir = try Fixtures.copyExample()
        let binary = try #require(BuiltTool.subweave)
        // Enough output to fill the pipe after the reader has gone.
        var srt = ""
        for i in 0..<20_000 { srt += "\(i + 1)\n00:00:\(String(format: "%02d", i % 60)),000 --> 00:00:\(String(format: "%02d", i % 60)),500\nline \(i)\n\n" }
        try srt.write(toFile: dir + "/many.srt", atomically: true, encoding: .utf8)
        let outcome = try Tools.run("/bin/bash", ["-c", "\"$0\" cues \"$1\" | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}", binary, dir + "/many.srt"])
        #expect(outcome.status == 1, "\(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("cannot write to standard output"), "\(outcome.stderr)")
    }

    /// A CEA-708 service writes a 12,000-character row, then toggles its window 12,000 times.
    ///
    /// A packet a frame, as cc_count allows. The decode was quadratic in row × commands
    /// (minutes); now linear, with the characters past the widest window dropped and said. Killed
    /// after a minute.
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func aHostileCEA708RowDecodesInLinearTime() throws {
        var script = CaptionScript()
        script.send708(DTVCC.defineWindow(0, visible: true, rows: 1, columns: 32), at: 0)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for packet in 0..<250 { script.send708(DTVCC.text(String((0..<48).map { letters[($0 + packet) % 26] })), at: 1 + packet) }
        let toggles = (0..<24).flatMap { _ in DTVCC.toggleWindows([0]) }
        for packet in 0..<500 { script.send708(toggles, at: 251 + packet) }
        let folder = try Scratch.make().path
        let ts = try CaptionedStream.make(script: script, frames: 760, folder: folder)
        let binary = try #require(BuiltTool.subweave)
        let outcome = try Tools.run(binary, ["captions", ts, "--json"], timeout: 60)
        #expect(outcome.status == 0, "killed after a minute or failed: \(outcome.status) \(outcome.stderr.prefix(300))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let services = try #require(object["services"] as? [[String: Any]])
        let cues = (services.first?["cues"] as? [[String: Any]]) ?? []
        #expect(!cues.isEmpty && cues.allSatisfy { (($0["text"] as? String) ?? "").count <= 64 }, "\(cues.prefix(2))")
        let notes = (object["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("past column 64") }, "\(object.keys) \(notes)")
    }

    /// A media sequence near Int64.max: numbering summed past it (SIGILL in `--follow`).
    ///
    /// Numbers past 2^53 are refused at the line that reaches them, by every command.
    @Test func aMediaSequenceNearTheLargestIntegerIsRefused() throws {
        let dir = try Fixtures.copyExample()
        for variant in ["high", "low"] {
            let path = dir + "/video/\(variant)/prog.m3u8"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:0", with: "#EXT-X-MEDIA-SEQUENCE:9223372036854775800")
                .write(toFile: path, atomically: true, encoding: .utf8)
        }
        let track = "url=\(dir)/subs/en.srt,language=en"
        for arguments in [
            ["package", dir + "/master.m3u8", "--subtitle", track, "--follow", "--poll", "0.1"], ["package", dir + "/master.m3u8", "--subtitle", track],
        ] {
            let outcome = try BuiltTool.run(arguments)
            #expect(outcome.status == 1, "\(arguments.suffix(2)): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.stderr.contains("prog.m3u8") && outcome.stderr.contains("2^53"), "\(outcome.stderr)")
        }
        // At the bound itself, a follow still works.
        for variant in ["high", "low"] {
            let path = dir + "/video/\(variant)/prog.m3u8"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "9223372036854775800", with: String((1 << 53) - 5)).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let atBound = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", track, "--follow", "--poll", "0.1"])
        #expect(atBound.status == 0, "\(atBound.stderr)")
        let validated = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(validated.status == 0, "\(validated.stdout) \(validated.stderr)")
    }

    /// A stand-in for ffmpeg: a shell script that writes its pid to `pidFile` and then runs
    /// `body` in its place (`exec`, so the pid is the process that must end).
    static func fakeDecoder(_ body: String, pidFile: String) throws -> String {
        let path = try Scratch.make().path + "/ffmpeg"
        try "#!/bin/sh\necho $$ > '\(pidFile)'\nexec \(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Whether process `pid` exists (a zombie counts as gone).
    static func alive(_ pidFile: String) -> Bool {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return false
        }
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.contains(") Z ")
    }

    /// Waits up to `seconds` for the process in `pidFile` to be gone.
    static func gone(_ pidFile: String, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !alive(pidFile) { return true }
            usleep(50_000)
        }
        return !alive(pidFile)
    }

    /// A decoder that hangs is stopped once it has made no progress for the stall limit, and
    /// the check fails saying so; one that never stops sending sound is read up to the
    /// programme's length and stopped.
    @Test func aHungOrEndlessDecoderIsBoundedAndStopped() throws {
        let dir = try Fixtures.copyExample()
        let pidFile = dir + "/decoder.pid"
        let binary = try #require(BuiltTool.subweave)
        let sync = ["sync", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en"]
        var environment = ProcessInfo.processInfo.environment
        environment["SUBWEAVE_DECODER_STALL"] = "1"
        environment["SUBWEAVE_FFMPEG"] = try Self.fakeDecoder("sleep 600", pidFile: pidFile)
        let hung = try Tools.run(binary, sync, environment: environment, timeout: 60)
        #expect(hung.status == 1 && hung.stderr.contains("took no input and gave no sound for 1.000 s"), "\(hung.status) \(hung.stderr)")
        #expect(Self.gone(pidFile, within: 2), "the hung decoder was left running")
        // Silence for ever, never reading its input: read for the programme's length and stopped.
        environment["SUBWEAVE_FFMPEG"] = try Self.fakeDecoder("cat /dev/zero", pidFile: pidFile)
        let endless = try Tools.run("/usr/bin/time", ["-f", "peak %M KB", binary] + sync, environment: environment, timeout: 60)
        #expect(endless.status == 0 || endless.status == 1, "\(endless.status) \(endless.stderr)")
        #expect(!endless.stderr.contains("took no input"), "\(endless.stderr)")
        let peak = endless.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? .max
        #expect(peak < 200_000, "peak memory \(peak) KB")
        #expect(Self.gone(pidFile, within: 2), "the endless decoder was left running")
    }

    /// `kill -9` of Subweave while its decoder runs: the kernel ends the decoder too.
    @Test func aKilledRunLeavesNoDecoderBehind() throws {
        let dir = try Fixtures.copyExample()
        let pidFile = dir + "/decoder.pid"
        let binary = try #require(BuiltTool.subweave)
        let decoder = try Self.fakeDecoder("sleep 600", pidFile: pidFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["sync", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en"]
        var environment = ProcessInfo.processInfo.environment
        environment["SUBWEAVE_FFMPEG"] = decoder
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Self.alive(pidFile) && Date() < deadline { usleep(20_000) }
        #expect(Self.alive(pidFile), "the decoder never started")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(Self.gone(pidFile, within: 5), "the decoder outlived the run")
    }

    /// Sound whose timestamps begin 20 hours after the video's: refused at once, before ffmpeg
    /// pads 20 hours of silence (it took 100 s and 3 GiB).
    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
    func soundTwentyHoursLateIsRefusedAtOnce() throws {
        let dir = try Scratch.make().path
        let ffmpeg = try #require(Tools.ffmpeg)
        let made = try Tools.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-itsoffset", "72000", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000", "-t", "8", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
                "-c:a", "aac", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_filename", dir + "/s%d.ts", dir + "/video.m3u8",
            ])
        try #require(made.status == 0, "\(made.stderr)")
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000\nvideo.m3u8\n".write(toFile: dir + "/master.m3u8", atomically: true, encoding: .utf8)
        try "1\n00:00:01,000 --> 00:00:02,000\nHello\n".write(toFile: dir + "/en.srt", atomically: true, encoding: .utf8)
        let outcome = try Tools.run(
            "/usr/bin/time",
            ["-f", "peak %M KB", try #require(BuiltTool.subweave), "sync", dir + "/master.m3u8", "--subtitle", "url=\(dir)/en.srt,language=en"],
            timeout: 60)
        #expect(outcome.status == 1, "\(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains("the first video frame, further than the programme is long"), "\(outcome.stderr)")
    }

    /// A NAME with a right-to-left override, a line separator, a C1 control and DEL: every
    /// `--json` output is JSON a parser takes, and the NAME decodes to exactly what the master
    /// says (it was printed as `\u{202E}`, which no JSON parser accepts).
    @Test func jsonCarriesHostileTextAsJSON() throws {
        let dir = try Fixtures.copyExample()
        let name = "Fran\u{202E}çais\u{2028}x\u{85}y\u{7F}z"
        try FileManager.default.createDirectory(atPath: dir + "/other", withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:10,\ns.vtt\n#EXT-X-ENDLIST\n".write(
            toFile: dir + "/other/index.m3u8", atomically: true, encoding: .utf8)
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n".write(toFile: dir + "/other/s.vtt", atomically: true, encoding: .utf8)
        let master = dir + "/master.m3u8"
        var text = try String(contentsOfFile: master, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "#EXT-X-INDEPENDENT-SEGMENTS\n",
            with: "#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"\(name)\",LANGUAGE=\"fr\",URI=\"other/index.m3u8\"\n")
        text = text.replacingOccurrences(of: "FRAME-RATE=25.000\n", with: "FRAME-RATE=25.000,SUBTITLES=\"subs\"\n")
        try text.write(toFile: master, atomically: true, encoding: .utf8)
        for command in ["list", "inspect", "validate", "report"] {
            let outcome = try BuiltTool.run([command, master, "--json"])
            let parsed = try? JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8))
            #expect(parsed != nil, "\(command) --json is not JSON: \(outcome.stdout.prefix(400)) \(outcome.stderr)")
            #expect(!outcome.stdout.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x2028 || $0.value == 0x85 }, "\(command): raw")
            if command == "list" || command == "inspect" {
                #expect(Self.strings(in: parsed).contains(name), "\(command): the NAME was rewritten")
            }
        }
    }

    /// Every string in a parsed JSON value.
    static func strings(in value: Any?) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap { strings(in: $0) }
        case let object as [String: Any]: return object.values.flatMap { strings(in: $0) }
        default: return []
        }
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }
}

/// The smaller edges the last hardening round found, each through the built binary.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct SmallerEdgeTests {
    /// A title made only by `--follow` (its event ended) is a title like any other: `refresh`
    /// segments its renditions again (it said there was nothing to refresh).
    @Test func aFollowedTitleRefreshes() throws {
        let dir = try Fixtures.copyExample()
        let followed = try BuiltTool.run([
            "package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--follow", "--poll", "0.1", "--captions", "off",
        ])
        #expect(followed.status == 0, "\(followed.stderr)")
        let refreshed = try BuiltTool.run(["refresh", dir + "/master.m3u8", "--captions", "off"])
        #expect(refreshed.status == 0 && refreshed.stderr.contains("refreshed: external:en:en: 4 cues"), "\(refreshed.stderr)")
        let validated = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(validated.status == 0 && validated.stderr.contains("0 errors, 0 warnings"), "\(validated.stdout) \(validated.stderr)")
    }

    /// A captioned TS whose every PES header declares a wrong PES_packet_length: the captions
    /// are read and the damage is said (it decoded without a word).
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func aWrongPESLengthIsSaid() throws {
        var script = CaptionScript()
        script.popOn(["Damaged but read"], at: 5)
        script.send([CC608.command(0x2C)], at: 50)
        let folder = try Scratch.make().path
        let ts = try CaptionedStream.make(script: script, frames: 60, folder: folder, remux: false)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ts)))
        var patched = 0
        for offset in stride(from: 0, to: bytes.count - 188, by: 188) where bytes[offset + 1] & 0x40 != 0 {
            // Payload unit start: after the header and any adaptation field, the PES start code.
            let adaptation = bytes[offset + 3] & 0x20 != 0 ? Int(bytes[offset + 4]) + 1 : 0
            let pes = offset + 4 + adaptation
            guard bytes[pes] == 0, bytes[pes + 1] == 0, bytes[pes + 2] == 1, bytes[pes + 3] == 0xE0 else { continue }
            bytes[pes + 4] = 0x00
            bytes[pes + 5] = 0x40  // 64 bytes: far fewer than a frame
            patched += 1
        }
        #expect(patched > 50)
        try Data(bytes).write(to: URL(fileURLWithPath: ts))
        let outcome = try BuiltTool.run(["captions", ts, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let notes = (object["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("PES_packet_length") && $0.contains("damaged") }, "\(notes)")
    }

    /// A killed run's staging folder goes at the next run on the folder, even one that refuses
    /// (it stayed behind a `remove` that matched nothing).
    @Test func aKilledRunsStagingFolderGoesAtTheNextRun() throws {
        let dir = try Fixtures.copyExample()
        let stage = dir + "/.subweave-stage-999999"
        try FileManager.default.createDirectory(atPath: stage + "/abc-0123456789ab", withIntermediateDirectories: true)
        try "WEBVTT\n".write(toFile: stage + "/abc-0123456789ab/00000.vtt", atomically: true, encoding: .utf8)
        let refused = try BuiltTool.run(["remove", dir + "/master.m3u8", "--id", "nothing-here"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stage), "the killed run's staging folder is still there")
    }
}
