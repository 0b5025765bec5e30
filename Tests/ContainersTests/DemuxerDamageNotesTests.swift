import Containers
import TestSupport
import Testing

/// Bytes the demuxer skips are never skipped silently: a stream that loses sync, or ends inside a
/// packet, says so with the byte offset where it happened, the same in any chunking; a clean
/// stream says nothing.
struct DemuxerDamageNotesTests {
    /// The notes of `bytes` fed in chunks of `size` (0: whole).
    static func notes(_ bytes: [UInt8], chunk size: Int) -> [String] {
        var demuxer = TransportStreamDemuxer()
        let step = size == 0 ? max(1, bytes.count) : size
        for start in stride(from: 0, to: bytes.count, by: step) { demuxer.feed(bytes[start..<min(bytes.count, start + step)]) { _ in } }
        demuxer.finish { _ in }
        return demuxer.takeNotes(since: 0)
    }

    static let chunkings = [0, 188, 1_000, 65_536]

    @Test func aCleanStreamSaysNothing() throws {
        let bytes = try Fixtures.bytes("captions/programme.ts")
        for size in Self.chunkings { #expect(Self.notes(bytes, chunk: size) == [], "chunks of \(size)") }
    }

    @Test func lostSyncIsNotedWhereItWasLost() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        let at = 188 * 2_000
        bytes.insert(contentsOf: [UInt8](repeating: 0x00, count: 61), at: at)
        let whole = Self.notes(bytes, chunk: 0)
        #expect(whole == ["\(TransportStreamDemuxer.lostSync) (once, first at byte \(at))"])
        for size in Self.chunkings { #expect(Self.notes(bytes, chunk: size) == whole, "chunks of \(size)") }
    }

    /// A video packet in the middle of a PES packet taken out: the PES packet is dropped, and
    /// the note says where the packet after the gap starts.
    @Test func aMissingPacketIsNoted() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        // The first packet past the middle that carries video (PID 0x100) and does not start a unit.
        var at = bytes.count / 2 / 188 * 188
        while !(bytes[at + 1] & 0x1F == 0x01 && bytes[at + 2] == 0x00 && bytes[at + 1] & 0x40 == 0) { at += 188 }
        bytes.removeSubrange(at..<(at + 188))
        let whole = Self.notes(bytes, chunk: 0)
        #expect(
            whole == ["a packet of the stream is missing (its continuity counter jumps): the PES packet being read was dropped (once, first at byte \(at))"])
        for size in Self.chunkings { #expect(Self.notes(bytes, chunk: size) == whole, "chunks of \(size)") }
    }

    @Test func anEndInsideAPacketIsNoted() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        bytes.removeLast(77)
        let lastWhole = bytes.count - (188 - 77)
        let whole = Self.notes(bytes, chunk: 0)
        #expect(whole == ["the input ends inside a packet: the bytes after its last whole packet were not read (once, first at byte \(lastWhole))"])
        for size in Self.chunkings { #expect(Self.notes(bytes, chunk: size) == whole, "chunks of \(size)") }
    }
}
