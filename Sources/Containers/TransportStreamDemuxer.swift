/// Reassembles the PES packets of an MPEG-TS stream's video track, fed in chunks of any size.
///
/// Finds the PAT and PMT, picks the first video stream the PMT lists (or the one asked for),
/// joins its packets' payloads into whole PES packets and hands each to the caller with its PTS
/// and DTS. Continuity-counter gaps are tolerated: the PES being assembled is dropped (it would be
/// corrupt) and assembly resumes at the next unit start. Memory is one PES packet, whatever the
/// input's length.
public struct TransportStreamDemuxer {
    /// A reassembled PES packet.
    public struct PESPacket: Sendable {
        public let pts: Int64?
        public let dts: Int64?
        /// The elementary stream bytes (for video, an access unit in Annex B).
        public let payload: [UInt8]
        /// The byte offset of the packet that started it.
        public let offset: Int
    }

    /// The video stream once the PMT has been read.
    public private(set) var video: TransportStream.ElementaryStream?
    /// Continuity errors seen on the video PID.
    public private(set) var continuityErrors = 0
    /// Bytes consumed so far.
    public private(set) var bytesRead = 0

    private var pending: [UInt8] = []
    private var patAssembler = SectionAssembler()
    private var pmtAssemblers: [UInt16: SectionAssembler] = [:]
    private var current: [UInt8] = []
    private var currentHeader: TransportStream.PESHeader?
    private var currentOffset = 0
    private var lastCounter: UInt8?
    private var synced = false

    public init() {}

    /// Feeds `data`; calls `emit` for every PES packet completed by it.
    public mutating func feed(_ data: ArraySlice<UInt8>, _ emit: (PESPacket) -> Void) {
        var buffer: [UInt8]
        if pending.isEmpty { buffer = Array(data) } else { buffer = pending + data; pending = [] }
        var offset = 0
        if !synced {
            guard let first = TransportStream.firstPacketOffset(buffer) else {
                // Keep the tail in case the sync pattern straddles the next chunk.
                pending = Array(buffer.suffix(TransportStream.packetSize * 3))
                bytesRead += buffer.count - pending.count
                return
            }
            offset = first
            synced = true
        }
        while offset + TransportStream.packetSize <= buffer.count {
            guard buffer[offset] == TransportStream.syncByte, let packet = TransportStream.Packet(buffer, at: offset) else {
                // Lost sync: skip a byte and look for the next sync byte.
                offset += 1
                while offset < buffer.count && buffer[offset] != TransportStream.syncByte { offset += 1 }
                continue
            }
            handle(packet, buffer, absolute: bytesRead + offset, emit)
            offset += TransportStream.packetSize
        }
        pending = Array(buffer[offset...])
        bytesRead += offset
    }

    /// Emits the PES being assembled, at the end of the input.
    public mutating func finish(_ emit: (PESPacket) -> Void) {
        flushCurrent(emit)
    }

    private mutating func handle(_ packet: TransportStream.Packet, _ data: [UInt8], absolute: Int, _ emit: (PESPacket) -> Void) {
        if packet.pid == 0 {
            if let section = patAssembler.add(data, payload: packet.payload, unitStart: packet.payloadUnitStart) {
                for pid in TransportStream.programMapPIDs(pat: section) where pmtAssemblers[pid] == nil { pmtAssemblers[pid] = SectionAssembler() }
            }
            return
        }
        if var assembler = pmtAssemblers[packet.pid] {
            if let section = assembler.add(data, payload: packet.payload, unitStart: packet.payloadUnitStart),
               let streams = TransportStream.elementaryStreams(pmt: section), video == nil {
                video = streams.first { $0.kind == .video }
            }
            pmtAssemblers[packet.pid] = assembler
            return
        }
        guard let video, packet.pid == video.pid else { return }
        if !packet.payload.isEmpty {
            if let last = lastCounter, packet.continuityCounter != (last &+ 1) & 0x0F, packet.continuityCounter != last, !packet.discontinuity {
                continuityErrors += 1
                if !packet.payloadUnitStart { current = []; currentHeader = nil }
            }
            lastCounter = packet.continuityCounter
        }
        if packet.payloadUnitStart {
            flushCurrent(emit)
            currentHeader = TransportStream.PESHeader(data[packet.payload])
            currentOffset = absolute
            if let header = currentHeader {
                let start = packet.payload.lowerBound + min(header.headerLength, packet.payload.count)
                current = Array(data[start..<packet.payload.upperBound])
            }
        } else if currentHeader != nil {
            current.append(contentsOf: data[packet.payload])
        }
    }

    private mutating func flushCurrent(_ emit: (PESPacket) -> Void) {
        guard let header = currentHeader else { return }
        var payload = current
        if header.packetLength > 0 {
            let expected = header.packetLength + 6 - header.headerLength
            if payload.count > expected { payload.removeLast(payload.count - expected) }
        }
        emit(PESPacket(pts: header.pts, dts: header.dts, payload: payload, offset: currentOffset))
        current = []
        currentHeader = nil
    }
}
