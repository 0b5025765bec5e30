import Foundation
import Platform
import Testing

/// A rendition's folder is written into a staging folder and renamed into place whole, in parts
/// on every core when it is large.
struct FolderWriteTests {
    /// Hands `text`'s bytes to `sink`.
    static func hand(_ text: String, to sink: (UnsafeBufferPointer<UInt8>) throws(FileFailure) -> Void) throws(FileFailure) {
        var text = text
        var failure: FileFailure?
        text.withUTF8 { bytes in
            do throws(FileFailure) { try sink(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// A folder written in parts on every core holds every part's files once it is in place;
    /// a part that fails leaves no folder and no staging folder, and its failure is the one thrown.
    @Test func aFolderWrittenInPartsHoldsEveryPartsFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileSystem.writeFolder(at: root + "/done", staging: root + "/done.partial", parts: 4) { part, emit throws(FileFailure) in
            for file in 0..<50 {
                try emit("\(part)-\(file)") { sink throws(FileFailure) in try Self.hand("part \(part) file \(file)", to: sink) }
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/done")
        #expect(Set(names) == Set((0..<4).flatMap { part in (0..<50).map { "\(part)-\($0)" } }))
        #expect(try String(contentsOfFile: root + "/done/3-49", encoding: .utf8) == "part 3 file 49")
        #expect(!FileManager.default.fileExists(atPath: root + "/done.partial"))

        var thrown: FileFailure?
        do throws(FileFailure) {
            try FileSystem.writeFolder(at: root + "/failed", staging: root + "/failed.partial", parts: 3) { part, emit throws(FileFailure) in
                for file in 0..<50 {
                    if part == 1 && file == 10 { throw FileFailure(root + "/failed.partial/1-10", "made to fail") }
                    try emit("\(part)-\(file)") { sink throws(FileFailure) in try Self.hand("x", to: sink) }
                }
            }
        } catch {
            thrown = error
        }
        #expect(thrown?.description.contains("made to fail") == true, "\(String(describing: thrown))")
        #expect(!FileManager.default.fileExists(atPath: root + "/failed") && !FileManager.default.fileExists(atPath: root + "/failed.partial"))
    }
}
