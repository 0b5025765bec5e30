import Containers
import TestSupport
import Testing

/// The demuxer's output must not depend on how the stream is cut into chunks: a fuzzer found that
/// resynchronising after lost sync did (a false sync byte near a chunk's end was accepted whole,
/// rejected in chunks).
///
/// Sync is now confirmed by three packets in a row wherever it is found.
struct DemuxerChunkingTests {
    /// The PES packets of `bytes` fed in chunks of `size` (0: whole), as (offset, PTS, payload size).
    func packets(_ bytes: [UInt8], chunk size: Int) -> [String] {
        var demuxer = TransportStreamDemuxer()
        var out: [String] = []
        let emit: (TransportStreamDemuxer.PESPacket) -> Void = { out.append("\($0.offset) \($0.pts ?? -1) \($0.payload.count)") }
        if size == 0 {
            demuxer.feed(bytes[...], emit)
        } else {
            var start = 0
            while start < bytes.count {
                demuxer.feed(bytes[start..<min(bytes.count, start + size)], emit)
                start += size
            }
        }
        demuxer.finish(emit)
        return out
    }

    @Test func corruptStreamGivesTheSamePacketsInAnyChunking() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts").prefix(188 * 400).map { $0 }
        // Damage it the way captures are damaged: a dropped run of bytes, junk with false sync
        // bytes, a packet cut short.
        bytes.removeSubrange(188 * 50 + 7..<188 * 50 + 100)
        bytes.insert(contentsOf: [0x47, 0x00, 0x47, 0x47, 0x12] + [UInt8](repeating: 0x47, count: 40), at: 188 * 120 + 3)
        bytes.removeSubrange(188 * 200..<188 * 200 + 60)
        let whole = packets(bytes, chunk: 0)
        #expect(whole.count > 30, "the damaged stream still yields most of its PES packets")
        for size in [1, 7, 188, 189, 500, 4096, 65_536] {
            #expect(packets(bytes, chunk: size) == whole, "chunks of \(size) bytes")
        }
    }

    @Test func aStreamShorterThanThreePacketsIsStillRead() {
        let packet = TSBuilder.pat(pmtPID: 0x1000)
        var demuxer = TransportStreamDemuxer()
        demuxer.feed(packet[...]) { _ in }
        demuxer.finish { _ in }
        #expect(demuxer.bytesRead == 188)
    }
}
