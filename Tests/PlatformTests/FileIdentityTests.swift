import Foundation
import Platform
import Testing

/// The identities of many files, each folder opened once, are what `stat` of each path gives: in
/// order, across folders, through links, for missing files and for paths with no folder.
struct FileIdentityTests {
    @Test func manyFilesAreIdentifiedAsOneAtATime() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("identities-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for folder in ["a", "b", "a/c"] { try FileManager.default.createDirectory(atPath: "\(root)/\(folder)", withIntermediateDirectories: true) }
        for (index, file) in ["a/1.vtt", "a/2.vtt", "b/1.vtt", "a/c/x"].enumerated() {
            try Data(repeating: UInt8(index), count: index * 10 + 1).write(to: URL(fileURLWithPath: "\(root)/\(file)"))
        }
        try FileManager.default.createSymbolicLink(atPath: "\(root)/b/link", withDestinationPath: "\(root)/a/2.vtt")
        try FileManager.default.createSymbolicLink(atPath: "\(root)/b/dangling", withDestinationPath: "\(root)/nowhere")
        let paths =
            [
                "a/1.vtt", "a/2.vtt", "b/1.vtt", "a/1.vtt", "a/missing", "b/link", "b/dangling", "a/c/x", "a/c", "a/", "missing/1.vtt", "a/c/../2.vtt",
            ].map { "\(root)/\($0)" } + ["relative-name-\(UUID().uuidString)", "/", ""]
        let together = FileSystem.identities(of: paths)
        #expect(together.count == paths.count)
        for (path, identity) in zip(paths, together) {
            #expect(identity == FileSystem.identity(of: path), "\(path)")
        }
        #expect(together[0] != nil && together[4] == nil && together[5] == together[1] && together[6] == nil)
    }
}
