import Foundation
import TestSupport
import Testing
import Timebase

@testable import TimedText

/// TTML (IMSC 1.1 Text Profile, EBU-TT-D, DFXP) and ASS/SSA, each document written here with the
/// cues it must give typed by hand from the specification's rules: (start ms, end ms, text,
/// settings).
struct TTMLAndASSTests {
    struct Expected: Sendable {
        let start: Int64
        let end: Int64
        let text: String
        var settings = ""
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let document: String
        let cues: [Expected]
        var testDescription: String { name }
    }

    static func tt(_ parameters: String = "", head: String = "", body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter"
            xmlns:tts="http://www.w3.org/ns/ttml#styling" xmlns:ebuttm="urn:ebu:tt:metadata" xml:lang="en" \(parameters)>
          <head>\(head)</head>
          <body>\(body)</body>
        </tt>
        """
    }

    static let ttml: [Case] = [
        // TTML2 §10.3.1 time expressions: clock times with fraction and frames, offset times in
        // every metric; frames at ttp:frameRate 25 (30000/1001 with a multiplier), ticks at ttp:tickRate.
        Case(
            name: "clock and offset times",
            document: tt(
                #"ttp:frameRate="25" ttp:tickRate="10000000""#,
                body: """
                    <div><p begin="00:00:01.5" end="00:00:02.250">fraction</p>
                    <p begin="00:00:03:12" end="00:00:04:00">frames</p>
                    <p begin="5s" dur="500ms">seconds</p>
                    <p begin="150f" end="175f">offset frames</p>
                    <p begin="80000000t" end="90000000t">ticks</p>
                    <p begin="0.2m" end="0.0035h">minutes and hours</p></div>
                    """),
            cues: [
                Expected(start: 1500, end: 2250, text: "fraction"), Expected(start: 3480, end: 4000, text: "frames"),
                Expected(start: 5000, end: 5500, text: "seconds"), Expected(start: 6000, end: 7000, text: "offset frames"),
                Expected(start: 8000, end: 9000, text: "ticks"), Expected(start: 12000, end: 12600, text: "minutes and hours"),
            ]),
        Case(
            name: "NTSC frames with a multiplier",
            document: tt(
                #"ttp:frameRate="30" ttp:frameRateMultiplier="1000 1001""#,
                body: """
                    <div><p begin="30f" end="60f">drop</p><p begin="00:00:03:00" end="00:00:04:00">clock</p></div>
                    """),
            // 30 frames at 30 × 1000/1001 fps = 1.001 s; a clock time's seconds are seconds.
            cues: [Expected(start: 1001, end: 2002, text: "drop"), Expected(start: 3000, end: 4000, text: "clock")]),
        // Time containment (TTML2 §10.4): times are relative to the parent's begin and clipped to its end.
        Case(
            name: "nested time containment",
            document: tt(
                body: """
                    <div begin="10s" end="14s"><p begin="1s" end="2s">inside</p><p begin="3s" end="9s">clipped by the div</p></div>
                    """),
            cues: [Expected(start: 11000, end: 12000, text: "inside"), Expected(start: 13000, end: 14000, text: "clipped by the div")]),
        // Spans with their own times: a cue per interval with the same visible text.
        Case(
            name: "timed spans",
            document: tt(
                body: """
                    <div><p begin="1s" end="4s">Always <span begin="1s">then this</span> <span begin="0s" end="2s">and that</span></p></div>
                    """),
            cues: [
                Expected(start: 1000, end: 2000, text: "Always and that"), Expected(start: 2000, end: 3000, text: "Always then this and that"),
                Expected(start: 3000, end: 4000, text: "Always then this"),
            ]),
        // Whitespace: collapsed by default; br breaks the line; xml:space="preserve" keeps it.
        Case(
            name: "whitespace and line breaks",
            document: tt(
                body: """
                    <div><p begin="0s" end="1s">
                      Two   spaces
                      collapse<br/>  next line  </p>
                    <p begin="1s" end="2s" xml:space="preserve">kept   as  written</p></div>
                    """),
            cues: [Expected(start: 0, end: 1000, text: "Two spaces collapse\nnext line"), Expected(start: 1000, end: 2000, text: "kept   as  written")]),
        // Styling: referential (with a chained style), inline, inherited; colours of WebVTT's eight.
        Case(
            name: "styles",
            document: tt(
                head: """
                    <styling><style xml:id="base" tts:fontStyle="italic"/><style xml:id="yellow" style="base" tts:color="yellow"/>
                    <style xml:id="plain" tts:color="#808080"/></styling>
                    """,
                body: """
                    <div><p begin="0s" end="1s" style="yellow">yellow italic <span tts:fontWeight="bold">and bold</span></p>
                    <p begin="1s" end="2s"><span tts:textDecoration="underline">under</span> <span style="plain">grey stays plain</span></p>
                    <p begin="2s" end="3s"><span tts:color="rgba(255,0,0,255)">red</span> &amp; &lt;tags&gt;</p></div>
                    """),
            cues: [
                Expected(start: 0, end: 1000, text: "<c.yellow><i>yellow italic</i></c> <c.yellow><i><b>and bold</b></i></c>"),
                Expected(start: 1000, end: 2000, text: "<u>under</u> grey stays plain"),
                Expected(start: 2000, end: 3000, text: "<c.red>red</c> &amp; &lt;tags&gt;"),
            ]),
        // Regions (IMSC): origin and extent in percent or in pixels of the root extent; display and text alignment.
        Case(
            name: "regions",
            document: tt(
                #"tts:extent="1920px 1080px""#,
                head: """
                    <layout><region xml:id="bottom" tts:origin="10% 80%" tts:extent="80% 10%" tts:displayAlign="after"/>
                    <region xml:id="topLeft" tts:origin="192px 54px" tts:extent="960px 108px" tts:textAlign="left"/></layout>
                    """,
                body: """
                    <div region="bottom"><p begin="0s" end="1s">bottom</p><p begin="1s" end="2s" region="topLeft">top left</p></div>
                    """),
            cues: [
                Expected(start: 0, end: 1000, text: "bottom", settings: "line:90%,end position:50%,center size:80%"),
                Expected(start: 1000, end: 2000, text: "top left", settings: "line:5%,start position:10%,line-left size:50% align:start"),
            ]),
        // EBU-TT-D: media time base, everything in clock times, styles and regions by reference, metadata ignored.
        Case(
            name: "EBU-TT-D",
            document: tt(
                #"ttp:timeBase="media""#,
                head: """
                    <metadata><ebuttm:documentMetadata><ebuttm:documentEbuttVersion>v1.0</ebuttm:documentEbuttVersion></ebuttm:documentMetadata></metadata>
                    <styling><style xml:id="s1" tts:color="#FFFFFF" tts:backgroundColor="#000000"/></styling>
                    <layout><region xml:id="r1" tts:origin="10% 10%" tts:extent="80% 80%" tts:displayAlign="after" tts:textAlign="center"/></layout>
                    """,
                body: """
                    <div><p xml:id="sub1" region="r1" begin="00:00:10.000" end="00:00:12.500"><span style="s1">EBU line one</span><br/><span style="s1">line two</span></p></div>
                    """),
            cues: [
                Expected(
                    start: 10000, end: 12500, text: "<c.white>EBU line one</c>\n<c.white>line two</c>", settings: "line:90%,end position:50%,center size:80%")
            ]),
        // DFXP (TTML1, the old namespace prefix is the same URI) with a p that has no end: TTML2
        // §12.4, an anonymous span in a parallel container is active indefinitely, until the
        // document ends.
        Case(
            name: "DFXP and an endless paragraph",
            document: tt(
                body: """
                    <div><p begin="1s" end="2s">ok</p><p begin="3s">no end</p></div>
                    """),
            cues: [Expected(start: 1000, end: 2000, text: "ok"), Expected(start: 3000, end: -1, text: "no end")]),
    ]

    @Test(arguments: ttml)
    func readsTTML(_ c: Case) throws {
        let (cues, _, language) = try TTMLParser.parse(c.document)
        #expect(language == "en")
        #expect(cues.map(\.start) == c.cues.map { MediaTime(milliseconds: $0.start) }, "starts")
        // An end of -1: indefinite (no resolvable end).
        #expect(cues.map { $0.end == .indefinite ? -1 : $0.end.milliseconds } == c.cues.map(\.end), "ends")
        #expect(cues.map(\.text) == c.cues.map(\.text))
        #expect(cues.map(\.settings.text) == c.cues.map(\.settings))
    }

    @Test func refusesWhatIsNotTextTTML() {
        let image = Self.tt(
            body: """
                <div begin="0s" end="1s" xmlns:smpte="http://www.smpte-ra.org/schemas/2052-1/2010/smpte-tt" smpte:backgroundImage="#img1"/>
                """)
        #expect(throws: SubtitleFileError.self) { try TTMLParser.parse(image) }
        #expect(throws: SubtitleFileError.self) { try TTMLParser.parse("<tt><body/></tt>") }  // no TTML namespace
        #expect(throws: SubtitleFileError.self) { try TTMLParser.parse(Self.tt(body: "<div><p begin=\"1x\" end=\"2s\">bad time</p></div>")) }
        #expect(throws: SubtitleFileError.self) { try TTMLParser.parse("<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><p>unclosed</body></tt>") }
    }

    /// TTML2 §11.3.1.3: where a document defines regions, text in none of them is not presented.
    ///
    /// It is left out, and the track says so (never a silent loss). A span naming its own region
    /// shows there, placed by that region.
    @Test func textInNoRegionIsLeftOutAndSaid() throws {
        let document = Self.tt(
            head: #"<layout><region xml:id="top" tts:origin="10% 10%" tts:extent="80% 20%"/></layout>"#,
            body: #"<div><p begin="1s" end="2s">lost <span region="top">placed</span></p><p begin="3s" end="4s">lost too</p></div>"#)
        let read = try TTMLParser.parse(document)
        #expect(read.cues.map(\.text) == ["placed"])
        #expect(read.cues.first?.settings.text.contains("line:10%") == true)
        let warning = try #require(read.warnings.first { $0.kind == .cueSkipped })
        #expect(warning.message.hasPrefix("2 paragraph(s) hold text in no region") && warning.line == 5, "\(warning)")
        // Without a layout everything is in the default region.
        #expect(try TTMLParser.parse(Self.tt(body: #"<div><p begin="1s" end="2s">shown</p></div>"#)).cues.map(\.text) == ["shown"])
    }

    // MARK: - ASS / SSA

    static let assHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 1920
        PlayResY: 1080

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1
        Style: Top,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,-1,0,0,100,100,0,0,1,2,0,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """

    static let ass: [Case] = [
        Case(
            // \N always breaks; \n is a soft break, a space (libass's test script: "There should be no
            // linebreak here"), unless WrapStyle: 2 (the next case).
            name: "dialogue, commas and escapes",
            document: assHeader + "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,Hello, world\\Nline two\\nthree\\hend\n",
            cues: [Expected(start: 1000, end: 2500, text: "Hello, world\nline two three\u{00A0}end")]),
        Case(
            name: "WrapStyle 2 makes \\n a hard break",
            document: assHeader.replacingOccurrences(of: "[Script Info]\n", with: "[Script Info]\nWrapStyle: 2\n")
                + "Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,one\\ntwo\n",
            cues: [Expected(start: 1000, end: 2500, text: "one\ntwo")]),
        Case(
            name: "overrides and a style's italic and alignment",
            document: assHeader + """
                Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}it{\\i0} {\\b1}bold{\\b0} {\\u1}under{\\r} plain {\\fs20\\c&H0000FF&}dropped
                Dialogue: 0,0:00:03.00,0:00:04.00,Top,,0,0,0,,styled top
                Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\\an7}top left
                Dialogue: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,{\\pos(480,810)}placed
                """,
            cues: [
                Expected(start: 1000, end: 2000, text: "<i>it</i> <b>bold</b> <u>under</u> plain <c.red>dropped</c>"),
                Expected(start: 3000, end: 4000, text: "<i>styled top</i>", settings: "line:0"),
                Expected(start: 5000, end: 6000, text: "top left", settings: "line:0 align:start"),
                Expected(start: 7000, end: 8000, text: "placed", settings: "line:75%,end position:25%,center align:center"),
            ]),
        Case(
            name: "layers, comments, drawings and order",
            document: assHeader + """
                Dialogue: 1,0:00:02.00,0:00:03.00,Default,,0,0,0,,upper layer
                Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,not shown
                Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,lower layer
                Dialogue: 0,0:00:01.00,0:00:01.50,Default,,0,0,0,,first
                Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100 0 100{\\p0}after the drawing
                Dialogue: 0,0:00:06.00,0:00:07.00,Default,,0,0,0,,{\\p1}m 0 0 l 100 0{\\p0}
                """,
            cues: [
                Expected(start: 1000, end: 1500, text: "first"), Expected(start: 2000, end: 3000, text: "lower layer"),
                Expected(start: 2000, end: 3000, text: "upper layer"), Expected(start: 4000, end: 5000, text: "after the drawing"),
            ]),
        // SSA (v4): the legacy alignment (1-3 bottom, +4 top, +8 middle) and {\a6} (top centre).
        Case(
            name: "SSA v4",
            document: """
                [Script Info]
                ScriptType: v4.00

                [V4 Styles]
                Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding
                Style: Default,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,2,30,30,30,0,0

                [Events]
                Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,old {\\a6}style
                """,
            cues: [Expected(start: 1000, end: 2000, text: "<b>old style</b>", settings: "line:0")]),
    ]

    @Test(arguments: ass)
    func readsASS(_ c: Case) throws {
        let (cues, _) = try ASSParser.parse(c.document)
        #expect(cues.map(\.start) == c.cues.map { MediaTime(milliseconds: $0.start) }, "starts")
        // An end of -1: indefinite (no resolvable end).
        #expect(cues.map { $0.end == .indefinite ? -1 : $0.end.milliseconds } == c.cues.map(\.end), "ends")
        #expect(cues.map(\.text) == c.cues.map(\.text))
        #expect(cues.map(\.settings.text) == c.cues.map(\.settings))
    }

    @Test func assWarnsAndRefuses() throws {
        #expect(throws: SubtitleFileError.self) { try ASSParser.parse("1\n00:00:01,000 --> 00:00:02,000\nnot ass\n") }
        let (_, warnings) = try ASSParser.parse(
            Self.assHeader + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\p1}m 0 0{\\p0}x\nDialogue: 0,bad,0:00:02.00,Default,,0,0,0,,x\n")
        #expect(warnings.map(\.line) == [13, 14], "\(warnings)")
    }
}
