import Foundation
import Platform
import Testing

/// Whole-file reads give the file's bytes whatever size was expected, say when a file passes
/// its limit, and a buffer read into again gives each file's bytes alone.
struct OpenFileReadTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openfile-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func pattern(_ count: Int, seed: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &+ $0 / 251) } }

    /// The size taken before reading may be wrong (a file still growing, standard input: 0).
    @Test(arguments: [0, 1, 16, 9_999, 10_000, 10_001, 200_000])
    func theWholeFileWhateverSizeWasExpected(expected: Int) throws {
        let bytes = Self.pattern(10_000, seed: 3)
        let path = try Self.file(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try OpenFile(regular: path).read(upTo: 1 << 20, reserving: expected)
        #expect(read.bytes == bytes)
        #expect(!read.overLimit)
        var into: [UInt8] = Self.pattern(expected, seed: 9)
        #expect(try OpenFile(regular: path).read(upTo: 1 << 20, reserving: expected, into: &into) == false)
        #expect(into == bytes)
    }

    @Test func aFilePastItsLimitSaysSo() throws {
        let path = try Self.file(Self.pattern(5_000, seed: 1))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try OpenFile(regular: path).read(upTo: 4_999, reserving: 100).overLimit)
        var into: [UInt8] = []
        #expect(try OpenFile(regular: path).read(upTo: 4_999, reserving: 100, into: &into))
        #expect(try OpenFile(regular: path).read(upTo: 5_000, reserving: 5_000, into: &into) == false)
        #expect(into == Self.pattern(5_000, seed: 1))
    }

    /// Files of other sizes read one after another into one buffer: each gives its own bytes,
    /// nothing of the one before, and the storage stops growing.
    @Test func aBufferReadIntoAgainHoldsEachFileAlone() throws {
        let sizes = [70_000, 20_000, 100_000, 0, 99_999, 150_000, 3]
        let buffer = ReusableBytes()
        var capacities: [Int] = []
        for (i, size) in sizes.enumerated() {
            let bytes = Self.pattern(size, seed: i)
            let path = try Self.file(bytes)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let file = try OpenFile(regular: path)
            try buffer.withBytes { (held: inout [UInt8]) throws(FileFailure) in
                #expect(try file.read(upTo: 1 << 20, reserving: file.size, into: &held) == false)
                #expect(held == bytes, "file \(i) of \(size) bytes")
                capacities.append(held.capacity)
            }
        }
        #expect(capacities[1] == capacities[0], "a smaller file reuses the storage")
        #expect(capacities[4] == capacities[2], "a file no bigger than the grown storage reuses it")
    }
}
