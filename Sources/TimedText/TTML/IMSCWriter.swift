import Foundation
import Timebase

/// Writes cues as an IMSC1 Text Profile document (TTML, W3C IMSC 1.0.1): one sample of an IMSC1
/// track in fragmented MP4, or a whole file, from each cue's ``CueContent``.
///
/// Each text run becomes a span with its styles: italic, bold, underline, colour and background
/// (any sRGB colour with alpha), font family, font size and text outline (in `%` or `c`; IMSC1
/// allows pixels only against a root extent, which these documents do not have), its language as
/// `xml:lang`. Lines are separated by `<br/>`. Placement: the box a TTML source gave becomes the
/// region as it was (origin, extent, display alignment, writing mode, text alignment); WebVTT
/// settings become a region per distinct placement (`line` as the region's top or bottom edge,
/// `position` and `size` as its sides, `vertical` its writing mode) and `align` the paragraph's
/// `tts:textAlign`. What IMSC1 here cannot say is dropped and named in ``Document/dropped``:
/// other classes, voice names, karaoke timestamps, and ruby text (IMSC1's Text Profile has no
/// ruby, and hls.js, which ignores IMSC 1.1's `tts:ruby`, would show the annotation inline).
package enum IMSCWriter {
    /// A written document and what its cues said that it does not.
    package struct Document: Sendable {
        package let bytes: [UInt8]
        /// What was dropped, by kind ("ruby text", "class .loud"), each once.
        package let dropped: Set<String>
    }

    /// The IMSC1 Text Profile designator.
    package static let profile = "http://www.w3.org/ns/ttml/profile/imsc1/text"

    /// A document of `cues`, each shown from `begin` to `end` on the media timeline the track's
    /// samples are on (ISO/IEC 14496-30: a sample's document times are track times); `language`
    /// is the `xml:lang` of the whole.
    package static func document(_ cues: [(cue: Cue, begin: MediaTime, end: MediaTime)], language: String) -> Document {
        var regions: [String: String] = [:]
        var regionOrder: [String] = []
        var dropped: Set<String> = []
        var body = ""
        for (index, item) in cues.enumerated() {
            let content = item.cue.content
            let (attributes, regionNote) = content.box.map { (region($0), nil) } ?? region(item.cue.settings)
            if let regionNote { dropped.insert(regionNote) }
            let id: String
            if let known = regions[attributes] {
                id = known
            } else {
                id = "r\(regionOrder.count + 1)"
                regions[attributes] = id
                regionOrder.append(attributes)
            }
            let textAlign = content.box.map { $0.textAlign?.rawValue } ?? item.cue.settings.align?.rawValue
            let align = textAlign.map { " tts:textAlign=\"\($0)\"" } ?? ""
            let text = spans(content, dropped: &dropped)
            body += "<p xml:id=\"c\(index + 1)\" begin=\"\(clock(item.begin))\" end=\"\(clock(item.end))\" region=\"\(id)\"\(align)>\(text)</p>\n"
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:ttp=\"http://www.w3.org/ns/ttml#parameter\""
        out += " xmlns:tts=\"http://www.w3.org/ns/ttml#styling\" ttp:timeBase=\"media\" ttp:profile=\"\(profile)\""
        out += " xml:lang=\"\(escape(language))\">\n<head>\n<layout>\n"
        for attributes in regionOrder { out += "<region xml:id=\"\(regions[attributes] ?? "")\" \(attributes)/>\n" }
        out += "</layout>\n</head>\n<body>\n<div>\n" + body + "</div>\n</body>\n</tt>\n"
        return Document(bytes: Array(out.utf8), dropped: dropped)
    }

    /// What IMSC1 drops of `cues` (``dropped(_:)-(Cue)`` of each), gathered until it holds more
    /// than `limit` kinds.
    package static func dropped(_ cues: [Cue], beyond limit: Int) -> Set<String> {
        var dropped: Set<String> = []
        for cue in cues {
            dropped.formUnion(Self.dropped(cue))
            if dropped.count > limit { break }
        }
        return dropped
    }

    /// What a document of `cue` would drop (``Document/dropped``), without writing one.
    package static func dropped(_ cue: Cue) -> Set<String> {
        var dropped: Set<String> = []
        let content = cue.content
        _ = spans(content, dropped: &dropped)
        if content.box == nil, let note = region(cue.settings).1 { dropped.insert(note) }
        return dropped
    }

    /// `hh:mm:ss.fff` (clock time, milliseconds): what every TTML reader reads.
    static func clock(_ time: MediaTime) -> String {
        let ms = max(0, time.milliseconds)
        let h = ms / 3_600_000, m = ms / 60_000 % 60, s = ms / 1000 % 60, f = ms % 1000
        return "\(String(h).zeroPadded(to: 2)):\(String(m).zeroPadded(to: 2)):\(String(s).zeroPadded(to: 2)).\(String(f).zeroPadded(to: 3))"
    }

    /// The height of a WebVTT line as a share of the video's (WebVTT §7.2: 5 % of the height at
    /// the default font size; a cue box's lines are this apart).
    static let lineHeight = 5.33

    /// A region's attributes for `settings`, and what of them it could not keep.
    static func region(_ settings: CueSettings) -> (String, String?) {
        var note: String?
        // Across: WebVTT's `position` (the box's anchor, by `position` alignment) and `size`.
        var width = settings.size.flatMap(Double.init) ?? 80
        width = min(max(width, 1), 100)
        var left = (100 - width) / 2
        if let position = settings.position.flatMap(Double.init) {
            switch settings.positionAlign ?? .center {
            case .lineLeft: left = position
            case .center: left = position - width / 2
            case .lineRight: left = position - width
            }
        }
        left = min(max(left, 0), 100 - width)
        // Down: `line` as the box's top (numbers from the top, percentages) or bottom edge.
        var top = 10.0, height = 80.0, display = "after"
        switch settings.line {
        case .number(let text)?:
            if let n = Int(text) {
                if n >= 0 {
                    top = min(Double(n) * lineHeight, 95)
                    height = 100 - top
                    display = "before"
                } else {
                    let bottom = max(100 - Double(-n - 1) * lineHeight, 5)
                    top = 0
                    height = bottom
                }
            }
        case .percentage(let text)?:
            if let p = Double(text) {
                switch settings.lineAlign ?? .start {
                case .start:
                    top = min(max(p, 0), 95)
                    height = 100 - top
                    display = "before"
                case .center:
                    top = max(min(p, 95) - 5, 0)
                    height = 10
                    display = "center"
                case .end:
                    top = 0
                    height = max(min(p, 100), 5)
                }
            }
        case nil: break
        }
        var attributes = "tts:origin=\"\(percent(left)) \(percent(top))\" tts:extent=\"\(percent(width)) \(percent(height))\" tts:displayAlign=\"\(display)\""
        switch settings.vertical {
        case .rl?: attributes += " tts:writingMode=\"tbrl\""
        case .lr?: attributes += " tts:writingMode=\"tblr\""
        case nil: break
        }
        if settings.region != nil { note = "WebVTT region" }
        return (attributes, note)
    }

    static func percent(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return text + "%"
    }

    /// A source's box as a region's attributes, as the source gave it.
    static func region(_ box: CueBox) -> String {
        var attributes = "tts:origin=\"\(percent(box.left)) \(percent(box.top))\" tts:extent=\"\(percent(box.width)) \(percent(box.height))\""
        attributes += " tts:displayAlign=\"\(box.displayAlign.rawValue)\""
        if box.writingMode != .lrtb { attributes += " tts:writingMode=\"\(box.writingMode.rawValue)\"" }
        return attributes
    }

    /// A cue's content as TTML paragraph content.
    static func spans(_ content: CueContent, dropped: inout Set<String>) -> String {
        var out = ""
        for (index, line) in content.lines.enumerated() {
            if index > 0 { out += "<br/>" }
            for run in line { out += span(run, dropped: &dropped) }
        }
        return out
    }

    static func span(_ run: CueRun, dropped: inout Set<String>) -> String {
        switch run {
        case .timestamp:
            dropped.insert("karaoke timestamps")
            return ""
        case .ruby(let base, _, _):
            dropped.insert("ruby text")
            return base.map { span($0, dropped: &dropped) }.joined()
        case .text(let text, let style):
            guard !text.isEmpty else { return "" }
            let styles = attributes(style, dropped: &dropped)
            return styles.isEmpty ? escape(text) : "<span " + styles.joined(separator: " ") + ">" + escape(text) + "</span>"
        }
    }

    /// A run style's TTML attributes, in a fixed order.
    static func attributes(_ style: CueStyle, dropped: inout Set<String>) -> [String] {
        var out: [String] = []
        if style.italic { out.append("tts:fontStyle=\"italic\"") }
        if style.bold { out.append("tts:fontWeight=\"bold\"") }
        if style.underline { out.append("tts:textDecoration=\"underline\"") }
        if let colour = style.colour { out.append("tts:color=\"\(colour)\"") }
        if let background = style.background { out.append("tts:backgroundColor=\"\(background)\"") }
        if let family = style.fontFamily, !family.isEmpty { out.append("tts:fontFamily=\"\(escape(family))\"") }
        if let size = style.fontSize {
            // IMSC1 §7.2 (#fontSize-anamorphic prohibited): one length, and no pixels without a root extent.
            if size.split(separator: " ").count == 1, !size.hasSuffix("px") {
                out.append("tts:fontSize=\"\(escape(size))\"")
            } else {
                dropped.insert("font size \(size)")
            }
        }
        if let outline = style.textOutline {
            // IMSC1 §7.2 (#textOutline-blurred prohibited): a colour and a thickness at most, no pixels.
            if outline.split(separator: " ").count <= 2, !outline.contains("px") {
                out.append("tts:textOutline=\"\(escape(outline))\"")
            } else {
                dropped.insert("text outline \(outline)")
            }
        }
        if let language = style.language { out.append("xml:lang=\"\(escape(language))\"") }
        if style.voice != nil { dropped.insert("voice names") }
        for name in style.classes { dropped.insert("class .\(name)") }
        return out
    }

    /// `text` with the characters XML gives meaning to escaped (an attribute value's quote too).
    static func escape(_ text: String) -> String {
        CueText.escaped(text).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
