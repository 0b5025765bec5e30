import Foundation
import Timebase

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// TTML documents — IMSC 1.0.1 and 1.1 Text Profile, EBU-TT-D, DFXP, SMPTE-TT — read into cues,
/// with Foundation's XML parser.
///
/// Timing (TTML2 §10.3): clock times (`01:02:03.5`, `01:02:03:12` with frames), offset times
/// (`1.5s`, `90f`, `1000t`, `2m`, `1h`, `500ms`), frames by `ttp:frameRate` ×
/// `ttp:frameRateMultiplier`, ticks by `ttp:tickRate`; `begin`, `end` and `dur` on `body`, `div`,
/// `p` and `span`, each relative to its parent's begin and clipped to its parent's end (parallel
/// time containment). A paragraph whose spans have their own times becomes a cue per interval in
/// which the visible text is the same. Text: `<br/>` breaks the line, whitespace collapses unless
/// `xml:space="preserve"`. Styles (inline, referenced with `style`, and inherited):
/// `tts:fontStyle` italic, `tts:fontWeight` bold and `tts:textDecoration` underline become `<i>`,
/// `<b>`, `<u>`; `tts:color` becomes a WebVTT colour class when it is one of WebVTT's eight.
/// Regions: `tts:origin`/`tts:extent` (percentages, or pixels of the root's `tts:extent`),
/// `tts:displayAlign` and `tts:textAlign` become `line`, `position`, `size` and `align`. The image
/// profile (`image` elements, `smpte:backgroundImage`) is refused.
package enum TTMLParser {
    /// Parses `text`.
    package static func parse(_ text: String) throws(TTMLError) -> (cues: [Cue], warnings: [IngestWarning], language: String?) {
        let data = Data(try guarded(Array(text.utf8)))
        let builder = TTMLBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if let error = builder.failure { throw error }
        guard ok else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "the XML is not well-formed"
            throw TTMLError(line: parser.lineNumber, "not well-formed XML: \(reason)")
        }
        guard builder.sawRoot else { throw TTMLError(line: 1, "the root element is not <tt> in the TTML namespace (http://www.w3.org/ns/ttml)") }
        var cues = builder.cues
        cues.sortByStart()
        return (cues, builder.warnings, builder.language)
    }
}

extension TTMLParser {
    /// The document with what the XML parser must not see taken out: processing instructions
    /// other than the XML declaration (Foundation's parser crashes on one without data, `<?x?>`;
    /// TTML needs none), and refused when it has a document type declaration (internal entities
    /// can expand without bound; TTML needs none).
    static func guarded(_ bytes: [UInt8]) throws(TTMLError) -> [UInt8] {
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
                    if isDeclaration { out.append(contentsOf: bytes[i..<min(bytes.count, end + 2)]) }
                    for k in i..<min(bytes.count, end + 2) where bytes[k] == 0x0A { line += 1 }
                    seenMarkup = true
                    i = end + 2
                    continue
                }
                if next == UInt8(ascii: "!"), bytes[(i + 2)...].starts(with: Array("DOCTYPE".utf8)) {
                    throw TTMLError(
                        line: line, "the document has a document type declaration (<!DOCTYPE …>); TTML needs none, and its entities are not expanded here")
                }
                seenMarkup = true
            }
            out.append(b)
            i += 1
        }
        return out
    }
}

/// Why a document is not TTML Subweave can read.
package struct TTMLError: Error, Sendable, CustomStringConvertible {
    package let line: Int
    package let reason: String
    init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }
    package var description: String { "line \(line): \(reason)" }
}

/// Style properties Subweave carries over, as a set of flags and a colour class.
struct TTMLStyle: Equatable {
    var italic: Bool?
    var bold: Bool?
    var underline: Bool?
    var colour: String?

    /// `other` over `self` (what `other` says wins).
    func overridden(by other: TTMLStyle) -> TTMLStyle {
        TTMLStyle(
            italic: other.italic ?? italic, bold: other.bold ?? bold, underline: other.underline ?? underline,
            colour: other.colour ?? colour)
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

/// The SAX side: a stack of elements with their times and styles, and the cues of each finished
/// paragraph.
final class TTMLBuilder: NSObject, XMLParserDelegate {
    struct Element {
        let name: String
        let begin: MediaTime
        /// nil: indefinite.
        let end: MediaTime?
        let style: TTMLStyle
        let region: String?
        let preserve: Bool
    }

    /// A piece of a paragraph's text, with when it shows and how.
    struct Fragment {
        var text: String
        let begin: MediaTime
        let end: MediaTime?
        let style: TTMLStyle
        let lineBreak: Bool
        /// `xml:space="preserve"`: whitespace kept as written.
        var preserve = false
    }

    var stack: [Element] = []
    var inHead = false
    var ignoredDepth = 0
    var styles: [String: (attributes: [String: String], refs: [String])] = [:]
    var regions: [String: [String: String]] = [:]
    var fragments: [Fragment] = []
    var paragraph: Element?
    var cues: [Cue] = []
    var warnings: [IngestWarning] = []
    var failure: TTMLError?
    var sawRoot = false
    var language: String?
    var timing = TTMLTiming()
    var rootExtent: (Double, Double)?
    /// Every open element's name, to catch what a lenient XML parser lets through.
    var openNames: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        openNames.append(qName ?? elementName)
        let attributes = Self.localNames(attributeDict)
        if !sawRoot {
            guard elementName == "tt", namespaceURI?.hasPrefix("http://www.w3.org/ns/ttml") == true else {
                fail(parser, "the root element is <\(qName ?? elementName)>, not <tt> in the TTML namespace (http://www.w3.org/ns/ttml)")
                return
            }
            sawRoot = true
            language = attributes["lang"]
            do throws(TTMLError) { timing = try TTMLTiming(attributes, line: parser.lineNumber) } catch { failure = error; parser.abortParsing() }
            rootExtent = attributes["extent"].flatMap(Self.pixels)
            if let profile = attributes["contentProfiles"] ?? attributes["profile"], profile.contains("image") {
                fail(parser, "the document uses an image profile (\(profile)); Subweave reads text profiles only")
            }
            stack.append(Element(name: "tt", begin: .zero, end: nil, style: TTMLStyle(), region: nil, preserve: attributes["space"] == "preserve"))
            return
        }
        if ignoredDepth > 0 || elementName == "metadata" {
            ignoredDepth += 1
            return
        }
        if elementName == "image" || attributes["backgroundImage"] != nil {
            fail(parser, "the document has images (<image> or smpte:backgroundImage): the image profile is not text; Subweave reads text profiles only")
            return
        }
        switch elementName {
        case "head":
            inHead = true
        case "style" where inHead:
            if let id = attributes["id"] { styles[id] = (attributes, (attributes["style"] ?? "").split(separator: " ").map(String.init)) }
        case "region" where inHead:
            if let id = attributes["id"] { regions[id] = attributes }
        case "body", "div", "p", "span":
            push(elementName, attributes, parser)
            if elementName == "p" {
                paragraph = stack.last
                fragments = []
            }
        case "br":
            if let top = stack.last, paragraph != nil {
                fragments.append(Fragment(text: "", begin: top.begin, end: top.end, style: top.style, lineBreak: true))
            }
        default:
            if !inHead { ignoredDepth += 1 }
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard failure == nil else { return }
        let name = qName ?? elementName
        guard openNames.last == name else {
            fail(parser, "not well-formed XML: </\(name)> does not close <\(openNames.last ?? "nothing")>")
            return
        }
        openNames.removeLast()
        if ignoredDepth > 0 {
            ignoredDepth -= 1
            return
        }
        switch elementName {
        case "head": inHead = false
        case "body", "div", "span":
            if stack.count > 1 { stack.removeLast() }
        case "p":
            if let p = paragraph { finishParagraph(p, line: parser.lineNumber) }
            paragraph = nil
            if stack.count > 1 { stack.removeLast() }
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, ignoredDepth == 0, paragraph != nil, let top = stack.last else { return }
        fragments.append(Fragment(text: string, begin: top.begin, end: top.end, style: top.style, lineBreak: false, preserve: top.preserve))
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if failure == nil, let open = openNames.last { fail(parser, "not well-formed XML: <\(open)> is never closed") }
    }

    func fail(_ parser: XMLParser, _ reason: String) {
        failure = TTMLError(line: parser.lineNumber, reason)
        parser.abortParsing()
    }

    /// Attribute names without their namespace prefix (`tts:color` → `color`, `xml:id` → `id`).
    static func localNames(_ attributes: [String: String]) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in attributes {
            let local = key.split(separator: ":").last.map(String.init) ?? key
            result[local] = value
        }
        return result
    }

    /// An element's times and style from its attributes and its parent's.
    func push(_ name: String, _ attributes: [String: String], _ parser: XMLParser) {
        let parent = stack.last ?? Element(name: "tt", begin: .zero, end: nil, style: TTMLStyle(), region: nil, preserve: false)
        var begin = parent.begin
        var end = parent.end
        do throws(TTMLError) {
            func time(_ key: String) throws(TTMLError) -> MediaTime? {
                guard let text = attributes[key] else { return nil }
                return try timing.time(text, line: parser.lineNumber)
            }
            let ownBegin = try time("begin")
            let ownEnd = try time("end")
            let dur = try time("dur")
            // Times add up along the nesting: every sum stays within the bound of every timestamp
            // (a file can nest thousands of elements that each begin far in).
            func sum(_ a: MediaTime, _ b: MediaTime) throws(TTMLError) -> MediaTime {
                guard let total = MediaTime.checkedSum(a, b) else {
                    throw TTMLError(
                        line: parser.lineNumber,
                        "<\(LabelText.excerpt(name))> begins or ends \((a.seconds + b.seconds).decimalSeconds) s in, adding up its ancestors' times: beyond the \(MediaTime.limit / 90_000) s any timestamp may reach"
                    )
                }
                return total
            }
            begin = try sum(parent.begin, ownBegin ?? .zero)
            if let ownEnd {
                end = try sum(parent.begin, ownEnd)
            } else if let dur {
                end = try sum(begin, dur)
            }
            if let parentEnd = parent.end { end = min(end ?? parentEnd, parentEnd) }
        } catch {
            failure = error
            parser.abortParsing()
            return
        }
        var style = parent.style
        for id in (attributes["style"] ?? "").split(separator: " ").map(String.init) { style = style.overridden(by: resolvedStyle(id, depth: 0)) }
        style = style.overridden(by: TTMLStyle(attributes: attributes))
        let preserve = attributes["space"].map { $0 == "preserve" } ?? parent.preserve
        stack.append(Element(name: name, begin: begin, end: end, style: style, region: attributes["region"] ?? parent.region, preserve: preserve))
    }

    /// A named style with the styles it references (a chain of at most 16).
    func resolvedStyle(_ id: String, depth: Int) -> TTMLStyle {
        guard depth < 16, let definition = styles[id] else { return TTMLStyle() }
        var style = TTMLStyle()
        for ref in definition.refs { style = style.overridden(by: resolvedStyle(ref, depth: depth + 1)) }
        return style.overridden(by: TTMLStyle(attributes: definition.attributes))
    }

    /// The cues of a finished paragraph: one per interval in which the same text shows.
    func finishParagraph(_ p: Element, line: Int) {
        guard let pEnd = p.end else {
            warnings.append(IngestWarning(kind: .cueSkipped, line: line, "paragraph skipped: it has no end (no end or dur on it or on an element around it)"))
            return
        }
        guard pEnd > p.begin else { return }
        var boundaries: Set<MediaTime> = [p.begin, pEnd]
        for f in fragments {
            if f.begin > p.begin && f.begin < pEnd { boundaries.insert(f.begin) }
            if let end = f.end, end > p.begin && end < pEnd { boundaries.insert(end) }
        }
        let sorted = boundaries.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            let visible = fragments.filter { $0.begin <= a && ($0.end ?? pEnd) >= b }
            let text = TTMLText.compose(visible)
            guard !text.isEmpty else { continue }
            var cue = Cue(start: a, end: b, text: text, sourceLine: line)
            if let region = p.region.flatMap({ regions[$0] }) { cue.settings = TTMLRegion.settings(region, rootExtent: rootExtent) }
            if let last = cues.last, last.text == cue.text, last.end == cue.start, last.settings == cue.settings {
                cues[cues.count - 1].end = cue.end
            } else {
                cues.append(cue)
            }
        }
    }

    /// `"1920px 1080px"`.
    static func pixels(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: " ").filter { !$0.isEmpty }
        guard parts.count == 2, parts.allSatisfy({ $0.hasSuffix("px") }),
            let w = Double(parts[0].dropLast(2)), let h = Double(parts[1].dropLast(2)), w > 0, h > 0
        else { return nil }
        return (w, h)
    }
}
