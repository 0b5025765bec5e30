/// What the bytes of a text say of their encoding before any guess: UTF-16 and UTF-32 without a
/// byte order mark (their NUL bytes fall in a pattern, and text holding only ASCII would pass
/// for valid UTF-8), and the 7-bit ISO-2022 encodings (their escape sequences would pass for
/// ASCII).
enum TextSniffing {
    /// UTF-32 or UTF-16, little- or big-endian, when NUL bytes make a tenth or more of the
    /// sample, nearly all on one side of each pair (the high bytes of ASCII characters: a
    /// subtitle file's numbers, times and spaces), and the reading they point to is text: every
    /// unit a scalar, and no control character but tab, line feed and carriage return.
    static func bomlessUnicode(_ bytes: [UInt8]) -> TextEncoding? {
        let sample = Array(bytes.prefix(16_384))
        guard sample.count >= 8 else { return nil }
        var zeros = [0, 0]
        for (i, byte) in sample.enumerated() where byte == 0 { zeros[i & 1] += 1 }
        let total = zeros[0] + zeros[1]
        guard total * 10 >= sample.count, max(zeros[0], zeros[1]) * 10 >= total * 9 || total * 2 >= sample.count else { return nil }
        var candidates: [TextEncoding] = []
        if bytes.count % 4 == 0 { candidates += [.utf32LE, .utf32BE] }
        if bytes.count % 2 == 0 { candidates += [.utf16LE, .utf16BE] }
        var best: (TextEncoding, Double)?
        for candidate in candidates {
            let cut = candidate == .utf32LE || candidate == .utf32BE ? sample.count - sample.count % 4 : sample.count - sample.count % 2
            let (text, invalid) = TextDecoder.decode(sample[..<cut], as: candidate)
            guard invalid == nil else { continue }
            var good = 0
            var total = 0
            for scalar in text.unicodeScalars {
                total += 1
                let v = scalar.value
                if v == 0x09 || v == 0x0A || v == 0x0D { good += 1; continue }
                if v < 0x20 || (0x7F...0x9F).contains(v) || (0xE000...0xF8FF).contains(v) || v == 0xFFFD || v >= 0xF0000 { continue }
                if scalar.properties.generalCategory == .unassigned { continue }
                good += 1
            }
            guard total > 0 else { continue }
            let share = Double(good) / Double(total)
            if share >= 0.98, share > (best?.1 ?? 0) { best = (candidate, share) }
        }
        return best?.0
    }

    /// ISO-2022-JP or ISO-2022-KR, when the bytes are 7-bit and hold their designation escapes:
    /// `ESC $ B`, `ESC $ @` or `ESC $ ( D` (JIS X 0208/0212) for Japanese, `ESC $ ) C` (KS X 1001)
    /// for Korean.
    static func iso2022(_ bytes: [UInt8]) -> TextEncoding? {
        guard bytes.contains(0x1B), !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0x1B && bytes[i + 1] == 0x24 {
                switch bytes[i + 2] {
                case 0x42, 0x40: return .iso2022JP
                case 0x28 where bytes[i + 3] == 0x44: return .iso2022JP
                case 0x29 where bytes[i + 3] == 0x43: return .iso2022KR
                default: break
                }
            }
            i += 1
        }
        return nil
    }
}
