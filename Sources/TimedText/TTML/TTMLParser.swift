import Foundation
import Timebase

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// TTML documents — IMSC 1.0.1 and 1.1 Text Profile, EBU-TT-D, DFXP, SMPTE-TT — read into cues,
/// with Foundation's XML parser.
///
/// Timing: clock times (`01:02:03.5`, `01:02:03:12` with frames), offset times (`1.5s`, `90f`,
/// `1000t`, `2m`, `1h`, `500ms`), frames by `ttp:frameRate` × `ttp:frameRateMultiplier`, ticks by
/// `ttp:tickRate`; intervals by TTML2's rules (``TTMLTimeline``: parallel and sequential
/// containers, implicit durations, clipping); what shows by ``TTMLPresenter`` (display,
/// visibility, `set`, region timing, ruby). A paragraph becomes a cue per interval in which its
/// visible content is the same; one with no resolvable end ends at ``MediaTime/indefinite``.
/// Text: `<br/>` breaks the line, whitespace collapses unless `xml:space="preserve"`.
///
/// Each cue keeps its ``CueContent`` (``Cue/keptContent``): the styles (inline, referenced with
/// `style`, and inherited) `tts:fontStyle`, `tts:fontWeight`, `tts:textDecoration`, `tts:color`,
/// `tts:backgroundColor`, `tts:fontFamily`, `tts:fontSize` and `tts:textOutline` on each run;
/// the region's `tts:origin`/`tts:extent` (percentages, or pixels of the root's `tts:extent`),
/// `tts:displayAlign`, `tts:textAlign` and `tts:writingMode` as its box. Its WebVTT text and
/// settings are what WebVTT can say of that: `<i>`, `<b>`, `<u>`, a colour class when the colour
/// is one of WebVTT's eight; `line`, `position`, `size`, `align` and `vertical`
/// (``CueBox/webVTTSettings``). The image profile (`image` elements, `smpte:backgroundImage`) is
/// refused.
package enum TTMLParser {
    /// Parses `text`.
    package static func parse(_ text: String) throws(SubtitleFileError) -> (cues: [Cue], warnings: [IngestWarning], language: String?) {
        let data = Data(try guarded(Array(text.utf8)))
        let builder = TTMLTreeBuilder()
        // Given as a stream, the parser hands libxml2 the document in pieces: given whole, libxml2
        // refuses a document over 10 MB in one piece (XML_MAX_LOOKUP_LIMIT; Foundation cannot
        // ask for XML_PARSE_HUGE), with "error 1".
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if let error = builder.failure { throw error }
        guard ok else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "the XML is not well-formed"
            throw SubtitleFileError(.ttml, line: parser.lineNumber, "not well-formed XML: \(reason)")
        }
        guard builder.sawRoot else { throw SubtitleFileError(.ttml, line: 1, "the root element is not <tt> in the TTML namespace (http://www.w3.org/ns/ttml)") }
        guard let body = builder.body else { return ([], [], builder.language) }
        let timeline = try TTMLTimeline(body: body, timing: builder.timing)
        var presenter = TTMLPresenter(timeline: timeline, styles: builder.styles, regions: builder.regions, rootExtent: builder.rootExtent)
        try presenter.present(body)
        var cues = presenter.cues
        cues.sortByStart()
        return (cues, presenter.warnings, builder.language)
    }
}

extension TTMLParser {
    /// The document with what the XML parser must not see taken out: processing instructions
    /// other than the XML declaration (Foundation's parser crashes on one without data, `<?x?>`;
    /// TTML needs none), and refused when it has a document type declaration (internal entities
    /// can expand without bound; TTML needs none).
    static func guarded(_ bytes: [UInt8]) throws(SubtitleFileError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var line = 1
        var seenMarkup = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1 }
            if b == UInt8(ascii: "<"), i + 1 < bytes.count {
                let next = bytes[i + 1]
                if next == UInt8(ascii: "?") {
                    var end = i + 2
                    while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
                    let isDeclaration =
                        !seenMarkup && bytes[(i + 2)...].starts(with: Array("xml".utf8)) && i + 5 < bytes.count
                        && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i + 5])
                    if isDeclaration {
                        // A declaration holds no markup: one that runs into a tag before its `?>`
                        // would hand libxml2 what follows, processing instructions included (one
                        // without data crashes Foundation's XML parser, which reads it as a C string).
                        guard !bytes[(i + 2)..<min(bytes.count, end)].contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else {
                            throw SubtitleFileError(.ttml, line: line, "the XML declaration (<?xml …) is not closed by ?> before the markup that follows it")
                        }
                        out.append(contentsOf: bytes[i..<min(bytes.count, end + 2)])
                    }
                    for k in i..<min(bytes.count, end + 2) where bytes[k] == 0x0A { line += 1 }
                    seenMarkup = true
                    i = end + 2
                    continue
                }
                if next == UInt8(ascii: "!"), bytes[(i + 2)...].starts(with: Array("DOCTYPE".utf8)) {
                    throw SubtitleFileError(
                        .ttml, line: line,
                        "the document has a document type declaration (<!DOCTYPE …>); TTML needs none, and its entities are not expanded here")
                }
                seenMarkup = true
            }
            out.append(b)
            i += 1
        }
        return out
    }
}

/// The style properties a TTML element says, each nil where it says nothing.
struct TTMLStyle: Equatable {
    var italic: Bool?
    var bold: Bool?
    var underline: Bool?
    /// `tts:color`: `.some(nil)` for a value that is not a colour (it still overrides the colour
    /// around it).
    var colour: CueColour??
    var background: CueColour??
    var fontFamily: String?
    var fontSize: String?
    var textOutline: String?
    /// `tts:rubyPosition="after"` (below the base); other values put ruby before it.
    var rubyAfter: Bool?
    /// `tts:display="none"`: not inherited, but nothing inside it shows.
    var displayNone: Bool?
    /// `tts:visibility="hidden"` (inherited; a descendant may say `visible`).
    var visibilityHidden: Bool?

    /// `other` over `self` (what `other` says wins).
    func overridden(by other: TTMLStyle) -> TTMLStyle {
        var style = TTMLStyle()
        style.italic = other.italic ?? italic
        style.bold = other.bold ?? bold
        style.underline = other.underline ?? underline
        style.colour = other.colour ?? colour
        style.background = other.background ?? background
        style.fontFamily = other.fontFamily ?? fontFamily
        style.fontSize = other.fontSize ?? fontSize
        style.textOutline = other.textOutline ?? textOutline
        style.rubyAfter = other.rubyAfter ?? rubyAfter
        style.displayNone = other.displayNone ?? displayNone
        style.visibilityHidden = other.visibilityHidden ?? visibilityHidden
        return style
    }

    /// The properties an element passes to what is inside it (all but `tts:display`).
    ///
    /// `tts:backgroundColor` is not inherited in TTML, but the text inside is painted over it,
    /// so for the text's runs it is.
    var inherited: TTMLStyle {
        var style = self
        style.displayNone = nil
        return style
    }

    /// The style's own attributes.
    init(attributes: [String: String]) {
        if let v = attributes["fontStyle"] { italic = v == "italic" || v == "oblique" }
        if let v = attributes["fontWeight"] { bold = v == "bold" }
        if let v = attributes["textDecoration"] {
            let words = v.split(separator: " ")
            if words.contains("underline") { underline = true } else if words.contains("noUnderline") || words.contains("none") { underline = false }
        }
        if let v = attributes["color"] { colour = .some(CueColour(v)) }
        if let v = attributes["backgroundColor"] { background = .some(CueColour(v)) }
        if let v = attributes["fontFamily"] { fontFamily = String(v.trimming(.asciiWhitespace)) }
        if let v = attributes["fontSize"] { fontSize = String(v.trimming(.asciiWhitespace)) }
        if let v = attributes["textOutline"] { textOutline = String(v.trimming(.asciiWhitespace)) }
        if let v = attributes["rubyPosition"] { rubyAfter = v.trimming(.asciiWhitespace) == "after" }
        if let v = attributes["display"] { displayNone = v == "none" }
        if let v = attributes["visibility"] { visibilityHidden = v == "hidden" }
    }

    init() {}

    /// The run style of text in this style.
    var cueStyle: CueStyle {
        var style = CueStyle()
        style.italic = italic == true
        style.bold = bold == true
        style.underline = underline == true
        style.colour = colour ?? nil
        style.background = background ?? nil
        style.fontFamily = fontFamily
        style.fontSize = fontSize
        style.textOutline = textOutline
        return style
    }
}
