import Foundation
import HLS
import Platform
import Testing

@testable import Subweave

/// A segment read in chunks hands over the bytes a whole read gives, in order, for a whole file
/// and for a byte range; a range past the file's end and a file past its limit fail as the
/// whole read fails.
struct ChunkedSegmentReadTests {
    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunked-\(UUID().uuidString).ts")
        try Data(bytes).write(to: url)
        return url
    }

    static let bytes: [UInt8] = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 253) }

    /// The chunks `loader` hands over, joined, and how many there were.
    static func chunks(_ loader: ResourceLoader, _ url: URL, range: ByteRange? = nil, chunkSize: Int) async throws(ReadFailure) -> (bytes: [UInt8], count: Int)
    {
        let state = try await loader.read(url, kind: .segment, range: range, chunkSize: chunkSize, into: ReusableBytes(), state: ([UInt8](), 0)) {
            state, chunk in
            state.0 += chunk
            state.1 += 1
        }
        return (state.0, state.1)
    }

    @Test(arguments: [1, 188, 4_096, 100_003, 1 << 20])
    func aWholeFileInChunks(_ chunkSize: Int) async throws {
        let url = try Self.file(Self.bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let read = try await Self.chunks(ResourceLoader(), url, chunkSize: chunkSize)
        #expect(read.bytes == Self.bytes)
        #expect(read.count == (Self.bytes.count + chunkSize - 1) / chunkSize)
    }

    @Test(arguments: [7, 4_096])
    func aByteRangeInChunks(_ chunkSize: Int) async throws {
        let url = try Self.file(Self.bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let range = ByteRange(length: 30_001, offset: 12_345)
        let whole = try await ResourceLoader().read(url, kind: .segment, range: range)
        let read = try await Self.chunks(ResourceLoader(), url, range: range, chunkSize: chunkSize)
        #expect(read.bytes == whole)
        #expect(whole == Array(Self.bytes[12_345..<42_346]))
    }

    @Test func aRangePastTheEndSaysSo() async throws {
        let url = try Self.file(Self.bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let range = ByteRange(length: 1_000, offset: Self.bytes.count - 10)
        await #expect(throws: ReadFailure.self) { _ = try await ResourceLoader().read(url, kind: .segment, range: range) }
        do {
            _ = try await Self.chunks(ResourceLoader(), url, range: range, chunkSize: 64)
            Issue.record("a range past the end was read")
        } catch { #expect(error.explanation.contains("is shorter than its EXT-X-BYTERANGE 1000@\(Self.bytes.count - 10)"), "\(error.explanation)") }
    }

    @Test func aFilePastTheLimitSaysSo() async throws {
        let url = try Self.file(Self.bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        var limits = ReadLimits()
        limits.segment = 50_000
        do {
            _ = try await Self.chunks(ResourceLoader(limits: limits), url, chunkSize: 4_096)
            Issue.record("a file past the limit was read")
        } catch { #expect(error.explanation.contains("over the 50000-byte limit for a segment file"), "\(error.explanation)") }
    }
}
