import Foundation
import Platform
import Testing

/// A file read ahead in chunks on a thread of its own gives the bytes a plain read gives, in
/// order, ends cleanly, and can be stopped early without waiting for the rest of the file.
struct ChunkReadAheadTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readahead-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [1, 7, 4096, 1 << 20])
    func chunksComeInOrderAndEnd(size: Int) throws {
        // 50 KB of a pattern that does not repeat on any chunk size tried.
        let bytes = (0..<50_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ahead = ChunkReadAhead(try OpenFile(regular: path), chunkSize: size)
        var read: [UInt8] = []
        while let chunk = ahead.next(), !chunk.isEmpty {
            #expect(chunk.count <= size)
            read += chunk
        }
        #expect(read == bytes)
        #expect(ahead.next() == [], "after the end, the end again")
    }

    /// Stopped after one chunk of many: `next()` says the end at once, and the reading thread
    /// exits and lets the reader go (its semaphores are disposed mid-file: libdispatch traps
    /// when one goes below its starting value).
    @Test func stoppingEarlyEndsAtOnceAndLetsGo() throws {
        let path = try Self.file([UInt8](repeating: 7, count: 1 << 20))
        defer { try? FileManager.default.removeItem(atPath: path) }
        weak var released: ChunkReadAhead?
        do {
            let ahead = ChunkReadAhead(try OpenFile(regular: path), chunkSize: 1024, depth: 2)
            released = ahead
            #expect(ahead.next()?.count == 1024)
            ahead.stop()
            #expect(ahead.next() == [], "the end, without waiting for a chunk that will not come")
            #expect(ahead.next() == [])
        }
        let deadline = Date().addingTimeInterval(30)
        while released != nil && Date() < deadline { usleep(1_000) }
        #expect(released == nil, "the reading thread still holds the reader")
    }
}
