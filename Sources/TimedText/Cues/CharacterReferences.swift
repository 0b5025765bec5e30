/// Character references in cue text, read as HTML reads them (W3C WebVTT §6.4 defers to HTML's
/// "consume a character reference"): named references from HTML's table, longest match first,
/// with the legacy names that need no `;` (`&amp`, `&lt`, `&not`…); numeric references decimal or
/// hexadecimal, `;` optional, with HTML's replacements (0, surrogates and values past U+10FFFF
/// become U+FFFD; 0x80-0x9F are read as windows-1252).
package enum CharacterReferences {
    /// A reference found in text: how many scalars it spans (from the `&`), what it stands for,
    /// and whether it ended with `;` (as written it is then a valid WebVTT reference).
    package struct Match: Equatable {
        package let length: Int
        package let text: String
        package let terminated: Bool
    }

    /// The reference starting at `k` (a `&`), or nil when none does.
    package static func match(_ s: [Unicode.Scalar], at k: Int) -> Match? {
        var j = k + 1
        guard j < s.count else { return nil }
        if s[j] == "#" {
            j += 1
            var hex = false
            if j < s.count, s[j] == "x" || s[j] == "X" {
                hex = true
                j += 1
            }
            let digitsStart = j
            var value: UInt32 = 0
            var overflow = false
            while j < s.count, let digit = hex ? hexValue(s[j]) : (s[j].isASCIIDigit ? s[j].value - 0x30 : nil) {
                let (times, o1) = value.multipliedReportingOverflow(by: hex ? 16 : 10)
                let (plus, o2) = times.addingReportingOverflow(digit)
                overflow = overflow || o1 || o2
                value = plus
                j += 1
            }
            guard j > digitsStart else { return nil }
            let terminated = j < s.count && s[j] == ";"
            if terminated { j += 1 }
            return Match(length: j - k, text: numeric(overflow ? 0x11_0000 : value), terminated: terminated)
        }
        // The longest name in the table that the text starts with.
        var name = ""
        var best: Match?
        while j < s.count, name.unicodeScalars.count < longestName {
            let c = s[j]
            guard c.isASCII, c.properties.isAlphabetic || c.isASCIIDigit || c == ";" else { break }
            name.unicodeScalars.append(c)
            j += 1
            if let text = named[name] { best = Match(length: j - k, text: text, terminated: c == ";") }
            if c == ";" { break }
        }
        return best
    }

    /// What a numeric reference stands for, with HTML's replacements.
    static func numeric(_ value: UInt32) -> String {
        if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) { return "\u{FFFD}" }
        if (0x80...0x9F).contains(value), let replaced = windows1252[value] { return String(Character(replaced)) }
        return Unicode.Scalar(value).map { String(Character($0)) } ?? "\u{FFFD}"
    }

    static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c.value {
        case 0x30...0x39: return c.value - 0x30
        case 0x41...0x46: return c.value - 0x41 + 10
        case 0x61...0x66: return c.value - 0x61 + 10
        default: return nil
        }
    }

    /// HTML's table for numeric references to 0x80-0x9F (read as windows-1252).
    static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}", 0x87: "\u{2021}",
        0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}", 0x8E: "\u{017D}", 0x91: "\u{2018}",
        0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}", 0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}",
        0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}", 0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]
}
