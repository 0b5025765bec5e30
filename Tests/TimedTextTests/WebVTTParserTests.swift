import TestSupport
import Testing
import Timebase

@testable import TimedText

/// The W3C WebVTT parser algorithm, case by case (WebVTT §6).
struct WebVTTParserTests {
    func cues(_ text: String) throws -> [Cue] { try WebVTTParser.parse(text).cues }

    static let signatures: [SourceRow<(String, Bool)>] = [
        SourceRow(("WEBVTT", true)), SourceRow(("WEBVTT\n", true)), SourceRow(("WEBVTT FILE TITLE\n", true)),
        SourceRow(("WEBVTT\tx\n", true)), SourceRow(("\u{FEFF}WEBVTT\n", true)), SourceRow(("WEBVTT\r\n", true)),
        SourceRow(("WEBVTTX\n", false)), SourceRow(("webvtt\n", false)), SourceRow((" WEBVTT\n", false)),
        SourceRow(("", false)), SourceRow(("WEBVT\n", false)), SourceRow(("WEBVTT-\n", false)),
        SourceRow(("1\n00:00:01,000 --> 00:00:02,000\nSRT\n", false)),
    ]

    @Test func signatureLine() {
        for row in Self.signatures {
            let (text, valid) = row.value
            let parsed = (try? WebVTTParser.parse(text)) != nil
            #expect(parsed == valid, "\(text.debugDescription) at line \(row.line)")
        }
    }

    static let timestamps: [SourceRow<(String, Int64?)>] = [
        SourceRow(("00:01.000", 1_000)), SourceRow(("01:02.003", 62_003)), SourceRow(("00:00:01.000", 1_000)),
        SourceRow(("01:00:00.000", 3_600_000)), SourceRow(("1:00:00.000", 3_600_000)), SourceRow(("100:00:00.000", 360_000_000)),
        SourceRow(("60:00.000", nil)), SourceRow(("00:60.000", nil)), SourceRow(("00:00:60.000", nil)), SourceRow(("00:60:00.000", nil)),
        SourceRow(("00:00.00", nil)), SourceRow(("00:00.0000", nil)), SourceRow(("00:00,000", nil)), SourceRow(("0:00.000", nil)),
        SourceRow(("00:0.000", nil)), SourceRow(("00:00", nil)), SourceRow(("-00:01.000", nil)),
    ]

    @Test func timestampForms() throws {
        for row in Self.timestamps {
            let (stamp, ms) = row.value
            let parsed = try cues("WEBVTT\n\n\(stamp) --> 999:00:00.000\nx\n").first?.start
            #expect(parsed == ms.map(MediaTime.init(milliseconds:)), "\(stamp) at line \(row.line)")
        }
    }

    /// (settings text, the settings kept, as written back).
    static let settings: [SourceRow<(String, String)>] = [
        SourceRow(("line:0", "line:0")), SourceRow(("line:-1", "line:-1")), SourceRow(("line:1.5", "line:1.5")),
        SourceRow(("line:50%", "line:50%")), SourceRow(("line:50%,end", "line:50%,end")), SourceRow(("line:0,center", "line:0,center")),
        SourceRow(("line:--1", "")), SourceRow(("line:1.2.3", "")), SourceRow(("line:abc", "")), SourceRow(("line:1-", "")),
        SourceRow(("line:50%,middle", "")), SourceRow(("line:101%", "")), SourceRow(("line:.5", "")),
        SourceRow(("position:10%", "position:10%")), SourceRow(("position:10%,line-left", "position:10%,line-left")),
        SourceRow(("position:110%", "")), SourceRow(("position:10", "")), SourceRow(("position:10%,left", "")),
        SourceRow(("size:50%", "size:50%")), SourceRow(("size:101%", "")), SourceRow(("size:-5%", "")),
        SourceRow(("align:start", "align:start")), SourceRow(("align:left", "align:left")), SourceRow(("align:middle", "")),
        SourceRow(("vertical:rl", "vertical:rl")), SourceRow(("vertical:lr", "vertical:lr")), SourceRow(("vertical:x", "")),
        SourceRow(("line:0 line:5", "line:5")), SourceRow(("bogus:1 line:2", "line:2")), SourceRow((":x line", "")),
        SourceRow(("region:r1", "region:r1")), SourceRow(("region:nope", "")), SourceRow(("region:r1 line:0", "line:0")),
        SourceRow(("size:50% align:end line:10%", "line:10% size:50% align:end")),
    ]

    @Test func settingsParsedAndValidated() throws {
        for row in Self.settings {
            let (input, kept) = row.value
            let text = "WEBVTT\n\nREGION\nid:r1 width:40%\n\n00:01.000 --> 00:02.000 \(input)\nx\n"
            let cue = try #require(try cues(text).first, "line \(row.line)")
            #expect(cue.settings.text == kept, "\(input) at line \(row.line)")
        }
    }

    @Test func blocks() throws {
        let text = """
            WEBVTT - title
            Kind: captions

            NOTE a comment
            spanning lines

            STYLE
            ::cue { color: lime }

            REGION
            id:fred width:40% lines:3 regionanchor:0%,100% viewportanchor:10%,90% scroll:up

            intro
            00:00.000 --> 00:01.000 region:fred
            <v Roger>Hi &amp; bye

            00:02.000 --> 00:03.000
            first line
            00:04.000 --> 00:05.000
            a timing line inside a cue starts a new cue

            STYLE
            ::cue { color: red }

            00:06.000 --> 00:07.000
            after a STYLE block that came too late
            """
        let document = try WebVTTParser.parse(text)
        #expect(document.styleSheets == ["::cue { color: lime }"])
        #expect(document.regions.map(\.identifier) == ["fred"])
        #expect(document.regions.first?.block == "REGION\nid:fred width:40% lines:3 regionanchor:0%,100% viewportanchor:10%,90% scroll:up")
        #expect(document.cues.map(\.identifier) == ["intro", "", "", ""])
        #expect(
            document.cues.map(\.text) == [
                "<v Roger>Hi &amp; bye", "first line", "a timing line inside a cue starts a new cue",
                "after a STYLE block that came too late",
            ])
        #expect(document.cues[0].settings.region == "fred")
        #expect(document.cues.map { $0.start.milliseconds } == [0, 2000, 4000, 6000])
    }

    @Test func badTimingLineSkipsTheBlockOnly() throws {
        let document = try WebVTTParser.parse("WEBVTT\n\n00:01.000 --> 00:xx.000\nskipped\nalso skipped\n\n00:03.000 --> 00:04.000\nkept\n")
        #expect(document.cues.map(\.text) == ["kept"])
        #expect(document.warnings.first?.kind == .cueSkipped)
        #expect(document.warnings.first?.line == 3)
    }

    @Test func endNotAfterStartIsSkipped() throws {
        let document = try WebVTTParser.parse("WEBVTT\n\n00:02.000 --> 00:01.000\nbackwards\n\n00:03.000 --> 00:03.000\nzero\n")
        #expect(document.cues.isEmpty)
        #expect(document.warnings.map(\.line) == [3, 6])
    }

    @Test func lineEndingsAndNulls() throws {
        for newline in ["\n", "\r\n", "\r"] {
            let text = ["WEBVTT", "", "00:01.000 --> 00:02.000", "a", "b", "", "00:03.000 --> 00:04.000", "c"].joined(separator: newline)
            #expect(try cues(text).map(\.text) == ["a\nb", "c"], "\(newline.debugDescription)")
        }
        #expect(try cues("WEBVTT\n\n00:01.000 --> 00:02.000\na\u{0}b\n").first?.text == "a\u{FFFD}b")
    }

    @Test func cueRightAfterTheHeaderLine() throws {
        // A timing line on line 2 ends the header and is a cue.
        #expect(try cues("WEBVTT\n00:01.000 --> 00:02.000\nHi\n").map(\.text) == ["Hi"])
    }

    @Test func arrowWithoutSpaces() throws {
        #expect(try cues("WEBVTT\n\n00:01.000-->00:02.000\nx\n").count == 1)
        #expect(try cues("WEBVTT\n\n00:01.000 -> 00:02.000\nx\n").isEmpty)
    }
}

struct CueTextTests {
    static let repairs: [SourceRow<(String, String)>] = [
        SourceRow(("plain", "plain")),
        SourceRow(("<i>ok</i>", "<i>ok</i>")),
        SourceRow(("<i>open", "<i>open</i>")),
        SourceRow(("close</b>", "close")),
        SourceRow(("<b><i>x</b>", "<b><i>x</i></b>")),
        SourceRow(("<font color=red>x</font>", "x")),
        SourceRow(("a & b", "a &amp; b")),
        SourceRow(("&amp; &lt; &#233; &#xE9; &nbsp;", "&amp; &lt; &#233; &#xE9; &nbsp;")),
        SourceRow(("x > y", "x &gt; y")),
        SourceRow(("<c.yellow.bg_blue>y</c>", "<c.yellow.bg_blue>y</c>")),
        SourceRow(("<v Roger Bingham>Hi", "<v Roger Bingham>Hi")),
        SourceRow(("<v>no voice", "<c>no voice</c>")),  // a voice tag without a voice: a span of its classes
        SourceRow(("<lang en>hi</lang>", "<lang en>hi</lang>")),
        SourceRow(("<ruby>漢<rt>kan</rt></ruby>", "<ruby>漢<rt>kan</rt></ruby>")),
        SourceRow(("<rt>orphan</rt>", "orphan")),
        SourceRow(("a <00:00:01.500>b", "a <00:00:01.500>b")),
        SourceRow(("a <00:01.5>b", "a b")),
        SourceRow(("a < b", "a ")),  // a browser drops '< b' as an unknown tag
        // HTML character references (WebVTT §6.4 defers to HTML): legacy names need no ';', and
        // what they stand for is written (a valid reference, or the character itself).
        SourceRow(("&amp ok", "&amp; ok")),
        SourceRow(("&lt &gt", "&lt; &gt;")),
        SourceRow(("&not it", "¬ it")),
        SourceRow(("&notit;", "¬it;")),  // the longest name in the table is the legacy "not"
        SourceRow(("&#233 x", "é x")),
        SourceRow(("&hellip; &copy", "&hellip; ©")),
        SourceRow(("&bogus; &", "&amp;bogus; &amp;")),
        // The spec's tree: an end tag closes only the current element; </ruby> in ruby text closes both.
        SourceRow(("<b><i>x</b>y</i>z", "<b><i>xy</i>z</b>")),
        SourceRow(("<ruby>a<rt>b</ruby>c", "<ruby>a<rt>b</rt></ruby>c")),
        SourceRow(("<i><rt>x</rt></i>", "<i>x</i>")),
        SourceRow(("<ruby><i><rt>x</rt></i></ruby>", "<ruby><i>x</i></ruby>")),
        SourceRow(("<v.loud>shout</v>", "<c.loud>shout</c>")),
        SourceRow(("<lang.a>x</lang>", "<c.a>x</c>")),
    ]

    @Test func repairsMarkupAsABrowserReadsIt() {
        for row in Self.repairs {
            let (input, output) = row.value
            #expect(CueText.repaired(input).text == output, "\(input) at line \(row.line)")
        }
    }

    @Test func escapesPlainText() {
        #expect(CueText.escaped("Tom & Jerry <3 >") == "Tom &amp; Jerry &lt;3 &gt;")
        #expect(CueText.plainText("<i>Tom</i> &amp; <b>Jerry</b> &#233;") == "Tom & Jerry é")
    }

    /// The text a viewer reads, with HTML's references: named (full table, legacy without ';'),
    /// numeric with or without ';', HTML's replacements for 0, 0x80-0x9F and out-of-range values.
    @Test func decodesReferencesAsHTML() {
        let rows: [SourceRow<(String, String)>] = [
            SourceRow(("&amp &lt &gt", "& < >")), SourceRow(("&hellip;&mdash;", "…—")), SourceRow(("&#x1F600;", "😀")),
            SourceRow(("&#128;", "€")), SourceRow(("&#0;", "\u{FFFD}")), SourceRow(("&#x110000;", "\u{FFFD}")), SourceRow(("&#xD800;", "\u{FFFD}")),
            SourceRow(("&#65", "A")), SourceRow(("&nosuch;", "&nosuch;")), SourceRow(("&AMP;&amp", "&&")), SourceRow(("&#99999999999999999999;", "\u{FFFD}")),
        ]
        for row in rows { #expect(CueText.plainText(row.value.0) == row.value.1, "line \(row.line)") }
    }

    /// As a browser's parser: identifiers as written (none when the file has none), cues whose end
    /// is not after their start kept when asked (WebVTT §6.1 keeps them), two BOMs not WebVTT.
    @Test func parsesAsTheSpecDoes() throws {
        let text = "WEBVTT\n\nfirst\n00:01.000 --> 00:02.000\na\n\n00:03.000 --> 00:02.500\nbackwards\n\n00:04.000 --> 00:05.000\nno id\n"
        let browser = try WebVTTParser.parse(text, options: WebVTTParser.Options(keepsBackwardCues: true))
        #expect(browser.cues.map(\.identifier) == ["first", "", ""])
        #expect(browser.cues.map(\.text) == ["a", "backwards", "no id"])
        #expect(browser.warnings.map(\.kind) == [.backwardCue])
        #expect(try WebVTTParser.parse(text).cues.map(\.text) == ["a", "no id"])
        #expect(throws: SubtitleFileError.self) { try WebVTTParser.parse("\u{FEFF}\u{FEFF}WEBVTT\n") }
        #expect(throws: SubtitleFileError.self) { try WebVTTParser.parse("\u{FEFF}WEBVTT\n", options: WebVTTParser.Options(byteOrderMarkRemoved: true)) }
    }
}

struct SegmenterTests {
    func cue(_ s: Int64, _ e: Int64) -> Cue { Cue(start: MediaTime(milliseconds: s), end: MediaTime(milliseconds: e), text: "\(s)") }
    func window(_ s: Int64, _ e: Int64) -> Range<MediaTime> { MediaTime(milliseconds: s)..<MediaTime(milliseconds: e) }

    @Test func cuesGoToEverySegmentTheyOverlap() {
        let windows = [window(0, 2000), window(2000, 4000), window(4000, 6000)]
        let cues = [cue(0, 500), cue(1500, 2500), cue(2000, 2001), cue(1000, 6000), cue(3999, 4000), cue(4000, 4500), cue(6000, 7000)]
        #expect(Segmenter.assign(cues, to: windows) == SegmentAssignment([[0, 1, 3], [1, 2, 3, 4], [3, 5]]))
    }

    /// Random cues (unsorted, overlapping, zero-length) on random windows (some empty): each
    /// window holds, in cue order, exactly the cues that overlap it; a segment's list replaced
    /// leaves the others as they were.
    @Test func theListsAreThoseOfEveryCueLookedAtInEveryWindow() {
        var g = ByteWriterTests.Generator(state: 5)
        for _ in 0..<300 {
            var edges: [Int64] = [0]
            for _ in 0..<g.next(12) { edges.append(edges[edges.count - 1] + Int64(g.next(3)) * 1_000) }
            let windows = zip(edges, edges.dropFirst()).map { window($0, $1) }
            let cues = (0..<g.next(30)).map { _ in
                let start = Int64(g.next(14_000)) - 1_000
                return cue(start, start + Int64(g.next(4_000)))
            }
            let expected = windows.map { w in cues.indices.filter { cues[$0].start < w.upperBound && cues[$0].end > w.lowerBound && !w.isEmpty } }
            var assigned = Segmenter.assign(cues, to: windows)
            #expect(assigned.map(Array.init) == expected)
            #expect(assigned == SegmentAssignment(expected))
            guard !windows.isEmpty else { continue }
            let segment = g.next(windows.count)
            assigned.replace(segment, with: [7, 8, 9])
            var changed = expected
            changed[segment] = [7, 8, 9]
            #expect(assigned.map(Array.init) == changed)
        }
    }

    @Test func emptyWindowsStayEmpty() {
        #expect(Segmenter.assign([cue(100, 200)], to: [window(0, 50), window(50, 100), window(100, 150)]) == SegmentAssignment([[], [], [0]]))
    }
}

/// The repair's fast path (text already as the repair writes it) agrees with the full repair on
/// every text it accepts, and SubRip's byte check for visible text agrees with the text the
/// WebVTT tokenizer yields: checked on the repair table and on generated markup.
struct RepairFastPathTests {
    @Test func visibleTextAgreesWithThePlainText() {
        let pieces = ["<i>", "</i>", "<c.x>", "<00:00:01.000>", " ", "\n", "\t", "&Tab;", "&NewLine;", "&nbsp;", "&amp;", "&", ">", "<", "a", "é", "\u{3000}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let viewerSees = !CueText.plainText(text).allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" }
            #expect(SubRipParser.hasVisibleText(text) == viewerSees, "\(text.debugDescription)")
        }
    }

    @Test func agreesWithTheFullRepair() {
        var texts = CueTextTests.repairs.map(\.value.0) + CueTextTests.repairs.map(\.value.1)
        let pieces = [
            "<i>", "</i>", "<b>", "</b>", "<u>", "</u>", "<c.yellow>", "<c>", "</c>", "&amp;", "&#233;", "&#x1F600;", "&#abc;", "&bogus;",
            "&nbsp;", "&amp", ">", "<", "a", " ", "é", "<v x>", "<i.c>", "<c.a-b>", "&",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &generator) { text += pieces.randomElement(using: &generator)! }
            texts.append(text)
        }
        for text in texts where CueText.isAlreadyRepaired(text) {
            #expect(CueText.repairedFully(text) == text, "\(text.debugDescription): the fast path accepts it but the repair changes it")
        }
    }
}

/// Preprocessing (§6.1 steps 1-2), done in place on the file's bytes, against the spec's text
/// applied to Unicode scalars.
struct WebVTTPreprocessingTests {
    /// The bytes the spec's wording gives, applied to scalars.
    ///
    /// "Replace all U+0000 NULL characters by U+FFFD REPLACEMENT CHARACTERs. Replace each U+000D
    /// CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair by a single U+000A LINE FEED (LF)
    /// character. Replace all remaining U+000D CARRIAGE RETURN characters by U+000A LINE FEED (LF)
    /// characters." (§6.1)
    static func reference(_ text: String) -> [UInt8] {
        var scalars = Array(text.unicodeScalars).map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }
        var out: [Unicode.Scalar] = []
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" {
                out.append("\n")
                i += 2
                continue
            }
            out.append(scalars[i] == "\r" ? "\n" : scalars[i])
            i += 1
        }
        scalars = out
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars)
        return Array(string.utf8)
    }

    @Test func inPlaceMatchesTheSpec() {
        var rng = SeededGenerator(seed: 21)
        let pieces = ["\r", "\n", "\r\n", "\u{0}", "a", "é", "日", "\n\r"]
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...24, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            var bytes = Array(text.utf8)
            WebVTTParser.preprocess(&bytes)
            #expect(bytes == Self.reference(text), "\(text.debugDescription)")
        }
    }
}
