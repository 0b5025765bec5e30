/// Keeps, of a transport stream, the packets a sound decoder needs.
///
/// Those are the PAT, the PMTs and the audio streams'. Video (most of a programme's bytes) and other streams are dropped, so a
/// decoder fed the result demuxes a small part of what it would otherwise read.
///
/// Fed in pieces of any size; a packet split between pieces is carried over. Packets of a PID
/// no PMT has described yet are kept, as is everything when the data is not a transport stream
/// (fragmented MP4, packed audio), which passes through unchanged.
package struct AudioPacketFilter: Sendable {
    private var tables = ProgramTables()
    private var carry: [UInt8] = []
    private var isTransportStream: Bool?
    /// Bytes dropped so far.
    package private(set) var dropped = 0
    /// The PTS (90 kHz, as written) of the first audio PES packet kept, once one has been.
    package private(set) var firstAudioPTS: Int64?

    package init() {}

    /// The packets of `bytes` (after any carried over) to keep, in order.
    ///
    /// Whether the data is a transport stream is decided once three packets' worth has arrived
    /// (a piece shorter than that is held); ``flush()`` gives what is held at the end.
    package mutating func filter(_ bytes: [UInt8]) -> [UInt8] {
        let size = TransportStream.packetSize
        if isTransportStream == nil {
            carry += bytes
            guard carry.count >= 3 * size else { return [] }
            isTransportStream = TransportStream.firstPacketOffset(carry) != nil
            let held = carry
            carry = []
            return isTransportStream == true ? packets(held) : held
        }
        guard isTransportStream == true else { return bytes }
        return packets(carry.isEmpty ? bytes : carry + bytes)
    }

    /// What is held at the end of the stream: a stream too short to tell passes through whole,
    /// the bytes after a transport stream's last whole packet are dropped.
    package mutating func flush() -> [UInt8] {
        defer { carry = [] }
        return isTransportStream == nil ? carry : []
    }

    private mutating func packets(_ data: [UInt8]) -> [UInt8] {
        let size = TransportStream.packetSize
        var kept: [UInt8] = []
        kept.reserveCapacity(data.count / 8)
        var i = 0
        while i + size <= data.count {
            guard data[i] == TransportStream.syncByte, let packet = TransportStream.Packet(data, at: i) else {
                i += 1  // lost sync: look for the next packet start
                continue
            }
            let known = tables.streams[packet.pid]
            if tables.consume(packet, in: data) || known == nil || known?.kind == .audio {
                if firstAudioPTS == nil, known?.kind == .audio, packet.payloadUnitStart,
                    let header = TransportStream.PESHeader(data[packet.payload]), let pts = header.pts
                {
                    firstAudioPTS = pts
                }
                kept += data[i..<i + size]
            } else {
                dropped += size
            }
            i += size
        }
        carry = Array(data[i...])
        return kept
    }
}
