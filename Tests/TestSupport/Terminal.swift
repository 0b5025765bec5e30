import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program with its stderr on a pseudo-terminal, as a person at a terminal sees it.
///
/// `isatty(2)` is true in the child; stdout goes to a pipe.
public enum Terminal {
    public struct Outcome: Sendable {
        public let status: Int32
        /// What the program wrote to the terminal (its stderr), escape sequences included.
        public let terminal: String
        public let stdout: String
    }

    public static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> Outcome {
        var primary: Int32 = -1, secondary: Int32 = -1
        guard openpty(&primary, &secondary, nil, nil, nil) == 0 else { throw MissingTool(name: "a pseudo-terminal (openpty failed: errno \(errno))") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
        try process.run()
        close(secondary)
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        nonisolated(unsafe) var captured: [UInt8] = []
        let reading = primary
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(reading, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                // EIO once every writer of the terminal has closed it.
                guard n > 0 else { break }
                captured += buffer[0..<n]
            }
            group.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        close(primary)
        return Outcome(status: process.terminationStatus, terminal: String(decoding: captured, as: UTF8.self), stdout: String(decoding: stdout, as: UTF8.self))
    }
}
