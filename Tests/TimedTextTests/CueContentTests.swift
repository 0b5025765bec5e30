import Foundation
import TestSupport
import Testing
import Timebase

@testable import TimedText

/// The format-neutral cue model: read from WebVTT cue text, kept whole from TTML, written as
/// WebVTT (saying what it leaves out) and as IMSC1, and the IMSC1 read back by ttconv.
struct CueContentTests {
    static let plain = CueStyle()
    static func style(_ change: (inout CueStyle) -> Void) -> CueStyle {
        var style = CueStyle()
        change(&style)
        return style
    }

    static let yellowItalic = style {
        $0.italic = true
        $0.colour = CueColour(red: 255, green: 255, blue: 0)
    }
    static let loudOnBlue = style {
        $0.classes = ["loud"]
        $0.background = CueColour(red: 0, green: 0, blue: 255)
    }
    static let boldFrench = style {
        $0.language = "fr"
        $0.bold = true
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let webVTT: String
        let lines: [[CueRun]]
        var testDescription: String { webVTT }
    }

    static let rows: [Row] = [
        Row(webVTT: "plain", lines: [[.text("plain", plain)]]),
        Row(
            webVTT: "<c.yellow><i>a</i></c> b",
            lines: [[.text("a", yellowItalic), .text(" b", plain)]]),
        Row(webVTT: "one\ntwo", lines: [[.text("one", plain)], [.text("two", plain)]]),
        Row(webVTT: "<v Bob>hi</v>", lines: [[.text("hi", style { $0.voice = "Bob" })]]),
        Row(
            webVTT: "<ruby>漢<rt>かん</rt></ruby>字",
            lines: [[.ruby(base: [.text("漢", plain)], annotation: [.text("かん", plain)], position: .before), .text("字", plain)]]),
        Row(webVTT: "a &amp; b &lt;3", lines: [[.text("a & b <3", plain)]]),
        Row(
            webVTT: "<c.loud.bg_blue>x</c>",
            lines: [[.text("x", loudOnBlue)]]),
        Row(webVTT: "a <00:00:01.500>b", lines: [[.text("a ", plain), .timestamp("00:00:01.500"), .text("b", plain)]]),
        Row(webVTT: "<lang fr><b>oui</b></lang>", lines: [[.text("oui", boldFrench)]]),
        Row(webVTT: "<x>unknown</x> tag", lines: [[.text("unknown", plain), .text(" tag", plain)]]),
    ]

    @Test(arguments: rows)
    func webVTTTextBecomesRuns(_ row: Row) {
        #expect(CueContent(webVTT: row.webVTT).lines == row.lines)
    }

    /// Text as the readers write it comes back byte for byte: the WebVTT writer made from the
    /// model writes what the readers wrote before there was one.
    @Test(arguments: [
        "plain", "<c.yellow><i>a</i></c> <b>b</b>", "<i><b><u>all</u></b></i>", "one\n<c.cyan>two</c>", "<ruby>漢<rt>かん</rt></ruby>字",
        "a &amp; b &lt;3 &gt;", "<v Bob>hi</v>", "<lang fr>oui</lang>",
    ])
    func webVTTComesBackAsWritten(_ text: String) {
        var dropped: Set<String> = []
        #expect(CueContent(webVTT: text).webVTT(dropping: &dropped) == text)
        #expect(dropped.isEmpty)
    }

    /// The last character a run is written with, found without writing it, is the one written.
    @Test func theLastCharacterWrittenIsFoundWithoutWriting() {
        let yellow = CueStyle.with { $0.colour = CueColour(red: 255, green: 255, blue: 0) }
        let odd = CueStyle.with { $0.colour = CueColour(red: 1, green: 2, blue: 3) }
        let runs: [CueRun] = [
            .text("plain", CueStyle()), .text("a &", CueStyle()), .text("x<", odd), .text("", Self.yellowItalic), .text("y", yellow),
            .text("z", odd), .text("v", Self.boldFrench), .text("c", Self.loudOnBlue), .timestamp("00:01.000"),
            .ruby(base: [.text("漢", CueStyle())], annotation: [.text("かん", CueStyle())], position: .before),
            .ruby(base: [.text("b>", CueStyle()), .text("", CueStyle())], annotation: [.text("", CueStyle())], position: .before),
        ]
        for run in runs {
            var dropped: Set<String> = []
            #expect(CueContent.lastWritten(run) == CueContent.webVTT(run, dropping: &dropped).unicodeScalars.last, "\(run)")
        }
    }

    @Test func coloursAreReadAsTTMLAndCSSWriteThem() {
        #expect(CueColour("#123456") == CueColour(red: 0x12, green: 0x34, blue: 0x56))
        #expect(CueColour("#FFFF0080") == CueColour(red: 255, green: 255, blue: 0, alpha: 128))
        #expect(CueColour("rgba(255, 255, 0, 255)")?.webVTTClass == "yellow")
        #expect(CueColour("rgba(255,255,0,128)")?.webVTTClass == nil, "a translucent yellow is not WebVTT's yellow")
        #expect(CueColour("aqua")?.webVTTClass == "cyan")
        #expect(CueColour("green")?.webVTTClass == nil, "TTML's green is #008000; WebVTT's lime is #00ff00")
        #expect(CueColour("#f0f")?.webVTTClass == "magenta")
        for bad in ["#12345", "rgb(1,2)", "rgb(1,2,300)", "nocolour", "#gggggg", ""] { #expect(CueColour(bad) == nil, "\(bad)") }
        #expect(CueColour(red: 0x12, green: 0x34, blue: 0x56, alpha: 0x0c).description == "#1234560c")
    }

    static let styled = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="ja">
          <head>
            <styling><style xml:id="s" tts:color="#123456" tts:fontFamily="Arial" tts:fontSize="80%" tts:textOutline="#000000 5%"/></styling>
            <layout><region xml:id="v" tts:origin="80% 10%" tts:extent="15% 80%" tts:displayAlign="before" tts:writingMode="tbrl" tts:textAlign="start"/></layout>
          </head>
          <body region="v"><div>
            <p begin="1s" end="2s"><span style="s">縦</span> <span tts:fontStyle="italic" tts:color="yellow">書き</span></p>
          </div></body>
        </tt>
        """

    /// What WebVTT can say of a TTML cue is its text and settings, as before the model; the rest
    /// is kept on the cue and named as what WebVTT drops.
    @Test func ttmlKeepsWhatWebVTTCannotSay() throws {
        let (cues, _, _) = try TTMLParser.parse(Self.styled)
        let cue = try #require(cues.first)
        #expect(cue.text == "縦 <c.yellow><i>書き</i></c>")
        #expect(cue.settings.text == "vertical:rl line:10%,start position:80%,line-left size:15% align:start")
        let content = try #require(cue.keptContent)
        let box = try #require(content.box)
        #expect(box == CueBox(left: 80, top: 10, width: 15, height: 80, displayAlign: .before, writingMode: .tbrl, textAlign: .start))
        guard case .text("縦", let style)? = content.lines.first?.first else {
            Issue.record("\(content.lines)")
            return
        }
        #expect(style.colour == CueColour(red: 0x12, green: 0x34, blue: 0x56) && style.fontFamily == "Arial")
        #expect(style.fontSize == "80%" && style.textOutline == "#000000 5%")
        #expect(content.droppedByWebVTT == ["colour #123456", "font family", "font size", "text outline"])
        #expect(cue.content == content)

        var changed = cue
        changed.text = "other"
        #expect(changed.keptContent == nil && changed.content.plainText == "other", "text changed afterwards says what the cue shows")
    }

    /// A SubRip colour WebVTT has no class for is kept in the content, which says the text's
    /// words; where its tag alone would keep a line the text drops (a tag that swallowed the rest
    /// of its line, at the start or the end of the cue), the colour goes, with a warning.
    @Test func subRipColourIsKeptOnlyWhereItSaysTheTextsWords() throws {
        let kept = SubRipParser.parse("1\n00:00:01,000 --> 00:00:02,000\n<font color=\"#602375\">Odd</font> one\n")
        let cue = try #require(kept.cues.first)
        #expect(cue.text == "Odd one" && kept.warnings.isEmpty)
        guard case .text("Odd", let style)? = cue.keptContent?.lines.first?.first else {
            Issue.record("\(String(describing: cue.keptContent))")
            return
        }
        #expect(style.colour == CueColour(red: 0x60, green: 0x23, blue: 0x75))
        for body in [
            "<font color=\"#602375\">Odd\n<font color=\"#fffd</font>", "<font color=\"#602375\"><font color=\"#fffd</font>\nOdd",
            "<font color=\"#602375\">Odd</ x\n<font color=\"#fffd</font>",
        ] {
            let read = SubRipParser.parse("1\n00:00:01,000 --> 00:00:02,000\n\(body)\n")
            let cue = try #require(read.cues.first, "\(body)")
            #expect(cue.keptContent == nil, "\(body)")
            #expect(cue.content.plainText == CueContent(webVTT: cue.text).plainText, "\(body)")
            #expect(read.warnings.map(\.kind) == [.markupRepaired] && read.warnings.first?.line == 2, "\(body): \(read.warnings)")
        }
    }

    /// The IMSC1 document keeps the source's styles and region as they were.
    @Test func imscWritesTheSourcesStylesAndRegion() throws {
        let (cues, _, _) = try TTMLParser.parse(Self.styled)
        let cue = try #require(cues.first)
        let written = IMSCWriter.document([(cue, cue.start, cue.end)], language: "ja")
        let text = String(decoding: written.bytes, as: UTF8.self)
        #expect(
            text.contains(
                "<region xml:id=\"r1\" tts:origin=\"80% 10%\" tts:extent=\"15% 80%\" tts:displayAlign=\"before\" tts:writingMode=\"tbrl\"/>"),
            "\(text)")
        #expect(text.contains("region=\"r1\" tts:textAlign=\"start\">"), "\(text)")
        #expect(
            text.contains(
                "<span tts:color=\"#123456\" tts:fontFamily=\"Arial\" tts:fontSize=\"80%\" tts:textOutline=\"#000000 5%\">縦</span> <span tts:fontStyle=\"italic\" tts:color=\"#ffff00\">書き</span>"
            ), "\(text)")
        #expect(written.dropped.isEmpty, "\(written.dropped)")
    }

    /// ttconv (the IMSC authors' reader) reads the written document with the same colour, font,
    /// outline, region and writing mode.
    @Test(.enabled(if: Tools.which("tt") != nil, "ttconv is not installed (pip install ttconv)"))
    func ttconvReadsTheStylesAndRegionBack() throws {
        let (cues, _, _) = try TTMLParser.parse(Self.styled)
        let cue = try #require(cues.first)
        let written = IMSCWriter.document([(cue, cue.start, cue.end)], language: "ja")
        let path = NSTemporaryDirectory() + "subweave-cue-content-\(getpid()).ttml"
        try Data(written.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import sys, xml.etree.ElementTree as et
            from ttconv.imsc import reader
            from ttconv.style_properties import StyleProperties as S
            doc = reader.to_model(et.parse(sys.argv[1]))
            for r in doc.iter_regions():
                o, e = r.get_style(S.Origin), r.get_style(S.Extent)
                print("region", o.x.value, o.y.value, e.width.value, e.height.value, r.get_style(S.WritingMode).value, r.get_style(S.DisplayAlign).value)
            for s in doc.get_body().dfs_iterator():
                if type(s).__name__ == "Span":
                    text = "".join(t.get_text() for t in s.dfs_iterator() if type(t).__name__ == "Text")
                    c = s.get_style(S.Color)
                    f = s.get_style(S.FontFamily)
                    o = s.get_style(S.TextOutline)
                    print("span", text, c.components if c else None, f, o.thickness.value if o else None, s.get_style(S.FontStyle))
            """
        let out = try Tools.run("/usr/bin/env", ["python3", "-c", script, path])
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("region 80.0 10.0 15.0 80.0 tbrl before"), "\(lines)")
        #expect(lines.contains("span 縦 (18, 52, 86, 255) ('Arial',) 5.0 None"), "\(lines)")
        #expect(lines.contains("span 書き (255, 255, 0, 255) None None FontStyleType.italic"), "\(lines)")
    }

    /// Kept content rides in a WebVTT NOTE before its cue and comes back on it; a note whose
    /// WebVTT form is not the cue's text is ignored.
    @Test func keptContentComesBackFromNotes() throws {
        let ttml = Self.styled.replacingOccurrences(of: "書き</span>", with: "書き --> x</span>")
        let (cues, _, _) = try TTMLParser.parse(ttml)
        let cue = try #require(cues.first)
        let note = try #require(cue.contentNote)
        #expect(note.hasPrefix("NOTE subweave-content {") && !note.contains("-->") && !note.contains("\n"), "\(note)")
        var file = "WEBVTT\n\n" + note + "\n\n" + WebVTTWriter.block(cue) + "\n\n"
        let plain = Cue(start: MediaTime(seconds: 5), end: MediaTime(seconds: 6), text: "plain")
        file += note + "\n\n" + WebVTTWriter.block(plain) + "\n\n"
        let read = try WebVTTParser.parse(file).cues
        #expect(read.count == 2 && read.allSatisfy { $0.keptContent == nil })
        let attached = CueContent.attachingNotes(to: read, from: file)
        #expect(attached[0].keptContent == cue.keptContent && attached[0].text == cue.text)
        #expect(attached[1].keptContent == nil, "a note written for another cue is not this one's content")
        let edited = file.replacingOccurrences(of: "縦 <c.yellow>", with: "横 <c.yellow>")
        let readEdited = try WebVTTParser.parse(edited).cues
        #expect(CueContent.attachingNotes(to: readEdited, from: edited)[0].keptContent == nil, "a cue edited since its note was written")
    }

    /// A SubRip `<font color>` WebVTT has no class for is kept in the content; the text is as before.
    @Test func subRipKeepsAColourWebVTTHasNoClassFor() throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"#ffff00\">Yellow</font> <i><font color=\"#123456\">Odd</font></i>\n\n"
        let cue = try #require(SubRipParser.parse(srt).cues.first)
        #expect(cue.text == "<c.yellow>Yellow</c> <i>Odd</i>")
        let odd = CueStyle.with {
            $0.italic = true
            $0.colour = CueColour(red: 0x12, green: 0x34, blue: 0x56)
        }
        #expect(
            cue.keptContent?.lines == [
                [.text("Yellow", Self.style { $0.colour = CueColour(webVTTClass: "yellow") }), .text(" ", Self.plain), .text("Odd", odd)]
            ])
        #expect(cue.keptContent?.droppedByWebVTT == ["colour #123456"])
        let plain = try #require(SubRipParser.parse("1\n00:00:01,000 --> 00:00:02,000\n<font color=\"red\">r</font> <b>b</b>\n\n").cues.first)
        #expect(plain.keptContent == nil, "nothing WebVTT cannot say: no content kept")
    }

    /// ASS styles' and overrides' colours, fonts and sizes are kept; a colour WebVTT has a class
    /// for is written in the text.
    @Test func assKeepsColoursFontsAndSizes() throws {
        #expect(ASSReader.colour("&H00563412") == CueColour(red: 0x12, green: 0x34, blue: 0x56))
        #expect(ASSReader.colour("&H563412&") == CueColour(red: 0x12, green: 0x34, blue: 0x56))
        #expect(ASSReader.colour("&H80FFFFFF") == CueColour(red: 255, green: 255, blue: 255, alpha: 127))
        #expect(ASSReader.colour("65535") == CueColour(red: 255, green: 255, blue: 0), "SSA's decimal BGR")
        #expect(ASSReader.colour("&Hzz") == nil)
        let script = """
            [Script Info]
            PlayResX: 1920
            PlayResY: 1080

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Underline, Alignment
            Style: Default,Arial,54,&H00FFFFFF,0,0,0,2
            Style: Sign,Verdana,72,&H0000FFFF,0,0,0,8

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,plain {\\i1}and{\\i0} {\\c&H563412&\\fnGaramond}odd{\\r} back
            Dialogue: 0,0:00:03.00,0:00:04.00,Sign,,0,0,0,,SIGN {\\c}default

            """
        let cues = try ASSParser.parse(script).cues
        #expect(cues.count == 2)
        #expect(cues[0].text == "plain <i>and</i> odd back", "no colour WebVTT can say: the text as before")
        let base = CueStyle.with {
            $0.fontFamily = "Arial"
            $0.fontSize = "0.75c"
        }
        var italic = base
        italic.italic = true
        var odd = base
        odd.colour = CueColour(red: 0x12, green: 0x34, blue: 0x56)
        odd.fontFamily = "Garamond"
        #expect(cues[0].keptContent?.lines == [[.text("plain ", base), .text("and", italic), .text(" ", base), .text("odd", odd), .text(" back", base)]])
        #expect(cues[1].text == "<c.yellow>SIGN default</c>", "a colour of WebVTT's eight is written: \(cues[1].text)")
        #expect(cues[1].settings.line != nil, "the style's alignment still places it")
        let written = IMSCWriter.document([(cues[0], cues[0].start, cues[0].end)], language: "en")
        let text = String(decoding: written.bytes, as: UTF8.self)
        #expect(text.contains("<span tts:color=\"#123456\" tts:fontFamily=\"Garamond\" tts:fontSize=\"0.75c\">odd</span>"), "\(text)")
    }
}

extension CueContentTests {
    /// Every part of the model survives its note: styles, ruby, timestamps, the box, and text
    /// with quotes, backslashes, `-->` and control characters.
    @Test func everyPartSurvivesItsNote() throws {
        let all = CueStyle.with {
            $0.italic = true
            $0.bold = true
            $0.underline = true
            $0.colour = CueColour(red: 1, green: 2, blue: 3, alpha: 4)
            $0.background = CueColour(red: 0, green: 0, blue: 0)
            $0.fontFamily = "\"Quoted\", serif"
            $0.fontSize = "1.5c"
            $0.textOutline = "black 5%"
            $0.language = "ja-JP"
            $0.voice = "Ann \\ Bob"
            $0.classes = ["loud", "x1"]
        }
        let content = CueContent(
            lines: [
                [.text("a --> b \"q\" \\ \u{01}\t", all), .timestamp("00:01.500"), .text(" ", CueStyle())],
                [.ruby(base: [.text("漢", all)], annotation: [.text("かん", CueStyle())], position: .after)],
                [],
            ],
            box: CueBox(left: 12.5, top: 0.125, width: 75, height: 20.25, displayAlign: .center, writingMode: .tblr, textAlign: .end))
        let note = content.noteBlock
        #expect(!note.contains("-->") && !note.contains("\n") && !note.contains("\u{01}"), "\(note)")
        let back = try #require(CueContent(noteJSON: note.dropFirst(CueContent.notePrefix.count)))
        #expect(back == content)
        var plain = content
        plain.box = nil
        #expect(CueContent(noteJSON: plain.noteBlock.dropFirst(CueContent.notePrefix.count)) == plain)
        for broken in ["", "{", "{\"l\":1}", "{\"l\":[[{\"t\":\"x\",\"s\":{\"c\":\"nocolour\"}}]]}", "{\"l\":[],\"b\":{\"x\":1}}"] {
            #expect(CueContent(noteJSON: Substring(broken)) == nil, "\(broken)")
        }
    }
}

extension CueStyle {
    static func with(_ change: (inout CueStyle) -> Void) -> CueStyle {
        var style = CueStyle()
        change(&style)
        return style
    }

    /// Settings are empty only when none is set: each setting alone makes them not empty, and a
    /// cue with any keeps it (its extras are made only then).
    @Test func settingsAreEmptyOnlyWithoutAnySetting() {
        #expect(CueSettings().isEmpty)
        let each: [(String, (inout CueSettings) -> Void)] = [
            ("vertical", { $0.vertical = .rl }), ("line", { $0.line = .number("0") }), ("lineAlign", { $0.lineAlign = .end }),
            ("position", { $0.position = "10" }), ("positionAlign", { $0.positionAlign = .lineLeft }), ("size", { $0.size = "50" }),
            ("align", { $0.align = .start }), ("region", { $0.region = "r" }),
        ]
        for (name, set) in each {
            var settings = CueSettings()
            set(&settings)
            #expect(!settings.isEmpty, "\(name)")
            #expect(settings != CueSettings(), "\(name)")
            let cue = Cue(start: .zero, end: MediaTime(ticks: 90_000), settings: settings, text: "a")
            #expect(cue.hasSettings && cue.settings == settings, "\(name)")
        }
        #expect(!Cue(start: .zero, end: MediaTime(ticks: 90_000), text: "a").hasSettings)
    }
}
