/// The byte codings of teletext (ETSI EN 300 706 §8) as DVB carries it (EN 300 472 §4.4: each
/// byte of a data unit is sent with its bits in the order of transmission, last bit first).
enum TeletextCoding {
    /// Each byte with its bits in reverse order: a data unit's bytes as teletext's tables read them.
    static let reversed: [UInt8] = (0...255).map { value in
        var b = UInt8(value), r: UInt8 = 0
        for _ in 0..<8 {
            r = r << 1 | (b & 1)
            b >>= 1
        }
        return r
    }

    /// The Hamming 8/4 code of each 4-bit value (§8.2): bits P1 D1 P2 D2 P3 D3 P4 D4 from the
    /// least significant, each P making its checked bits odd.
    static let hamming84: [UInt8] = (0..<16).map { (n: Int) -> UInt8 in
        let d1 = n & 1, d2 = n >> 1 & 1, d3 = n >> 2 & 1, d4 = n >> 3 & 1
        let p1 = 1 ^ d1 ^ d3 ^ d4, p2 = 1 ^ d1 ^ d2 ^ d4, p3 = 1 ^ d1 ^ d2 ^ d3
        let p4 = 1 ^ p1 ^ d1 ^ p2 ^ d2 ^ p3 ^ d3 ^ d4
        return UInt8(p1 | d1 << 1 | p2 << 2 | d2 << 3 | p3 << 4 | d3 << 5 | p4 << 6 | d4 << 7)
    }

    /// The value of each received Hamming 8/4 byte, one wrong bit corrected; -1 when two bits
    /// are wrong (the byte cannot be trusted).
    static let hamming84Decoded: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (value, code) in hamming84.enumerated() {
            table[Int(code)] = Int8(value)
            for bit in 0..<8 { table[Int(code ^ (1 << bit))] = Int8(value) }
        }
        return table
    }()

    /// A Hamming 8/4 byte as teletext reads it (already reversed); nil when it cannot be trusted.
    static func hamming(_ byte: UInt8) -> Int? {
        let value = hamming84Decoded[Int(byte)]
        return value < 0 ? nil : Int(value)
    }

    /// The 18 data bits of a Hamming 24/18 triplet (§8.3; three bytes already reversed, the first
    /// least significant), one wrong bit corrected; nil when two are wrong.
    ///
    /// Bits 1, 2, 4, 8 and 16 are checks, each making the bits whose position has it set odd, and
    /// bit 24 makes the whole word odd; the other 18 carry the data, D1 at bit 3.
    static func hamming2418(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        var word = Int(a) | Int(b) << 8 | Int(c) << 16
        var syndrome = 0
        for check in 0..<5 {
            var parity = 0
            for position in 1...23 where position & (1 << check) != 0 { parity ^= word >> (position - 1) & 1 }
            if parity == 0 { syndrome |= 1 << check }
        }
        let whole = word.nonzeroBitCount % 2 == 1
        switch (syndrome, whole) {
        case (0, true): break
        case (0, false): word ^= 1 << 23  // the overall check bit itself
        case (_, false) where syndrome <= 23: word ^= 1 << (syndrome - 1)
        default: return nil  // two bits wrong
        }
        var data = 0
        var bit = 0
        for position in 1...23 where position & (position - 1) != 0 {
            data |= (word >> (position - 1) & 1) << bit
            bit += 1
        }
        return data
    }

    /// A character byte (odd parity, §8.1): its 7-bit code, or nil on a parity error.
    static func parity(_ byte: UInt8) -> UInt8? {
        byte.nonzeroBitCount % 2 == 1 ? byte & 0x7F : nil
    }
}

/// The Latin G0 character set of teletext with its national option subsets (EN 300 706 §15.2,
/// Table 36): 13 positions a page's national option (C12–C14) changes, within the designation
/// group that X/28 or M/29 selects (§15.2, Table 33; without one, the first group).
enum TeletextCharacters {
    /// The positions a national option changes.
    static let nationalPositions: [UInt8] = [0x23, 0x24, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D, 0x7E]

    /// The subsets of the first designation group, by option 0–6 (7 is not defined there: read
    /// as English).
    static let subsets: [[Character]] = [
        ["£", "$", "@", "←", "½", "→", "↑", "#", "―", "¼", "‖", "¾", "÷"],  // English
        ["#", "$", "§", "Ä", "Ö", "Ü", "^", "_", "°", "ä", "ö", "ü", "ß"],  // German
        ["#", "¤", "É", "Ä", "Ö", "Å", "Ü", "_", "é", "ä", "ö", "å", "ü"],  // Swedish, Finnish, Hungarian
        ["£", "$", "é", "°", "ç", "→", "↑", "#", "ù", "à", "ò", "è", "ì"],  // Italian
        ["é", "ï", "à", "ë", "ê", "ù", "î", "#", "è", "â", "ô", "û", "ç"],  // French
        ["ç", "$", "¡", "á", "é", "í", "ó", "ú", "¿", "ü", "ñ", "è", "à"],  // Portuguese, Spanish
        ["#", "ů", "č", "ť", "ž", "ý", "í", "ř", "é", "á", "ě", "ú", "š"],  // Czech, Slovak
    ]

    /// More Latin subsets, by name, for the designations beyond the first group.
    static let polish: [Character] = ["#", "ń", "ą", "Ƶ", "Ś", "Ł", "ć", "ó", "ę", "ż", "ś", "ł", "ź"]
    static let turkish: [Character] = ["₺", "ğ", "İ", "Ş", "Ö", "Ç", "Ü", "Ğ", "ı", "ş", "ö", "ç", "ü"]
    static let serbianCroatianSlovenian: [Character] = ["#", "Ë", "Č", "Ć", "Ž", "Đ", "Š", "ë", "č", "ć", "ž", "đ", "š"]
    static let romanian: [Character] = ["#", "¤", "Ţ", "Â", "Ş", "Ă", "Î", "ı", "ţ", "â", "ş", "ă", "î"]
    static let estonian: [Character] = ["#", "õ", "Š", "Ä", "Ö", "Ž", "Ü", "Õ", "š", "ä", "ö", "ž", "ü"]
    static let lettishLithuanian: [Character] = ["#", "$", "Š", "ė", "ę", "Ž", "č", "ū", "š", "ą", "ų", "ž", "į"]

    /// The Latin subset a 7-bit designation code (group × 8 + national option) names; nil for
    /// the codes that name a non-Latin G0 set or none.
    static func subset(code: Int) -> [Character]? {
        switch code {
        case 0x00...0x06: subsets[code]
        case 0x07: subsets[0]
        case 0x08: polish
        case 0x09...0x0C, 0x0E: subsets[code - 8]
        case 0x10...0x15: subsets[code - 0x10]
        case 0x16, 0x36: turkish
        case 0x1D: serbianCroatianSlovenian
        case 0x1F: romanian
        case 0x21: subsets[1]
        case 0x22: estonian
        case 0x23: lettishLithuanian
        case 0x26: subsets[6]
        default: nil
        }
    }

    /// The G0 set a 7-bit designation code names, as the 96 characters of codes 0x20–0x7F: a
    /// Latin set with its national subset, or a Cyrillic or Greek set (EN 300 706's G0 tables);
    /// nil for the Arabic and Hebrew sets, which are not decoded (Hebrew rows are sent in display
    /// order, Arabic letters by their shaped forms).
    static func g0(code: Int) -> [Character]? {
        if let subset = subset(code: code) {
            return (0x20...0x7F).map { character(UInt8($0), subset: subset) }
        }
        return nonLatin[code]
    }

    /// The Cyrillic and Greek G0 sets, by designation code: ASCII in columns 2 and 3 but for the
    /// positions named, letters from 0x40 to 0x7E, and a block at 0x7F.
    ///
    /// Where these differ from libzvbi (the decoder ffmpeg and GStreamer use): 0x4A and 0x6A of
    /// the Russian/Bulgarian and Ukrainian sets are Й and й as the standard's table and KOI-7
    /// (whose order these sets follow) have them, where libzvbi gives Ѝ and ѝ; 0x26 of the
    /// Ukrainian set is the Cyrillic ї (U+0457), where libzvbi gives the Latin ï.
    static let nonLatin: [Int: [Character]] = [
        // Cyrillic option 1: Serbian/Croatian.
        0x20: set([:], letters: "ЧАБЦДЕФГХИЈКЛМНОПЌРСТУВЃЉЊЗЋЖЂШЏчабцдефгхијклмнопќрстувѓљњзћжђш"),
        // Cyrillic option 2: Russian/Bulgarian.
        0x24: set([0x26: "ы"], letters: "ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЪЗШЭЩЧЫюабцдефгхийклмнопярстужвьъзшэщч"),
        // Cyrillic option 3: Ukrainian.
        0x25: set([0x26: "ї"], letters: "ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬІЗШЄЩЧЇюабцдефгхийклмнопярстужвьізшєщч"),
        // Greek.
        0x37: set([0x3C: "«", 0x3E: "»"], letters: "ΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡʹΣΤΥΦΧΨΩΪΫάέήίΰαβγδεζηθικλμνξοπρςστυφχψωϊϋόύώ"),
    ]

    /// A set of 96: ASCII from 0x20 to 0x3F with `replaced` positions, `letters` from 0x40 to
    /// 0x7E (63 of them), a block at 0x7F.
    private static func set(_ replaced: [Int: Character], letters: String) -> [Character] {
        let low = (0x20...0x3F).map { replaced[$0] ?? Character(UnicodeScalar(UInt8($0))) }
        return low + Array(letters) + ["■"]
    }

    /// The character of 7-bit `code` (0x20–0x7F) in `subset`.
    static func character(_ code: UInt8, subset: [Character]) -> Character {
        if let index = nationalPositions.firstIndex(of: code) { return subset[index] }
        if code == 0x7F { return "■" }
        return Character(UnicodeScalar(code))
    }

    /// The character of 7-bit `code` under national `option` of the first group.
    static func character(_ code: UInt8, option: Int) -> Character {
        character(code, subset: subsets[option < subsets.count ? option : 0])
    }
}
