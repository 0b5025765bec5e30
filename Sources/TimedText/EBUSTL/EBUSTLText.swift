import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An EBU STL text field (TTI bytes 16–127, extension blocks joined) as WebVTT cue text: the
/// characters of the file's character code table, rows at CR/LF (0x8A), and the control codes
/// that style it (EBU Tech 3264 §4, Appendix 2).
///
/// Teletext spacing attributes (0x00–0x07 alpha colour, 0x0A/0x0B box, 0x0C/0x0D height, 0x1C/0x1D
/// background) show as a space and set what follows on the row; a colour lasts to the row's end.
/// Open subtitling's 0x80/0x81 (italics) and 0x82/0x83 (underline) last until turned off. 0x8F
/// fills unused space. Colours become WebVTT's colour classes (green is `lime`); backgrounds,
/// boxes, flashing and double height have no WebVTT form and are left to the player's defaults.
struct EBUSTLText {
    /// The character code table of the GSI block (CCT).
    enum Table: String, Sendable {
        case latin = "00", cyrillic = "01", arabic = "02", greek = "03", hebrew = "04"
    }

    /// What the text of one subtitle gives: its cue text, rows, and characters it could not
    /// decode (shown as U+FFFD).
    struct Decoded: Equatable {
        var text: String
        var rows: Int
        var doubleHeight: Bool
        var undecodable: Int
    }

    /// Decodes `field` (padding already removed) read with `table`.
    static func decode(_ field: ArraySlice<UInt8>, table: Table, teletext: Bool) -> Decoded {
        var rows = [TeletextRows.Row()]
        var style = TeletextRows.Style()
        var undecodable = 0
        var doubleHeight = false
        // Text of one style is gathered before it goes to the row, so a combining mark after a
        // space stays with it (characters are graphemes of each run, not of each byte).
        var run = "", runStyle = style
        func endRun() {
            for character in run {
                if character == " " { rows[rows.count - 1].space() } else { rows[rows.count - 1].append(character, runStyle) }
            }
            run = ""
        }
        func append(_ text: String) {
            if style != runStyle {
                endRun()
                runStyle = style
            }
            run += text
        }
        var i = field.startIndex
        while i < field.endIndex {
            let c = field[i]
            i += 1
            switch c {
            case 0x8F:
                i = field.endIndex
            case 0x8A:
                endRun()
                rows.append(TeletextRows.Row())
                if teletext { style.colour = nil }
            case 0x00...0x07:
                append(" ")
                style.colour = TeletextRows.colourClasses[Int(c)]
            case 0x80, 0x81:
                style.italic = c == 0x80
            case 0x82, 0x83:
                style.underline = c == 0x82
            case 0x0D, 0x0F:
                doubleHeight = true
                append(" ")
            case 0x08...0x1F, 0x84, 0x85:
                append(" ")
            case 0x86...0x89, 0x8B...0x8E, 0x7F, 0x90...0x9F:
                continue
            case 0x20...0x7E:
                append(String(UnicodeScalar(c)))
            default:
                let (character, used) = upperHalf(c, next: i < field.endIndex ? field[i] : nil, table)
                if character == "\u{FFFD}" { undecodable += 1 }
                append(character)
                i += used
            }
        }
        endRun()
        let lines = rows.map(\.cueText).filter { !$0.isEmpty }
        return Decoded(text: lines.joined(separator: "\n"), rows: lines.count, doubleHeight: doubleHeight, undecodable: undecodable)
    }

    /// The character byte `c` (0xA0–0xFF) starts in `table` (U+FFFD when the table has none
    /// there), and how many of the bytes after it it takes: in table 00 a diacritic (0xC1-0xCF)
    /// comes before the letter it goes on.
    static func upperHalf(_ c: UInt8, next: UInt8?, _ table: Table) -> (String, Int) {
        if table == .latin, (0xC0...0xCF).contains(c) {
            let base = next.flatMap { (0x20...0x7E).contains($0) ? $0 : nil }
            guard let composed = ISO6937.compose(c, base) else { return ("\u{FFFD}", 0) }
            return (composed, base == nil ? 0 : 1)
        }
        return (upperHalf(c, table) ?? "\u{FFFD}", 0)
    }

    /// The character of byte `c` (0xA0–0xFF) in `table`, nil when the table has none there.
    static func upperHalf(_ c: UInt8, _ table: Table) -> String? {
        switch table {
        case .latin: ISO6937.upper[c]
        case .cyrillic: ISO8859.table(5)[c]
        case .arabic: ISO8859.table(6)[c]
        case .greek: ISO8859.table(7)[c]
        case .hebrew: ISO8859.table(8)[c]
        }
    }
}

/// ISO/IEC 6937 as EBU Tech 3264's character code table 00: the upper half, and the
/// non-spacing diacritics (0xC1–0xCF) that precede their letter.
enum ISO6937 {
    static let upper: [UInt8: String] = {
        let rows: [(UInt8, String)] = [
            (0xA0, "\u{A0}¡¢£$¥#§¤‘“«←↑→↓"), (0xB0, "°±²³×µ¶·÷’”»¼½¾¿"), (0xD0, "―¹®©™♪¬¦"), (0xDC, "⅛⅜⅝⅞"),
            (0xE0, "ΩÆĐªĦ"), (0xE6, "ĲĿŁØŒºÞŦŊŉ"), (0xF0, "ĸæđðħıĳŀłøœßþŧŋ\u{AD}"),
        ]
        var table: [UInt8: String] = [:]
        for (start, characters) in rows {
            for (offset, character) in characters.enumerated() { table[start + UInt8(offset)] = String(character) }
        }
        return table
    }()

    /// The combining mark of each diacritic byte, and its spacing form (the byte before a space).
    static let diacritics: [UInt8: (combining: Unicode.Scalar, spacing: String)] = [
        0xC1: ("\u{300}", "`"), 0xC2: ("\u{301}", "´"), 0xC3: ("\u{302}", "^"), 0xC4: ("\u{303}", "~"), 0xC5: ("\u{304}", "¯"),
        0xC6: ("\u{306}", "˘"), 0xC7: ("\u{307}", "˙"), 0xC8: ("\u{308}", "¨"), 0xCA: ("\u{30A}", "˚"), 0xCB: ("\u{327}", "¸"),
        0xCD: ("\u{30B}", "˝"), 0xCE: ("\u{328}", "˛"), 0xCF: ("\u{30C}", "ˇ"),
    ]

    /// A diacritic on `base` (composed where Unicode has the letter), alone before a space, or nil
    /// when `mark` is not one.
    static func compose(_ mark: UInt8, _ base: UInt8?) -> String? {
        guard let diacritic = diacritics[mark] else { return nil }
        guard let base, base != 0x20 else { return diacritic.spacing }
        var scalars = String.UnicodeScalarView()
        scalars.append(UnicodeScalar(base))
        scalars.append(diacritic.combining)
        return String(scalars).precomposedStringWithCanonicalMapping
    }
}

/// The upper halves of ISO 8859-5, -6, -7 and -8 (EBU STL tables 01–04), from the C library's
/// iconv, made once.
enum ISO8859 {
    static let tables: [Int: [UInt8: String]] = {
        var result: [Int: [UInt8: String]] = [:]
        for part in [5, 6, 7, 8] {
            var table: [UInt8: String] = [:]
            let converter = iconv_open("UTF-8", "ISO-8859-\(part)")
            guard converter != iconv_t(bitPattern: -1) else { continue }
            defer { iconv_close(converter) }
            for byte in UInt8(0xA0)...UInt8(0xFF) {
                var input: [CChar] = [CChar(bitPattern: byte)]
                var output = [CChar](repeating: 0, count: 8)
                let decoded: String? = input.withUnsafeMutableBufferPointer { inBuffer in
                    output.withUnsafeMutableBufferPointer { outBuffer in
                        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                        var inLeft = 1
                        var outLeft = 8
                        _ = iconv(converter, nil, nil, nil, nil)
                        guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1 else { return nil }
                        return String(decoding: UnsafeRawBufferPointer(start: outBuffer.baseAddress, count: 8 - outLeft), as: UTF8.self)
                    }
                }
                if let decoded, !decoded.isEmpty { table[byte] = decoded }
            }
            result[part] = table
        }
        return result
    }()

    static func table(_ part: Int) -> [UInt8: String] { tables[part] ?? [:] }
}
