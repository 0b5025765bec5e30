import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

/// The ugly-SubRip corpus (Fixtures/subtitles/wild, made by make-corpus.py).
///
/// Expected cues are
/// written here by hand: (start ms, end ms, WebVTT text[, settings]).
struct SubRipCorpusTests {
    struct Expected: Sendable {
        let start: Int64
        let end: Int64
        let text: String
        var settings: String = ""
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        var encoding: TextEncoding? = nil
        let cues: [Expected]
        /// Warning kinds that must be reported.
        var warnings: [String] = []
        var testDescription: String { file + (encoding.map { " as \($0.rawValue)" } ?? "") }
    }

    static let text = "Café – naïve “quotes” €"

    static let cases: [Case] = [
        Case(
            file: "counters-wrong.srt",
            cues: [
                Expected(start: 1000, end: 2000, text: "First"), Expected(start: 3000, end: 4000, text: "Second (repeated counter)"),
                Expected(start: 5000, end: 6000, text: "Third (no counter)"), Expected(start: 7000, end: 8000, text: "Fourth (garbage counter)"),
            ]),
        Case(
            file: "no-blank-lines.srt",
            cues: [
                Expected(start: 1000, end: 2000, text: "One"), Expected(start: 3000, end: 4000, text: "Two\ntwo, line 2"),
                Expected(start: 5000, end: 6000, text: "Three"),
            ]),
        Case(
            file: "blank-lines-inside.srt",
            cues: [Expected(start: 1000, end: 3000, text: "Top line\nBottom line"), Expected(start: 4000, end: 5000, text: "Next")]),
        Case(
            file: "dot-millis.srt",
            cues: [
                Expected(start: 1500, end: 2250, text: "Dots"), Expected(start: 3100, end: 4200, text: "Colons"),
                Expected(start: 5500, end: 6750, text: "Short fields"),
            ]),
        Case(file: "tight-arrow.srt", cues: [Expected(start: 1000, end: 2000, text: "Tight"), Expected(start: 3000, end: 4000, text: "Long arrow")]),
        Case(file: "trailing-spaces.srt", cues: [Expected(start: 1000, end: 2000, text: "Trailing\nspaces"), Expected(start: 3000, end: 4000, text: "End")]),
        Case(file: "coordinates.srt", cues: [Expected(start: 1000, end: 2000, text: "Positioned")]),
        Case(file: "no-final-newline.srt", cues: [Expected(start: 1000, end: 2000, text: "No newline at the end")]),
        Case(
            file: "out-of-order.srt",
            cues: [
                Expected(start: 1000, end: 2000, text: "Earlier"), Expected(start: 3000, end: 4000, text: "Middle"),
                Expected(start: 5000, end: 6000, text: "Later"),
            ], warnings: ["cues_reordered"]),
        Case(file: "overlapping.srt", cues: [Expected(start: 1000, end: 5000, text: "Long"), Expected(start: 2000, end: 3000, text: "Inside")]),
        Case(
            file: "markup.srt",
            cues: [
                Expected(start: 1000, end: 2000, text: "<i>Italic</i> <b>bold</b> <u>under</u>"),
                Expected(start: 3000, end: 4000, text: "<c.yellow>Yellow</c> <c.red>Red</c> Odd"),
                Expected(start: 5000, end: 6000, text: "Top centre", settings: "line:0"),
                Expected(start: 7000, end: 8000, text: "Bottom left", settings: "align:start"),
                Expected(start: 9000, end: 10000, text: "Tom &amp; Jerry &lt;3 x &gt; y"),
                Expected(start: 11000, end: 12000, text: "<i>Unclosed italic</i>"),
            ]),
        Case(
            file: "bad-timing.srt", cues: [Expected(start: 1000, end: 2000, text: "Good"), Expected(start: 7000, end: 8000, text: "Good again")],
            warnings: ["cue_skipped", "cue_skipped"]),
        Case(file: "utf8.srt", cues: [Expected(start: 1000, end: 2000, text: text)]),
        Case(file: "utf8-bom.srt", cues: [Expected(start: 1000, end: 2000, text: text)]),
        Case(file: "utf16le-bom.srt", cues: [Expected(start: 1000, end: 2000, text: text)]),
        Case(file: "utf16be-bom.srt", cues: [Expected(start: 1000, end: 2000, text: text)]),
        Case(file: "utf32le-bom.srt", cues: [Expected(start: 1000, end: 2000, text: text)]),
        Case(file: "cp1252.srt", cues: [Expected(start: 1000, end: 2000, text: text + " œuvre")], warnings: ["encoding_fallback"]),
        Case(file: "cp1252.srt", encoding: .windows1252, cues: [Expected(start: 1000, end: 2000, text: text + " œuvre")]),
        Case(file: "cp1250.srt", encoding: .windows1250, cues: [Expected(start: 1000, end: 2000, text: "Příliš žluťoučký kůň")]),
        Case(file: "cp1251.srt", encoding: .windows1251, cues: [Expected(start: 1000, end: 2000, text: "Привет, мир")]),
        Case(file: "latin1.srt", encoding: .iso88591, cues: [Expected(start: 1000, end: 2000, text: "Señor Müller")]),
        Case(file: "latin1.srt", cues: [Expected(start: 1000, end: 2000, text: "Señor Müller")], warnings: ["encoding_fallback"]),
        Case(file: "cr-only.srt", cues: [Expected(start: 1000, end: 2000, text: "Old Mac\nline endings")]),
    ]

    @Test(arguments: cases)
    func readsLikeAPerson(_ c: Case) throws {
        let bytes = try Fixtures.bytes("subtitles/wild/" + c.file)
        let decoded = TextDecoder.decode(bytes, forced: c.encoding)
        var (cues, warnings) = SubRipParser.parse(decoded.text)
        if decoded.usedFallback { warnings.append(IngestWarning(kind: .encodingFallback, line: nil, "")) }
        #expect(cues.map(\.start) == c.cues.map { MediaTime(milliseconds: $0.start) }, "starts")
        #expect(cues.map(\.end) == c.cues.map { MediaTime(milliseconds: $0.end) }, "ends")
        #expect(cues.map(\.text) == c.cues.map(\.text))
        #expect(cues.map(\.settings.text) == c.cues.map(\.settings))
        #expect(warnings.map(\.kind.rawValue).sorted() == c.warnings.sorted(), "\(warnings)")
    }

    @Test func skippedCuesNameTheirLines() throws {
        let (_, warnings) = SubRipParser.parse(try Fixtures.text("subtitles/wild/bad-timing.srt"))
        #expect(warnings.map(\.line) == [6, 10])
        #expect(warnings[0].message.contains("not a SubRip timing line"))
        #expect(warnings[1].message.contains("not after its start"))
    }

    @Test func forcedEncodingDecodesWithoutFallback() throws {
        let decoded = TextDecoder.decode(try Fixtures.bytes("subtitles/wild/cp1250.srt"), forced: .windows1250)
        #expect(!decoded.usedFallback)
        #expect(decoded.encoding == .windows1250)
        let sniffed = TextDecoder.decode(try Fixtures.bytes("subtitles/wild/utf16be-bom.srt"))
        #expect(sniffed.encoding == .utf16BE)
        #expect(sniffed.hadByteOrderMark)
    }

    @Test func bomlessUTF16IsRecognised() throws {
        var bytes = try Fixtures.bytes("subtitles/wild/utf16le-bom.srt")
        bytes.removeFirst(2)
        let decoded = TextDecoder.decode(bytes)
        #expect(decoded.encoding == .utf16LE)
        #expect(SubRipParser.parse(decoded.text).cues.first?.text == Self.text)
    }

    /// Text as players show it (the cases of FFmpeg's SubRip capability tester): tags they do not
    /// know are hidden, not shown as text; `\N` and `\n` break the line, `\h` is a no-break space;
    /// a `<` that does not start a tag is text.
    @Test func markupAsPlayersShowIt() {
        let rows: [SourceRow<(String, String)>] = [
            SourceRow(("<s>strike</s>", "strike")),
            SourceRow(("<invalid_tag>x</invalid_tag>", "x")),
            SourceRow(("stray</x> end", "stray end")),
            SourceRow(("<I>upper</I>", "<i>upper</i>")),
            SourceRow(("<font face=\"Arial\" color=\"#ffff00\">y</font>", "<c.yellow>y</c>")),
            SourceRow(("<font color=\"#123456\">kept text</font>", "kept text")),
            SourceRow(("a < b, <3 and 2>1", "a &lt; b, &lt;3 and 2&gt;1")),
            SourceRow(("one\\Ntwo", "one\ntwo")),
            SourceRow(("one\\ntwo", "one\ntwo")),
            SourceRow(("non\\hbreaking", "non\u{00A0}breaking")),
            SourceRow(("{\\an8}top {\\i1}x", "top x")),
        ]
        for row in rows {
            let srt = "1\n00:00:01,000 --> 00:00:02,000\n\(row.value.0)\n"
            #expect(SubRipParser.parse(srt).cues.first?.text == row.value.1, "line \(row.line): \(row.value.0)")
        }
    }

    /// Lines longer than the reader copies (kept as ranges of a text read whole) come out whole,
    /// in every position of a cue: alone, before and after short lines, before a counter; read
    /// whole and read in pieces, the cues are the same.
    @Test func longLinesAreKeptWholeInEveryPosition() {
        let long = { (letter: Character, count: Int) in String(repeating: letter, count: count) }
        let a = long("a", 5_000), b = long("b", 9_000), c = long("c", 4_097)
        let bodies = [[a], ["short", a], [a, "short"], [a, b], ["one", "two", a, b], [a, b, c], [a, "", b]]
        var srt = ""
        var expected: [String] = []
        for (n, lines) in bodies.enumerated() {
            srt += "\(n + 1)\n00:00:\(String(format: "%02d", n)),000 --> 00:00:\(String(format: "%02d", n)),500\n"
            srt += lines.joined(separator: "\n") + "\n\n"
            expected.append(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
        }
        let whole = SubRipParser.parse(srt)
        #expect(whole.cues.map(\.text) == expected)
        #expect(whole.warnings.isEmpty, "\(whole.warnings)")
        // In pieces of 1,000 bytes cut after a line break, as a file is read.
        var reader = SubRipParser.Reader(expectedCues: bodies.count)
        var piece: [UInt8] = []
        var first = true
        for byte in srt.utf8 {
            piece.append(byte)
            if byte == 0x0A && piece.count >= 1_000 {
                piece.withUnsafeBufferPointer { reader.read(bytes: $0, isFirst: first, isLast: false) }
                piece.removeAll()
                first = false
            }
        }
        piece.withUnsafeBufferPointer { reader.read(bytes: $0, isFirst: first, isLast: true) }
        #expect(reader.finish().cues.map(\.text) == expected)
    }
}
