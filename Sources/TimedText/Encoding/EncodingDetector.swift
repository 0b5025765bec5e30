/// Guesses the legacy encoding of subtitle bytes that are not UTF-8 (and have no byte order mark):
/// the single-byte code pages (Latin: windows-1252, 1250, ISO-8859-2, 1254, 1257; Cyrillic:
/// windows-1251, KOI8-R, ISO-8859-5, IBM866, Mac Cyrillic; Greek 1253, Hebrew 1255, Arabic 1256,
/// Thai TIS-620) and the CJK encodings (GB18030, Big5, Shift_JIS read as CP932, EUC-JP, EUC-KR
/// read as CP949).
///
/// The method, after uchardet and charset-normalizer, is to decode a sample (the first 64 KiB)
/// in every candidate and score how much the result looks like text of a language that candidate
/// serves:
/// - **CJK**: a candidate whose byte sequences are not valid is out. Of the valid ones, each
///   scores the share of its non-ASCII characters that a text in its language is mostly made of:
///   Hiragana and Katakana for Shift_JIS and EUC-JP (Japanese text is never without kana), Hangul
///   syllables for EUC-KR, and for GB18030 and Big5 the share of the 100 commonest characters of
///   written Chinese in the simplified or the traditional forms (about a quarter of any real text;
///   a few percent of the same bytes read in the other encoding).
/// - **Single-byte**: every non-ASCII character must be a letter of the candidate's script
///   (Latin, Cyrillic, Greek, Hebrew, Arabic, Thai), inside a word; symbols, C1 controls and
///   undefined bytes cost. Among Latin code pages the accented letters must belong to one
///   language's alphabet (Czech, Polish, Hungarian, … for 1250 and ISO-8859-2; French, German,
///   Spanish, Nordic … for 1252; Turkish for 1254; Baltic for 1257): the best alphabet's coverage
///   weighs the score. Cyrillic and Greek: a letter after a lower-case letter is lower-case (the
///   Cyrillic code pages put the two cases of a letter on bytes another page uses for other
///   letters), and the commonest letters of the script make most of a real text.
///
/// The guess's ``Guess/confidence`` is calibrated: the share of guesses with the same margin over
/// the best rival reading (and the same amount of evidence) that were right on a corpus of real
/// translated text (``EncodingCalibration``), so 0.9 means nine in ten such guesses were right.
package enum EncodingDetector {
    package struct Guess: Equatable, Sendable {
        package let encoding: TextEncoding
        /// The measured chance that the guess is right (0 to 1).
        package let confidence: Double
        /// The best score's lead over the best reading that gives another text, as a share of it
        /// (0: a tie, 1: nothing else fits).
        package let margin: Double
        /// How many non-ASCII characters the guess rests on.
        package let evidence: Int
    }

    static let singleByte: [TextEncoding] = [
        .windows1252, .windows1250, .iso88592, .windows1254, .windows1257,
        .windows1251, .koi8R, .iso88595, .ibm866, .macCyrillic,
        .windows1253, .windows1255, .windows1256, .tis620,
    ]
    static let multiByte: [TextEncoding] = [.gb18030, .big5, .shiftJIS, .eucJP, .eucKR]
    static let candidates = singleByte + multiByte

    /// The best guess for `bytes`.
    package static func detect(_ bytes: [UInt8]) -> Guess {
        var sample = Array(bytes.prefix(65_536))
        // Cut at the last line break so a multi-byte character is not split at the end.
        if bytes.count > sample.count, let cut = sample.lastIndex(of: 0x0A) { sample = Array(sample[...cut]) }
        var scored: [(encoding: TextEncoding, score: Double, text: String, evidence: Int)] = []
        for candidate in candidates {
            let reading = plausibility(sample, as: candidate)
            scored.append((candidate, reading.score, reading.text, reading.evidence))
        }
        // Stable: among equal scores the earlier candidate (the commoner encoding) wins.
        let order = scored.indices.sorted { (scored[$0].score, -$0) > (scored[$1].score, -$1) }
        let best = scored[order[0]]
        guard best.score > 0 else { return Guess(encoding: .windows1252, confidence: 0, margin: 0, evidence: 0) }
        // The margin is against the best reading that gives another text (code pages that agree on
        // every byte of this file are not rivals).
        let rival = order.dropFirst().map { scored[$0] }.first { $0.text != best.text }?.score ?? 0
        let margin = max(0, (best.score - rival) / best.score)
        let confidence = EncodingCalibration.probability(best.encoding, margin: margin, evidence: best.evidence)
        return Guess(encoding: best.encoding, confidence: confidence, margin: (margin * 1000).rounded() / 1000, evidence: best.evidence)
    }

    /// How plausible `sample` read as `encoding` is as text of a language it serves (0 to 1), the
    /// text, and how many non-ASCII characters the score rests on.
    static func plausibility(_ sample: [UInt8], as encoding: TextEncoding) -> (score: Double, text: String, evidence: Int) {
        if MultiByteDecoder.handles(encoding) {
            guard let text = MultiByteDecoder.decodeStrictly(sample, encoding) else { return (0, "", 0) }
            let (score, evidence) = cjkPlausibility(text, encoding)
            // Text too short for the character statistics still has its encoding's shape: most of
            // its characters come from the rows that hold the common ones.
            return (max(score, 0.7 * commonRowShare(sample, encoding)), text, evidence)
        }
        let (text, _) = TextDecoder.decode(sample[...], as: encoding)
        let (score, evidence) = singleBytePlausibility(text, encoding)
        return (score, text, evidence)
    }

    static func cjkPlausibility(_ text: String, _ encoding: TextEncoding) -> (Double, Int) {
        var nonASCII = 0
        var typical = 0
        var odd = 0
        for scalar in text.unicodeScalars where scalar.value >= 0x80 {
            let v = scalar.value
            if (0x3000...0x303F).contains(v) || (0xFF00...0xFFEF).contains(v) { continue }  // CJK punctuation, fullwidth forms
            nonASCII += 1
            // Private use, compatibility ideographs and controls: what a wrong reading lands on.
            if (0xE000...0xF8FF).contains(v) || (0xF900...0xFAFF).contains(v) || (0x80...0x9F).contains(v) || v == 0xFFFD { odd += 1 }
            switch encoding {
            case .shiftJIS, .eucJP: if (0x3040...0x30FF).contains(v) { typical += 1 }
            case .eucKR where (0xAC00...0xD7A3).contains(v):
                // CP949's 8,822 extra syllables take almost any byte pair (Latin-1 text reads as
                // them); Korean text is written nearly all in the 2,350 of KS X 1001.
                if KSX1001.syllables.contains(scalar) { typical += 1 } else { odd += 1 }
            case .gb18030: if commonSimplified.contains(scalar) { typical += 1 }
            default: if commonTraditional.contains(scalar) { typical += 1 }
            }
        }
        guard nonASCII > 0 else { return (0, 0) }
        // Kana make half or more of Japanese text, Hangul nearly all of Korean; the hundred
        // commonest characters a quarter or more of Chinese text: each scaled so that is 1. The
        // share is taken as if three more characters, none typical, had been seen: on a line of a
        // few characters one common one by chance (還 in a GB2312 line read as Big5) is not yet
        // the shape of a language.
        let share = Double(typical) / Double(nonASCII + 3)
        let scale = encoding == .gb18030 || encoding == .big5 ? 4.0 : encoding == .eucKR ? 1.2 : 2.5
        let penalty = Double(odd) / Double(nonASCII)
        return (max(0, min(1, share * scale) - 2 * penalty), nonASCII)
    }

    /// The share of `sample`'s two-byte characters in the rows of `encoding` real text uses.
    ///
    /// Those are the rows that hold: GB2312's level-1 hanzi (leads
    /// B0–D7), Big5's frequent characters (A4–C6), JIS X 0208's kana and level-1 kanji (EUC-JP
    /// A4–A5 and B0–CF; Shift_JIS 82–83 and 88–98), KS X 1001's Hangul (B0–C8). The same bytes
    /// read in another of them land in these rows far less often.
    static func commonRowShare(_ sample: [UInt8], _ encoding: TextEncoding) -> Double {
        let rows: [ClosedRange<UInt8>]
        switch encoding {
        case .gb18030: rows = [0xB0...0xD7]
        case .big5: rows = [0xA4...0xC6]
        case .eucJP: rows = [0xA4...0xA5, 0xB0...0xCF]
        case .shiftJIS: rows = [0x82...0x83, 0x88...0x98]
        case .eucKR: rows = [0xB0...0xC8]
        default: return 0
        }
        var pairs = 0
        var common = 0
        var i = 0
        while i < sample.count {
            let byte = sample[i]
            guard byte >= 0x80 else {
                i += 1
                continue
            }
            // A single-byte half-width katakana in Shift_JIS (A1–DF) is one character.
            if encoding == .shiftJIS, (0xA1...0xDF).contains(byte) {
                i += 1
                continue
            }
            pairs += 1
            if rows.contains(where: { $0.contains(byte) }) { common += 1 }
            i += 2
        }
        return pairs == 0 ? 0 : Double(common) / Double(pairs)
    }

    enum Script { case latin, cyrillic, greek, hebrew, arabic, thai }

    static func script(of encoding: TextEncoding) -> Script {
        switch encoding {
        case .windows1251, .koi8R, .iso88595, .ibm866, .macCyrillic: return .cyrillic
        case .windows1253: return .greek
        case .windows1255: return .hebrew
        case .windows1256: return .arabic
        case .tis620: return .thai
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
        case 0x0E00...0x0E7F: return .thai
        default: return nil
        }
    }

    /// Symbols any language's text has: dashes, quotes, ellipsis, guillemets, degree, ©, ®, €, ™, no-break space.
    static func isNeutral(_ v: UInt32) -> Bool {
        v == 0xA0 || (0x2010...0x2026).contains(v) || [0xAB, 0xBB, 0xB0, 0xA9, 0xAE, 0x20AC, 0x2122, 0xBF, 0xA1].contains(v)
    }

    /// Whether `scalar` counts as a letter: alphabetic, or a Hebrew, Arabic or Thai mark (vowel
    /// points, tone marks), which a word holds as it holds letters.
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return scalar.properties.isAlphabetic || (0x0591...0x05C7).contains(v) || (0x064B...0x065F).contains(v) || (0x0E31...0x0E4E).contains(v)
    }

    /// Per non-ASCII character: +1 for a letter of the code page's script that sits well in its
    /// word, −1 for anything else (a letter of another script, a letter beside ASCII letters in a
    /// non-Latin script, an upper-case letter after a lower-case one, a Hebrew final form inside
    /// a word, a symbol or control); the sum over the count, weighted by the language model.
    static func singleBytePlausibility(_ text: String, _ encoding: TextEncoding) -> (Double, Int) {
        let expected = script(of: encoding)
        let scalars = Array(text.unicodeScalars)
        var sum = 0
        var counted = 0
        var neutral = 0
        var letters: [Unicode.Scalar: Int] = [:]
        for (i, scalar) in scalars.enumerated() where scalar.value >= 0x80 {
            if isNeutral(scalar.value) {
                neutral += 1
                continue
            }
            counted += 1
            let before = i > 0 ? scalars[i - 1] : " "
            let after = i + 1 < scalars.count ? scalars[i + 1] : " "
            guard isLetter(scalar), script(of: scalar) == expected, sitsWell(scalar, before: before, after: after, in: expected) else {
                sum -= 1
                continue
            }
            sum += 1
            letters[scalar, default: 0] += 1
        }
        // Only typographic quotes, dashes and the like (a text in English with curly quotes): a
        // reading that makes them of every non-ASCII byte is likely right, if not by much.
        if counted == 0 && neutral > 0 { return (0.9, neutral) }
        guard counted > 0, sum > 0 else { return (0, counted) }
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
        case .latin: return (base * alphabetCoverage(letters, encoding), counted)
        default: return (base * min(1, commonShare(letters, commonLetters[expected] ?? []) / 0.6), counted)
        }
    }

    /// Whether a letter of the code page's script `expected` sits well in its word between
    /// `before` and `after`.
    static func sitsWell(_ scalar: Unicode.Scalar, before: Unicode.Scalar, after: Unicode.Scalar, in expected: Script) -> Bool {
        // A letter of another script glued to Latin ones: accented Latin read in the wrong code page.
        if expected != .latin, before.isASCII && before.properties.isAlphabetic || after.isASCII && after.properties.isAlphabetic { return false }
        // Upper case inside a word: another Cyrillic code page's cases.
        if expected != .hebrew && expected != .arabic, before.properties.isLowercase, scalar.properties.isUppercase { return false }
        // A final form inside a word.
        if expected == .hebrew, [0x05DA, 0x05DD, 0x05DF, 0x05E3, 0x05E5].contains(scalar.value), after.properties.isAlphabetic { return false }
        // Final sigma inside a word.
        if expected == .greek, scalar == "ς", after.properties.isAlphabetic { return false }
        // A soft or hard sign, or ы, beginning a word.
        if expected == .cyrillic, "ьъыЬЪЫ".unicodeScalars.contains(scalar), !before.properties.isAlphabetic { return false }
        // A mark with no consonant to sit on, or a leading vowel before no consonant.
        if expected == .thai, !thaiOrderFits(scalar, before: before, after: after) { return false }
        return true
    }

    /// Whether a Thai character sits where Thai writing puts it.
    ///
    /// A vowel sign above or below, a tone mark or another mark follows a consonant (or, for a tone mark, such a vowel sign); a
    /// leading vowel (เ แ โ ใ ไ) comes before a consonant; no mark begins a word. CJK bytes read
    /// as TIS-620 break these at once.
    static func thaiOrderFits(_ scalar: Unicode.Scalar, before: Unicode.Scalar, after: Unicode.Scalar) -> Bool {
        let v = scalar.value
        func isConsonant(_ s: Unicode.Scalar) -> Bool { (0x0E01...0x0E2E).contains(s.value) }
        // ั ิ ี ึ ื ุ ู ฺ and ็ ์ ํ ๎: above or below a consonant.
        let aboveBelow: ClosedRange<UInt32> = 0x0E34...0x0E3A
        if v == 0x0E31 || aboveBelow.contains(v) || v == 0x0E47 || (0x0E4C...0x0E4E).contains(v) { return isConsonant(before) }
        // ่ ้ ๊ ๋ tone marks: after a consonant or an above/below vowel sign.
        if (0x0E48...0x0E4B).contains(v) { return isConsonant(before) || before.value == 0x0E31 || aboveBelow.contains(before.value) }
        // เ แ โ ใ ไ are written before the consonant they are said after.
        if (0x0E40...0x0E44).contains(v) { return isConsonant(after) }
        // ะ า ำ ๅ follow a consonant (or its marks); ๆ follows a word.
        if v == 0x0E30 || v == 0x0E32 || v == 0x0E33 || v == 0x0E45 || v == 0x0E46 {
            return isConsonant(before) || (0x0E31...0x0E3A).contains(before.value) || (0x0E47...0x0E4E).contains(before.value)
        }
        // Thai digits and signs (๏ ๐–๙ ๚ ๛) are rare in dialogue.
        if (0x0E4F...0x0E5B).contains(v) { return false }
        return true
    }

    /// The fifteen or so commonest letters of each non-Latin script's languages (Russian,
    /// Ukrainian, Bulgarian and Serbian; Greek with its accented vowels; Hebrew; Arabic and
    /// Persian; Thai), in either case: they make about three quarters of real text, far less of
    /// bytes read in the wrong code page.
    static let commonLetters: [Script: Set<Unicode.Scalar>] = [
        .cyrillic: Set("оеаинтсрвлкмдпуОЕАИНТСРВЛКМДПУ".unicodeScalars),
        .greek: Set("αεοιτνσςηκπρυμλάέίόήύώΑΕΟΙΤΝΣΗΚΠΡΥΜΛ".unicodeScalars),
        .hebrew: Set("יוהלאמרבתנשעדכק".unicodeScalars),
        .arabic: Set("اليمونهرتبعدسفكأة".unicodeScalars),
        .thai: Set("านเกรอมงยทวดลสบคหตปิีัุ่้ไแใ".unicodeScalars),
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
        case .windows1250, .iso88592:
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
        case .windows1257:
            return [
                set("ąčęėįšųūž"),  // Lithuanian
                set("āčēģīķļņšūž"),  // Latvian
                set("äöüõšž"),  // Estonian
            ]
        default:
            return [
                set("àâæçéèêëîïôœùûüÿ"),  // French
                set("äöüß"),  // German
                set("áéíñóúü"),  // Spanish
                set("áâãàçéêíóôõú"),  // Portuguese
                set("àèéìíîòóùú"),  // Italian
                set("åæøäöéü"),  // Danish, Norwegian, Swedish
                set("äöå"),  // Finnish
                set("áðéíóúýþæö"),  // Icelandic
                set("éëïóöü"),  // Dutch
                set("àçèéíïòóúü"),  // Catalan
            ]
        }
    }

    /// The 2,350 Hangul syllables of KS X 1001 (EUC-KR rows 0xB0-0xC8), read once from the C
    /// library's converter.
    enum KSX1001 {
        static let syllables: Set<Unicode.Scalar> = {
            var bytes: [UInt8] = []
            for lead in UInt8(0xB0)...0xC8 {
                for trail in UInt8(0xA1)...0xFE { bytes += [lead, trail] }
            }
            let (text, _) = MultiByteDecoder.decode(bytes[...], .eucKR)
            return Set(text.unicodeScalars.filter { (0xAC00...0xD7A3).contains($0.value) })
        }()
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
