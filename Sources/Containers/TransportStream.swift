/// MPEG-2 transport stream structures (ISO/IEC 13818-1): 188-byte packets, the PAT and PMT, and
/// PES headers.
///
/// Each piece is a small pure function over bytes.
package enum TransportStream {
    package static let packetSize = 188
    package static let syncByte: UInt8 = 0x47

    /// The offset of the first packet: where 0x47 repeats at 188-byte steps (three in a row, or as
    /// many as the data holds).
    ///
    /// Nil when the data is not a transport stream.
    package static func firstPacketOffset(_ data: [UInt8]) -> Int? {
        let limit = min(data.count, packetSize)
        for start in 0..<limit where data[start] == syncByte {
            var ok = true
            var k = 1
            while k < 3, start + k * packetSize < data.count {
                if data[start + k * packetSize] != syncByte { ok = false; break }
                k += 1
            }
            if ok && start + packetSize <= data.count { return start }
        }
        return nil
    }

    /// One transport packet's header fields and where its payload lies.
    package struct Packet: Sendable, Equatable {
        package let offset: Int
        package let pid: UInt16
        package let payloadUnitStart: Bool
        package let continuityCounter: UInt8
        /// The payload's byte range within the data; empty when the packet has none.
        package let payload: Range<Int>
        /// The adaptation field's discontinuity indicator.
        package let discontinuity: Bool

        /// Parses the packet at `offset`; nil if it lacks the sync byte or is cut short.
        ///
        /// Inlined: the demuxer calls it for every packet, and a call retains and releases `data`.
        @inline(__always)
        package init?(_ data: [UInt8], at offset: Int) { self.init(data[...], at: offset) }

        /// The packet at index `offset` of `data` (an index of the slice, as its payload range is).
        @inline(__always)
        package init?(_ data: ArraySlice<UInt8>, at offset: Int) {
            guard offset >= data.startIndex, offset + TransportStream.packetSize <= data.endIndex, data[offset] == TransportStream.syncByte else { return nil }
            let b1 = data[offset + 1], b2 = data[offset + 2], b3 = data[offset + 3]
            self.offset = offset
            pid = UInt16(b1 & 0x1F) << 8 | UInt16(b2)
            payloadUnitStart = b1 & 0x40 != 0
            continuityCounter = b3 & 0x0F
            let control = (b3 >> 4) & 0x3
            var start = offset + 4
            var discontinuity = false
            if control & 0x2 != 0 {
                let length = Int(data[offset + 4])
                if length > 0 && offset + 5 < data.endIndex { discontinuity = data[offset + 5] & 0x80 != 0 }
                start += 1 + length
            }
            self.discontinuity = discontinuity
            let end = offset + TransportStream.packetSize
            payload = control & 0x1 != 0 && start < end ? start..<end : end..<end
        }
    }

    /// An elementary stream the PMT lists.
    package struct ElementaryStream: Sendable, Equatable {
        package let pid: UInt16
        package let streamType: UInt8
        /// The ISO 639 language descriptor's code (tag 0x0A), if present.
        package let language: String?
        /// Descriptor tags present (to recognise AC-3 and others carried as private data).
        package let descriptorTags: [UInt8]
        /// The caption services an ATSC `caption_service_descriptor` (tag 0x86) announces for this
        /// stream or its program, with their languages.
        package var captionServices: [CaptionServiceEntry] = []
        /// The pages a DVB `teletext_descriptor` (tag 0x56, or the VBI teletext descriptor 0x46)
        /// lists for this stream.
        package var teletextPages: [TeletextPageEntry] = []
        /// The entries of a DVB `subtitling_descriptor` (tag 0x59) for this stream.
        package var subtitling: [SubtitlingEntry] = []

        /// Whether it carries DVB teletext (EN 300 472: private data with a teletext descriptor).
        package var isTeletext: Bool { streamType == 0x06 && descriptorTags.contains { $0 == 0x56 || $0 == 0x46 } }
        /// Whether it carries DVB subtitles (EN 300 743: private data with a subtitling_descriptor, 0x59).
        package var isDVBSubtitles: Bool { streamType == 0x06 && descriptorTags.contains(0x59) }

        package var kind: Kind {
            switch streamType {
            case 0x01, 0x02, 0x10, 0x1B, 0x20, 0x24, 0x42, 0xD1, 0xDB, 0xEA: return .video
            case 0x03, 0x04, 0x0F, 0x11, 0x81, 0x87, 0xC1, 0xC2, 0xCF: return .audio
            case 0x06 where descriptorTags.contains(where: { [0x6A, 0x7A, 0x7B, 0x7C, 0x81].contains($0) }): return .audio
            default: return .other
            }
        }

        package enum Kind: Sendable { case video, audio, other }
    }

    /// One page of a DVB `teletext_descriptor` (EN 300 468 §6.2.43).
    package struct TeletextPageEntry: Sendable, Equatable {
        /// ISO 639-2 language code, lower case.
        package let language: String?
        /// 0x02 subtitle page, 0x05 subtitle page for the hard of hearing, others not subtitles.
        package let type: UInt8
        /// The magazine, 1–8.
        package let magazine: Int
        /// The page within the magazine: two hexadecimal digits (0x88 for page 888).
        package let pageByte: UInt8

        package init(language: String?, type: UInt8, magazine: Int, pageByte: UInt8) {
            self.language = language
            self.type = type
            self.magazine = magazine
            self.pageByte = pageByte
        }

        /// The page number as viewers key it: `888`, `8A0`.
        package var number: String { TeletextPageEntry.number(magazine: magazine, pageByte: pageByte) }

        /// `magazine` and `pageByte` written as viewers key them.
        package static func number(magazine: Int, pageByte: UInt8) -> String {
            let digits = String(pageByte, radix: 16, uppercase: true)
            return "\(magazine)" + (digits.count == 1 ? "0" + digits : digits)
        }

        /// Whether the page holds subtitles (type 0x02 or 0x05).
        package var isSubtitles: Bool { type == 0x02 || type == 0x05 }
    }

    /// One entry of a DVB `subtitling_descriptor` (EN 300 468 §6.2.41).
    package struct SubtitlingEntry: Sendable, Equatable {
        /// ISO 639-2 language code, lower case.
        package let language: String?
        /// The subtitling type: 0x10–0x15 subtitles for a normal audience, 0x20–0x25 for the hard
        /// of hearing (EN 300 468 table 26, component type of stream_content 0x03).
        package let type: UInt8
        /// The page whose segments compose this service's display, and the page of segments it shares.
        package let compositionPage: UInt16
        package let ancillaryPage: UInt16

        package init(language: String?, type: UInt8, compositionPage: UInt16, ancillaryPage: UInt16) {
            self.language = language
            self.type = type
            self.compositionPage = compositionPage
            self.ancillaryPage = ancillaryPage
        }

        /// Whether the subtitles are for the hard of hearing.
        package var forHardOfHearing: Bool { (0x20...0x25).contains(type) }
    }

    /// The PMT PIDs a PAT section lists (program number ≠ 0).
    ///
    /// `section` starts at table_id.
    package static func programMapPIDs(pat section: ArraySlice<UInt8>) -> [UInt16] {
        let s = Array(section)
        guard s.count >= 8, s[0] == 0x00 else { return [] }
        let length = Int(s[1] & 0x0F) << 8 | Int(s[2])
        let end = min(s.count, 3 + length) - 4  // before CRC
        var result: [UInt16] = []
        var i = 8
        while i + 4 <= end {
            let program = UInt16(s[i]) << 8 | UInt16(s[i + 1])
            let pid = UInt16(s[i + 2] & 0x1F) << 8 | UInt16(s[i + 3])
            if program != 0 { result.append(pid) }
            i += 4
        }
        return result
    }

    /// One service of an ATSC A/65 `caption_service_descriptor`.
    package struct CaptionServiceEntry: Sendable, Equatable {
        /// ISO 639-2 language code, lower case.
        package let language: String
        /// True for a CEA-708 service; false for 608 data on a line-21 field.
        package let digital: Bool
        /// For 608: the line-21 field (1 or 2); for 708: the caption service number.
        package let number: Int

        package init(language: String, digital: Bool, number: Int) {
            self.language = language
            self.digital = digital
            self.number = number
        }
    }

    /// The elementary streams a PMT section lists.
    ///
    /// `section` starts at table_id. Caption service
    /// descriptors at program level apply to every stream.
    package static func elementaryStreams(pmt section: ArraySlice<UInt8>) -> [ElementaryStream]? {
        let s = Array(section)
        guard s.count >= 12, s[0] == 0x02 else { return nil }
        let length = Int(s[1] & 0x0F) << 8 | Int(s[2])
        let end = min(s.count, 3 + length) - 4
        let programInfoLength = Int(s[10] & 0x0F) << 8 | Int(s[11])
        let program = descriptors(s, 12, min(end, 12 + programInfoLength))
        var i = 12 + programInfoLength
        var streams: [ElementaryStream] = []
        while i + 5 <= end {
            let type = s[i]
            let pid = UInt16(s[i + 1] & 0x1F) << 8 | UInt16(s[i + 2])
            let infoLength = Int(s[i + 3] & 0x0F) << 8 | Int(s[i + 4])
            let own = descriptors(s, i + 5, min(end, i + 5 + infoLength))
            var stream = ElementaryStream(pid: pid, streamType: type, language: own.language, descriptorTags: own.tags)
            stream.captionServices = own.captions.isEmpty ? program.captions : own.captions
            stream.teletextPages = own.teletext
            stream.subtitling = own.subtitling
            streams.append(stream)
            i += 5 + infoLength
        }
        return streams
    }

    /// What a descriptor loop in `s[start..<end]` says: its tags, the ISO 639 language (0x0A) and
    /// the caption services (0x86).
    static func descriptors(
        _ s: [UInt8], _ start: Int, _ end: Int
    ) -> (tags: [UInt8], language: String?, captions: [CaptionServiceEntry], teletext: [TeletextPageEntry], subtitling: [SubtitlingEntry]) {
        var subtitling: [SubtitlingEntry] = []
        var tags: [UInt8] = []
        var language: String?
        var captions: [CaptionServiceEntry] = []
        var teletext: [TeletextPageEntry] = []
        var d = start
        while d + 2 <= end {
            let tag = s[d], length = Int(s[d + 1])
            let body = (d + 2)..<min(end, d + 2 + length)
            tags.append(tag)
            if tag == 0x0A, body.count >= 3, let code = languageCode(s[body.lowerBound..<(body.lowerBound + 3)]) { language = code }
            // EN 300 468 §6.2.41 subtitling_descriptor: its first entry's ISO 639 language.
            if tag == 0x59, language == nil, body.count >= 8, let code = languageCode(s[body.lowerBound..<(body.lowerBound + 3)]) { language = code }
            if tag == 0x86 { captions = captionServices(s[body]) }
            if tag == 0x56 || tag == 0x46 { teletext += teletextPages(s[body]) }
            if tag == 0x59 { subtitling += subtitlingEntries(s[body]) }
            d += 2 + length
        }
        return (tags, language, captions, teletext, subtitling)
    }

    /// EN 300 468 §6.2.41 subtitling_descriptor: per service eight bytes, the ISO 639 language
    /// (3), the subtitling type (1), the composition page id (2) and the ancillary page id (2).
    static func subtitlingEntries(_ body: ArraySlice<UInt8>) -> [SubtitlingEntry] {
        var result: [SubtitlingEntry] = []
        var i = body.startIndex
        while i + 8 <= body.endIndex {
            result.append(
                SubtitlingEntry(
                    language: languageCode(body[i..<(i + 3)]), type: body[i + 3], compositionPage: UInt16(body[i + 4]) << 8 | UInt16(body[i + 5]),
                    ancillaryPage: UInt16(body[i + 6]) << 8 | UInt16(body[i + 7])))
            i += 8
        }
        return result
    }

    /// EN 300 468 §6.2.43 teletext_descriptor: per page five bytes, the ISO 639 language (3), the
    /// type (5 bits) and magazine (3 bits, 0 meaning 8), then the page number (two BCD digits).
    static func teletextPages(_ body: ArraySlice<UInt8>) -> [TeletextPageEntry] {
        var result: [TeletextPageEntry] = []
        var i = body.startIndex
        while i + 5 <= body.endIndex {
            let magazine = Int(body[i + 3] & 0x07)
            result.append(
                TeletextPageEntry(
                    language: languageCode(body[i..<(i + 3)]), type: body[i + 3] >> 3, magazine: magazine == 0 ? 8 : magazine, pageByte: body[i + 4]))
            i += 5
        }
        return result
    }

    /// An ISO 639-2 code of three letters, lower-cased; nil for anything else.
    static func languageCode(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count == 3, bytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    /// ATSC A/65 §6.9.2 caption_service_descriptor: number_of_services (5 bits), then per service
    /// language (3 bytes), digital_cc (1 bit), reserved (1), then caption_service_number (6 bits)
    /// or reserved (5) and line21_field (1), then easy_reader, wide_aspect_ratio and 14 reserved bits.
    static func captionServices(_ body: ArraySlice<UInt8>) -> [CaptionServiceEntry] {
        guard let first = body.first else { return [] }
        let count = Int(first & 0x1F)
        var result: [CaptionServiceEntry] = []
        var i = body.startIndex + 1
        for _ in 0..<count where i + 6 <= body.endIndex {
            let flags = body[i + 3]
            let digital = flags & 0x80 != 0
            let number = digital ? Int(flags & 0x3F) : (flags & 0x01 == 0 ? 1 : 2)
            if let language = languageCode(body[i..<(i + 3)]) {
                result.append(CaptionServiceEntry(language: language, digital: digital, number: number))
            }
            i += 6
        }
        return result
    }

    /// A PES packet header (ISO/IEC 13818-1 §2.4.3.6).
    package struct PESHeader: Sendable, Equatable {
        package let streamID: UInt8
        /// PES_packet_length (0 = unbounded, usual for video).
        package let packetLength: Int
        package let pts: Int64?
        package let dts: Int64?
        /// Bytes from the start of the PES packet to its payload.
        package let headerLength: Int

        /// Whether a PES packet of `streamID` lacks the optional PES header: program stream map,
        /// padding, private 2, ECM, EMM, directory, DSMCC, H.222.1 E (asked of every PES packet:
        /// compared, not hashed).
        @inline(__always)
        package static func lacksOptionalHeader(_ streamID: UInt8) -> Bool {
            switch streamID {
            case 0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xFF, 0xF2, 0xF8: return true
            default: return false
            }
        }

        /// The same header with PES_packet_length 0 (unbounded).
        package var unbounded: PESHeader { PESHeader(streamID: streamID, packetLength: 0, pts: pts, dts: dts, headerLength: headerLength) }

        private init(streamID: UInt8, packetLength: Int, pts: Int64?, dts: Int64?, headerLength: Int) {
            self.streamID = streamID
            self.packetLength = packetLength
            self.pts = pts
            self.dts = dts
            self.headerLength = headerLength
        }

        /// Parses the header at the start of `bytes`; nil if there is no start code prefix.
        package init?(_ bytes: ArraySlice<UInt8>) {
            guard let header = bytes.withUnsafeBufferPointer({ PESHeader($0) }) else { return nil }
            self = header
        }

        /// ``init(_:)`` of bytes read through a pointer (the demuxer reads one at every video
        /// access unit).
        @inline(__always)
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 6, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 else { return nil }
            streamID = bytes[3]
            packetLength = Int(bytes[4]) << 8 | Int(bytes[5])
            guard !Self.lacksOptionalHeader(streamID), bytes.count >= 9, bytes[6] & 0xC0 == 0x80 else {
                pts = nil
                dts = nil
                headerLength = 6
                return
            }
            let flags = bytes[7] >> 6
            headerLength = 9 + Int(bytes[8])
            func timestamp(_ p: Int) -> Int64? {
                guard p + 5 <= bytes.count else { return nil }
                return (Int64(bytes[p] >> 1) & 0x07) << 30 | Int64(bytes[p + 1]) << 22 | Int64(bytes[p + 2] >> 1) << 15 | Int64(bytes[p + 3]) << 7
                    | Int64(bytes[p + 4] >> 1)
            }
            pts = flags & 0x2 != 0 ? timestamp(9) : nil
            dts = flags == 0x3 ? timestamp(14) : nil
        }
    }
}

/// Reassembles PSI sections (PAT, PMT) from packet payloads.
struct SectionAssembler {
    private var buffer: [UInt8] = []
    private var collecting = false

    /// Adds a packet's payload; returns a complete section (from table_id) when one ends.
    mutating func add(_ data: ArraySlice<UInt8>, payload: Range<Int>, unitStart: Bool) -> ArraySlice<UInt8>? {
        guard !payload.isEmpty else { return nil }
        if unitStart {
            let pointer = Int(data[payload.lowerBound])
            let start = payload.lowerBound + 1 + pointer
            guard start < payload.upperBound else { return nil }
            buffer = Array(data[start..<payload.upperBound])
            collecting = true
        } else if collecting {
            buffer += data[payload]
        } else {
            return nil
        }
        guard buffer.count >= 3 else { return nil }
        let length = Int(buffer[1] & 0x0F) << 8 | Int(buffer[2])
        if buffer.count >= 3 + length {
            collecting = false
            return buffer[0..<(3 + length)]
        }
        return nil
    }
}

/// Follows a transport stream's program tables as packets arrive: the PAT names the PMT PIDs,
/// each PMT lists its elementary streams.
///
/// The one place PSI is tracked.
struct ProgramTables {
    private var pat = SectionAssembler()
    /// The PMT PIDs the PAT named, in its order, each with its section being assembled: a list
    /// scanned for every packet (a program or two; hashing every packet's PID cost more).
    private var pmts: [(pid: UInt16, assembler: SectionAssembler)] = []
    /// The last PAT and PMT sections read (by PID; 0 for the PAT): muxers repeat the tables
    /// every few packets, and a section the same as the last one changes nothing, so it is not
    /// parsed again.
    private var lastSections: [(pid: UInt16, section: [UInt8])] = []
    /// The streams of every PMT read, by PID.
    private(set) var streams: [UInt16: TransportStream.ElementaryStream] = [:]
    /// The first video stream of the first PMT that lists one.
    private(set) var firstVideo: TransportStream.ElementaryStream?
    /// The first DVB teletext stream of the first PMT that lists one.
    private(set) var firstTeletext: TransportStream.ElementaryStream?
    /// The first DVB subtitle stream of the first PMT that lists one.
    private(set) var firstDVBSubtitles: TransportStream.ElementaryStream?
    /// The DVB subtitle streams of the first PMT read that lists any stream, in its order: an HLS
    /// segment holds one program (RFC 8216 §3.2), and deciding on the first PMT keeps the
    /// decision where it is whatever chunks the stream comes in.
    private(set) var dvbSubtitles: [TransportStream.ElementaryStream] = []
    private(set) var sawPAT = false

    /// Whether `pid` carries the PAT or a PMT the PAT named.
    func isTable(_ pid: UInt16) -> Bool { pid == 0 || pmts.contains { $0.pid == pid } }

    /// Whether `section` differs from the last one read on `pid` (then it becomes the last).
    private mutating func isNew(_ section: ArraySlice<UInt8>, on pid: UInt16) -> Bool {
        if let i = lastSections.firstIndex(where: { $0.pid == pid }) {
            if lastSections[i].section.elementsEqual(section) { return false }
            lastSections[i].section = Array(section)
        } else {
            lastSections.append((pid, Array(section)))
        }
        return true
    }

    /// A copy with storage of its own (not shared with this one's), for a reader on another
    /// thread: reference counts of shared storage touched from two cores at every packet cost
    /// more than the copy.
    func detached() -> ProgramTables {
        var copy = self
        copy.pmts = pmts.map { ($0.pid, $0.assembler) }
        copy.streams = Dictionary(uniqueKeysWithValues: streams.map { ($0.key, $0.value) })
        copy.dvbSubtitles = dvbSubtitles.map { $0 }
        copy.lastSections = lastSections.map { ($0.pid, Array($0.section)) }
        return copy
    }

    /// The PMT PIDs the PAT has named so far, in its order.
    var programMapPIDs: [UInt16] { pmts.map(\.pid) }

    /// Reads `packet` if it carries the PAT or a PMT (true), else leaves it to the caller (false).
    mutating func consume(_ packet: TransportStream.Packet, in data: [UInt8]) -> Bool { consume(packet, in: data[...]) }

    /// ``consume(_:in:)`` of a packet read from a slice (its payload range an index range of it).
    mutating func consume(_ packet: TransportStream.Packet, in data: ArraySlice<UInt8>) -> Bool {
        if packet.pid == 0 {
            if let section = pat.add(data, payload: packet.payload, unitStart: packet.payloadUnitStart), isNew(section, on: 0) {
                sawPAT = true
                for pid in TransportStream.programMapPIDs(pat: section) where !pmts.contains(where: { $0.pid == pid }) {
                    pmts.append((pid, SectionAssembler()))
                }
            }
            return true
        }
        guard let index = pmts.firstIndex(where: { $0.pid == packet.pid }) else { return false }
        if let section = pmts[index].assembler.add(data, payload: packet.payload, unitStart: packet.payloadUnitStart), isNew(section, on: packet.pid),
            let list = TransportStream.elementaryStreams(pmt: section)
        {
            if streams.isEmpty { dvbSubtitles = list.filter(\.isDVBSubtitles) }
            for stream in list { streams[stream.pid] = stream }
            if firstVideo == nil { firstVideo = list.first { $0.kind == .video } }
            if firstTeletext == nil { firstTeletext = list.first { $0.isTeletext } }
            if firstDVBSubtitles == nil { firstDVBSubtitles = list.first { $0.isDVBSubtitles } }
        }
        return true
    }
}
