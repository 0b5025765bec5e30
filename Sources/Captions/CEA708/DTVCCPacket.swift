/// CEA-708 caption channel packets (CTA-708-E §5) assembled from A/53 cc_data, and the service
/// blocks they carry (§6.2).
///
/// cc_type 3 (DTVCC_PACKET_START) begins a packet with its header byte: a 2-bit sequence number
/// and a 6-bit size code (0 means 128 bytes, else twice the code, header included); cc_type 2
/// (DTVCC_PACKET_DATA) continues it. A packet cut short by the next start, or whose sequence
/// number skips, is counted and its service blocks are still read as far as they are whole.
package struct DTVCCPacketAssembler {
    private var bytes: [UInt8] = []
    private var expected = 0
    private var lastSequence: Int?
    /// Packets that ended before their size (a start came first): their complete blocks are kept.
    package private(set) var truncatedPackets = 0
    /// Packets whose sequence number was not the one after the previous packet's.
    package private(set) var sequenceGaps = 0

    package init() {}

    /// Feeds one valid cc_data pair of type 2 or 3; returns the packets it completes.
    package mutating func add(type: UInt8, _ byte1: UInt8, _ byte2: UInt8) -> [[UInt8]] {
        var done: [[UInt8]] = []
        if type == 3 {
            if !bytes.isEmpty {
                truncatedPackets += 1
                done.append(bytes)
            }
            let sequence = Int(byte1 >> 6)
            if let last = lastSequence, sequence != (last + 1) & 3 { sequenceGaps += 1 }
            lastSequence = sequence
            let code = Int(byte1 & 0x3F)
            expected = (code == 0 ? 128 : code * 2) - 1
            bytes = [byte2]
        } else {
            // Data with no packet begun (the stream started mid-packet) has nothing to join.
            guard expected > 0 else { return done }
            bytes += [byte1, byte2]
        }
        if bytes.count >= expected {
            done.append(Array(bytes.prefix(expected)))
            bytes = []
            expected = 0
        }
        return done
    }

    /// The packet still being gathered, at the end of the input.
    package mutating func flush() -> [UInt8]? {
        defer { bytes = []; expected = 0 }
        return bytes.isEmpty ? nil : bytes
    }

    /// The service blocks of a packet's data (after its header byte).
    ///
    /// Each is a service number (1–63) and its data. A null header (service 0) ends the packet; a block longer than what is left is
    /// dropped.
    package static func serviceBlocks(_ packet: [UInt8]) -> [(service: Int, data: ArraySlice<UInt8>)] {
        var blocks: [(Int, ArraySlice<UInt8>)] = []
        var i = 0
        while i < packet.count {
            let header = packet[i]
            var service = Int(header >> 5)
            let size = Int(header & 0x1F)
            i += 1
            if service == 0 { break }  // the null block: padding to the end
            if service == 7 {
                // The extended service number, in the next byte (§6.2.2).
                guard i < packet.count else { break }
                service = Int(packet[i] & 0x3F)
                i += 1
                if service < 7 { break }  // not a valid extended number
            }
            guard size > 0 else { continue }
            guard i + size <= packet.count else { break }
            blocks.append((service, packet[i..<(i + size)]))
            i += size
        }
        return blocks
    }
}
