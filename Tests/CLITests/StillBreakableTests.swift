import Foundation
import HLS
import TestSupport
import Testing

/// Hostile and malformed inputs that were read in silence or trapped, each rebuilt here: every
/// one ends in a clear error (exit 1 or 64, the place named) or in correct behaviour with a
/// warning that says what was assumed (a failure under --strict).
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct StillBreakableTests {
    func endedCleanly(_ outcome: Tools.Outcome) -> Bool { [0, 1, 64].contains(outcome.status) }

    /// 110,000 nested `<div begin="999999999s">`: the begins add up past 64 bits.
    @Test func nestedTTMLBeginsCannotOverflow() throws {
        let dir = try Fixtures.copyExample()
        let depth = 110_000
        var text = "<?xml version=\"1.0\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\" xml:lang=\"en\"><body>"
        text += String(repeating: "<div begin=\"999999999s\">", count: depth)
        text += "<p begin=\"0s\" end=\"1s\">x</p>" + String(repeating: "</div>", count: depth) + "</body></tt>\n"
        try text.write(toFile: dir + "/subs/deep.ttml", atomically: true, encoding: .utf8)
        let cues = try BuiltTool.run(["cues", dir + "/subs/deep.ttml"])
        #expect(cues.status == 1, "\(cues.status): \(cues.stderr)")
        let package = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/deep.ttml,language=en"])
        #expect(package.status == 1, "\(package.status): \(package.stderr)")
        #expect(package.stderr.contains("deep.ttml"), "\(package.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".subweave") }
        #expect(leftovers.isEmpty, "no staging folder is left: \(leftovers)")
        // Two levels that add up within the bound are read, and what convert writes reads back.
        let shallow = """
            <?xml version="1.0"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><body><div begin="999999999s"><div begin="999999999s">\
            <p begin="0s" end="1s">far</p></div></div></body></tt>
            """
        try shallow.write(toFile: dir + "/subs/far.ttml", atomically: true, encoding: .utf8)
        let converted = try BuiltTool.run(["convert", dir + "/subs/far.ttml", "-o", dir + "/subs/far.vtt"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let back = try BuiltTool.run(["cues", dir + "/subs/far.vtt", "--json"])
        #expect(back.status == 0 && back.stdout.contains("1999999998"), "\(back.stdout) \(back.stderr)")
    }

    @Test(arguments: ["inf", "1e300", "nan", "-1", "86401"])
    func aLockTimeoutIsAFiniteSaneNumber(_ value: String) throws {
        let dir = try Fixtures.copyExample()
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--lock-timeout", value])
        #expect(outcome.status == 64, "\(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("--lock-timeout") && outcome.stderr.contains("number of seconds"), "\(outcome.stderr)")
    }

    /// A server that compresses though it was asked not to (4 MiB of gzip inflating to 4 GiB) is
    /// refused at its headers, before any body is inflated.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "GNU time is missing"))
    func aGzipBombIsRefusedBeforeItInflates() throws {
        let root = try Scratch.make().path
        let server = try #require(try TestHTTPServer(root: root))
        let outcome = try Tools.run("/usr/bin/time", ["-f", "peak %M KB", try #require(BuiltTool.subweave), "cues", server.url("gzipbomb/4096")], timeout: 120)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Content-Encoding \"gzip\""), "\(outcome.stderr)")
        let peak = outcome.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? .max
        #expect(peak < 300_000, "peak memory \(peak) KB")
        // A body without Content-Length still stops at the limit.
        let endless = try BuiltTool.run(["cues", server.url("endless"), "--limit", "subtitle=1MiB"])
        #expect(endless.status == 1 && endless.stderr.contains("more than 1048576 bytes"), "\(endless.stderr)")
    }
}

/// Media that Subweave reads although malformed, or with an assumption: each is a warning that
/// names the file and what was assumed, and fails a strict run.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct MalformedMediaTests {
    /// Box types renamed in place (same size), so the file still parses.
    static func rename(_ type: String, to replacement: String, in path: String) throws -> Int {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let needle = Array(type.utf8), new = Array(replacement.utf8)
        var count = 0
        var i = 4
        while i + 4 <= bytes.count {
            if Array(bytes[i..<(i + 4)]) == needle {
                bytes.replaceSubrange(i..<(i + 4), with: new)
                count += 1
            }
            i += 1
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return count
    }

    func package(_ hls: String, strict: Bool = false) throws -> Tools.Outcome {
        try SubtitleText.srt([(0.5, 1.5, "Hello")]).write(toFile: hls + "/en.srt", atomically: true, encoding: .utf8)
        return try BuiltTool.run(
            ["package", hls + "/master.m3u8", "--subtitle", "url=\(hls)/en.srt,language=en", "--caption-language", "en", "--dry-run"]
                + (strict ? ["--strict"] : []))
    }

    @Test func fragmentsWithoutTfdtAreSaid() throws {
        let hls = try CaptionedStream.hls(script: CaptionScript(), frames: 120, fmp4: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: hls) where name.hasSuffix(".m4s") {
            #expect(try Self.rename("tfdt", to: "free", in: hls + "/" + name) > 0)
        }
        let outcome = try package(hls)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("no 'tfdt'") && outcome.stderr.contains("seg_000.m4s"), "\(outcome.stderr)")
        #expect(try package(hls, strict: true).status == 1)
    }

    @Test func aHugeBoxAfterTheMoovIsSaid() throws {
        let hls = try CaptionedStream.hls(script: CaptionScript(), frames: 60, fmp4: true)
        let handle = try #require(FileHandle(forWritingAtPath: hls + "/init.mp4"))
        handle.seekToEndOfFile()
        // size 1 (a 64-bit size follows), type 'free', largesize 2^63.
        handle.write(Data([0, 0, 0, 1] + Array("free".utf8) + [0x80, 0, 0, 0, 0, 0, 0, 0]))
        try handle.close()
        let outcome = try package(hls)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("declares 9223372036854775808 bytes") && outcome.stderr.contains("init.mp4"), "\(outcome.stderr)")
        #expect(try package(hls, strict: true).status == 1)
    }

    /// Every video PES says PES_packet_length=1 (shorter than its own header): read as
    /// unbounded, as video PES are, so the captions are not lost; the first one is named.
    @Test func pesPacketLengthShorterThanItsHeader() throws {
        var script = CaptionScript()
        script.popOn(["Still here"], at: 10)
        script.send([CC608.command(0x2C)], at: 60)
        let hls = try CaptionedStream.hls(script: script, frames: 90)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: hls + "/seg_000.ts")))
        var changed = 0
        for offset in stride(from: 0, to: bytes.count - 188 + 1, by: 188) where bytes[offset] == 0x47 && bytes[offset + 1] & 0x40 != 0 {
            var payload = offset + 4
            if bytes[offset + 3] & 0x20 != 0 { payload += 1 + Int(bytes[offset + 4]) }
            guard payload + 6 <= offset + 188, bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1, bytes[payload + 3] == 0xE0 else {
                continue
            }
            bytes[payload + 4] = 0
            bytes[payload + 5] = 1
            changed += 1
        }
        #expect(changed > 10)
        try Data(bytes).write(to: URL(fileURLWithPath: hls + "/seg_000.ts"))
        let outcome = try package(hls)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("PES_packet_length shorter than its own header") && outcome.stderr.contains("seg_000.ts"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("cea608:CC1: 1 cue "), "the captions are still decoded: \(outcome.stderr)")
        #expect(try package(hls, strict: true).status == 1)
    }
}
