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

    /// A character byte (odd parity, §8.1): its 7-bit code, or nil on a parity error.
    static func parity(_ byte: UInt8) -> UInt8? {
        byte.nonzeroBitCount % 2 == 1 ? byte & 0x7F : nil
    }
}

/// The Latin G0 character set of teletext with its national option subsets (EN 300 706 §15.2,
/// Table 36): 13 positions a page's national option (C12–C14) changes.
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

    /// The character of 7-bit `code` (0x20–0x7F) under national `option`.
    static func character(_ code: UInt8, option: Int) -> Character {
        if let index = nationalPositions.firstIndex(of: code) { return subsets[option < subsets.count ? option : 0][index] }
        if code == 0x7F { return "■" }
        return Character(UnicodeScalar(code))
    }
}
