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
        return text.withUTF8 { bytes in
            var reader = Reader(expectedCues: arrowCount(bytes))
            // The text outlives the reading: long lines are kept as ranges of it, not copied (a
            // cue of one giant line costs its text once more, not twice).
            reader.cues.source = bytes
            reader.read(bytes: bytes, isFirst: true, isLast: true)
            let read = reader.finish()
            return read
        }
    }

    /// Reads a file a piece at a time, so that a large file is never held whole: the cues are
    /// those ``parse(_:)`` gives for the pieces joined.
    ///
    /// Every piece but the last ends with a line break (LF, or a CR whose next byte is not LF),
    /// and the last is read even when empty.
    package struct Reader {
        fileprivate var cues = CueReader()
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
                // Past the words without a line break (or another control byte), then a byte at a time.
                i = ByteWords.firstWord(in: piece, from: i, withByteBelow: 0x0E)
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
    ///
    /// Asked of every line: the words without a `-` or `>` (most of a cue's text) are passed
    /// eight bytes at a time.
    static func containsArrow(_ line: UnsafeBufferPointer<UInt8>, dashes needed: Int) -> Bool {
        var dashes = 0
        var i = 0
        while i < line.count {
            let word = ByteWords.firstWord(in: line, from: i, withByteBelow: 1, or: 0x3E, 0x2D)
            if word > i { dashes = 0 }
            i = word
            let end = min(i + 8, line.count)
            while i < end {
                let byte = line[i]
                if byte == 0x2D {
                    dashes += 1
                } else {
                    if byte == 0x3E && dashes >= needed { return true }
                    dashes = 0
                }
                i += 1
            }
        }
        return false
    }

    /// How many times `-->` occurs: at least the number of cues (to size the list once).
    package static func arrowCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var dashes = 0
        func see(_ byte: UInt8) {
            if byte == 0x2D {
                dashes += 1
            } else {
                if byte == 0x3E && dashes >= 2 { count += 1 }
                dashes = 0
            }
        }
        var i = 0
        while i < bytes.count {
            // Past the words without a `>` or a `-`, then a word a byte at a time.
            let word = ByteWords.firstWord(in: bytes, from: i, withByteBelow: 1, or: 0x3E, 0x2D)
            if word > i { dashes = 0 }
            i = min(word + 8, bytes.count)
            for k in word..<i { see(bytes[k]) }
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
        ///
        /// Two stored lines, not an array of two: each line is changed in place.
        var older = TailLine(), newer = TailLine()
        var tailCount = 0
        /// The whole text when it is read at once (its lines stay valid until the reading ends).
        var source: UnsafeBufferPointer<UInt8>?
        /// Lines longer than this are kept as ranges of `source`.
        static let longLine = 1 << 12
        /// The most bytes a line buffer keeps between cues (a giant cue's buffers are let go).
        static let keptCapacity = 1 << 16

        mutating func begin(number: Int, line: UnsafeBufferPointer<UInt8>, timing: Timing?) {
            current = (number, timing, timing == nil ? Array(line) : [])
        }

        /// A line of the tail: its bytes copied or, with a `source` that outlives the reading and
        /// a long line, its range there instead.
        struct TailLine {
            var bytes: [UInt8] = []
            var range: Range<Int>?
        }

        mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
            guard current != nil else { return }
            if tailCount == 2 {
                appendTail(0)
                swap(&older, &newer)
                tailCount = 1
            }
            var range: Range<Int>?
            if let source, let base = source.baseAddress, let start = line.baseAddress, line.count > Self.longLine {
                let offset = start - base
                range = offset..<(offset + line.count)
            }
            func keep(_ kept: inout TailLine) {
                kept.bytes.removeAll(keepingCapacity: true)
                kept.range = range
                if range == nil { kept.bytes.append(contentsOf: line) }
            }
            if tailCount == 0 { keep(&older) } else { keep(&newer) }
            tailCount += 1
        }

        /// Tail line `t`'s bytes: its copy, or its range of the source.
        func withTail<R>(_ t: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let range = t == 0 ? older.range : newer.range
            if let range, let source { return body(UnsafeBufferPointer(rebasing: source[range])) }
            return t == 0 ? older.bytes.withUnsafeBufferPointer(body) : newer.bytes.withUnsafeBufferPointer(body)
        }

        private mutating func appendTail(_ t: Int) {
            // The line is lent, not copied: `body` is another buffer.
            let range = t == 0 ? older.range : newer.range
            if let range, let source {
                append(UnsafeBufferPointer(rebasing: source[range]))
            } else if t == 0 {
                older.bytes.withUnsafeBufferPointer { line in
                    Self.append(line, to: &body)
                }
            } else {
                newer.bytes.withUnsafeBufferPointer { line in
                    Self.append(line, to: &body)
                }
            }
        }

        private mutating func append(_ line: UnsafeBufferPointer<UInt8>) { Self.append(line, to: &body) }

        /// Adds a non-blank `line` to `body` (after a line feed), without its trailing spaces.
        private static func append(_ line: UnsafeBufferPointer<UInt8>, to body: inout [UInt8]) {
            guard !SubRipParser.isBlank(line) else { return }
            if !body.isEmpty { body.append(0x0A) }
            body.append(contentsOf: line[..<SubRipParser.trimmedEnd(line)])
        }

        /// The cue's timing when it can be used, else nil with a warning saying why it is skipped.
        private mutating func usableTiming(_ timing: Timing?, line: [UInt8], number: Int) -> Timing? {
            guard let timing else {
                let text = String(decoding: line, as: UTF8.self)
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: number,
                        "cue skipped: \"\(text.prefix(60))\" is not a SubRip timing line (hh:mm:ss,mmm --> hh:mm:ss,mmm)"))
                return nil
            }
            guard timing.end > timing.start else {
                warnings.append(
                    IngestWarning(
                        kind: .cueSkipped, line: number,
                        "cue skipped: its end (\(WebVTTTimestamp.format(timing.end))) is not after its start (\(WebVTTTimestamp.format(timing.start)))"))
                return nil
            }
            return timing
        }

        /// Ends the cue being read; `followedByAnother`: a timing line follows, whose counter,
        /// directly above it, is not this cue's text: a line of digits, or any line after a blank
        /// line (a wrong or garbled counter).
        mutating func finishCue(followedByAnother: Bool) {
            guard let (number, timing, line) = current else { return }
            defer {
                current = nil
                // Buffers keep their size for the next cue, unless one cue's text made them large.
                body.removeAll(keepingCapacity: body.capacity <= Self.keptCapacity)
                if older.bytes.capacity > Self.keptCapacity { older.bytes = [] }
                if newer.bytes.capacity > Self.keptCapacity { newer.bytes = [] }
                tailCount = 0
            }
            if followedByAnother, tailCount > 0 {
                let isCounter = withTail(tailCount - 1) { SubRipParser.isCounter($0) }
                let afterBlank = tailCount == 2 && withTail(0) { SubRipParser.isBlank($0) }
                if isCounter || (afterBlank && !withTail(tailCount - 1) { SubRipParser.isBlank($0) }) { tailCount -= 1 }
            }
            guard let timing = usableTiming(timing, line: line, number: number) else { return }
            var textLines = 0
            var lastTextLine = -1
            for t in 0..<tailCount where !withTail(t, { SubRipParser.isBlank($0) }) {
                textLines += 1
                lastTextLine = t
            }
            // The text as it is (plain: nothing for the markup conversion, the repair or the
            // sanitising to change, and every line, none blank, shows), or with simple markup
            // converted; else the text for the full conversion.
            func read(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, done: Bool) {
                if SubRipParser.isPlain(bytes) { return (String(decoding: bytes, as: UTF8.self), true) }
                if let simple = SubRipMarkup.simpleMarkup(bytes) { return (simple, true) }
                return (String(decoding: bytes, as: UTF8.self), false)
            }
            let (text, done): (String, Bool)
            if body.isEmpty && textLines == 1 {
                // One line: its text straight from the line, copied once.
                (text, done) = withTail(lastTextLine) { only in read(UnsafeBufferPointer(rebasing: only[..<SubRipParser.trimmedEnd(only)])) }
            } else {
                for t in 0..<tailCount { appendTail(t) }
                guard !body.isEmpty else {
                    warnings.append(IngestWarning(kind: .emptyCue, line: number, "cue has no text; skipped"))
                    return
                }
                (text, done) = body.withUnsafeBufferPointer(read)
            }
            if done {
                cues.append(Cue(start: timing.start, end: timing.end, text: text, sourceLine: number))
                return
            }
            let (markup, settings, otherColours) = SubRipMarkup.convert(text)
            let (repaired, _) = CueText.sanitized(markup)
            if !SubRipParser.hasVisibleText(repaired) {
                warnings.append(IngestWarning(kind: .emptyCue, line: number, "cue has no visible text after removing markup; skipped"))
                return
            }
            // Text the markup or the repair rewrote was built by appending: stored at its size.
            var cue = Cue(start: timing.start, end: timing.end, settings: settings, text: repaired == text ? text : repaired.compacted, sourceLine: number)
            // A colour WebVTT has no class for is kept in the cue's content (for IMSC1), when the
            // content says the text's words: a line the colour's tag alone keeps (a tag that
            // swallowed the rest of its line) is a line the text does not have.
            if otherColours, let content = SubRipMarkup.content(text) {
                if content.plainText == CueContent(webVTT: cue.text).plainText {
                    cue.keptContent = content
                } else {
                    warnings.append(
                        IngestWarning(
                            kind: .markupRepaired, line: number,
                            "the cue's <font color> could not be kept: a line of it holds only markup, so its colour would show a line the text does not have; the cue shows without that colour"
                        ))
                }
            }
            cues.append(cue)
        }
    }

    /// Whether cue text of non-blank lines is plain, to be stored as it is.
    ///
    /// Plain: no byte that markup conversion (`<`, `>`, `&`, `{`, backslash), repair or
    /// sanitising (C0 controls but tab and line feed, DEL) would look at. One pass over the bytes,
    /// eight at a time past words without any of them (most cues are plain; a word with a line
    /// feed or tab is looked at byte by byte).
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            i = ByteWords.firstWordWithControlOrMarkup(in: bytes, from: i)
            let end = min(i + 8, bytes.count)
            while i < end {
                switch bytes[i] {
                case 0x3C, 0x3E, 0x26, 0x7B, 0x5C, 0x7F: return false
                case 0x09, 0x0A: break
                case 0x00..<0x20: return false
                default: break
                }
                i += 1
            }
        }
        return true
    }

    /// Whether the line holds only spaces and tabs (compared on bytes: a space or tab cannot
    /// start a grapheme cluster that holds anything else).
    static func isBlank(_ line: some Collection<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Where `line` ends without its trailing spaces and tabs.
    static func trimmedEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var end = line.count
        while end > 0, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        return end
    }

    static func isCounter(_ line: some Collection<UInt8>) -> Bool {
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
}
