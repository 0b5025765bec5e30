import Timebase

/// SubRip (`.srt`) as found in the wild, read into WebVTT cues.
///
/// Tolerates what real files do: missing or wrong counters, missing blank lines between cues,
/// blank lines inside cue text (removed: a WebVTT cue cannot contain one), `.` or `:` instead of
/// `,` before the milliseconds, one or two digit fields, `-->` without spaces or with extra
/// dashes, display coordinates after the timing (`X1:… Y2:…`, ignored), trailing spaces, no
/// final newline, cues out of order (sorted, stable) and overlapping cues (kept).
///
/// Markup: `<i>`, `<b>`, `<u>` (any case) become WebVTT's; `<font color=…>` becomes a WebVTT
/// colour class (`<c.yellow>`) when the colour is one of WebVTT's eight default colours (white,
/// lime, cyan, red, yellow, magenta, blue, black, by name or hex) and is dropped otherwise, keeping
/// its text; other `<font>` attributes are dropped; any other tag (`<s>`, `<invalid_tag>`, a stray
/// `</x>`) is hidden, as players hide it; `{\anN}` becomes `line`/`align` settings and other ASS
/// override blocks `{\…}` are stripped; the ASS escapes `\N` and `\n` break the line and `\h` is a
/// no-break space; `&`, `<` and `>` in other text are escaped.
///
/// A cue whose timing line does not parse, or whose end is not after its start, is skipped with a
/// warning naming its line.
package enum SubRipParser {
    /// The cues in `text` (already decoded), sorted by start time, and what was skipped.
    package static func parse(_ text: String) -> (cues: [Cue], warnings: [IngestWarning]) {
        let lines = LineSplitter.lines(text)

        var warnings: [IngestWarning] = []
        // Every line that is a timing line, or tries to be one.
        var timings: [(index: Int, timing: Timing?)] = []
        for (index, line) in lines.enumerated() where line.containsASCII("->") {
            let timing = Timing(parsing: line)
            if timing != nil || line.containsASCII("-->") { timings.append((index, timing)) }
        }

        var cues: [Cue] = []
        for (k, entry) in timings.enumerated() {
            let lineNumber = entry.index + 1
            var textEnd = k + 1 < timings.count ? timings[k + 1].index : lines.count
            // The next cue's counter, directly above its timing line, is not this cue's text: a line
            // of digits, or any line that follows a blank line (a wrong or garbled counter).
            if k + 1 < timings.count, textEnd - 1 > entry.index {
                let candidate = textEnd - 1
                let afterBlank = candidate - 1 > entry.index && isBlank(lines[candidate - 1])
                if isCounter(lines[candidate]) || (afterBlank && !isBlank(lines[candidate])) { textEnd -= 1 }
            }
            guard let timing = entry.timing else {
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: lineNumber,
                        "cue skipped: \"\(lines[entry.index].prefix(60))\" is not a SubRip timing line (hh:mm:ss,mmm --> hh:mm:ss,mmm)"))
                continue
            }
            guard timing.end > timing.start else {
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: lineNumber,
                        "cue skipped: its end (\(WebVTTTimestamp.format(timing.end))) is not after its start (\(WebVTTTimestamp.format(timing.start)))"))
                continue
            }
            var body = lines[(entry.index + 1)..<max(entry.index + 1, textEnd)].map { $0.trimmingTrailingSpaces }
            body.removeAll { $0.allSatisfy { $0 == " " || $0 == "\t" } }
            guard !body.isEmpty else {
                warnings.append(IngestWarning(kind: .emptyCue, line: lineNumber, "cue has no text; skipped"))
                continue
            }
            let (markup, settings) = SubRipMarkup.convert(body.joined(separator: "\n"))
            let (repaired, _) = CueText.sanitized(markup)
            if CueText.plainText(repaired).allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\t" }) {
                warnings.append(IngestWarning(kind: .emptyCue, line: lineNumber, "cue has no visible text after removing markup; skipped"))
                continue
            }
            cues.append(Cue(start: timing.start, end: timing.end, settings: settings, text: repaired, sourceLine: lineNumber))
        }
        var outOfOrder = false
        for i in cues.indices.dropFirst() where cues[i].start < cues[i - 1].start {
            outOfOrder = true
            break
        }
        if outOfOrder {
            warnings.append(IngestWarning(kind: .cuesReordered, line: nil, "cues were out of order and have been sorted by start time"))
            cues = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        }
        return (cues, warnings)
    }

    static func isBlank(_ line: Substring) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" }
    }

    static func isCounter(_ line: Substring) -> Bool {
        let trimmed = line.trimmingTrailingSpaces.drop { $0 == " " || $0 == "\t" }
        return !trimmed.isEmpty && trimmed.allSatisfy(\.isASCIIDigit)
    }

    /// A SubRip timing line: `start --> end` and anything after it.
    struct Timing {
        let start: MediaTime
        let end: MediaTime

        init?(parsing line: Substring) {
            let scalars = Array(line.unicodeScalars)
            var i = 0
            func skipSpaces() { while i < scalars.count, scalars[i] == " " || scalars[i] == "\t" { i += 1 } }
            skipSpaces()
            guard let start = Timing.timestamp(scalars, &i) else { return nil }
            skipSpaces()
            // `-->`, or `->`, `--->`: one or more dashes then `>`.
            var dashes = 0
            while i < scalars.count, scalars[i] == "-" { dashes += 1; i += 1 }
            guard dashes >= 1, i < scalars.count, scalars[i] == ">" else { return nil }
            i += 1
            skipSpaces()
            guard let end = Timing.timestamp(scalars, &i) else { return nil }
            // Whatever follows (X1:… coordinates) is ignored, but it must be separated.
            guard i == scalars.count || scalars[i] == " " || scalars[i] == "\t" else { return nil }
            self.start = start
            self.end = end
        }

        /// `[h:]m:s[,.:]f` with one or more digits per field; the fraction is a decimal fraction
        /// of a second (`1,5` is 1.500 s), read to the millisecond.
        static func timestamp(_ s: [Unicode.Scalar], _ i: inout Int) -> MediaTime? {
            var fields: [Int64] = []
            var fractionText = ""
            while true {
                let start = i
                while i < s.count, s[i].isASCIIDigit, i - start < 10 { i += 1 }
                guard i > start, let value = Int64(String(String.UnicodeScalarView(s[start..<i]))) else { return nil }
                fields.append(value)
                guard fields.count < 3 else { break }
                guard i < s.count, s[i] == ":" else {
                    if fields.count == 2, i < s.count, s[i] == "," || s[i] == "." { break }
                    return nil
                }
                i += 1
            }
            guard i < s.count, s[i] == "," || s[i] == "." || s[i] == ":" else { return nil }
            i += 1
            let fractionStart = i
            while i < s.count, s[i].isASCIIDigit { i += 1 }
            guard i > fractionStart else { return nil }
            fractionText = String(String.UnicodeScalarView(s[fractionStart..<i]))
            let padded = (fractionText + "000").prefix(3)
            guard let ms = Int64(padded) else { return nil }
            let (h, m, sec) = fields.count == 3 ? (fields[0], fields[1], fields[2]) : (0, fields[0], fields[1])
            guard m < 60, sec < 60 else { return nil }
            return MediaTime(hours: h, minutes: m, seconds: sec, milliseconds: ms)
        }
    }
}

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

    static func convert(_ text: String) -> (String, CueSettings) {
        // Plain text (most cues): nothing to convert or escape.
        if !text.utf8.contains(where: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0x7B || $0 == 0x5C }) {
            return (text, CueSettings())
        }
        var out = ""
        var settings = CueSettings()
        var fontStack: [Bool] = []  // whether each open <font> emitted <c.…>
        let s = Array(text.unicodeScalars)
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "{", i + 1 < s.count, s[i + 1] == "\\", let close = s[i...].firstIndex(of: "}") {
                let block = String(String.UnicodeScalarView(s[(i + 1)..<close]))
                applyOverrides(block, to: &settings)
                i = close + 1
                continue
            }
            if c == "<", let close = s[i...].firstIndex(of: ">"), let tag = Tag(String(String.UnicodeScalarView(s[(i + 1)..<close]))) {
                switch tag {
                case .open(let name): out += "<\(name)>"
                case .close(let name): out += "</\(name)>"
                case .fontOpen(let colour):
                    if let colour, let cls = colourClasses[colour] {
                        out += "<c.\(cls)>"
                        fontStack.append(true)
                    } else {
                        fontStack.append(false)
                    }
                case .fontClose:
                    if let emitted = fontStack.popLast(), emitted { out += "</c>" }
                }
                i = close + 1
                continue
            }
            if c == "<", let close = hiddenTagEnd(s, from: i) {
                // Any other tag (`<s>`, `<invalid_tag>`, a stray `</x>`) is hidden, as players hide it.
                i = close + 1
                continue
            }
            if c == "\\", i + 1 < s.count, let replacement = escapes[s[i + 1]] {
                // ASS escapes that SubRip files carry: `\N` and `\n` break the line, `\h` is a no-break space.
                out += replacement
                i += 2
                continue
            }
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(c)
            }
            i += 1
        }
        return (out, settings)
    }

    /// The ASS escapes players honour in SubRip text.
    static let escapes: [Unicode.Scalar: String] = ["N": "\n", "n": "\n", "h": "\u{00A0}"]

    /// The index of the `>` closing a tag-like `<…>` at `i` (`<` then a letter or `/` and a
    /// letter, no `<` inside, on one line); nil when the `<` is text (`a < b`, `<3`).
    static func hiddenTagEnd(_ s: [Unicode.Scalar], from i: Int) -> Int? {
        var j = i + 1
        if j < s.count, s[j] == "/" { j += 1 }
        guard j < s.count, s[j].properties.isAlphabetic, s[j].isASCII else { return nil }
        while j < s.count {
            switch s[j] {
            case ">": return j
            case "<", "\n", "\r": return nil
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

        init?(_ inner: String) {
            let trimmed = inner.trimming([" ", "\t"]).lowercased()
            if trimmed.hasPrefix("/") {
                let name = String(trimmed.dropFirst().trimming([" ", "\t"]))
                if ["i", "b", "u"].contains(name) { self = .close(name); return }
                if name == "font" { self = .fontClose; return }
                return nil
            }
            if ["i", "b", "u"].contains(trimmed) { self = .open(trimmed); return }
            guard trimmed == "font" || trimmed.hasPrefix("font ") || trimmed.hasPrefix("font\t") else { return nil }
            self = .fontOpen(colour: Tag.attribute("color", in: trimmed))
            return
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

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" { s = s.dropLast() }
        return s
    }
}
