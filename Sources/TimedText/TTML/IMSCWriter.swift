import Foundation
import Timebase

/// Writes cues as an IMSC1 Text Profile document (TTML, W3C IMSC 1.0.1): one sample of an IMSC1
/// track in fragmented MP4, or a whole file.
///
/// Cue text (WebVTT cue text) becomes spans: `<i>`, `<b>`, `<u>` their `tts:` styles, the WebVTT
/// colour classes (`.yellow`, `.bg_black`) `tts:color` and `tts:backgroundColor`, `<lang>` an
/// `xml:lang` span, line breaks `<br/>`. Placement becomes a region per distinct placement
/// (`line` as the region's top or bottom edge, `position` and `size` as its sides, `vertical` its
/// writing mode) and `align` the paragraph's `tts:textAlign`. What TTML here cannot say is
/// dropped and named in ``Document/dropped``: other classes, voice names, ruby text, karaoke
/// timestamps.
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
            let (attributes, regionNote) = region(item.cue.settings)
            if let regionNote { dropped.insert(regionNote) }
            let id: String
            if let known = regions[attributes] {
                id = known
            } else {
                id = "r\(regionOrder.count + 1)"
                regions[attributes] = id
                regionOrder.append(attributes)
            }
            let align = item.cue.settings.align.map { " tts:textAlign=\"\($0.rawValue)\"" } ?? ""
            let text = spans(item.cue.text, dropped: &dropped)
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

    /// What a document of `cue` would drop (``Document/dropped``), without writing one.
    package static func dropped(_ cue: Cue) -> Set<String> {
        var dropped: Set<String> = []
        _ = spans(cue.text, dropped: &dropped)
        if let note = region(cue.settings).1 { dropped.insert(note) }
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

    /// The WebVTT text colours (WebVTT §7.3 default classes) and their TTML values.
    static let colours: [String: String] = [
        "white": "#ffffff", "lime": "#00ff00", "cyan": "#00ffff", "red": "#ff0000", "yellow": "#ffff00", "magenta": "#ff00ff",
        "blue": "#0000ff", "black": "#000000",
    ]

    /// WebVTT cue text as TTML paragraph content.
    static func spans(_ text: String, dropped: inout Set<String>) -> String {
        var tokenizer = CueText.Tokenizer(Array(text.unicodeScalars))
        var out = ""
        // Each open WebVTT element: its name, and whether it wrote a span.
        var open: [(name: String, span: Bool)] = []
        var inRubyText = false
        while let token = tokenizer.next() {
            switch token {
            case .text(let t):
                if inRubyText { continue }
                let lines = CueText.decodeReferences(t).split(separator: "\n", omittingEmptySubsequences: false)
                out += lines.map { escape(String($0)) }.joined(separator: "<br/>")
            case .start(let name, let classes, let annotation):
                var styles: [String] = []
                switch name {
                case "i": styles.append("tts:fontStyle=\"italic\"")
                case "b": styles.append("tts:fontWeight=\"bold\"")
                case "u": styles.append("tts:textDecoration=\"underline\"")
                case "lang":
                    let tag = annotation.split(separator: " ").first.map(String.init) ?? ""
                    if !tag.isEmpty { styles.append("xml:lang=\"\(escape(tag))\"") }
                case "v": dropped.insert("voice names")
                case "ruby": break
                case "rt":
                    dropped.insert("ruby text")
                    inRubyText = true
                case "c": break
                default: continue
                }
                for c in classes {
                    if let colour = colours[c] {
                        styles.append("tts:color=\"\(colour)\"")
                    } else if c.hasPrefix("bg_"), let colour = colours[String(c.dropFirst(3))] {
                        styles.append("tts:backgroundColor=\"\(colour)\"")
                    } else {
                        dropped.insert("class .\(c)")
                    }
                }
                let span = !styles.isEmpty
                if span { out += "<span " + styles.joined(separator: " ") + ">" }
                open.append((name, span))
            case .end(let name):
                guard let index = open.lastIndex(where: { $0.name == name }) else { continue }
                for element in open[index...].reversed() where element.span { out += "</span>" }
                if open[index...].contains(where: { $0.name == "rt" }) { inRubyText = false }
                open.removeSubrange(index...)
            case .timestamp:
                dropped.insert("karaoke timestamps")
            }
        }
        for element in open.reversed() where element.span { out += "</span>" }
        return out
    }

    /// `text` with the characters XML gives meaning to escaped (an attribute value's quote too).
    static func escape(_ text: String) -> String {
        CueText.escaped(text).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
