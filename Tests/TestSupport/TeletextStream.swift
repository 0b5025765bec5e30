import Foundation

/// DVB teletext subtitle streams made byte by byte for tests (ETSI EN 300 472 carriage, EN 300 706
/// teletext): a transport stream with a PAT, a PMT listing one teletext PID and its
/// teletext_descriptor, and one PES per page transmission.
public struct TeletextStream: Sendable {
    /// One transmission of a page: at `seconds`, rows of text (row number, the 40 characters as
    /// 7-bit codes before parity); no rows clears the page.
    public struct Transmission: Sendable {
        public var seconds: Double
        public var magazine: Int
        public var page: UInt8
        public var rows: [(Int, [UInt8])]
        public var national: Int
        public var subtitle: Bool
        /// A character set designation sent in an X/28/0 packet (group × 8 + option), if any.
        public var designation: Int?

        public init(
            seconds: Double, magazine: Int = 8, page: UInt8 = 0x88, rows: [(Int, [UInt8])], national: Int = 0, subtitle: Bool = true,
            designation: Int? = nil
        ) {
            self.designation = designation
            self.seconds = seconds
            self.magazine = magazine
            self.page = page
            self.rows = rows
            self.national = national
            self.subtitle = subtitle
        }
    }

    /// A subtitle row as broadcasters send it.
    ///
    /// Double height, start box twice, the text, end box twice, padded with spaces to 40 cells.
    /// `text` is 7-bit codes (national positions included).
    public static func boxedRow(_ text: [UInt8], colour: UInt8? = nil) -> [UInt8] {
        var row: [UInt8] = [0x0D, 0x0B, 0x0B] + (colour.map { [$0] } ?? []) + text + [0x0A, 0x0A]
        row = Array(row.prefix(40))
        return row + [UInt8](repeating: 0x20, count: 40 - row.count)
    }

    public var language = "deu"
    public var announcedPage: (magazine: Int, page: UInt8, type: UInt8) = (8, 0x88, 0x02)
    public var transmissions: [Transmission]
    /// The first PTS (90 kHz), as a muxer would start.
    public var ptsBase: Int64 = 126_000

    public init(transmissions: [Transmission]) { self.transmissions = transmissions }

    static let pmtPID: UInt16 = 0x100, teletextPID: UInt16 = 0x101

    public var bytes: [UInt8] {
        var out: [UInt8] = []
        var counters: [UInt16: UInt8] = [:]
        func packets(pid: UInt16, _ payload: [UInt8], pcr: Int64? = nil) {
            var rest = payload[...]
            var first = true
            while !rest.isEmpty {
                let counter = counters[pid, default: 0]
                counters[pid] = (counter + 1) & 0x0F
                var packet: [UInt8] = [0x47, (first ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF)]
                // The adaptation field: a PCR on a PES's first packet (the teletext PID is the PCR
                // PID), stuffing on a last packet that is not full.
                var field: [UInt8] = []
                if first, let pcr {
                    field = [
                        0x10, UInt8(pcr >> 25 & 0xFF), UInt8(pcr >> 17 & 0xFF), UInt8(pcr >> 9 & 0xFF), UInt8(pcr >> 1 & 0xFF), UInt8(pcr & 1) << 7 | 0x7E,
                        0x00,
                    ]
                }
                let room = 184 - (field.isEmpty ? 0 : field.count + 1)
                let take = min(room, rest.count)
                if take < 184 {
                    let extra = 184 - take - (field.isEmpty ? 1 : field.count + 1)
                    if field.isEmpty && extra >= 0 { field = extra > 0 ? [0x00] : [] }
                    field += [UInt8](repeating: 0xFF, count: max(0, 184 - take - 1 - field.count))
                    packet.append(0x30 | counter)
                    packet.append(UInt8(field.count))
                    packet += field
                } else {
                    packet.append(0x10 | counter)
                }
                packet += rest.prefix(take)
                rest = rest.dropFirst(take)
                out += packet
                first = false
            }
        }
        func section(_ body: [UInt8]) -> [UInt8] {
            let withCRC = body + Self.crc32(body)
            return [0x00] + withCRC  // pointer field
        }
        let pat: [UInt8] = [0x00, 0xB0, 13, 0x00, 0x01, 0xC1, 0x00, 0x00, 0x00, 0x01, 0xE0 | UInt8(Self.pmtPID >> 8), UInt8(Self.pmtPID & 0xFF)]
        let (m, p, type) = announcedPage
        let descriptor: [UInt8] = [0x56, 5] + Array(language.utf8.prefix(3)) + [type << 3 | UInt8(m & 7), p]
        let stream: [UInt8] =
            [0x06, 0xE0 | UInt8(Self.teletextPID >> 8), UInt8(Self.teletextPID & 0xFF), 0xF0, UInt8(descriptor.count)] + descriptor
        // The PCR is on the teletext PID.
        let pmtBody: [UInt8] = [0x00, 0x01, 0xC1, 0x00, 0x00, 0xE0 | UInt8(Self.teletextPID >> 8), UInt8(Self.teletextPID & 0xFF), 0xF0, 0x00] + stream
        let pmt: [UInt8] = [0x02, 0xB0, UInt8(pmtBody.count + 4)] + pmtBody
        packets(pid: 0, section(pat))
        packets(pid: Self.pmtPID, section(pmt))
        for t in transmissions {
            packets(pid: Self.teletextPID, pes(t), pcr: ptsBase + Int64(t.seconds * 90_000) - 9_000)
        }
        return out
    }

    /// The PES of one transmission: private stream 1, a PTS, the header padded to 0x24 bytes (EN
    /// 300 472 §4.3), data identifier 0x10, one data unit per packet.
    func pes(_ t: Transmission) -> [UInt8] {
        var units: [UInt8] = [0x10]
        func unit(_ packet: [UInt8]) {
            units += [0x03, 0x2C, 0xF5, 0xE4] + packet.map { Self.reversed($0) }
        }
        unit(header(t))
        if let designation = t.designation {
            // X/28/0 format 1: designation code 0, then 13 triplets; the first carries the default
            // G0 designation in its bits 8-14.
            unit(Self.address(t.magazine, 28) + [Self.hamming[0]] + Self.hamming2418(designation << 7) + (0..<12).flatMap { _ in Self.hamming2418(0) })
        }
        for (row, text) in t.rows { unit(Self.address(t.magazine, row) + text.map(Self.parity)) }
        // A time-filling header (page FF) ends the page: decoders store a page when the next
        // header of its magazine arrives (libzvbi does), so it is shown now, not at the next one.
        var filler = t
        filler.page = 0xFF
        unit(header(filler))
        let pts = ptsBase + Int64(t.seconds * 90_000)
        let ptsBytes: [UInt8] = [
            0x21 | UInt8((pts >> 29) & 0x0E), UInt8((pts >> 22) & 0xFF), UInt8((pts >> 14) & 0xFE) | 1, UInt8((pts >> 7) & 0xFF),
            UInt8((pts << 1) & 0xFE) | 1,
        ]
        let headerData = ptsBytes + [UInt8](repeating: 0xFF, count: 0x24 - ptsBytes.count)
        var body: [UInt8] = [0x80, 0x80, UInt8(headerData.count)] + headerData + units
        // The header and data units are 46-byte slots: stuffing units (0xFF) make the packet a
        // multiple of 184 bytes, as EN 300 472 asks.
        while (body.count + 6) % 184 != 0 { body += [0xFF, 0x2C] + [UInt8](repeating: 0xFF, count: 44) }
        return [0x00, 0x00, 0x01, 0xBD, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// A page header (row 0): page, control bits (C4 erase, C6 subtitle, C7 suppress header,
    /// C12-C14 national option), 32 characters of header text (spaces).
    func header(_ t: Transmission) -> [UInt8] {
        let h = Self.hamming
        let national = (t.national >> 2 & 1) << 1 | (t.national >> 1 & 1) << 2 | (t.national & 1) << 3
        return Self.address(t.magazine, 0) + [
            h[Int(t.page & 0x0F)], h[Int(t.page >> 4)], h[0], h[0x08], h[0], h[t.subtitle ? 0x08 : 0], h[0x01], h[national],
        ] + [UInt8](repeating: Self.parity(0x20), count: 32)
    }

    static func address(_ magazine: Int, _ row: Int) -> [UInt8] {
        [hamming[(magazine & 7) | (row & 1) << 3], hamming[row >> 1]]
    }

    /// Hamming 8/4 (EN 300 706 §8.2), written out as the standard tabulates it.
    public static let hamming: [UInt8] = [0x15, 0x02, 0x49, 0x5E, 0x64, 0x73, 0x38, 0x2F, 0xD0, 0xC7, 0x8C, 0x9B, 0xA1, 0xB6, 0xFD, 0xEA]

    /// Hamming 24/18 (EN 300 706 §8.3) of 18 data bits: checks at bits 1, 2, 4, 8 and 16 making
    /// the bits whose position has theirs set odd, bit 24 making the word odd.
    public static func hamming2418(_ data: Int) -> [UInt8] {
        var word = 0
        var bit = 0
        for position in 1...23 where position & (position - 1) != 0 {
            word |= (data >> bit & 1) << (position - 1)
            bit += 1
        }
        for check in 0..<5 {
            var parity = 0
            for position in 1...23 where position & (1 << check) != 0 && position != 1 << check { parity ^= word >> (position - 1) & 1 }
            word |= (parity ^ 1) << ((1 << check) - 1)
        }
        word |= (word.nonzeroBitCount % 2 == 0 ? 1 : 0) << 23
        return [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF)]
    }

    /// Row text as it travels in the stream: odd parity added, each byte bit-reversed; a test
    /// finds a row's text in the bytes with it (to damage it, say).
    public static func sent(_ text: [UInt8]) -> [UInt8] { text.map { reversed(parity($0)) } }

    static func parity(_ code: UInt8) -> UInt8 { (code & 0x7F).nonzeroBitCount % 2 == 0 ? code | 0x80 : code & 0x7F }

    static func reversed(_ b: UInt8) -> UInt8 {
        var b = b, r: UInt8 = 0
        for _ in 0..<8 {
            r = r << 1 | (b & 1)
            b >>= 1
        }
        return r
    }

    /// MPEG-2's CRC-32 of a PSI section (polynomial 0x04C11DB7, no reflection).
    static func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
