import TestSupport
import Testing
import Timebase
import TimedText

/// What a segment writes must read back as exactly the cues meant (W3C WebVTT §6.1: a cue's text
/// ends at its first empty line, and a line with `-->` starts a new block).
struct WrittenCueTests {
    /// Writes `cues` as a segment and reads it back.
    func readBack(_ cues: [Cue]) throws -> [Cue] {
        let text = WebVTTWriter.file(map: nil, headerBlocks: [], cueBlocks: cues.map(WebVTTWriter.block))
        return try WebVTTParser.parse(text).cues
    }

    static let texts: [SourceRow<(String, String)>] = [
        SourceRow(("Hello\n<unknown>\nWorld", "Hello\nWorld")),  // a dropped tag leaves no blank line
        SourceRow(("A <c.--\n>B", "A <c>B</c>")),  // a class that would write "-->"
        SourceRow(("<v -->x</v>", "<v -&#45;>x</v>")),  // an annotation ending in "--"
        SourceRow(("a\u{0}b\u{1}c\u{1B}d\u{7F}e", "abcde")),  // NUL and other controls
        SourceRow(("one\r\ntwo\rthree", "one\ntwo\nthree")),  // CR breaks lines
        SourceRow(("  \nkept", "kept")),  // a whitespace-only line
        SourceRow(("x --> y", "x --&gt; y")),  // an arrow in text
    ]

    @Test func sanitizedTextReadsBackAsWritten() throws {
        for row in Self.texts {
            let (input, expected) = row.value
            let cue = Cue(identifier: "1", start: MediaTime(milliseconds: 1000), end: MediaTime(milliseconds: 2000), text: input)
            let written = SegmentCues.writable([cue])
            #expect(written.map(\.text) == [expected], "line \(row.line)")
            let back = try readBack(written)
            #expect(back.map(\.text) == written.map(\.text), "line \(row.line): \(back)")
            #expect(back.map(\.identifier) == ["1"], "line \(row.line)")
        }
    }

    @Test func anSubRipLineWithOnlyAnOverrideKeepsTheRest() throws {
        let (cues, _) = SubRipParser.parse("1\n00:00:01,000 --> 00:00:02,000\n{\\an8}\nText below\n")
        #expect(cues.map(\.text) == ["Text below"])
        #expect(cues.first?.settings.line == .number("0"))
        #expect(try readBack(SegmentCues.writable(cues)).map(\.text) == ["Text below"])
    }

    @Test func timesRoundToTheMillisecondAndEmptyCuesGo() {
        let cues = [
            Cue(start: MediaTime(ticks: 3003), end: MediaTime(ticks: 6006), text: "a"),
            Cue(start: MediaTime(ticks: 100), end: MediaTime(ticks: 120), text: "gone: 1 ms rounds to 0 ms long"),
        ]
        let written = SegmentCues.writable(cues)
        #expect(written.map(\.start) == [MediaTime(milliseconds: 33)])
        #expect(written.map(\.end) == [MediaTime(milliseconds: 67)])
    }
}
