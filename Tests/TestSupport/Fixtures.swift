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

    /// A temporary copy of Examples/basic.
    public static func copyExample() throws -> String {
        let destination = try Scratch.make().appendingPathComponent("basic").path
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("Examples/basic").path, toPath: destination)
        return destination
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

/// Finds what a run wrote, from the master alone (a plain text search, independent of Subweave).
public enum Packaged {
    /// The folder (absolute) of the generation the master at `master` names under `folder`
    /// (for example `subtitles/en-en`): the directory of the first `URI="<folder>/…/index.m3u8"`.
    public static func generation(master: String, folder: String) throws -> String {
        let text = try String(contentsOfFile: master, encoding: .utf8)
        guard let start = text.range(of: "URI=\"\(folder)/"), let end = text[start.upperBound...].range(of: "/index.m3u8\"") else {
            throw MissingTool(name: "a rendition under \(folder) in \(master)")
        }
        let base = URL(fileURLWithPath: master).deletingLastPathComponent().path
        return base + "/" + folder + "/" + text[start.upperBound..<end.lowerBound]
    }
}

/// A random number generator that repeats (SplitMix64), so that a generated case that fails can
/// be made again from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
