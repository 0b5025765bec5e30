import Testing
import Timebase

/// Trimming a playlist line's end looks at its last byte before its last character: held to the
/// definition on characters for ends that are, or are not, one character with what precedes them.
struct TextTrimmingTests {
    @Test func trailingWhitespaceIsTrimmedAsCharacters() {
        let pieces = ["a", "6.006", " ", "\t", "\r", "\r\n", "\n", "\u{600}", "\u{301}", "é", "日本", ",", "\u{200D}", "🇫🇷"]
        var state: UInt64 = 17
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<20_000 {
            let text = Substring((0..<next(7)).map { _ in pieces[next(pieces.count)] }.joined())
            var expected = text
            while let last = expected.last, last == " " || last == "\t" || last == "\r" { expected = expected.dropLast() }
            #expect(text.trimmingTrailingWhitespace == expected, "\(text.debugDescription)")
        }
        // A prepended space is one character with the mark before it: not trimmed.
        #expect(Substring("6\u{600} ").trimmingTrailingWhitespace == "6\u{600} ")
    }
}
