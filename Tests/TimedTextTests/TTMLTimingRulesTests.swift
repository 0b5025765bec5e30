import Testing

@testable import TimedText

/// TTML's timing and presentation rules, each case written from the text of TTML2 (the section
/// it follows named in the case) and read through ``TTMLParser``.
struct TTMLTimingRulesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let body: String
        var head = ""
        /// (start ms, end ms or -1 for indefinite, text).
        let cues: [(Int64, Int64, String)]
        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(
            rule: "TTML2 §12.4: a paragraph with only a begin is active until its parent ends (here the document: indefinite)",
            body: #"<div><p begin="2s">one</p><p begin="5s">two</p></div>"#,
            cues: [(2000, -1, "one"), (5000, -1, "two")]),
        Case(
            rule: "TTML2 §12.4: word-by-word spans with only a begin each stay until the paragraph ends",
            body: #"<div><p begin="1s" end="6s"><span begin="0s">Word</span> <span begin="1s">by</span> <span begin="2s">word</span></p></div>"#,
            cues: [(1000, 2000, "Word"), (2000, 3000, "Word by"), (3000, 6000, "Word by word")]),
        Case(
            rule: "TTML2 §12.4: an untimed p is a parallel container, active until its last child ends",
            body: #"<div><p><span begin="0s" end="10s">from the spans</span></p></div>"#,
            cues: [(0, 10000, "from the spans")]),
        Case(
            rule: "TTML2 §12.2.4: in a sequential container each child begins when the one before ends",
            body: """
                <div timeContainer="seq"><p dur="1.2s">first</p><p dur="72s">second</p><p begin="3s" dur="1s">third, 3 s after the second</p></div>
                """,
            cues: [(0, 1200, "first"), (1200, 73200, "second"), (76200, 77200, "third, 3 s after the second")]),
        Case(
            rule: "TTML2 §12.4: text a sequential container times with no duration of its own lasts zero: it is never shown",
            body: #"<div timeContainer="seq"><p>zero</p><p dur="2s">shown</p></div>"#,
            cues: [(0, 2000, "shown")]),
        Case(
            rule: "TTML2 §12.4: nothing is active outside its parent's interval (a child's end is clipped)",
            body: #"<div begin="10s" end="12s"><p begin="1s" end="5s">clipped</p></div>"#,
            cues: [(11000, 12000, "clipped")]),
        Case(
            rule: "TTML2 tts:display none: the element and what it holds are not presented",
            body: #"<div><p begin="0s" end="2s">shown <span tts:display="none">hidden</span></p><p begin="3s" end="4s" tts:display="none">gone</p></div>"#,
            cues: [(0, 2000, "shown")]),
        Case(
            rule: "TTML2 §11 set: a set child changes tts:display for its own interval",
            body: #"<div><p begin="0s" end="6s">always <span>blinks<set begin="2s" end="4s" tts:display="none"/></span></p></div>"#,
            cues: [(0, 2000, "always blinks"), (2000, 4000, "always"), (4000, 6000, "always blinks")]),
        Case(
            rule: "TTML2 tts:visibility hidden is inherited and a descendant may say visible",
            body: #"<div><p begin="0s" end="1s" tts:visibility="hidden">hidden <span tts:visibility="visible">seen</span></p></div>"#,
            cues: [(0, 1000, "seen")]),
        Case(
            rule: "TTML2 §9 region timing: content shows only while its region is active",
            body: #"<div><p region="r1" begin="0s" end="10s">in a timed region</p></div>"#,
            head: #"<layout><region xml:id="r1" begin="2s" end="5s" tts:origin="10% 80%" tts:extent="80% 10%"/></layout>"#,
            cues: [(2000, 5000, "in a timed region")]),
        Case(
            rule: "IMSC 1.1 tts:ruby: a container's base and first text become WebVTT ruby; a second text is left out",
            body: """
                <div><p begin="0s" end="3s"><span tts:ruby="container"><span tts:ruby="base">東南</span><span tts:ruby="textContainer">\
                <span tts:ruby="text">とうなん</span><span tts:ruby="text">たつみ</span></span></span>の方角</p></div>
                """,
            cues: [(0, 3000, "<ruby>東南<rt>とうなん</rt></ruby>の方角")]),
    ]

    @Test(arguments: cases)
    func follows(_ c: Case) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="ja">
              <head>\(c.head)</head><body>\(c.body)</body>
            </tt>
            """
        let (cues, _, _) = try TTMLParser.parse(document)
        let got = cues.map { ($0.start.milliseconds, $0.end == .indefinite ? -1 : $0.end.milliseconds, $0.text) }
        #expect(got.map(\.0) == c.cues.map(\.0), "starts: \(got)")
        #expect(got.map(\.1) == c.cues.map(\.1), "ends: \(got)")
        #expect(got.map(\.2) == c.cues.map(\.2), "texts: \(got)")
    }

    @Test func indefiniteEndsAreSaid() throws {
        let document = #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="2s">open</p></div></body></tt>"#
        let (_, warnings, _) = try TTMLParser.parse(document)
        #expect(warnings.contains { $0.message.contains("no resolvable end") }, "\(warnings)")
        let ruby = """
            <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"><body><div><p begin="0s" end="1s">\
            <span tts:ruby="container"><span tts:ruby="base">a</span><span tts:ruby="text">b</span><span tts:ruby="text">c</span></span></p></div></body></tt>
            """
        #expect(try TTMLParser.parse(ruby).warnings.contains { $0.message.contains("second ruby text") })
    }
}
