/// H.264 and HEVC NAL units in Annex B byte streams (ITU-T H.264 Annex B, H.265 Annex B).
package enum NALUnits {
    /// The NAL units of an Annex B access unit (start codes `00 00 01` or `00 00 00 01` removed),
    /// as ranges of `data`.
    package static func split(_ data: [UInt8]) -> [Range<Int>] {
        var units: [Range<Int>] = []
        var start: Int?
        var i = 0
        let n = data.count
        while i + 2 < n {
            if data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1 {
                if let s = start {
                    var end = i
                    while end > s && data[end - 1] == 0 { end -= 1 }  // trailing zero bytes belong to the next start code
                    units.append(s..<end)
                }
                i += 3
                start = i
                continue
            }
            // Skip quickly: a start code needs a zero at i+2 or later.
            i += data[i + 2] > 1 ? 3 : 1
        }
        if let s = start, s < n { units.append(s..<n) }
        return units
    }

    /// Calls `body` with each unit (start code removed) before the first that carries picture
    /// data, where SEI and user data must be, in order.
    ///
    /// Picture data: a VCL NAL unit of H.264, a slice of MPEG-2 video (H.264 §7.4.1.2.3, ISO/IEC
    /// 13818-2 §6.2). The scan stops there, so the slice data, most of an access unit's bytes, is
    /// never read. HEVC access units are read whole (suffix SEI follows the slices).
    @inline(__always)
    static func forEachLeadingUnit(_ data: UnsafeBufferPointer<UInt8>, codec: Codec, _ body: (Range<Int>) -> Void) {
        var start: Int?
        var i = 0
        let n = data.count
        while i + 2 < n {
            // Skip quickly: a start code needs a zero at i+2 or later.
            if data[i + 2] > 1 {
                i += 3
                continue
            }
            if data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1 {
                if let s = start {
                    var end = i
                    while end > s && data[end - 1] == 0 { end -= 1 }  // trailing zero bytes belong to the next start code
                    body(s..<end)
                }
                i += 3
                if i < n && codec.isPictureData(data[i]) { return }
                start = i
                continue
            }
            i += 1
        }
        if let s = start, s < n { body(s..<n) }
    }

    /// Whether a NAL unit holds an emulation-prevention byte (`00 00 03`): when it does not, its
    /// RBSP is its bytes as they are (``rbsp(_:into:)`` removes nothing).
    static func hasEmulationPrevention(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 2
        while i < b.count {
            // A `03` at i+0 needs zeros before it; a byte neither 0 nor 3 at i ends every
            // pattern that would include it.
            let byte = b[i]
            if byte > 3 || byte == 1 || byte == 2 {
                i += 3
                continue
            }
            if byte == 3 && b[i - 1] == 0 && b[i - 2] == 0 { return true }
            i += 1
        }
        return false
    }

    /// The RBSP of a NAL unit (emulation-prevention bytes, the `03` of `00 00 03`, removed) into
    /// `out`, emptied first and its storage kept: no allocation once it is large enough.
    static func rbsp(_ nal: ArraySlice<UInt8>, into out: inout [UInt8]) {
        nal.withUnsafeBufferPointer { rbsp($0, into: &out) }
    }

    /// ``rbsp(_:into:)`` of a NAL unit where it lies.
    static func rbsp(_ source: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(source.count)
        // The bytes between emulation-prevention bytes are copied a run at a time.
        var zeros = 0, run = 0
        for i in source.indices {
            let byte = source[i]
            if zeros >= 2 && byte == 0x03 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<i]))
                run = i + 1
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: source[run...]))
    }

    /// The video codecs whose SEI can carry A/53 captions.
    ///
    /// MPEG-2 video has no NAL units: its captions travel in picture user data (`00 00 01 B2`),
    /// found by the same start-code scan.
    package enum Codec: Sendable, Equatable {
        case h264, hevc, mpeg2

        /// The codec of an MPEG-TS stream type, or nil for one that cannot carry A/53 captions.
        package init?(streamType: UInt8) {
            switch streamType {
            case 0x1B, 0xDB: self = .h264
            case 0x24: self = .hevc
            case 0x01, 0x02: self = .mpeg2
            default: return nil
            }
        }

        /// Whether a NAL unit (first byte(s) at `nal`) is SEI: H.264 type 6; HEVC prefix 39, suffix 40.
        func isSEI(_ first: UInt8) -> Bool {
            switch self {
            case .h264: return first & 0x1F == 6
            case .hevc:
                let type = (first >> 1) & 0x3F
                return type == 39 || type == 40
            case .mpeg2:
                return false
            }
        }

        /// The picture-data test of an MPEG-TS stream type's codec (``isPictureData(_:)``), for
        /// the demuxer; nil for a stream type that cannot carry A/53 captions.
        package static func pictureData(streamType: UInt8) -> (@Sendable (UInt8) -> Bool)? {
            guard let codec = Codec(streamType: streamType) else { return nil }
            return { codec.isPictureData($0) }
        }

        /// Whether a unit starting with `first` carries picture data after which no caption data can follow.
        ///
        /// H.264 NAL types 1-5, MPEG-2 slice start codes 0x01-0xAF. Never for HEVC, whose suffix
        /// SEI (type 40) follows the slices.
        package func isPictureData(_ first: UInt8) -> Bool {
            switch self {
            case .h264: return (1...5).contains(first & 0x1F)
            case .hevc: return false
            case .mpeg2: return (0x01...0xAF).contains(first)
            }
        }

        /// Bytes of NAL unit header before the SEI messages.
        var headerLength: Int { self == .h264 ? 1 : 2 }
    }
}

/// SEI messages (H.264 §7.3.2.3.1, H.265 §7.3.5) and the A/53 caption data in them.
package enum SEIMessages {
    /// Calls `body` with each payload of type 4 (user_data_registered_itu_t_t35) in an SEI RBSP.
    ///
    /// Payload type and size are coded as runs of 0xFF plus a last byte; several messages may
    /// follow one another until the RBSP trailing bits.
    static func forEachRegisteredUserData(_ rbsp: UnsafeBufferPointer<UInt8>, headerLength: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var i = headerLength
        let end = rbsp.count
        while i < end {
            if rbsp[i] == 0x80 && i == end - 1 { break }  // rbsp_trailing_bits
            var type = 0
            while i < end && rbsp[i] == 0xFF { type += 255; i += 1 }
            guard i < end else { break }
            type += Int(rbsp[i]); i += 1
            var size = 0
            while i < end && rbsp[i] == 0xFF { size += 255; i += 1 }
            guard i < end else { break }
            size += Int(rbsp[i]); i += 1
            guard size <= end - i else { break }
            if type == 4 { body(UnsafeBufferPointer(rebasing: rbsp[i..<(i + size)])) }
            i += size
        }
    }
}

/// One cc_data triplet (ATSC A/53 Part 4 §6.2.3.1): two 608 or 708 bytes and what they are.
package struct CCData: Sendable, Equatable {
    /// 0: NTSC field 1 (CC1/CC2), 1: field 2 (CC3/CC4), 2/3: DTVCC (708).
    package let type: UInt8
    package let valid: Bool
    package let byte1: UInt8
    package let byte2: UInt8

    package init(type: UInt8, valid: Bool, byte1: UInt8, byte2: UInt8) {
        self.type = type
        self.valid = valid
        self.byte1 = byte1
        self.byte2 = byte2
    }

    /// The triplets of an ITU-T T.35 payload, if it is ATSC A/53 caption data: country 0xB5,
    /// provider 0x0031, user identifier `GA94`, user_data_type_code 3.
    package static func parse(t35 payload: ArraySlice<UInt8>) -> [CCData]? {
        var result: [CCData] = []
        return payload.withUnsafeBufferPointer { append(t35: $0, to: &result) } ? result : nil
    }

    /// The triplets of ATSC A/53 user data starting at its identifier: `GA94`, then
    /// user_data_type_code 3 and cc_data() (A/53 Part 4 §6.2.3) — the body of an MPEG-2 picture's
    /// user data, or of a T.35 payload after its country and provider codes.
    package static func parse(atscUserData data: ArraySlice<UInt8>) -> [CCData]? {
        var result: [CCData] = []
        return data.withUnsafeBufferPointer { append(atscUserData: $0, to: &result) } ? result : nil
    }

    /// Appends the triplets of ``parse(atscUserData:)`` to `result`; false when `bytes` are not
    /// A/53 caption data (nothing appended).
    static func append(atscUserData bytes: UnsafeBufferPointer<UInt8>, to result: inout [CCData]) -> Bool {
        guard bytes.count >= 7, bytes[0] == 0x47, bytes[1] == 0x41, bytes[2] == 0x39, bytes[3] == 0x34,  // "GA94"
            bytes[4] == 0x03
        else { return false }
        let flags = bytes[5]
        guard flags & 0x40 != 0 else { return true }  // process_cc_data_flag
        // The triplets after em_data, as many as cc_count says and the data holds.
        let count = min(Int(flags & 0x1F), (bytes.count - 7) / 3)
        // Room for an access unit's triplets, made once (not grown triplet by triplet); only
        // into an empty array, so that a caller gathering many never reallocates each time.
        if result.isEmpty { result.reserveCapacity(count) }
        var i = 7
        for _ in 0..<count {
            let b = bytes[i]
            result.append(CCData(type: b & 0x03, valid: b & 0x04 != 0, byte1: bytes[i + 1], byte2: bytes[i + 2]))
            i += 3
        }
        return true
    }

    /// Appends the triplets of ``parse(t35:)`` to `result`; false when it is not A/53 caption data.
    static func append(t35 bytes: UnsafeBufferPointer<UInt8>, to result: inout [CCData]) -> Bool {
        guard bytes.count >= 3, bytes[0] == 0xB5, bytes[1] == 0x00, bytes[2] == 0x31 else { return false }
        return append(atscUserData: UnsafeBufferPointer(rebasing: bytes[3...]), to: &result)
    }
}
