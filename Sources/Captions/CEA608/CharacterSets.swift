/// The CTA-608-E character sets, as data.
enum CharacterSets {
    /// The basic North American set (0x20-0x7F): ASCII, except where 608 differs.
    static func basic(_ code: UInt8) -> Unicode.Scalar {
        switch code {
        case 0x2A: return "á"  // lower-case a with acute accent (ASCII '*')
        case 0x5C: return "é"  // lower-case e with acute accent (ASCII '\')
        case 0x5E: return "í"  // lower-case i with acute accent (ASCII '^')
        case 0x5F: return "ó"  // lower-case o with acute accent (ASCII '_')
        case 0x60: return "ú"  // lower-case u with acute accent (ASCII '`')
        case 0x7B: return "ç"  // lower-case c with cedilla (ASCII '{')
        case 0x7C: return "÷"  // division sign (ASCII '|')
        case 0x7D: return "Ñ"  // upper-case N with tilde (ASCII '}')
        case 0x7E: return "ñ"  // lower-case n with tilde (ASCII '~')
        case 0x7F: return "█"  // solid block (ASCII DEL)
        default: return Unicode.Scalar(code)
        }
    }

    /// Special characters: 0x11 (CC1/CC3) or 0x19 (CC2/CC4) then 0x30-0x3F.
    static let special: [Unicode.Scalar] = [
        "®",  // 0x30 registered mark
        "°",  // 0x31 degree sign
        "½",  // 0x32 one half
        "¿",  // 0x33 inverted question mark
        "™",  // 0x34 trademark
        "¢",  // 0x35 cents sign
        "£",  // 0x36 pounds sterling
        "♪",  // 0x37 music note
        "à",  // 0x38 lower-case a with grave accent
        "\u{00A0}",  // 0x39 transparent space (shown as a no-break space)
        "è",  // 0x3A lower-case e with grave accent
        "â",  // 0x3B lower-case a with circumflex
        "ê",  // 0x3C lower-case e with circumflex
        "î",  // 0x3D lower-case i with circumflex
        "ô",  // 0x3E lower-case o with circumflex
        "û",  // 0x3F lower-case u with circumflex
    ]

    /// Extended Spanish/French/miscellaneous: 0x12 or 0x1A then 0x20-0x3F.
    static let extendedSpanishFrench: [Unicode.Scalar] = [
        "Á", "É", "Ó", "Ú", "Ü", "ü", "‘", "¡",  // 0x20-0x27
        "*", "’", "—", "©", "℠", "•", "“", "”",  // 0x28-0x2F
        "À", "Â", "Ç", "È", "Ê", "Ë", "ë", "Î",  // 0x30-0x37
        "Ï", "ï", "Ô", "Ù", "ù", "Û", "«", "»",  // 0x38-0x3F
    ]

    /// Extended Portuguese/German/Danish: 0x13 or 0x1B then 0x20-0x3F.
    static let extendedPortugueseGerman: [Unicode.Scalar] = [
        "Ã", "ã", "Í", "Ì", "ì", "Ò", "ò", "Õ",  // 0x20-0x27
        "õ", "{", "}", "\\", "^", "_", "|", "~",  // 0x28-0x2F
        "Ä", "ä", "Ö", "ö", "ß", "¥", "¤", "│",  // 0x30-0x37
        "Å", "å", "Ø", "ø", "┌", "┐", "└", "┘",  // 0x38-0x3F
    ]

    /// PAC rows (1-based) by ((byte1 & 0x07) << 1) | ((byte2 & 0x20) >> 5); 0 is not a row.
    static let pacRows: [Int] = [11, 0, 1, 2, 3, 4, 12, 13, 14, 15, 5, 6, 7, 8, 9, 10]

    /// Whether `byte` has odd parity, as every 608 byte must.
    static func hasOddParity(_ byte: UInt8) -> Bool { byte.nonzeroBitCount % 2 == 1 }
}
