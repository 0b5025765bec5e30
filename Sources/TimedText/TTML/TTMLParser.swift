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
/// visible text is the same; one with no resolvable end ends at ``MediaTime/indefinite``. Text: `<br/>` breaks the line, whitespace collapses unless
/// `xml:space="preserve"`. Styles (inline, referenced with `style`, and inherited):
/// `tts:fontStyle` italic, `tts:fontWeight` bold and `tts:textDecoration` underline become `<i>`,
/// `<b>`, `<u>`; `tts:color` becomes a WebVTT colour class when it is one of WebVTT's eight.
/// Regions: `tts:origin`/`tts:extent` (percentages, or pixels of the root's `tts:extent`),
/// `tts:displayAlign` and `tts:textAlign` become `line`, `position`, `size` and `align`. The image
/// profile (`image` elements, `smpte:backgroundImage`) is refused.
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

/// Style properties Subweave carries over, as a set of flags and a colour class.
struct TTMLStyle: Equatable {
    var italic: Bool?
    var bold: Bool?
    var underline: Bool?
    var colour: String?
    /// `tts:display="none"`: not inherited, but nothing inside it shows.
    var displayNone: Bool?
    /// `tts:visibility="hidden"` (inherited; a descendant may say `visible`).
    var visibilityHidden: Bool?

    /// `other` over `self` (what `other` says wins).
    func overridden(by other: TTMLStyle) -> TTMLStyle {
        var style = TTMLStyle(
            italic: other.italic ?? italic, bold: other.bold ?? bold, underline: other.underline ?? underline,
            colour: other.colour ?? colour)
        style.displayNone = other.displayNone ?? displayNone
        style.visibilityHidden = other.visibilityHidden ?? visibilityHidden
        return style
    }

    /// The properties an element passes to what is inside it (all but `tts:display`).
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
        if let v = attributes["color"] { colour = Self.colourClass(v) ?? "" }
        if let v = attributes["display"] { displayNone = v == "none" }
        if let v = attributes["visibility"] { visibilityHidden = v == "hidden" }
    }

    init(italic: Bool? = nil, bold: Bool? = nil, underline: Bool? = nil, colour: String? = nil) {
        self.italic = italic
        self.bold = bold
        self.underline = underline
        self.colour = colour
    }

    /// WebVTT's default colour class for a TTML colour, if it is one of the eight.
    static func colourClass(_ value: String) -> String? {
        var v = value.trimmingCharacters(in: .whitespaces).lowercased()
        if v.hasPrefix("#") && v.count == 9 && v.hasSuffix("ff") { v = String(v.dropLast(2)) }
        if v.hasPrefix("rgb(") || v.hasPrefix("rgba(") {
            let numbers = v.drop { $0 != "(" }.dropFirst().dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count >= 3, numbers.prefix(3).allSatisfy({ (0...255).contains($0) }) else { return nil }
            v = "#" + numbers.prefix(3).map { String(format: "%02x", $0) }.joined()
        }
        return SubRipMarkup.colourClasses[v]
    }
}
