import Foundation
import TestSupport
import Testing

@testable import SubweaveCLI

/// Progress people expect: on a terminal a line rewritten in place (done / total, rate, time
/// left), nothing extra off a terminal or with --quiet; `--follow` a status line per pass.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct ProgressOutputTests {
    static let rewrite = "\r\u{1B}[K"

    @Test func aBatchShowsTitlesDoneOnATerminalOnly() throws {
        let (_, path) = try BatchCommandTests().catalogue(4)
        let binary = try #require(BuiltTool.subweave)
        let onTerminal = try Terminal.run(binary, ["batch", path, "--jobs", "1"])
        #expect(onTerminal.status == 0)
        #expect(onTerminal.terminal.contains(Self.rewrite + "4/4 titles"), "\(onTerminal.terminal.debugDescription)")
        #expect(onTerminal.stdout.split(separator: "\n").count == 4, "the results stay on stdout, one a title")
        let again = try BatchCommandTests().catalogue(4).path
        let offTerminal = try BuiltTool.run(["batch", again, "--jobs", "1"])
        #expect(!offTerminal.stderr.contains("\u{1B}") && !offTerminal.stderr.contains("\r"), "\(offTerminal.stderr.debugDescription)")
        #expect(!offTerminal.stderr.contains("/4 titles"))
        let quiet = try Terminal.run(binary, ["batch", try BatchCommandTests().catalogue(4).path, "--quiet"])
        #expect(quiet.status == 0 && quiet.terminal.isEmpty, "\(quiet.terminal.debugDescription)")
    }

    @Test func packageAndCaptionsCountTheirWorkOnATerminal() throws {
        let dir = try Fixtures.copyExample()
        let binary = try #require(BuiltTool.subweave)
        let packaged = try Terminal.run(
            binary, ["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--subtitle", "url=\(dir)/subs/fr.vtt,language=fr"])
        #expect(packaged.status == 0)
        #expect(packaged.terminal.contains(Self.rewrite + "2/2 subtitle tracks"), "\(packaged.terminal.debugDescription)")
        #expect(packaged.terminal.contains("video segments read for captions"), "\(packaged.terminal.debugDescription)")
        let decoded = try Terminal.run(binary, ["captions", dir + "/video/high/seg_000.ts"])
        #expect(decoded.status == 0)
        #expect(decoded.terminal.contains(" MiB"), "\(decoded.terminal.debugDescription)")
        let plain = try BuiltTool.run(["captions", dir + "/video/high/seg_000.ts"])
        #expect(!plain.stderr.contains("\u{1B}"), "\(plain.stderr.debugDescription)")
    }

    /// A follow of a finished playlist: one pass, its line on stderr off a terminal, rewritten
    /// on one, and nothing with --quiet.
    @Test func aFollowSaysEachPass() throws {
        let binary = try #require(BuiltTool.subweave)
        func follow(_ extra: [String] = [], terminal: Bool) throws -> String {
            let dir = try Fixtures.copyExample()
            let arguments = ["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--follow", "--captions", "off"] + extra
            if terminal { return try Terminal.run(binary, arguments).terminal }
            let outcome = try BuiltTool.run(arguments)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return outcome.stderr
        }
        let plain = try follow(terminal: false)
        #expect(plain.contains("pass 1: media sequence 0-4 (5 segments, ended), written external:en:en +5 (5 in all)\n"), "\(plain)")
        #expect(!plain.contains("\u{1B}"))
        let rewritten = try follow(terminal: true)
        #expect(rewritten.contains(Self.rewrite + "pass 1: media sequence 0-4"), "\(rewritten.debugDescription)")
        #expect(!(try follow(["--quiet"], terminal: false)).contains("pass"))
    }

    @Test func theLineGivesTheRateAndTheTimeLeft() {
        #expect(ProgressLine.line(done: 0, total: 40, unit: "titles", elapsed: 3) == "0/40 titles")
        #expect(ProgressLine.line(done: 10, total: 40, unit: "titles", elapsed: 0.1) == "10/40 titles")
        #expect(ProgressLine.line(done: 10, total: 40, unit: "titles", elapsed: 4) == "10/40 titles · 2.5/s · 12 s left")
        #expect(ProgressLine.line(done: 40, total: 40, unit: "titles", elapsed: 2) == "40/40 titles · 20/s")
        #expect(ProgressLine.line(done: 512 << 20, total: 1024 << 20, unit: "bytes", elapsed: 2) == "512/1024 MiB · 256 MiB/s · 2 s left")
        #expect(ProgressLine.duration(59.2) == "1 min 0 s")
        #expect(ProgressLine.duration(250) == "4 min 10 s")
        #expect(ProgressLine.duration(7500) == "2 h 5 min")
    }
}
