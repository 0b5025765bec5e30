import Foundation

/// Paths of the repository's fixtures, found from this file's location.
public enum Fixtures {
    /// The repository root.
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Fixtures/<relative>`.
    public static func path(_ relative: String) -> String {
        repository.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    /// Reads `Fixtures/<relative>`.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    public static func text(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    /// Copies `Fixtures/<relative>` (a folder) into a new temporary folder and returns the copy's path.
    public static func copy(_ relative: String) throws -> String {
        let destination = try Scratch.make().appendingPathComponent(URL(fileURLWithPath: relative).lastPathComponent)
        try FileManager.default.copyItem(atPath: path(relative), toPath: destination.path)
        return destination.path
    }
}

/// Temporary folders for tests, under one folder per test process that is removed when the
/// process exits.
public enum Scratch {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("subweave-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Scratch.root) }
        return url
    }()

    public static func make() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

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
    public static func run(_ executable: String, _ arguments: [String], input: [UInt8]? = nil,
                           environment: [String: String]? = nil, directory: String? = nil, timeout: TimeInterval = 300) throws -> Outcome {
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
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
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

/// Reads subtitle segments the way hls.js does, independently of Subweave's own parser, to check
/// when a player shows each cue.
public struct PlayerClock {
    /// A cue as a player places it on the playlist timeline.
    public struct PlacedCue: Equatable, Sendable {
        public let start: Double
        public let end: Double
        public let text: String
        /// The cue block exactly as written (timing line and text), to compare repeats.
        public let block: String
        /// The identifier line above the timing line, if any.
        public let identifier: String?
    }

    /// Parses one WebVTT segment: the X-TIMESTAMP-MAP before the first blank line, then the cues.
    /// `firstPTS` is the first PTS of the segment's discontinuity sequence and `sequenceStart`
    /// where that sequence starts on the playlist timeline: cue time is
    /// `cue − LOCAL + (MPEGTS − firstPTS) / 90000 + sequenceStart`, with the 2^33 wrap normalised.
    public static func place(segment text: String, firstPTS: Int64, sequenceStart: Double) -> (map: (Int64, Double)?, cues: [PlacedCue]) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var mpegts: Int64?
        var local: Double = 0
        for line in lines {
            if line.isEmpty { break }
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                for part in line.dropFirst(16).split(separator: ",") {
                    if part.hasPrefix("MPEGTS:") { mpegts = Int64(part.dropFirst(7)) }
                    if part.hasPrefix("LOCAL:") { local = seconds(String(part.dropFirst(6))) ?? .nan }
                }
            }
        }
        var offset = 0.0
        if let mpegts {
            let modulus: Int64 = 1 << 33
            var delta = ((mpegts - firstPTS) % modulus + modulus) % modulus
            if delta >= modulus / 2 { delta -= modulus }
            offset = Double(delta) / 90000 - local + sequenceStart
        }
        var cues: [PlacedCue] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.contains("-->") {
                let parts = line.components(separatedBy: "-->")
                let start = seconds(parts[0].trimmingCharacters(in: .whitespaces)) ?? .nan
                let end = seconds(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? "") ?? .nan
                var body: [String] = []
                var j = i + 1
                while j < lines.count, !lines[j].isEmpty { body.append(lines[j]); j += 1 }
                let above = i > 0 ? lines[i - 1] : ""
                let identifier = above.isEmpty || above.hasPrefix("WEBVTT") || above.hasPrefix("X-TIMESTAMP-MAP") ? nil : above
                cues.append(PlacedCue(start: start + offset, end: end + offset, text: body.joined(separator: "\n"),
                                      block: ([line] + body).joined(separator: "\n"), identifier: identifier))
                i = j
            } else {
                i += 1
            }
        }
        return (mpegts.map { ($0, local) }, cues)
    }

    /// `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds.
    public static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard (2...3).contains(parts.count) else { return nil }
        var total = 0.0
        for part in parts {
            guard let v = Double(part) else { return nil }
            total = total * 60 + v
        }
        return total
    }
}

/// A row of a table-driven test that remembers where it was written.
public struct SourceRow<Value: Sendable>: Sendable {
    public let value: Value
    public let file: String
    public let line: Int

    public init(_ value: Value, file: String = #filePath, line: Int = #line) {
        self.value = value
        self.file = file
        self.line = line
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

/// Every file under a folder with its bytes, to prove a run changed nothing (or exactly what).
public struct FolderSnapshot: Equatable {
    public let files: [String: [UInt8]]

    public init(_ folder: String) throws {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = folder + "/" + relative
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: full)))
            }
        }
        self.files = files
    }

    /// Paths added, removed or changed from `self` to `other`.
    public func differences(to other: FolderSnapshot) -> [String] {
        Set(files.keys).union(other.files.keys).filter { files[$0] != other.files[$0] }.sorted()
    }
}

/// The misbehaving local HTTP server (http_test_server.py) on 127.0.0.1, serving a folder.
public final class TestHTTPServer: @unchecked Sendable {
    public let port: Int
    public let root: String
    private let process: Process

    /// Starts the server on `root`; nil when python3 is missing.
    public init?(root: String) throws {
        guard let python = Tools.which("python3") else { return nil }
        let script = Fixtures.repository.appendingPathComponent("Tests/TestSupport/http_test_server.py").path
        let portFile = try Scratch.make().appendingPathComponent("port").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, root, portFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var port: Int?
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let p = Int(text) { port = p; break }
            usleep(50_000)
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw MissingTool(name: "the test HTTP server (no port after 5 s)")
        }
        self.port = port
        self.root = root
        self.process = process
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The server's counters: the most requests in flight at once, and the total.
    public func stats() throws -> (maxInFlight: Int, requests: Int) {
        let data = try Data(contentsOf: URL(string: url("stats"))!)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Int] ?? [:]
        return (object["max_in_flight"] ?? -1, object["requests"] ?? -1)
    }

    deinit {
        // SIGKILL: a child of a test process may inherit a mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Subtitle files written from (start, end, text) in seconds, for tests that place known cues.
public enum SubtitleText {
    public static func srt(_ cues: [(Double, Double, String)]) -> String {
        cues.enumerated().map { i, c in "\(i + 1)\n\(time(c.0, ",")) --> \(time(c.1, ","))\n\(c.2)\n" }.joined(separator: "\n")
    }

    public static func vtt(_ cues: [(Double, Double, String)]) -> String {
        "WEBVTT\n\n" + cues.map { "\(time($0.0, ".")) --> \(time($0.1, "."))\n\($0.2)\n" }.joined(separator: "\n")
    }

    public static func time(_ seconds: Double, _ separator: String = ",") -> String {
        let ms = Int((seconds * 1000).rounded())
        return String(format: "%02d:%02d:%02d%@%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, separator, ms % 1000)
    }
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
        let outcome = try run(ffprobe, ["-v", "error", "-ignore_editlist", "1", "-select_streams", "v:0", "-show_entries", "packet=pts",
                                        "-of", "csv=p=0", source])
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

/// Finds what a run wrote, from the master alone (a plain text search, independent of Subweave).
public enum Packaged {
    /// The folder (absolute) of the generation the master at `master` names under `folder`
    /// (e.g. `subtitles/en-en`): the directory of the first `URI="<folder>/…/index.m3u8"`.
    public static func generation(master: String, folder: String) throws -> String {
        let text = try String(contentsOfFile: master, encoding: .utf8)
        guard let start = text.range(of: "URI=\"\(folder)/"), let end = text[start.upperBound...].range(of: "/index.m3u8\"") else {
            throw MissingTool(name: "a rendition under \(folder) in \(master)")
        }
        let base = URL(fileURLWithPath: master).deletingLastPathComponent().path
        return base + "/" + folder + "/" + text[start.upperBound..<end.lowerBound]
    }
}
