/// Guesses the legacy encoding of subtitle bytes that are not UTF-8 (and have no byte order mark):
/// the single-byte code pages windows-1250 to 1256 and KOI8-R, and the CJK encodings GB18030
/// (GB2312, GBK), Big5, Shift_JIS and EUC-KR.
///
/// The method, after uchardet and charset-normalizer, is to decode a sample (the first 64 KiB)
/// in every candidate and score how much the result looks like text of a language that candidate
/// serves:
/// - **CJK**: a candidate whose byte sequences are not valid is out. Of the valid ones, each
///   scores the share of its non-ASCII characters that a text in its language is mostly made of:
///   Hiragana and Katakana for Shift_JIS (Japanese text is never without kana), Hangul syllables
///   for EUC-KR, and for GB18030 and Big5 the share of the 100 commonest characters of written
///   Chinese in the simplified or the traditional forms (about a quarter of any real text; a few
///   percent of the same bytes read in the other encoding).
/// - **Single-byte**: every non-ASCII character must be a letter of the candidate's script
///   (Latin, Cyrillic, Greek, Hebrew, Arabic), inside a word; symbols, C1 controls and undefined
///   bytes cost. Among Latin code pages the accented letters must belong to one language's
///   alphabet (Czech, Polish, Hungarian, … for 1250; French, German, Spanish, Nordic … for 1252;
///   Turkish for 1254): the best alphabet's coverage weighs the score. Cyrillic, Greek: a letter
///   after a lower-case letter is lower-case (KOI8-R and 1251 swap the cases of the same bytes).
/// The guess's confidence is its share of the two best scores; a file whose bytes fit none well
/// is read as windows-1252, as before, with the low confidence said.
package enum EncodingDetector {
    package struct Guess: Equatable, Sendable {
        package let encoding: TextEncoding
        /// 0.5 (a coin toss between the two best) to 1 (nothing else fits).
        package let confidence: Double
    }

    static let candidates: [TextEncoding] = [
        .windows1252, .windows1250, .windows1251, .koi8R, .windows1253, .windows1254, .windows1255, .windows1256,
        .gb18030, .big5, .shiftJIS, .eucKR,
    ]

    /// The best guess for `bytes`.
    package static func detect(_ bytes: [UInt8]) -> Guess {
        var sample = Array(bytes.prefix(65_536))
        // Cut at the last line break so a multi-byte character is not split at the end.
        if bytes.count > sample.count, let cut = sample.lastIndex(of: 0x0A) { sample = Array(sample[...cut]) }
        var scored: [(encoding: TextEncoding, score: Double, text: String)] = []
        for candidate in candidates {
            let (score, text) = plausibility(sample, as: candidate)
            scored.append((candidate, score, text))
        }
        scored.sort { $0.score > $1.score }
        let best = scored[0]
        guard best.score > 0 else { return Guess(encoding: .windows1252, confidence: 0) }
        // The confidence is against the best reading that gives another text (code pages that
        // agree on every byte of this file are not rivals).
        let rival = scored.dropFirst().first { $0.text != best.text }?.score ?? 0
        let confidence = best.score / (best.score + max(0, rival))
        return Guess(encoding: best.encoding, confidence: (confidence * 100).rounded() / 100)
    }

    /// How plausible `sample` read as `encoding` is as text of a language it serves (0 to 1), and
    /// the text.
    static func plausibility(_ sample: [UInt8], as encoding: TextEncoding) -> (Double, String) {
        switch encoding {
        case .gb18030, .big5, .shiftJIS, .eucKR:
            guard let text = MultiByteDecoder.decodeStrictly(sample, encoding) else { return (0, "") }
            return (cjkPlausibility(text, encoding), text)
        default:
            let (text, _) = TextDecoder.decode(sample[...], as: encoding)
            return (singleBytePlausibility(text, encoding), text)
        }
    }

    static func cjkPlausibility(_ text: String, _ encoding: TextEncoding) -> Double {
        var nonASCII = 0
        var typical = 0
        for scalar in text.unicodeScalars where scalar.value >= 0x80 {
            let v = scalar.value
            if (0x3000...0x303F).contains(v) || (0xFF00...0xFFEF).contains(v) { continue }  // CJK punctuation, fullwidth forms
            nonASCII += 1
            switch encoding {
            case .shiftJIS: if (0x3040...0x30FF).contains(v) { typical += 1 }
            case .eucKR: if (0xAC00...0xD7A3).contains(v) { typical += 1 }
            case .gb18030: if commonSimplified.contains(scalar) { typical += 1 }
            default: if commonTraditional.contains(scalar) { typical += 1 }
            }
        }
        guard nonASCII > 0 else { return 0 }
        // Kana make half or more of Japanese text, Hangul nearly all of Korean; the hundred
        // commonest characters a quarter or more of Chinese text: each scaled so that is 1.
        let share = Double(typical) / Double(nonASCII)
        let scale = encoding == .gb18030 || encoding == .big5 ? 4.0 : encoding == .shiftJIS ? 2.5 : 1.2
        return min(1, share * scale)
    }

    enum Script { case latin, cyrillic, greek, hebrew, arabic }

    static func script(of encoding: TextEncoding) -> Script {
        switch encoding {
        case .windows1251, .koi8R: return .cyrillic
        case .windows1253: return .greek
        case .windows1255: return .hebrew
        case .windows1256: return .arabic
        default: return .latin
        }
    }

    static func script(of scalar: Unicode.Scalar) -> Script? {
        switch scalar.value {
        case 0x00C0...0x024F, 0x1E00...0x1EFF: return .latin
        case 0x0400...0x04FF: return .cyrillic
        case 0x0370...0x03FF: return .greek
        case 0x0590...0x05FF: return .hebrew
        case 0x0600...0x06FF: return .arabic
        default: return nil
        }
    }

    /// Symbols any language's text has: dashes, quotes, ellipsis, guillemets, degree, ©, ®, €, ™, no-break space.
    static func isNeutral(_ v: UInt32) -> Bool {
        v == 0xA0 || (0x2010...0x2026).contains(v) || [0xAB, 0xBB, 0xB0, 0xA9, 0xAE, 0x20AC, 0x2122, 0xBF, 0xA1].contains(v)
    }

    /// Per non-ASCII character: +1 for a letter of the code page's script that sits well in its
    /// word, −1 for anything else (a letter of another script, a letter beside ASCII letters in a
    /// non-Latin script, an upper-case letter after a lower-case one, a Hebrew final form inside
    /// a word, a symbol or control); the sum over the count, weighted by the language model.
    static func singleBytePlausibility(_ text: String, _ encoding: TextEncoding) -> Double {
        let expected = script(of: encoding)
        let scalars = Array(text.unicodeScalars)
        var sum = 0
        var counted = 0
        var letters: [Unicode.Scalar: Int] = [:]
        for (i, scalar) in scalars.enumerated() where scalar.value >= 0x80 {
            if isNeutral(scalar.value) { continue }
            counted += 1
            let before = i > 0 ? scalars[i - 1] : " "
            let after = i + 1 < scalars.count ? scalars[i + 1] : " "
            let isLetter = scalar.properties.isAlphabetic || (0x0591...0x05C7).contains(scalar.value) || (0x064B...0x065F).contains(scalar.value)
            guard isLetter, script(of: scalar) == expected else {
                sum -= 1
                continue
            }
            if expected != .latin, before.isASCII && before.properties.isAlphabetic || after.isASCII && after.properties.isAlphabetic {
                sum -= 1  // a Cyrillic or Greek letter glued to Latin ones: the wrong code page
                continue
            }
            if expected != .hebrew && expected != .arabic, before.properties.isLowercase, scalar.properties.isUppercase {
                sum -= 1  // upper case inside a word: KOI8-R read as 1251, or the reverse
                continue
            }
            if expected == .hebrew, [0x05DA, 0x05DD, 0x05DF, 0x05E3, 0x05E5].contains(scalar.value), after.properties.isAlphabetic {
                sum -= 1  // a final form inside a word
                continue
            }
            if expected == .greek, scalar == "ς", after.properties.isAlphabetic {
                sum -= 1  // final sigma inside a word
                continue
            }
            if expected == .cyrillic, "ьъыЬЪЫ".unicodeScalars.contains(scalar), !before.properties.isAlphabetic {
                sum -= 1  // a soft or hard sign, or ы, beginning a word
                continue
            }
            sum += 1
            letters[scalar, default: 0] += 1
        }
        guard counted > 0, sum > 0 else { return 0 }
        var base = Double(sum) / Double(counted)
        // Text is mostly lower case; a reading where most letters are capitals has the cases of
        // its code page swapped (KOI8-R against 1251) or is another script altogether.
        let cased = letters.filter { $0.key.properties.isUppercase || $0.key.properties.isLowercase }
        let upper = cased.filter { $0.key.properties.isUppercase }.values.reduce(0, +)
        let casedTotal = cased.values.reduce(0, +)
        if casedTotal > 0 {
            let share = Double(upper) / Double(casedTotal)
            if share > 0.4 { base *= max(0, 1 - share) / 0.6 }
            // Sentences begin with capitals: a Cyrillic or Greek reading with none at all is
            // more likely a caseless script (Hebrew, Arabic) read in the wrong code page.
            if casedTotal >= 20 && upper == 0 && (expected == .cyrillic || expected == .greek) { base *= 0.6 }
        }
        switch expected {
        case .latin: return base * alphabetCoverage(letters, encoding)
        default: return base * min(1, commonShare(letters, commonLetters[expected] ?? []) / 0.6)
        }
    }

    /// The fifteen or so commonest letters of each non-Latin script's languages (Russian,
    /// Ukrainian and Bulgarian; Greek with its accented vowels; Hebrew; Arabic), in either case:
    /// they make about three quarters of real text, far less of bytes read in the wrong code page.
    static let commonLetters: [Script: Set<Unicode.Scalar>] = [
        .cyrillic: Set("оеаинтсрвлкмдпуОЕАИНТСРВЛКМДПУ".unicodeScalars),
        .greek: Set("αεοιτνσςηκπρυμλάέίόήύώΑΕΟΙΤΝΣΗΚΠΡΥΜΛ".unicodeScalars),
        .hebrew: Set("יוהלאמרבתנשעדכק".unicodeScalars),
        .arabic: Set("اليمونهرتبعدسفكأة".unicodeScalars),
    ]

    /// The share of `letters` (by occurrence) in `common`.
    static func commonShare(_ letters: [Unicode.Scalar: Int], _ common: Set<Unicode.Scalar>) -> Double {
        let total = letters.values.reduce(0, +)
        guard total > 0 else { return 0 }
        return Double(letters.filter { common.contains($0.key) }.values.reduce(0, +)) / Double(total)
    }

    /// The share of accented letters (by occurrence) that the best-fitting alphabet of the code
    /// page's languages holds.
    static func alphabetCoverage(_ letters: [Unicode.Scalar: Int], _ encoding: TextEncoding) -> Double {
        let total = letters.values.reduce(0, +)
        guard total > 0 else { return 1 }
        var best = 0.0
        for alphabet in alphabets(for: encoding) {
            let covered = letters.reduce(0) { $0 + (alphabet.contains(Character($1.key).lowercased().unicodeScalars.first ?? $1.key) ? $1.value : 0) }
            best = max(best, Double(covered) / Double(total))
        }
        return best * best
    }

    static func alphabets(for encoding: TextEncoding) -> [Set<Unicode.Scalar>] {
        func set(_ text: String) -> Set<Unicode.Scalar> { Set(text.unicodeScalars) }
        switch encoding {
        case .windows1250:
            return [
                set("áčďéěíňóřšťúůýž"),  // Czech
                set("áäčďéíĺľňóôŕšťúýž"),  // Slovak
                set("ąćęłńóśźż"),  // Polish
                set("áéíóöőúüű"),  // Hungarian
                set("čćđšž"),  // Croatian, Bosnian, Serbian Latin, Slovene
                set("ăâîşţșț"),  // Romanian
                set("äöüß"),  // German (also in 1250)
            ]
        case .windows1254:
            return [set("çğıöşüâîû")]  // Turkish
        default:
            return [
                set("àâæçéèêëîïôœùûüÿ"),  // French
                set("äöüß"),  // German
                set("áéíñóúü"),  // Spanish
                set("áâãàçéêíóôõú"),  // Portuguese
                set("àèéìíîòóùú"),  // Italian
                set("åæøäöéü"),  // Danish, Norwegian, Swedish
                set("áðéíóúýþæö"),  // Icelandic
                set("éëïóöü"),  // Dutch
                set("àçèéíïòóúü"),  // Catalan
            ]
        }
    }

    /// The hundred commonest characters of written Chinese, simplified forms.
    static let commonSimplified = Set(
        "的一是不了人我在有他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实"
            .unicodeScalars)

    /// The same hundred characters in their traditional forms (where they differ).
    static let commonTraditional = Set(
        "的一是不了人我在有他這個們中來上大為和國地到以說時要就出會可也你對生能而子那得於著下自之年過發後作裡用道行所然家種事成方多經麼去法學如都同現當沒動面起看定天分還進好小部其些主樣理心她本前開但因只從想實"
            .unicodeScalars)
}
