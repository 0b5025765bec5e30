import Containers
import TestSupport
import Testing

/// Where a stream may be cut so that no PES packet crosses the cut: the first packet of the video
/// that starts a PES packet; a lost sync byte before it, or no such packet, says so.
struct DemuxerUnitStartTests {
    @Test func theFirstVideoUnitStartIsFound() throws {
        let bytes = try Fixtures.bytes("captions/programme.ts")
        var demuxer = TransportStreamDemuxer()
        #expect(demuxer.unitStart(in: bytes[...]) == .notFound, "the stream is not known before the tables")
        demuxer.feed(bytes[..<(188 * 10)]) { _ in }
        // Each video packet (PID 0x100) that starts a unit, past the middle: found from any packet
        // after the one before it.
        let middle = bytes.count / 2 / 188 * 188
        let starts = stride(from: middle, to: bytes.count, by: 188).filter { bytes[$0 + 1] & 0x5F == 0x41 && bytes[$0 + 2] == 0x00 }
        #expect(starts.count > 3)
        #expect(demuxer.unitStart(in: bytes[middle...]) == .at(starts[0]))
        #expect(demuxer.unitStart(in: bytes[(starts[0] + 188)...]) == .at(starts[1]))
        #expect(demuxer.unitStart(in: bytes[starts[1]..<(starts[1] + 187)]) == .notFound, "a packet that is not whole")
        var broken = bytes
        broken[starts[0] - 188] = 0x00
        #expect(demuxer.unitStart(in: broken[(starts[0] - 376)...]) == .lostSync)
        #expect(demuxer.unitStart(in: broken[starts[0]...]) == .at(starts[0]), "past the broken packet")
    }
}
