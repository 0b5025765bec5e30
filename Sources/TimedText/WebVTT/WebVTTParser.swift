import Timebase

/// A parsed WebVTT file: its cues and the header blocks segments must repeat.
package struct WebVTTDocument: Sendable, Equatable {
    /// The cues in file order.
    package var cues: [Cue]
    /// `REGION` definitions in file order.
    package var regions: [CueRegion]
    /// The bodies of `STYLE` blocks, in file order.
    package var styleSheets: [String]
    /// What the parser skipped or repaired.
    package var warnings: [IngestWarning]
    /// The line of a valid `X-TIMESTAMP-MAP` in the header (the first line there that starts
    /// `X-TIMESTAMP-MAP=`), where hls.js would read it.
    package var timestampMapLine: Int?

    package init(cues: [Cue] = [], regions: [CueRegion] = [], styleSheets: [String] = [], warnings: [IngestWarning] = []) {
        self.cues = cues
        self.regions = regions
        self.styleSheets = styleSheets
        self.warnings = warnings
    }
}

/// The W3C WebVTT parser algorithm (WebVTT §6.1), on decoded text.
///
/// It behaves as a browser does: the signature must be `WEBVTT` followed by nothing, a space, a
/// tab or a line break (an optional BOM before it); blocks are separated by blank lines; a block
/// whose timing line fails to parse is skipped whole; a line containing `-->` after the second
/// line of a block starts a new block; `STYLE` and `REGION` blocks count only before the first
/// cue; invalid settings are dropped one by one. Beyond the browser, it records a warning for
/// everything it drops, and it skips cues whose end is not after their start (the syntax
/// requires it), so the cues it returns can be written back as valid WebVTT.
package enum WebVTTParser {
    /// Choices a caller makes about what the parser hands back.
    package struct Options: Sendable {
        /// The byte order mark was already removed (by the decoder): a U+FEFF at the start is a
        /// second one, and the file is not WebVTT (the spec removes one).
        package var byteOrderMarkRemoved = false
        /// Keep cues whose end is not after their start, as the spec's parser does (reported);
        /// the packager drops them, since the syntax forbids them.
        package var keepsBackwardCues = false

        package init(byteOrderMarkRemoved: Bool = false, keepsBackwardCues: Bool = false) {
            self.byteOrderMarkRemoved = byteOrderMarkRemoved
            self.keepsBackwardCues = keepsBackwardCues
        }
    }

    /// Parses `text`; fails only when the signature is missing.
    package static func parse(_ text: String, options: Options = Options()) throws(SubtitleFileError) -> WebVTTDocument {
        try parse(utf8: Array(text.utf8), options: options)
    }

    /// Parses UTF-8 `bytes` (already decoded: valid, a first byte order mark removed per
    /// `options`), preprocessed in place, so that a large file is not held twice.
    package static func parse(utf8 bytes: consuming [UInt8], options: Options = Options()) throws(SubtitleFileError) -> WebVTTDocument {
        var bytes = bytes
        preprocess(&bytes)
        return try start(consume bytes, options: options).document
    }

    /// A parser that has read the signature, the header and the blocks of `bytes` (preprocessed).
    private static func start(_ bytes: consuming [UInt8], options: Options, expectedCues: Int = 0) throws(SubtitleFileError) -> BlockParser {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) && !options.byteOrderMarkRemoved { bytes.removeFirst(3) }

        guard bytes.starts(with: Array("WEBVTT".utf8)), bytes.count == 6 || bytes[6] == 0x20 || bytes[6] == 0x09 || bytes[6] == 0x0A else {
            let firstLine = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
            throw SubtitleFileError.webVTTSignature(found: String(firstLine.unicodeScalars.prefix(40)))
        }
        let mapLine = headerTimestampMapLine(bytes)
        var parser = BlockParser(bytes: consume bytes, keepsBackwardCues: options.keepsBackwardCues)
        parser.document.timestampMapLine = mapLine
        parser.document.cues.reserveCapacity(expectedCues)
        parser.run()
        return parser
    }

    /// Reads a file a piece at a time, so that a large file is never held whole: the document is
    /// the one ``parse(utf8:options:)`` gives for the pieces joined.
    ///
    /// Pieces are UTF-8, each but the last ending with a line break that is not a CR before an
    /// LF (preprocessing is then the same piece by piece). They are gathered up to a blank line
    /// and read from there: a block never spans a blank line, so only a block's worth is held.
    package struct Reader {
        private let options: Options
        private let expectedCues: Int
        /// Preprocessed bytes not read yet (after the last blank line read to).
        private var pending: [UInt8] = []
        /// How much of `pending` has been searched for a blank line.
        private var searched = 0
        private var parser: BlockParser?

        /// A reader with `options` whose cue list is sized once for `expectedCues`.
        package init(options: Options = Options(), expectedCues: Int = 0) {
            self.options = options
            self.expectedCues = expectedCues
        }

        /// Reads `piece`; fails when the bytes gathered show the signature is missing.
        package mutating func read(_ piece: UnsafeBufferPointer<UInt8>, isLast: Bool) throws(SubtitleFileError) {
            var bytes = Array(piece)
            WebVTTParser.preprocess(&bytes)
            if pending.isEmpty { pending = bytes } else { pending.append(contentsOf: bytes) }
            let end = isLast ? pending.count : lastBlankLineEnd()
            guard let end, end > 0 || isLast else { return }
            let chunk = Array(pending[..<end])
            pending.removeFirst(end)
            searched = 0
            if parser == nil {
                parser = try WebVTTParser.start(chunk, options: options, expectedCues: expectedCues)
            } else {
                parser?.run(continuingWith: chunk)
            }
        }

        /// The document (empty before the first piece).
        package mutating func finish() -> WebVTTDocument {
            guard let parser else { return WebVTTDocument() }
            self.parser = nil
            return parser.document
        }

        /// The index just after the last blank line's LF in `pending` (two LFs in a row).
        private mutating func lastBlankLineEnd() -> Int? {
            var i = pending.count - 1
            let floor = max(searched, 1)
            searched = pending.count
            while i >= floor {
                if pending[i] == 0x0A && pending[i - 1] == 0x0A { return i + 1 }
                i -= 1
            }
            return nil
        }
    }

    /// The 1-based line of the header's `X-TIMESTAMP-MAP`, if the first line that starts
    /// `X-TIMESTAMP-MAP=` is in the header (the lines before the first blank one) and a valid map.
    static func headerTimestampMapLine(_ bytes: [UInt8]) -> Int? {
        guard case .found(_, let line, inHeader: true) = bytes.withUnsafeBufferPointer({ TimestampMap.scan($0).header }) else { return nil }
        return line
    }

    /// Preprocessing (§6.1 steps 1-2) on UTF-8 bytes: NUL becomes U+FFFD, CRLF and CR become LF;
    /// in place unless there is a NUL (one byte becomes three).
    package static func preprocess(_ bytes: inout [UInt8]) {
        guard bytes.contains(where: { $0 == 0x0D || $0 == 0 }) else { return }
        var previousWasCR = false
        if bytes.contains(0) {
            var copy: [UInt8] = []
            copy.reserveCapacity(bytes.count + 2 * bytes.reduce(0) { $0 + ($1 == 0 ? 1 : 0) })
            for byte in bytes {
                if byte == 0x0D {
                    copy.append(0x0A)
                    previousWasCR = true
                    continue
                }
                if byte == 0x0A && previousWasCR {
                    previousWasCR = false
                    continue
                }
                previousWasCR = false
                if byte == 0 { copy.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { copy.append(byte) }
            }
            bytes = copy
            return
        }
        var written = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x0A && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = byte == 0x0D
            bytes[written] = previousWasCR ? 0x0A : byte
            written += 1
        }
        bytes.removeLast(bytes.count - written)
    }
}

/// The block loop of §6.1 on the preprocessed UTF-8 bytes (line breaks are LF alone).
///
/// Lines are ranges of the bytes, never copied; the lines a block buffers are consecutive,
/// separated by one LF each, so the buffer is a range too, made into a `String` once.
private struct BlockParser {
    /// The bytes being read: the whole file, or the part of it read so far that ends at a blank line.
    var bytes: [UInt8]
    var position = 0
    var line = 1  // the 1-based line number of `position`
    var document = WebVTTDocument()
    var seenCue = false
    let keepsBackwardCues: Bool

    init(bytes: [UInt8], keepsBackwardCues: Bool) {
        self.bytes = bytes
        self.keepsBackwardCues = keepsBackwardCues
    }

    mutating func run() {
        // Steps 6-11: the rest of the signature line, then an optional header block.
        _ = collectLine()
        if position >= bytes.count { return }
        if bytes[position] != 0x0A {
            _ = collectBlock(inHeader: true)
        } else {
            advance()
        }
        readBlocks()
    }

    /// Reads the blocks of `more`, the file's next bytes after a blank line: a block never spans
    /// a blank line, so the blocks are those the whole file has there.
    mutating func run(continuingWith more: [UInt8]) {
        bytes = more
        position = 0
        readBlocks()
    }

    /// The block loop (steps 12-13), to the end of the bytes.
    private mutating func readBlocks() {
        skipNewlines()
        while position < bytes.count {
            switch collectBlock(inHeader: false) {
            case .cue(let cue):
                if cue.end <= cue.start && keepsBackwardCues {
                    document.warnings.append(
                        IngestWarning(
                            kind: .backwardCue, line: cue.sourceLine,
                            "the cue's end (\(WebVTTTimestamp.format(cue.end))) is not after its start (\(WebVTTTimestamp.format(cue.start))); a browser keeps it (it never shows), the packager drops it"
                        ))
                    document.cues.append(cue)
                } else if cue.end <= cue.start {
                    document.warnings.append(
                        IngestWarning(
                            kind: .cueSkipped, line: cue.sourceLine,
                            "cue skipped: its end (\(WebVTTTimestamp.format(cue.end))) is not after its start (\(WebVTTTimestamp.format(cue.start)))"))
                } else {
                    document.cues.append(cue)
                }
            case .styleSheet(let css): document.styleSheets.append(css)
            case .region(let region):
                document.regions.removeAll { $0.identifier == region.identifier }
                document.regions.append(region)
            case .none: break
            }
            skipNewlines()
        }
    }

    private enum Block {
        case cue(Cue)
        case styleSheet(String)
        case region(CueRegion)
        case none
    }

    private mutating func advance() {
        if bytes[position] == 0x0A { line += 1 }
        position += 1
    }

    private mutating func skipNewlines() {
        while position < bytes.count, bytes[position] == 0x0A { advance() }
    }

    private mutating func collectLine() -> Range<Int> {
        let start = position
        while position < bytes.count, bytes[position] != 0x0A { position += 1 }
        return start..<position
    }

    /// The text of `range` of the bytes.
    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    /// Whether `range` is `keyword` followed by nothing but ASCII white space.
    private func isKeywordLine(_ range: Range<Int>, _ keyword: String) -> Bool {
        let slice = bytes[range]
        return slice.starts(with: keyword.utf8) && slice.dropFirst(keyword.utf8.count).allSatisfy(\.isASCIIWhitespace)
    }

    /// What a block being collected has gathered so far.
    private struct BlockState {
        /// The buffered lines: a range of the bytes, or nil when nothing is buffered.
        var buffer: Range<Int>?
        var cue: Cue?
        var isStyle = false
        var region: CueRegion?
        var badTiming: (line: Int, range: Range<Int>)?
    }

    /// "Collect a WebVTT block" (§6.1).
    private mutating func collectBlock(inHeader: Bool) -> Block {
        var lineCount = 0
        var previousPosition = position
        var previousLine = line
        var seenArrow = false
        var state = BlockState()

        while true {
            let lineNumber = line
            let lineRange = collectLine()
            lineCount += 1
            var seenEOF = false
            if position >= bytes.count { seenEOF = true } else { advance() }

            if bytes[lineRange].containsArrow {
                if !inHeader && (lineCount == 1 || (lineCount == 2 && !seenArrow)) {
                    seenArrow = true
                    previousPosition = position
                    previousLine = line
                    readTimingLine(lineRange, number: lineNumber, into: &state)
                } else {
                    position = previousPosition
                    line = previousLine
                    break
                }
            } else if lineRange.isEmpty {
                break
            } else {
                if !inHeader && lineCount == 2 && !seenCue, let buffered = state.buffer {
                    if isKeywordLine(buffered, "STYLE") {
                        state.isStyle = true
                        state.buffer = nil
                    } else if isKeywordLine(buffered, "REGION") {
                        state.region = CueRegion(identifier: "")
                        state.buffer = nil
                    }
                }
                state.buffer = (state.buffer?.lowerBound ?? lineRange.lowerBound)..<lineRange.upperBound
                previousPosition = position
                previousLine = line
            }
            if seenEOF { break }
        }
        return block(from: state)
    }

    /// A block's timing line: starts its cue (the buffered line is its identifier), or
    /// remembers the line to say why the cue is skipped.
    private mutating func readTimingLine(_ lineRange: Range<Int>, number lineNumber: Int, into state: inout BlockState) {
        guard let (start, end, settings, dropped) = CueTimingParser.parse(bytes[lineRange], regions: document.regions) else {
            state.cue = nil
            state.badTiming = (lineNumber, lineRange)
            return
        }
        state.cue = Cue(
            identifier: state.buffer.map(text) ?? "", start: start, end: end,
            settings: settings, text: "", sourceLine: lineNumber)
        for setting in dropped {
            document.warnings.append(
                IngestWarning(
                    kind: .settingDropped, line: lineNumber,
                    "invalid cue setting \"\(setting)\" dropped (WebVTT §6.3 ignores it)"))
        }
        state.buffer = nil
        seenCue = true
    }

    /// What a collected block is: a cue, a style sheet, a region, or nothing.
    private mutating func block(from state: BlockState) -> Block {
        if var cue = state.cue {
            cue.text = state.buffer.map(text) ?? ""
            return .cue(cue)
        }
        if let badTiming = state.badTiming {
            let timing = text(badTiming.range)
            document.warnings.append(
                IngestWarning(
                    kind: .cueSkipped, line: badTiming.line,
                    "cue skipped: \"\(timing)\" is not a valid timing line ([hh:]mm:ss.ttt --> [hh:]mm:ss.ttt, WebVTT §6.3)"))
            return .none
        }
        if state.isStyle {
            return .styleSheet(state.buffer.map(text) ?? "")
        }
        if var region = state.region {
            RegionSettingsParser.apply(state.buffer.map(text) ?? "", to: &region)
            // A region without an identifier cannot be referenced; the spec drops it.
            return region.identifier.isEmpty ? .none : .region(region)
        }
        return .none
    }
}

extension ArraySlice where Element == UInt8 {
    var containsArrow: Bool {
        guard count >= 3 else { return false }
        for i in startIndex...(endIndex - 3) where self[i] == 0x2D && self[i + 1] == 0x2D && self[i + 2] == 0x3E { return true }
        return false
    }
}
