import Foundation

/// External programs the tests compare against.
public enum Tools {
    /// The full path of `name` on PATH, or nil.
    public static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in paths {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static let ffprobe = which("ffprobe")
    public static let ffmpeg = which("ffmpeg")

    /// The result of running a program.
    public struct Outcome: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public let stdoutBytes: [UInt8]
    }

    /// Runs `executable` with `arguments`, optionally feeding `input` on stdin; waits for it.
    @discardableResult
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil,
        environment: [String: String]? = nil, directory: String? = nil, timeout: TimeInterval = 300
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
        try process.run()
        // A hung child must not hang the test run.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let input {
            inPipe.fileHandleForWriting.write(Data(input))
            try? inPipe.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so neither fills up and blocks the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }

    /// The lowest video PTS (90 kHz, reduced mod 2^33) of a transport stream file, as ffprobe reads it.
    public static func lowestVideoPTS(_ file: String) throws -> Int64? {
        guard let ffprobe else { return nil }
        let outcome = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", file])
        let values = outcome.stdout.split(whereSeparator: \.isNewline).compactMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        guard let lowest = values.min() else { return nil }
        let modulus: Int64 = 1 << 33
        return ((lowest % modulus) + modulus) % modulus
    }
}

/// The built `subweave` executable.
public enum BuiltTool {
    /// `subweave` beside the test bundle (SwiftPM puts products in one folder), or under .build.
    public static var subweave: String? {
        var candidates: [URL] = []
        if let argument = Swift.CommandLine.arguments.first {
            var url = URL(fileURLWithPath: argument)
            for _ in 0..<4 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("subweave"))
            }
        }
        for configuration in ["debug", "release"] {
            candidates.append(Fixtures.repository.appendingPathComponent(".build/\(configuration)/subweave"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
    }

    /// Runs `subweave` with `arguments`.
    @discardableResult
    public static func run(_ arguments: [String], input: [UInt8]? = nil, directory: String? = nil) throws -> Tools.Outcome {
        guard let path = subweave else { throw MissingTool(name: "subweave (run swift build first)") }
        return try Tools.run(path, arguments, input: input, directory: directory)
    }
}

public struct MissingTool: Error, CustomStringConvertible {
    public let name: String
    public init(name: String) { self.name = name }
    public var description: String { "\(name) is not available" }
}

extension Tools {
    /// The earliest presentation time of the video in an fMP4 segment, in 90 kHz ticks, as
    /// ffprobe reads it from the initialisation section and the segment with edit lists ignored
    /// (as the players measured ignore them): `tfdt` plus the composition offset, which B-frames
    /// make a few frames later than the decode time.
    public static func firstPresentationTime(init initPath: String, segment segmentPath: String) throws -> Int64 {
        guard let ffprobe else { throw MissingTool(name: "ffprobe") }
        let source = "concat:\(initPath)|\(segmentPath)"
        let base = try run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", initPath])
        let parts = base.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/").compactMap { Int64($0) }
        guard parts.count == 2, parts[1] > 0 else { throw MissingTool(name: "a video time base in \(initPath)") }
        let outcome = try run(
            ffprobe,
            [
                "-v", "error", "-ignore_editlist", "1", "-select_streams", "v:0", "-show_entries", "packet=pts",
                "-of", "csv=p=0", source,
            ])
        let values = outcome.stdout.split(whereSeparator: \.isNewline).compactMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        guard let lowest = values.min() else { throw MissingTool(name: "video packets in \(segmentPath)") }
        return lowest * 90000 * parts[0] / parts[1]
    }

    /// The first presented video frame of a segment (TS: lowest PTS; fMP4: the above), 90 kHz.
    public static func firstFrame(segment: String, initialization: String?) throws -> Int64 {
        if let initialization { return try firstPresentationTime(init: initialization, segment: segment) }
        guard let pts = try lowestVideoPTS(segment) else { throw MissingTool(name: "video packets in \(segment)") }
        return pts
    }
}
