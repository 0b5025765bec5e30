import Timebase

/// SubRip text markup to WebVTT cue text and settings.
enum SubRipMarkup {
    /// WebVTT's default colour classes (W3C WebVTT §7.3 "default text colour") and the colours they are.
    static let colourClasses: [String: String] = [
        "white": "white", "#ffffff": "white", "#fff": "white",
        "lime": "lime", "#00ff00": "lime", "#0f0": "lime",
        "cyan": "cyan", "aqua": "cyan", "#00ffff": "cyan", "#0ff": "cyan",
        "red": "red", "#ff0000": "red", "#f00": "red",
        "yellow": "yellow", "#ffff00": "yellow", "#ff0": "yellow",
        "magenta": "magenta", "fuchsia": "magenta", "#ff00ff": "magenta", "#f0f": "magenta",
        "blue": "blue", "#0000ff": "blue", "#00f": "blue",
        "black": "black", "#000000": "black", "#000": "black",
    ]

    /// `text` as WebVTT cue text and settings, and whether a `<font color>` in it is a colour
    /// WebVTT has no class for (``content(_:)`` keeps it).
    static func convert(_ text: String) -> (String, CueSettings, otherColours: Bool) {
        convert(text, keepingColours: false)
    }

    /// The content of `text` when it says more than its WebVTT text can (a `<font color>` that
    /// is not one of WebVTT's eight colours), else nil.
    static func content(_ text: String) -> CueContent? {
        guard text.utf8.contains(0x3C) else { return nil }
        // Sanitised as the cue's text is (control characters, blank lines), so both say the same words.
        let marked = CueText.sanitized(convert(text, keepingColours: true).0).text
        guard marked.contains("<c.\(otherColourPrefix)") else { return nil }
        var content = CueContent(webVTT: marked)
        func recoloured(_ run: CueRun) -> CueRun {
            switch run {
            case .text(let text, var style):
                if let name = style.classes.first(where: { $0.hasPrefix(otherColourPrefix) }) {
                    style.colour = CueColour("#" + name.dropFirst(otherColourPrefix.count))
                    style.classes.removeAll { $0.hasPrefix(otherColourPrefix) }
                }
                return .text(text, style)
            case .ruby(let base, let annotation, let position):
                return .ruby(base: base.map(recoloured), annotation: annotation.map(recoloured), position: position)
            case .timestamp:
                return run
            }
        }
        content.lines = content.lines.map { $0.map(recoloured) }
        return content
    }

    /// The cue text of `bytes` (non-blank lines joined with LF) when its only markup is
    /// `<i>`, `<b>` and `<u>` tags (any case) nested and closed, `&` and `>`; else nil.
    ///
    /// What ``convert(_:)``, then ``CueText/sanitized(_:)`` make of such text, made in one pass
    /// over the bytes and one allocation: the tags lower-cased, `&` and `>` escaped, nothing for
    /// the repair to change. Nil for anything else (`{`, backslash, another tag or a lone `<`,
    /// tags crossed or left open, control characters, a blank line, no visible text), which the
    /// full conversion takes. Most marked-up SubRip cues are italics.
    static func simpleMarkup(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        // The tags open, innermost in the low byte (eight deep at most).
        var open: UInt64 = 0
        var depth = 0
        var extra = 0
        var visible = false
        var lineHasText = false
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            switch byte {
            case 0x3C:
                let closing = i + 1 < count && bytes[i + 1] == 0x2F
                let at = closing ? i + 2 : i + 1
                guard at + 1 < count, bytes[at + 1] == 0x3E else { return nil }
                let name = bytes[at] | 0x20
                guard name == 0x69 || name == 0x62 || name == 0x75 else { return nil }
                if closing {
                    guard depth > 0, UInt8(truncatingIfNeeded: open) == name else { return nil }
                    open >>= 8
                    depth -= 1
                } else {
                    guard depth < 8 else { return nil }
                    open = open << 8 | UInt64(name)
                    depth += 1
                }
                lineHasText = true
                i = at + 2
                continue
            case 0x26: extra += 4
            case 0x3E: extra += 3
            case 0x0A:
                guard lineHasText else { return nil }
                lineHasText = false
                i += 1
                continue
            case 0x20, 0x09:
                i += 1
                continue
            case 0x7B, 0x5C, 0x7F, 0x00..<0x20: return nil
            default: break
            }
            visible = true
            lineHasText = true
            i += 1
        }
        guard depth == 0, visible, lineHasText else { return nil }
        return String(unsafeUninitializedCapacity: count + extra) { out in
            var o = 0
            var i = 0
            while i < count {
                let byte = bytes[i]
                switch byte {
                case 0x3C:
                    // A tag checked above: `<x>` or `</x>`, its letter lower-cased.
                    out[o] = 0x3C
                    o += 1
                    i += 1
                    if bytes[i] == 0x2F {
                        out[o] = 0x2F
                        o += 1
                        i += 1
                    }
                    out[o] = bytes[i] | 0x20
                    out[o + 1] = 0x3E
                    o += 2
                    i += 2
                    continue
                case 0x26:
                    for b in "&amp;".utf8 {
                        out[o] = b
                        o += 1
                    }
                case 0x3E:
                    for b in "&gt;".utf8 {
                        out[o] = b
                        o += 1
                    }
                default:
                    out[o] = byte
                    o += 1
                }
                i += 1
            }
            return o
        }
    }

    /// The class that marks, while the content is made, a colour WebVTT has no class for.
    static let otherColourPrefix = "subweavergb"

    /// `convert`; with `keepingColours`, a `<font color>` WebVTT has no class for is written as a
    /// `<c.subweavergbRRGGBBAA>` class for ``content(_:)`` to read.
    static func convert(_ text: String, keepingColours: Bool) -> (String, CueSettings, otherColours: Bool) {
        // Plain text (most cues): nothing to convert or escape.
        if !text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x7B || $0 == 0x5C }) {
            return (text, CueSettings(), false)
        }
        // On UTF-8 bytes: every character the conversion looks at is ASCII, so other text is
        // copied byte for byte. Each position is looked at a bounded number of times (the next
        // `>` and `}` are remembered, a tag's name is read only as far as it can match), so a
        // hostile cue of a million `<` is linear, not quadratic.
        let s = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.count + 16)
        var settings = CueSettings()
        var fontStack: [Bool] = []  // whether each open <font> emitted <c.…>
        var otherColours = false
        var nextGreater = NextIndex<UInt8>(0x3E)
        var nextBrace = NextIndex<UInt8>(0x7D)
        var trimmedEnds = TrimmedEnd()
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == 0x7B, i + 1 < s.count, s[i + 1] == 0x5C, let close = nextBrace.find(in: s, from: i) {
                applyOverrides(String(decoding: s[(i + 1)..<close], as: UTF8.self), to: &settings)
                i = close + 1
                continue
            }
            if c == 0x3C, let close = nextGreater.find(in: s, from: i),
                let tag = Tag(s, inner: (i + 1)..<close, trimmedEnd: trimmedEnds.end(of: s, before: close, from: i + 1))
            {
                write(tag, to: &out, fontStack: &fontStack, keepingColours: keepingColours, otherColours: &otherColours)
                i = close + 1
                continue
            }
            if c == 0x3C, let close = hiddenTagEnd(s, from: i) {
                // Any other tag (`<s>`, `<invalid_tag>`, a stray `</x>`) is hidden, as players hide it.
                i = close + 1
                continue
            }
            if c == 0x5C, i + 1 < s.count, let replacement = escapes[s[i + 1]] {
                // ASS escapes that SubRip files carry: `\N` and `\n` break the line, `\h` is a no-break space.
                out += replacement
                i += 2
                continue
            }
            switch c {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            default: out.append(c)
            }
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), settings, otherColours)
    }

    /// Writes a recognised tag as WebVTT: `<font color>` as a colour class when it is one of
    /// WebVTT's, remembered in `fontStack` so that its `</font>` closes what it opened; another
    /// colour sets `otherColours`.
    private static func write(_ tag: Tag, to out: inout [UInt8], fontStack: inout [Bool], keepingColours: Bool, otherColours: inout Bool) {
        switch tag {
        case .open(let name):
            out.append(0x3C)
            out.append(contentsOf: name.utf8)
            out.append(0x3E)
        case .close(let name):
            out.append(contentsOf: "</".utf8)
            out.append(contentsOf: name.utf8)
            out.append(0x3E)
        case .fontOpen(let colour):
            if let colour, let cls = colourClasses[colour] {
                out += Array("<c.\(cls)>".utf8)
                fontStack.append(true)
            } else if let colour, let other = CueColour(colour) {
                otherColours = true
                guard keepingColours else {
                    fontStack.append(false)
                    return
                }
                let hex = String(other.description.dropFirst()) + (other.alpha == 255 ? "ff" : "")
                out += Array("<c.\(otherColourPrefix)\(hex)>".utf8)
                fontStack.append(true)
            } else {
                fontStack.append(false)
            }
        case .fontClose:
            if let emitted = fontStack.popLast(), emitted { out += Array("</c>".utf8) }
        }
    }

    /// Where a tag's content ends once trailing spaces and tabs are trimmed, found once per `>`.
    struct TrimmedEnd {
        private var close = -1
        private var end = 0

        mutating func end(of s: [UInt8], before close: Int, from start: Int) -> Int {
            if close != self.close {
                var e = close
                while e > 0, s[e - 1] == 0x20 || s[e - 1] == 0x09 { e -= 1 }
                self.close = close
                end = e
            }
            return max(start, end)
        }
    }

    /// The ASS escapes players honour in SubRip text.
    static let escapes: [UInt8: [UInt8]] = [0x4E: [0x0A], 0x6E: [0x0A], 0x68: Array("\u{00A0}".utf8)]

    /// The index of the `>` closing a tag-like `<…>` at `i` (`<` then a letter or `/` and a
    /// letter, no `<` inside, on one line); nil when the `<` is text (`a < b`, `<3`).
    static func hiddenTagEnd(_ s: [UInt8], from i: Int) -> Int? {
        var j = i + 1
        if j < s.count, s[j] == 0x2F { j += 1 }
        guard j < s.count, (0x41...0x5A).contains(s[j]) || (0x61...0x7A).contains(s[j]) else { return nil }
        while j < s.count {
            switch s[j] {
            case 0x3E: return j
            case 0x3C, 0x0A, 0x0D: return nil
            default: j += 1
            }
        }
        return nil
    }

    enum Tag {
        case open(String)
        case close(String)
        case fontOpen(colour: String?)
        case fontClose

        /// The tag whose content is `inner` of `s` (trailing spaces and tabs end at `trimmedEnd`).
        ///
        /// A tag is `i`, `b`, `u` or `font` (any case) after optional spaces and tabs, with `/`
        /// before the name for an end tag and attributes after `font `. Read only as far as a
        /// name can match, so a long content that is no tag costs a few bytes.
        init?(_ s: [UInt8], inner: Range<Int>, trimmedEnd: Int) {
            var start = inner.lowerBound
            while start < trimmedEnd, s[start] == 0x20 || s[start] == 0x09 { start += 1 }
            guard start < trimmedEnd else { return nil }
            func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b | 0x20 : b }
            let isEnd = s[start] == 0x2F
            var name = start
            if isEnd {
                name += 1
                while name < trimmedEnd, s[name] == 0x20 || s[name] == 0x09 { name += 1 }
            }
            let length = trimmedEnd - name
            if length == 1, let letter = Self.styleName(lower(s[name])) {
                self = isEnd ? .close(letter) : .open(letter)
                return
            }
            guard length >= 4, (0..<4).allSatisfy({ lower(s[name + $0]) == Self.font[$0] }) else { return nil }
            if isEnd {
                guard length == 4 else { return nil }
                self = .fontClose
                return
            }
            guard length == 4 || s[name + 4] == 0x20 || s[name + 4] == 0x09 else { return nil }
            let content = String(decoding: s[name..<trimmedEnd], as: UTF8.self).lowercased()
            self = .fontOpen(colour: Tag.attribute("color", in: content))
        }

        /// `font`, as the bytes a tag's name is compared with.
        private static let font = Array("font".utf8)

        /// The style tag named by the lower-case letter `letter` (`i`, `b`, `u`), else nil.
        private static func styleName(_ letter: UInt8) -> String? {
            switch letter {
            case 0x69: return "i"
            case 0x62: return "b"
            case 0x75: return "u"
            default: return nil
            }
        }

        /// The value of `name=value`, `name="value"` or `name='value'` in a lower-cased tag.
        static func attribute(_ name: String, in tag: String) -> String? {
            let chars = Array(tag)
            let key = Array(name)
            var i = 0
            while i + key.count <= chars.count {
                guard Array(chars[i..<(i + key.count)]) == key else { i += 1; continue }
                var j = i + key.count
                while j < chars.count, chars[j] == " " { j += 1 }
                guard j < chars.count, chars[j] == "=" else { i += 1; continue }
                j += 1
                while j < chars.count, chars[j] == " " { j += 1 }
                var quote: Character?
                if j < chars.count, chars[j] == "\"" || chars[j] == "'" { quote = chars[j]; j += 1 }
                var value = ""
                while j < chars.count {
                    let c = chars[j]
                    if let quote, c == quote { break }
                    if quote == nil, c == " " || c == "\t" { break }
                    value.append(c)
                    j += 1
                }
                return value
            }
            return nil
        }
    }

    /// `{\an7}` etc.: numpad positions (1 bottom-left … 9 top-right).
    static func applyOverrides(_ block: String, to settings: inout CueSettings) {
        for part in block.split(separator: "\\") where part.hasPrefix("an") {
            guard let n = Int(part.dropFirst(2)), (1...9).contains(n) else { continue }
            switch n {
            case 7, 8, 9:
                settings.line = .number("0")
                settings.lineAlign = nil
            case 4, 5, 6:
                settings.line = .percentage("50")
                settings.lineAlign = .center
            default:
                settings.line = nil
                settings.lineAlign = nil
            }
            switch n {
            case 1, 4, 7: settings.align = .start
            case 3, 6, 9: settings.align = .end
            default: settings.align = nil
            }
        }
    }
}
