import Foundation
import Platform
import Testing

/// Child processes as Subweave runs them: pipes both ways, the exit status, and the bounds
/// (a stalled child is killed; a dropped one does not outlive its owner).
struct ChildProcessTests {
    @Test func aChildReadsItsInputAndWritesItsOutput() throws {
        let child = try ChildProcess.launch("/bin/cat", [])
        #expect(child.write(Array("one\ntwo\n".utf8)))
        child.closeInput()
        var output: [UInt8] = []
        while case let piece = child.readOutput(), !piece.isEmpty { output += piece }
        #expect(String(decoding: output, as: UTF8.self) == "one\ntwo\n")
        #expect(child.waitForExit() == 0)
    }

    @Test func theExitStatusAndStandardErrorComeBack() throws {
        let child = try ChildProcess.launch("/bin/sh", ["-c", "echo oops >&2; exit 3"])
        #expect(String(decoding: child.readErrors(), as: UTF8.self) == "oops\n")
        #expect(child.waitForExit() == 3)
    }

    /// SIGPIPE is ignored in Subweave; the child gets the default back (else a decoder whose
    /// reader went away would spin on EPIPE instead of ending): it ignores no standard signal.
    @Test func theChildIgnoresNoSignal() throws {
        let child = try ChildProcess.launch("/bin/grep", ["SigIgn", "/proc/self/status"])
        var output: [UInt8] = []
        while case let piece = child.readOutput(), !piece.isEmpty { output += piece }
        #expect(child.waitForExit() == 0)
        let mask = String(decoding: output, as: UTF8.self).split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        // Signals 1-31 (32 and 33 belong to the C library's threads, out of a program's reach).
        #expect(mask.flatMap { UInt64($0, radix: 16) }.map { $0 & 0x7FFF_FFFF } == 0, "\(String(decoding: output, as: UTF8.self))")
    }

    /// A child that is stopped ends by SIGKILL, and says so.
    @Test func aStoppedChildEndsBySIGKILL() throws {
        let child = try ChildProcess.launch("/bin/sh", ["-c", "exec yes"])
        #expect(child.readOutput().count > 0)
        child.stop()
        #expect(child.waitForExit() == 128 + SIGKILL && child.wasStopped)
    }

    @Test func aStalledChildIsKilled() throws {
        let child = try ChildProcess.launch("/bin/sleep", ["600"])
        child.watch(stallLimit: 0.3)
        let status = child.waitForExit()
        #expect(status == 128 + SIGKILL && child.stalled)
    }

    @Test func aChildThatCannotBeRunEndsWith127() throws {
        let child = try ChildProcess.launch("/nonexistent/decoder", [])
        #expect(child.waitForExit() == 127)
    }

    /// Descriptors of this process are not inherited: only the three pipes are open in the child.
    @Test func onlyThePipesAreInherited() throws {
        let file = open("/dev/null", O_RDONLY)  // not close-on-exec
        defer { close(file) }
        let child = try ChildProcess.launch("/bin/sh", ["-c", "ls /proc/self/fd"])
        var output: [UInt8] = []
        while case let piece = child.readOutput(), !piece.isEmpty { output += piece }
        _ = child.waitForExit()
        let open = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.filter { $0 >= 3 }
        // `ls` opens one descriptor of its own to read the folder.
        #expect(open.count <= 1, "\(open)")
    }
}
