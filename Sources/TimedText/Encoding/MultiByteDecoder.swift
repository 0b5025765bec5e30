#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CJK legacy encodings (GB18030, Big5, Shift_JIS as CP932, EUC-JP, ISO-2022-JP, EUC-KR as
/// CP949, ISO-2022-KR), decoded by the C library's `iconv` (glibc ships the converters with every
/// system).
enum MultiByteDecoder {
    /// iconv's name for an encoding: Shift_JIS and EUC-KR are read as the Windows supersets that
    /// Japanese and Korean subtitles made on Windows are written in.
    static func name(_ encoding: TextEncoding) -> String? {
        switch encoding {
        case .gb18030: return "GB18030"
        case .big5: return "BIG5"
        case .shiftJIS: return "CP932"
        case .eucJP: return "EUC-JP"
        case .iso2022JP: return "ISO-2022-JP"
        case .eucKR: return "CP949"
        case .iso2022KR: return "ISO-2022-KR"
        default: return nil
        }
    }

    /// Whether iconv decodes `encoding`.
    static func handles(_ encoding: TextEncoding) -> Bool { name(encoding) != nil }

    /// The text of `bytes`, or nil at the first sequence that is not valid in `encoding` (or
    /// when the converter is missing): for the detector.
    static func decodeStrictly(_ bytes: [UInt8], _ encoding: TextEncoding) -> String? {
        let (text, invalid) = decode(bytes[...], encoding, strict: true)
        return invalid == nil ? text : nil
    }

    /// The text of `bytes` with invalid sequences replaced by U+FFFD (one per byte skipped), and
    /// the offset of the first.
    static func decode(_ bytes: ArraySlice<UInt8>, _ encoding: TextEncoding, strict: Bool = false) -> (String, Int?) {
        guard let name = name(encoding) else { return ("", 0) }
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return (String(repeating: "\u{FFFD}", count: bytes.count), bytes.isEmpty ? nil : 0) }
        defer { iconv_close(converter) }
        var input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var invalid: Int?
        var position = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while position < input.count {
            var inLeft = input.count - position
            var outLeft = buffer.count
            let (result, code, consumed, produced) = input.withUnsafeMutableBytes { inRaw -> (Int, Int32, Int, Int) in
                buffer.withUnsafeMutableBytes { outRaw -> (Int, Int32, Int, Int) in
                    var inPointer: UnsafeMutablePointer<CChar>? = inRaw.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) + position }
                    var outPointer: UnsafeMutablePointer<CChar>? = outRaw.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) }
                    let before = inLeft
                    let r = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (r, errno, before - inLeft, outRaw.count - outLeft)
                }
            }
            output.append(contentsOf: buffer[0..<produced])
            position += consumed
            if result != -1 { break }
            if code == E2BIG { continue }
            // EILSEQ (an invalid sequence) or EINVAL (cut short at the end): one byte becomes U+FFFD.
            if invalid == nil { invalid = position }
            if strict { return ("", invalid) }
            output.append(contentsOf: [0xEF, 0xBF, 0xBD])
            position += 1
        }
        return (String(decoding: output, as: UTF8.self), invalid)
    }
}
