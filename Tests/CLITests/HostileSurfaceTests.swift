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

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }
}
