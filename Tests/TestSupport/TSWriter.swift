/// A minimal MPEG-TS writer: PAT, PMT (one video stream, optional ISO 639 descriptor), PES with
/// PTS and DTS, PCR on the video PID.
struct TSWriter {
    private var out: [UInt8] = []
    private var counters: [UInt16: UInt8] = [:]

    static func write(_ units: [(pts: Int64, dts: Int64, data: [UInt8])], streamType: UInt8, language: String?) -> [UInt8] {
        var writer = TSWriter()
        var descriptors: [UInt8] = []
        if let language { descriptors = [0x0A, 4] + Array(language.utf8.prefix(3)) + [0] }
        let pat = section(0x00, [0x00, 0x01, 0xF0, 0x00])
        let pmt = section(0x02, [0xE1, 0x00, 0xF0, 0x00, streamType, 0xE1, 0x00, 0xF0, UInt8(descriptors.count)] + descriptors)
        for (index, unit) in units.enumerated() {
            if index % 30 == 0 {
                writer.packets(pid: 0, payload: pat, unitStart: true)
                writer.packets(pid: 0x1000, payload: pmt, unitStart: true)
            }
            let header: [UInt8] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0xC0, 10] + timestamp(3, unit.pts) + timestamp(1, unit.dts)
            writer.packets(pid: 0x100, payload: header + unit.data, unitStart: true, pcr: max(0, unit.dts - 9000))
        }
        return writer.out
    }

    /// The payload in 188-byte packets, stuffed in the adaptation field so the payload ends the last.
    private mutating func packets(pid: UInt16, payload: [UInt8], unitStart: Bool, pcr: Int64? = nil) {
        var remaining = payload[...]
        var first = true
        repeat {
            let cc = counters[pid, default: 0]
            counters[pid] = (cc + 1) & 0x0F
            var adaptation: [UInt8]?  // after adaptation_field_length
            if first, let pcr {
                adaptation = [
                    0x10,  // PCR_flag
                    UInt8((pcr >> 25) & 0xFF), UInt8((pcr >> 17) & 0xFF), UInt8((pcr >> 9) & 0xFF),
                    UInt8((pcr >> 1) & 0xFF), UInt8((pcr & 1) << 7) | 0x7E, 0x00,
                ]  // PCR base, reserved, extension
            }
            let room = 184 - (adaptation.map { $0.count + 1 } ?? 0)
            if remaining.count < room {
                let stuffing = room - remaining.count
                if let a = adaptation {
                    adaptation = a + [UInt8](repeating: 0xFF, count: stuffing)
                } else {
                    adaptation = stuffing == 1 ? [] : [0x00] + [UInt8](repeating: 0xFF, count: stuffing - 2)
                }
            }
            let take = 184 - (adaptation.map { $0.count + 1 } ?? 0)
            out += [
                0x47,  // sync byte
                (first && unitStart ? 0x40 : 0) | UInt8(pid >> 8),  // payload_unit_start_indicator, PID
                UInt8(pid & 0xFF),
                (adaptation == nil ? 0x10 : 0x30) | cc,
            ]  // adaptation field control, continuity counter
            if let a = adaptation { out.append(UInt8(a.count)); out += a }
            out += remaining.prefix(take)
            remaining = remaining.dropFirst(take)
            first = false
        } while !remaining.isEmpty
    }

    /// A PSI section with its pointer field and CRC.
    private static func section(_ tableID: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length = body.count + 5 + 4
        var s: [UInt8] = [tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), 0x00, 0x01, 0xC1, 0x00, 0x00] + body
        s += crc32(s).bigEndianBytes
        return [0x00] + s
    }

    /// A PES PTS or DTS field (ISO/IEC 13818-1 2.4.3.7): `prefix`, then 33 bits with marker bits.
    private static func timestamp(_ prefix: UInt8, _ v: Int64) -> [UInt8] {
        [
            prefix << 4 | UInt8((v >> 29) & 0x0E) | 1, UInt8((v >> 22) & 0xFF), UInt8((v >> 14) & 0xFE) | 1, UInt8((v >> 7) & 0xFF),
            UInt8((v << 1) & 0xFE) | 1,
        ]
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}

extension UInt32 {
    var bigEndianBytes: [UInt8] { [UInt8(self >> 24), UInt8((self >> 16) & 0xFF), UInt8((self >> 8) & 0xFF), UInt8(self & 0xFF)] }
}
