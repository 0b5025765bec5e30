import Timebase

/// Text decoded from bytes, and how.
package struct DecodedText: Sendable, Equatable {
    package let text: String
    package let encoding: TextEncoding
    /// True when a byte order mark told the encoding.
    package let hadByteOrderMark: Bool
    /// True when the bytes were not valid UTF-8 (nor had a BOM) and the encoding was guessed.
    package let usedFallback: Bool
    /// The offset of the first byte that was not valid in the encoding used (and became U+FFFD), if any.
    package let firstInvalidOffset: Int?
    /// The measured chance the guess is right (0 to 1), when the encoding was guessed.
    package var confidence: Double? = nil
    /// How the encoding was found without a byte order mark (UTF-16/32 by their NUL bytes,
    /// ISO-2022 by its escapes), for the report.
    package var sniffed: String? = nil
}

/// Decodes subtitle bytes: byte order marks first, then UTF-8, then windows-1252.
package enum TextDecoder {
    /// Decodes `bytes`.
    ///
    /// With `forced`, that encoding is used (a matching BOM is skipped); otherwise a UTF-8,
    /// UTF-16 or UTF-32 BOM decides; else UTF-16 or UTF-32 when NUL bytes say so (looked at
    /// before UTF-8: ASCII text in UTF-16 is valid UTF-8, NULs and all); else ISO-2022-JP/KR when
    /// 7-bit bytes hold their escapes; else UTF-8 if the bytes are valid UTF-8; else the encoding
    /// ``EncodingDetector`` guesses (`usedFallback`, with its calibrated confidence).
    package static func decode(_ bytes: [UInt8], forced: TextEncoding? = nil) -> DecodedText {
        let (bomEncoding, bomLength) = byteOrderMark(bytes)
        if let forced {
            let skip = bomEncoding == forced ? bomLength : 0
            let (text, invalid) = decode(bytes[skip...], as: forced)
            return DecodedText(
                text: withoutMarks(text), encoding: forced, hadByteOrderMark: skip > 0, usedFallback: false, firstInvalidOffset: invalid.map { $0 + skip })
        }
        if let bomEncoding {
            let (text, invalid) = decode(bytes[bomLength...], as: bomEncoding)
            return DecodedText(
                text: withoutMarks(text), encoding: bomEncoding, hadByteOrderMark: true, usedFallback: false, firstInvalidOffset: invalid.map { $0 + bomLength }
            )
        }
        for (sniff, how) in [(TextSniffing.bomlessUnicode, "its NUL bytes"), (TextSniffing.iso2022, "its escape sequences")] {
            guard let encoding = sniff(bytes) else { continue }
            let (text, bad) = decode(bytes[...], as: encoding)
            var decoded = DecodedText(text: text, encoding: encoding, hadByteOrderMark: false, usedFallback: false, firstInvalidOffset: bad)
            decoded.sniffed = how
            return decoded
        }
        if let invalid = UTF8Check.firstInvalidOffset(bytes) {
            let guess = EncodingDetector.detect(bytes)
            let (text, _) = decode(bytes[...], as: guess.encoding)
            return DecodedText(
                text: text, encoding: guess.encoding, hadByteOrderMark: false, usedFallback: true, firstInvalidOffset: invalid,
                confidence: guess.confidence)
        }
        return DecodedText(text: String(decoding: bytes, as: UTF8.self), encoding: .utf8, hadByteOrderMark: false, usedFallback: false, firstInvalidOffset: nil)
    }

    /// `text` without the byte order marks left at its start once decoding removed its own.
    ///
    /// A mark written twice comes from tools that add one to text that has one. Read again as
    /// UTF-8, such a mark would be taken for the encoding's and the text would lose it, so decoding
    /// what was decoded would not give it back. They show nothing.
    static func withoutMarks(_ text: String) -> String {
        guard text.unicodeScalars.first == "\u{FEFF}" else { return text }
        return String(text.unicodeScalars.drop { $0 == "\u{FEFF}" })
    }

    /// Whether `bytes` read as ``decode(_:forced:)`` would read them are UTF-8 without a
    /// replacement (no `forced` encoding but UTF-8, every byte valid); if so, the UTF-8 byte order
    /// marks at their start are removed, as decoding removes them, and they can be parsed as they are.
    package static func isUTF8(_ bytes: inout [UInt8], forced: TextEncoding?) -> Bool {
        // A UTF-16 or UTF-32 byte order mark is never valid UTF-8.
        guard forced == nil || forced == .utf8, UTF8Check.firstInvalidOffset(bytes) == nil else { return false }
        // BOM-less UTF-16/32 of ASCII text, and ISO-2022, are valid UTF-8 too.
        if forced == nil, TextSniffing.bomlessUnicode(bytes) != nil || TextSniffing.iso2022(bytes) != nil { return false }
        // Every mark at the start, as decoding removes them (``withoutMarks(_:)``).
        while bytes.starts(with: utf8ByteOrderMark) { bytes.removeFirst(utf8ByteOrderMark.count) }
        return true
    }

    /// Whether the start of a file shows an encoding that passes for UTF-8 (UTF-16/32 without a
    /// byte order mark, by its NUL bytes; ISO-2022, by its escapes).
    package static func sniffsAnotherEncoding(_ head: [UInt8]) -> Bool {
        TextSniffing.bomlessUnicode(head) != nil || TextSniffing.iso2022(head) != nil
    }

    /// U+FEFF in UTF-8: the mark decoding removes from the start of UTF-8 text.
    package static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    static func byteOrderMark(_ b: [UInt8]) -> (TextEncoding?, Int) {
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 { return (.utf32LE, 4) }
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return (.utf32BE, 4) }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return (.utf8, 3) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { return (.utf16LE, 2) }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { return (.utf16BE, 2) }
        return (nil, 0)
    }

    /// Decodes with invalid sequences replaced by U+FFFD; returns the offset of the first one.
    static func decode(_ bytes: ArraySlice<UInt8>, as encoding: TextEncoding) -> (String, Int?) {
        switch encoding {
        case .utf8:
            let invalid = UTF8Check.firstInvalidOffset(Array(bytes))
            return (String(decoding: bytes, as: UTF8.self), invalid)
        case .utf16LE, .utf16BE:
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
                units.append(encoding == .utf16LE ? a | b << 8 : a << 8 | b)
                i += 2
            }
            let invalid = i < bytes.endIndex ? i - bytes.startIndex : firstInvalidUTF16(units).map { $0 * 2 }
            return (String(decoding: units, as: UTF16.self), invalid)
        case .utf32LE, .utf32BE:
            var scalars = String.UnicodeScalarView()
            var invalid: Int?
            var i = bytes.startIndex
            while i + 3 < bytes.endIndex {
                let v =
                    encoding == .utf32LE
                    ? UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
                    : UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
                if let scalar = Unicode.Scalar(v) {
                    scalars.append(scalar)
                } else {
                    scalars.append("\u{FFFD}")
                    if invalid == nil { invalid = i - bytes.startIndex }
                }
                i += 4
            }
            if i < bytes.endIndex, invalid == nil { invalid = i - bytes.startIndex }
            return (String(scalars), invalid)
        case .gb18030, .big5, .shiftJIS, .eucJP, .iso2022JP, .eucKR, .iso2022KR:
            return MultiByteDecoder.decode(bytes, encoding)
        case .iso88591:
            // The WHATWG Encoding Standard has no ISO-8859-1 decoder: browsers read the label as
            // windows-1252, whose 0x80-0x9F are ’ € Œ and the rest, not C1 controls.
            return decode(bytes, as: .windows1252)
        default:
            let table = CodePage.table(for: encoding)
            var scalars = String.UnicodeScalarView()
            for byte in bytes {
                if byte < 0x80 {
                    scalars.append(Unicode.Scalar(byte))
                } else {
                    scalars.append(Unicode.Scalar(table[Int(byte) - 0x80]) ?? "\u{FFFD}")
                }
            }
            return (String(scalars), nil)
        }
    }

    private static func firstInvalidUTF16(_ units: [UInt16]) -> Int? {
        var i = 0
        while i < units.count {
            let u = units[i]
            if u >= 0xD800 && u <= 0xDBFF {
                guard i + 1 < units.count, units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF else { return i }
                i += 2
                continue
            }
            if u >= 0xDC00 && u <= 0xDFFF { return i }
            i += 1
        }
        return nil
    }
}

/// Single-byte code pages, as tables of their upper halves.
enum CodePage {
    static func table(for encoding: TextEncoding) -> [UInt16] {
        switch encoding {
        case .windows1250: return windows1250
        case .windows1251: return windows1251
        case .windows1253: return windows1253
        case .windows1254: return windows1254
        case .windows1255: return windows1255
        case .windows1256: return windows1256
        case .windows1257: return windows1257
        case .windows1258: return windows1258
        case .iso88592: return iso8859_2
        case .iso885915: return iso8859_15
        case .koi8R: return koi8r
        case .iso88595: return iso8859_5
        case .ibm866: return ibm866
        case .macCyrillic: return macCyrillic
        case .tis620: return windows874
        default: return windows1252
        }
    }
}
