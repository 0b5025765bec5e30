import Foundation
import TestSupport
import Testing

@testable import TimedText

/// Encoding detection on real text: the held-out half of the corpus.
///
/// Translated sentences of 34 languages in 2-4 KB SubRip files, each file encoded by iconv into every legacy encoding of its
/// language and read without saying the encoding. The text must come out exactly as written.
struct EncodingCorpusTests {
    /// The encodings the detector should name for each corpus codec (CP932 and CP949 are what
    /// Shift_JIS and EUC-KR are read as).
    static let expected: [String: TextEncoding] = [
        "cp1250": .windows1250, "iso8859_2": .iso88592, "cp1251": .windows1251, "koi8_r": .koi8R, "iso8859_5": .iso88595,
        "cp866": .ibm866, "mac_cyrillic": .macCyrillic, "cp1252": .windows1252, "cp1253": .windows1253, "cp1254": .windows1254,
        "cp1255": .windows1255, "cp1256": .windows1256, "cp1257": .windows1257, "tis_620": .tis620, "cp932": .shiftJIS,
        "euc_jp": .eucJP, "iso2022_jp": .iso2022JP, "cp949": .eucKR, "euc_kr": .eucKR, "iso2022_kr": .iso2022KR,
        "gb18030": .gb18030, "big5": .big5,
    ]

    struct Outcome: Sendable {
        let file: String, codec: String, guessed: TextEncoding, exact: Bool, near: Bool, confidence: Double?, margin: Double, evidence: Int
    }

    /// Every (file, encoding) of `split`, read back; `prefix` cuts the encoded bytes (at a line
    /// break) to see how the detector does on less text.
    static func outcomes(_ split: String, prefix: Int? = nil) throws -> [Outcome] {
        var result: [Outcome] = []
        for entry in EncodingCorpus.entries where entry.split == split {
            let original = try String(contentsOfFile: entry.path, encoding: .utf8)
            for codec in entry.codecs {
                guard var bytes = Iconv.encode(original, to: Iconv.name(ofCodec: codec)) else { continue }
                var text = original
                if let prefix, bytes.count > prefix, let cut = bytes[..<prefix].lastIndex(of: 0x0A) {
                    bytes = Array(bytes[...cut])
                    guard let back = TextDecoder.decode(bytes, forced: expected[codec]).text as String? else { continue }
                    text = back
                }
                let decoded = TextDecoder.decode(bytes)
                let exact = decoded.text == text
                // Near: the same text but for a few characters (code pages that differ on a byte or two).
                let differing = zip(decoded.text.unicodeScalars, text.unicodeScalars).filter { $0 != $1 }.count
                let near = !exact && decoded.text.unicodeScalars.count == text.unicodeScalars.count && differing <= 3
                let guess = decoded.usedFallback ? EncodingDetector.detect(bytes) : nil
                result.append(
                    Outcome(
                        file: String(entry.path.split(separator: "/").suffix(3).joined(separator: "/")), codec: codec, guessed: decoded.encoding,
                        exact: exact, near: near, confidence: decoded.confidence, margin: guess?.margin ?? 1, evidence: guess?.evidence ?? 0))
            }
        }
        return result
    }

    /// Every short dialogue line of `split` as a one-cue SubRip file in each of its codecs.
    static func dialogueOutcomes(_ split: String) -> [Outcome] {
        var result: [Outcome] = []
        for line in EncodingCorpus.dialogue where line.split == split {
            let text = "1\n00:00:01,000 --> 00:00:02,000\n\(line.text)\n"
            for codec in line.codecs {
                guard let bytes = Iconv.encode(text, to: Iconv.name(ofCodec: codec)) else { continue }
                let decoded = TextDecoder.decode(bytes)
                let guess = decoded.usedFallback ? EncodingDetector.detect(bytes) : nil
                result.append(
                    Outcome(
                        file: "dialogue/\(line.language): \(line.text)", codec: codec, guessed: decoded.encoding, exact: decoded.text == text, near: false,
                        confidence: decoded.confidence, margin: guess?.margin ?? 1, evidence: guess?.evidence ?? 0))
            }
        }
        return result
    }

    static func table(_ outcomes: [Outcome]) -> String {
        var rows = ["codec\tfiles\texact\tnear"]
        for codec in Set(outcomes.map(\.codec)).sorted() {
            let mine = outcomes.filter { $0.codec == codec }
            rows.append("\(codec)\t\(mine.count)\t\(mine.filter(\.exact).count)\t\(mine.filter(\.near).count)")
        }
        return rows.joined(separator: "\n")
    }

    @Test func theHeldOutHalfIsReadExactly() throws {
        try #require(!EncodingCorpus.entries.isEmpty, "the corpus did not extract (tar with xz is needed)")
        let outcomes = try Self.outcomes("test")
        let lines = outcomes.map { "\($0.file)\t\($0.codec)\t\($0.guessed.rawValue)\t\($0.exact)\t\($0.confidence ?? -1)\t\($0.margin)" }
        try (lines.joined(separator: "\n") + "\n").write(
            to: Fixtures.repository.appendingPathComponent(".build/encoding-corpus-test.tsv"), atomically: true, encoding: .utf8)
        try Self.table(outcomes).write(to: Fixtures.repository.appendingPathComponent(".build/encoding-corpus-table.tsv"), atomically: true, encoding: .utf8)
        let exact = outcomes.filter(\.exact).count
        #expect(outcomes.count >= 300)
        #expect(Double(exact) >= 0.98 * Double(outcomes.count), "\(exact) of \(outcomes.count) exact:\n\(Self.table(outcomes))")
        // Never silently wrong: a wrong reading says it is unsure.
        for wrong in outcomes where !wrong.exact && !wrong.near {
            #expect(
                (wrong.confidence ?? 0) < EncodingCalibration.warningThreshold,
                "\(wrong.file) as \(wrong.codec): \(wrong.guessed.rawValue) at \(wrong.confidence ?? 0)")
        }
    }

    /// Short dialogue lines (one cue each, none seen while the tables were fitted): a guess that
    /// says it is sure is right, nine times in ten or better, and a guess that says it is unsure
    /// is warned about.
    @Test func shortLinesSayHowSureTheyAre() throws {
        try #require(!EncodingCorpus.dialogue.isEmpty, "Fixtures/subtitles/encodings/dialogue.tsv is missing")
        let outcomes = Self.dialogueOutcomes("test")
        let sure = outcomes.filter { ($0.confidence ?? 1) >= EncodingCalibration.warningThreshold }
        let right = sure.filter(\.exact).count
        #expect(outcomes.count >= 100 && sure.count >= 40, "\(outcomes.count) readings, \(sure.count) sure")
        #expect(Double(right) >= 0.9 * Double(sure.count), "\(right) of \(sure.count) sure guesses right")
    }

    /// The cuts the calibration is measured on: less text, less evidence.
    static let cuts: [Int?] = [64, 128, 256, 512, 1024, 2048, nil]

    /// Outcomes of `split` at every cut, written for Scripts/calibrate-encodings.py.
    ///
    /// The training half fits the table; the held-out half gives the curve it is judged by. Run
    /// with SUBWEAVE_CALIBRATE=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SUBWEAVE_CALIBRATE"] != nil, "set SUBWEAVE_CALIBRATE=1 to write the calibration data"))
    func calibrationData() throws {
        for split in ["train", "test"] {
            var lines: [String] = []
            for cut in Self.cuts + [-1] {
                // Cut -1: the short dialogue lines, one cue each.
                let outcomes = cut == -1 ? Self.dialogueOutcomes(split) : try Self.outcomes(split, prefix: cut)
                for o in outcomes where o.confidence != nil {
                    let evidence = o.evidence
                    let family = EncodingCalibration.Family(o.guessed).rawValue
                    lines.append(
                        "\(cut ?? 0)\t\(o.file)\t\(o.codec)\t\(o.exact || o.near ? 1 : 0)\t\(o.margin)\t\(evidence)\t\(o.confidence ?? 0)\t\(family)")
                }
            }
            try (lines.joined(separator: "\n") + "\n").write(
                to: Fixtures.repository.appendingPathComponent(".build/encoding-calibration-\(split).tsv"), atomically: true, encoding: .utf8)
        }
    }
}
