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
    ///
    /// One pass over the lines, holding only the cue being read: a cue's text runs from its
    /// timing line to the next line that is, or tries to be, a timing line.
    package static func parse(_ text: String) -> (cues: [Cue], warnings: [IngestWarning]) {
        var text = text
        var reader = Reader(expectedCues: text.withUTF8 { arrowCount($0) })
        reader.read(text, isFirst: true, isLast: true)
        return reader.finish()
    }

    /// Reads a file a piece at a time, so that a large file is never held whole: the cues are
    /// those ``parse(_:)`` gives for the pieces joined.
    ///
    /// Every piece but the last ends with a line break (LF, or a CR whose next byte is not LF),
    /// and the last is read even when empty.
    package struct Reader {
        private var cues = CueReader()
        private var number = 0

        /// A reader whose cue list is sized once for `expectedCues` (``arrowCount(_:)`` of the file).
        package init(expectedCues: Int) {
            cues.cues.reserveCapacity(expectedCues)
        }

        /// Reads the lines of `piece`; the first piece may start with a byte order mark.
        package mutating func read(_ piece: String, isFirst: Bool, isLast: Bool) {
            var piece = piece
            piece.withUTF8 { read(bytes: $0, isFirst: isFirst, isLast: isLast) }
        }

        /// Reads the lines of `piece` (UTF-8; an invalid sequence becomes U+FFFD in the cue it is
        /// in), on its bytes: a line is a range of the piece, copied only into the cue it belongs to.
        package mutating func read(bytes piece: UnsafeBufferPointer<UInt8>, isFirst: Bool, isLast: Bool) {
            var start = 0
            if isFirst, piece.count >= 3, piece[0] == 0xEF, piece[1] == 0xBB, piece[2] == 0xBF { start = 3 }
            let end = piece.count
            while true {
                // The next line: up to LF, CR or CRLF, or the end of the piece.
                var i = start
                while i < end, piece[i] != 0x0A, piece[i] != 0x0D { i += 1 }
                let line = UnsafeBufferPointer(rebasing: piece[start..<i])
                let atEnd = i == end
                // A piece that ends with its line break splits an empty last line off; it is not one.
                if atEnd && !isLast && line.isEmpty { break }
                number += 1
                if SubRipParser.containsArrow(line, dashes: 1) {
                    let timing = Timing.parse(line).map { Timing(start: $0.0, end: $0.1) }
                    if timing != nil || SubRipParser.containsArrow(line, dashes: 2) {
                        cues.finishCue(followedByAnother: true)
                        cues.begin(number: number, line: line, timing: timing)
                        if atEnd { break }
                        start = i + (piece[i] == 0x0D && i + 1 < end && piece[i + 1] == 0x0A ? 2 : 1)
                        continue
                    }
                }
                cues.add(line)
                if atEnd { break }
                start = i + (piece[i] == 0x0D && i + 1 < end && piece[i + 1] == 0x0A ? 2 : 1)
            }
        }

        /// The cues, sorted by start time, and what was skipped; the reader is left empty.
        package mutating func finish() -> (cues: [Cue], warnings: [IngestWarning]) {
            cues.finishCue(followedByAnother: false)
            // Taken out, not copied: a reader captured by a closure is not consumed, and a second
            // reference would copy the list at its next change.
            var (cues, warnings): ([Cue], [IngestWarning]) = ([], [])
            swap(&cues, &self.cues.cues)
            swap(&warnings, &self.cues.warnings)
            if cues.sortByStart() {
                warnings.append(IngestWarning(kind: .cuesReordered, line: nil, "cues were out of order and have been sorted by start time"))
            }
            return (cues, warnings)
        }
    }

    /// Whether `line` holds `dashes` or more `-` followed by `>` (`->` and `-->`).
    static func containsArrow(_ line: UnsafeBufferPointer<UInt8>, dashes needed: Int) -> Bool {
        var dashes = 0
        for byte in line {
            if byte == 0x2D {
                dashes += 1
            } else {
                if byte == 0x3E && dashes >= needed { return true }
                dashes = 0
            }
        }
        return false
    }

    /// How many times `-->` occurs: at least the number of cues (to size the list once).
    package static func arrowCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var dashes = 0
        for byte in bytes {
            if byte == 0x2D {
                dashes += 1
            } else {
                if byte == 0x3E && dashes >= 2 { count += 1 }
                dashes = 0
            }
        }
        return count
    }

    /// The cues read so far, and the one being read: its timing line and the text lines after it.
    ///
    /// Works on bytes: lines come as ranges of the piece being read and are copied once, into the
    /// two-line tail and then the cue's body; a cue's text is decoded once, at its size.
    struct CueReader {
        var cues: [Cue] = []
        var warnings: [IngestWarning] = []
        /// The cue being read: its timing line's 1-based number and timing, and (for a warning,
        /// when the timing did not parse) the line itself.
        var current: (number: Int, timing: Timing?, line: [UInt8])?
        /// The cue's non-blank text lines before the last two, joined with LF, trailing spaces
        /// trimmed (kept between cues, so that a cue's text is made once, at its size).
        var body: [UInt8] = []
        /// The last two lines (blank or not), oldest first: the next cue's counter may be among them.
        var tail: [[UInt8]] = [[], []]
        var tailCount = 0

        mutating func begin(number: Int, line: UnsafeBufferPointer<UInt8>, timing: Timing?) {
            current = (number, timing, timing == nil ? Array(line) : [])
        }

        mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
            guard current != nil else { return }
            if tailCount == 2 {
                append(tail[0])
                tail.swapAt(0, 1)
                tailCount = 1
            }
            tail[tailCount].removeAll(keepingCapacity: true)
            tail[tailCount].append(contentsOf: line)
            tailCount += 1
        }

        private mutating func append(_ line: [UInt8]) {
            guard !SubRipParser.isBlank(line) else { return }
            if !body.isEmpty { body.append(0x0A) }
            body.append(contentsOf: line[..<SubRipParser.trimmedEnd(line)])
        }

        /// Ends the cue being read; `followedByAnother`: a timing line follows, whose counter,
        /// directly above it, is not this cue's text: a line of digits, or any line after a blank
        /// line (a wrong or garbled counter).
        mutating func finishCue(followedByAnother: Bool) {
            guard let (number, timing, line) = current else { return }
            defer {
                current = nil
                body.removeAll(keepingCapacity: true)
                tailCount = 0
            }
            if followedByAnother, tailCount > 0 {
                let candidate = tail[tailCount - 1]
                let afterBlank = tailCount == 2 && SubRipParser.isBlank(tail[0])
                if SubRipParser.isCounter(candidate) || (afterBlank && !SubRipParser.isBlank(candidate)) { tailCount -= 1 }
            }
            guard let timing else {
                let text = String(decoding: line, as: UTF8.self)
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: number,
                        "cue skipped: \"\(text.prefix(60))\" is not a SubRip timing line (hh:mm:ss,mmm --> hh:mm:ss,mmm)"))
                return
            }
            guard timing.end > timing.start else {
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: number,
                        "cue skipped: its end (\(WebVTTTimestamp.format(timing.end))) is not after its start (\(WebVTTTimestamp.format(timing.start)))"))
                return
            }
            var textLines = 0
            var lastTextLine = -1
            for t in 0..<tailCount where !SubRipParser.isBlank(tail[t]) {
                textLines += 1
                lastTextLine = t
            }
            let text: String
            let plain: Bool
            if body.isEmpty && textLines == 1 {
                // One line: its text straight from the line, copied once.
                let only = tail[lastTextLine]
                let trimmed = only[..<SubRipParser.trimmedEnd(only)]
                plain = trimmed.withUnsafeBufferPointer { SubRipParser.isPlain($0) }
                text = String(decoding: trimmed, as: UTF8.self)
            } else {
                for t in 0..<tailCount { append(tail[t]) }
                guard !body.isEmpty else {
                    warnings.append(IngestWarning(kind: .emptyCue, line: number, "cue has no text; skipped"))
                    return
                }
                plain = body.withUnsafeBufferPointer { SubRipParser.isPlain($0) }
                text = String(decoding: body, as: UTF8.self)
            }
            if plain {
                // Nothing for the markup conversion, the repair or the sanitising to change, and
                // every line (none blank) shows.
                cues.append(Cue(start: timing.start, end: timing.end, text: text, sourceLine: number))
                return
            }
            let (markup, settings) = SubRipMarkup.convert(text)
            let (repaired, _) = CueText.sanitized(markup)
            if !SubRipParser.hasVisibleText(repaired) {
                warnings.append(IngestWarning(kind: .emptyCue, line: number, "cue has no visible text after removing markup; skipped"))
                return
            }
            // Text the markup or the repair rewrote was built by appending: stored at its size.
            cues.append(Cue(start: timing.start, end: timing.end, settings: settings, text: repaired == text ? text : repaired.compacted, sourceLine: number))
        }
    }

    /// Whether cue text of non-blank lines is plain, to be stored as it is.
    ///
    /// Plain: no byte that markup conversion (`<`, `>`, `&`, `{`, backslash), repair or
    /// sanitising (C0 controls but tab and line feed, DEL) would look at. One pass over the bytes;
    /// most cues are plain.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            switch byte {
            case 0x3C, 0x3E, 0x26, 0x7B, 0x5C, 0x7F: return false
            case 0x09, 0x0A: continue
            case 0x00..<0x20: return false
            default: continue
            }
        }
        return true
    }

    /// Whether the line holds only spaces and tabs (compared on bytes: a space or tab cannot
    /// start a grapheme cluster that holds anything else).
    static func isBlank(_ line: [UInt8]) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Where `line` ends without its trailing spaces and tabs.
    static func trimmedEnd(_ line: [UInt8]) -> Int {
        var end = line.count
        while end > 0, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        return end
    }

    static func isCounter(_ line: [UInt8]) -> Bool {
        var sawDigit = false
        var trailing = false
        for byte in line {
            switch byte {
            case 0x30...0x39:
                if trailing { return false }
                sawDigit = true
            case 0x20, 0x09: if sawDigit { trailing = true }
            default: return false
            }
        }
        return sawDigit
    }

    /// Whether a viewer would see anything of the cue text: plain text is checked on bytes, text
    /// with tags or character references through the WebVTT tokenizer.
    static func hasVisibleText(_ text: String) -> Bool {
        // Outside tags (`<` to `>`, as the WebVTT tokenizer reads them) any byte but white space
        // shows; a character reference (`&Tab;`) must be decoded to tell.
        var inTag = false
        for byte in text.utf8 {
            switch byte {
            case 0x3C: inTag = true
            case 0x3E where inTag: inTag = false
            case _ where inTag: continue
            case 0x20, 0x0A, 0x09: continue
            case 0x26: return !CueText.plainText(text).allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" }
            default: return true
            }
        }
        return false
    }

    /// A SubRip timing line: `start --> end` and anything after it.
    struct Timing {
        let start: MediaTime
        let end: MediaTime

        init(start: MediaTime, end: MediaTime) {
            self.start = start
            self.end = end
        }

        /// The start and end of a timing line's UTF-8 bytes.
        static func parse<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes) -> (MediaTime, MediaTime)? where Bytes.Index == Int {
            var i = s.startIndex
            func skipSpaces() { while i < s.endIndex, s[i] == 0x20 || s[i] == 0x09 { i += 1 } }
            skipSpaces()
            guard let start = timestamp(s, &i) else { return nil }
            skipSpaces()
            // `-->`, or `->`, `--->`: one or more dashes then `>`.
            var dashes = 0
            while i < s.endIndex, s[i] == 0x2D { dashes += 1; i += 1 }
            guard dashes >= 1, i < s.endIndex, s[i] == 0x3E else { return nil }
            i += 1
            skipSpaces()
            guard let end = timestamp(s, &i) else { return nil }
            // Whatever follows (X1:… coordinates) is ignored, but it must be separated.
            guard i == s.endIndex || s[i] == 0x20 || s[i] == 0x09 else { return nil }
            return (start, end)
        }

        /// `[h:]m:s[,.:]f` with one or more digits per field; the fraction is a decimal fraction
        /// of a second (`1,5` is 1.500 s), read to the millisecond.
        static func timestamp<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes, _ i: inout Int) -> MediaTime? where Bytes.Index == Int {
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            // Up to three fields, held in place (no allocation per timestamp).
            var fields: (Int64, Int64, Int64) = (0, 0, 0)
            var count = 0
            while true {
                let start = i
                var value: Int64 = 0
                // At most ten digits a field: no overflow, and longer runs are not a timestamp.
                while i < s.endIndex, isDigit(s[i]), i - start < 10 {
                    value = value * 10 + Int64(s[i] - 0x30)
                    i += 1
                }
                guard i > start else { return nil }
                switch count {
                case 0: fields.0 = value
                case 1: fields.1 = value
                default: fields.2 = value
                }
                count += 1
                guard count < 3 else { break }
                guard i < s.endIndex, s[i] == 0x3A else {
                    if count == 2, i < s.endIndex, s[i] == 0x2C || s[i] == 0x2E { break }
                    return nil
                }
                i += 1
            }
            guard i < s.endIndex, s[i] == 0x2C || s[i] == 0x2E || s[i] == 0x3A else { return nil }
            i += 1
            let fractionStart = i
            var ms: Int64 = 0
            while i < s.endIndex, isDigit(s[i]) {
                // Read to the millisecond: `5` is 500, `05` is 50, digits past the third are dropped.
                if i - fractionStart < 3 { ms = ms * 10 + Int64(s[i] - 0x30) }
                i += 1
            }
            guard i > fractionStart else { return nil }
            for _ in min(i - fractionStart, 3)..<3 { ms *= 10 }
            let (h, m, sec) = count == 3 ? fields : (0, fields.0, fields.1)
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
        // On UTF-8 bytes: every character the conversion looks at is ASCII, so other text is
        // copied byte for byte. Each position is looked at a bounded number of times (the next
        // `>` and `}` are remembered, a tag's name is read only as far as it can match), so a
        // hostile cue of a million `<` is linear, not quadratic.
        let s = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.count + 16)
        var settings = CueSettings()
        var fontStack: [Bool] = []  // whether each open <font> emitted <c.…>
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
                switch tag {
                case .open(let name): out += Array("<\(name)>".utf8)
                case .close(let name): out += Array("</\(name)>".utf8)
                case .fontOpen(let colour):
                    if let colour, let cls = colourClasses[colour] {
                        out += Array("<c.\(cls)>".utf8)
                        fontStack.append(true)
                    } else {
                        fontStack.append(false)
                    }
                case .fontClose:
                    if let emitted = fontStack.popLast(), emitted { out += Array("</c>".utf8) }
                }
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
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            default: out.append(c)
            }
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), settings)
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
            if length == 1, let letter = ["i", "b", "u"].first(where: { $0.utf8.first == lower(s[name]) }) {
                self = isEnd ? .close(letter) : .open(letter)
                return
            }
            let font = Array("font".utf8)
            guard length >= 4, (0..<4).allSatisfy({ lower(s[name + $0]) == font[$0] }) else { return nil }
            if isEnd {
                guard length == 4 else { return nil }
                self = .fontClose
                return
            }
            guard length == 4 || s[name + 4] == 0x20 || s[name + 4] == 0x09 else { return nil }
            let content = String(decoding: s[name..<trimmedEnd], as: UTF8.self).lowercased()
            self = .fontOpen(colour: Tag.attribute("color", in: content))
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
