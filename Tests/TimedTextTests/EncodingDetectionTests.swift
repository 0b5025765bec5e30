import Foundation
import TestSupport
import Testing

@testable import TimedText

/// Encoding detection on real-language text: one SubRip file per language and legacy encoding
/// (Fixtures/subtitles/encodings, made by make-encodings.py from sentences in each language),
/// read without saying its encoding; the guess must be the encoding in the file's name, and the
/// text must come out as written.
struct EncodingDetectionTests {
    static let expected: [String: TextEncoding] = [
        "cp1250": .windows1250, "cp1251": .windows1251, "koi8_r": .koi8R, "cp1252": .windows1252, "cp1253": .windows1253,
        "cp1254": .windows1254, "cp1255": .windows1255, "cp1256": .windows1256, "gb18030": .gb18030, "big5": .big5,
        "shift_jis": .shiftJIS, "euc_kr": .eucKR,
    ]

    static let files: [String] = {
        let folder = Fixtures.path("subtitles/encodings")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".srt") }.sorted()
    }()

    @Test func theCorpusIsThere() { #expect(Self.files.count == 21) }

    @Test(arguments: files)
    func detects(_ file: String) throws {
        let parts = file.split(separator: ".")
        let want = try #require(Self.expected[String(parts[1])])
        let bytes = try Fixtures.bytes("subtitles/encodings/" + file)
        let decoded = TextDecoder.decode(bytes)
        #expect(decoded.usedFallback)
        #expect(decoded.encoding == want, "\(file): guessed \(decoded.encoding.rawValue) (confidence \(decoded.confidence ?? 0))")
        // Above 0.5: the guess scored better than every reading that gives another text.
        #expect((decoded.confidence ?? 0) > 0.5, "\(file): confidence \(decoded.confidence ?? 0)")
        // The same bytes decoded with the encoding declared give the same text.
        #expect(decoded.text == TextDecoder.decode(bytes, forced: want).text)
        #expect(!decoded.text.contains("\u{FFFD}"))
    }

    @Test func theTableOfGuesses() throws {
        // Printed for the note: file, guess, confidence.
        var rows: [String] = []
        for file in Self.files {
            let decoded = TextDecoder.decode(try Fixtures.bytes("subtitles/encodings/" + file))
            rows.append("\(file)\t\(decoded.encoding.rawValue)\t\(decoded.confidence ?? 0)")
        }
        try rows.joined(separator: "\n").write(
            to: Fixtures.repository.appendingPathComponent(".build/encoding-detection.tsv"), atomically: true, encoding: .utf8)
        #expect(rows.count == Self.files.count)
    }
}
