import Testing
import Timebase

@testable import TimedText

/// The IMSC1 document a sample carries: cue markup as TTML spans, placement as regions, and
/// what TTML here cannot say named.
struct IMSCWriterTests {
    static func document(_ text: String, settings: CueSettings = CueSettings()) -> (String, Set<String>) {
        let cue = Cue(start: MediaTime(seconds: 1), end: MediaTime(seconds: 2), settings: settings, text: text)
        let written = IMSCWriter.document([(cue, MediaTime(seconds: 1), MediaTime(seconds: 2))], language: "en")
        return (String(decoding: written.bytes, as: UTF8.self), written.dropped)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let text: String
        let paragraph: String
        let dropped: Set<String>
        var testDescription: String { text }
    }

    static let rows: [Row] = [
        Row(text: "plain", paragraph: ">plain</p>", dropped: []),
        Row(
            text: "<i>it</i> &amp; <b>bold</b>", paragraph: "><span tts:fontStyle=\"italic\">it</span> &amp; <span tts:fontWeight=\"bold\">bold</span></p>",
            dropped: []),
        Row(text: "one\ntwo", paragraph: ">one<br/>two</p>", dropped: []),
        Row(text: "<c.yellow.bg_black>sign</c>", paragraph: "><span tts:color=\"#ffff00\" tts:backgroundColor=\"#000000\">sign</span></p>", dropped: []),
        Row(text: "<c.loud>x</c>", paragraph: ">x</p>", dropped: ["class .loud"]),
        Row(text: "<v Bob>hi</v>", paragraph: ">hi</p>", dropped: ["voice names"]),
        Row(text: "<ruby>漢<rt>かん</rt></ruby>", paragraph: ">漢</p>", dropped: ["ruby text"]),
        Row(text: "<lang fr>oui</lang> &lt;3 \"q\"", paragraph: "><span xml:lang=\"fr\">oui</span> &lt;3 &quot;q&quot;</p>", dropped: []),
        Row(text: "a <00:00:01.500>b", paragraph: ">a b</p>", dropped: ["karaoke timestamps"]),
    ]

    @Test(arguments: rows)
    func markupBecomesSpans(_ row: Row) {
        let (text, dropped) = Self.document(row.text)
        #expect(text.contains("begin=\"00:00:01.000\" end=\"00:00:02.000\" region=\"r1\"" + row.paragraph), "\(text)")
        #expect(dropped == row.dropped)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\""))
        #expect(text.contains("ttp:profile=\"http://www.w3.org/ns/ttml/profile/imsc1/text\""))
    }

    @Test func placementBecomesRegions() {
        var top = CueSettings()
        top.line = .number("0")
        #expect(Self.document("t", settings: top).0.contains("tts:origin=\"10% 0%\" tts:extent=\"80% 100%\" tts:displayAlign=\"before\""))
        var bottom = CueSettings()
        bottom.line = .number("-1")
        #expect(Self.document("b", settings: bottom).0.contains("tts:origin=\"10% 0%\" tts:extent=\"80% 100%\" tts:displayAlign=\"after\""))
        var placed = CueSettings()
        placed.line = .percentage("20")
        placed.position = "25"
        placed.size = "40"
        placed.align = .start
        let (text, _) = Self.document("p", settings: placed)
        #expect(text.contains("tts:origin=\"5% 20%\" tts:extent=\"40% 80%\" tts:displayAlign=\"before\""), "\(text)")
        #expect(text.contains("tts:textAlign=\"start\""))
        #expect(Self.document("default").0.contains("tts:origin=\"10% 10%\" tts:extent=\"80% 80%\" tts:displayAlign=\"after\""))
    }
}
