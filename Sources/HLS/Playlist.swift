import Timebase

/// A playlist as a list of lines that remember their exact text, so that writing it back
/// reproduces the input byte for byte.
///
/// A line is re-serialised only when a caller replaces it or an edit (``rewriteTags(_:_:)``,
/// ``rewriteURIs(_:)``) changes what it says. Unknown tags, comments, blank
/// lines, attribute order, quoting, a byte order mark, CRLF or LF endings and a missing final
/// newline all survive a round trip.
///
/// The playlist keeps the bytes it was read from and where each line starts (4 bytes a line); a
/// line's text is made when it is asked for. Edits are a list of *spans*: runs of the file's own
/// lines and runs of lines a caller added or replaced, so a copy shares the file's bytes and an
/// edit costs what it changes, not the size of the playlist.
///
/// ```swift
/// let playlist = try Playlist(parsing: bytes, source: "master.m3u8")
/// playlist.text == String(decoding: bytes, as: UTF8.self)   // true
/// ```
public struct Playlist: Sendable, Equatable {
    /// The bytes the playlist was read from.
    let bytes: [UInt8]
    /// Where each of the file's lines starts in `bytes`.
    let starts: [UInt32]
    /// The lines in order, as runs of the file's lines and of `added` lines.
    private var spans: [Span]
    /// The number of lines before the end of each span.
    private var spanEnds: [Int]
    /// Lines added or replaced by a caller.
    var added: [PlaylistLine]
    /// Changes to the attributes of the file's lines with a tag, made when such a line is read.
    var rewrites: [TagRewrite] = []
    /// Rewriters of the file's URI lines, applied in order when such a line is read.
    var uriRewrites: [any URIRewriting] = []
    /// The line terminator new lines should use: the one the playlist's first line uses.
    public var preferredTerminator: String

    /// A run of lines: `count` lines from `start` in the file (`isOriginal`) or in `added`.
    private struct Span: Sendable, Equatable {
        let isOriginal: Bool
        let start: Int
        var count: Int
    }

    /// Splits `bytes` into lines; fails if the bytes are not UTF-8 or do not start with `#EXTM3U`.
    public init(parsing bytes: consuming [UInt8], source: String) throws(HLSError) {
        if let offset = UTF8Check.firstInvalidOffset(bytes) {
            throw HLSError(
                .notUTF8, source: source, line: nil,
                "byte offset \(offset) is not UTF-8; RFC 8216bis §4.1 requires playlists to be UTF-8")
        }
        guard bytes.count < Int(UInt32.max) else {
            throw HLSError(.notAPlaylist, source: source, line: nil, "the file is \(bytes.count) bytes; Subweave reads playlists smaller than 4 GiB")
        }
        // Lines are found in the bytes: the file is not decoded into a copy.
        self.bytes = bytes
        starts = Self.lineStarts(self.bytes)
        spans = starts.isEmpty ? [] : [Span(isOriginal: true, start: 0, count: starts.count)]
        spanEnds = spans.map(\.count)
        added = []
        preferredTerminator = "\n"
        try check(source: source)
    }

    /// Splits `text` into lines at LF (a CR before it belongs to the terminator); fails if the
    /// first line is not `#EXTM3U`.
    public init(parsing text: String, source: String) throws(HLSError) {
        try self.init(parsing: Array(text.utf8), source: source)
    }

    /// Checks the first line and takes its terminator as the one for new lines.
    private mutating func check(source: String) throws(HLSError) {
        guard let first = lines.first, first.content.trimmingTrailingWhitespace == "#EXTM3U" else {
            // The line is not quoted: a master may name any file, and its content is not ours to show.
            let found = lines.first.map { "a first line of \($0.content.count) characters that is not #EXTM3U" } ?? "an empty file"
            throw HLSError(
                .notAPlaylist, source: source, line: 1,
                "expected #EXTM3U on the first line (RFC 8216bis §4.4.1.1), found \(found); this is not an M3U8 playlist")
        }
        preferredTerminator = first.terminator.isEmpty ? "\n" : first.terminator
    }

    /// Where each line of `bytes` starts: at 0 and after each LF (the list is sized once).
    private static func lineStarts(_ bytes: [UInt8]) -> [UInt32] {
        bytes.withUnsafeBufferPointer { buffer in
            var count = buffer.isEmpty ? 0 : 1
            for (index, byte) in buffer.enumerated() where byte == 0x0A && index + 1 < buffer.count { count += 1 }
            var starts: [UInt32] = []
            starts.reserveCapacity(count)
            if !buffer.isEmpty { starts.append(0) }
            for (index, byte) in buffer.enumerated() where byte == 0x0A && index + 1 < buffer.count { starts.append(UInt32(index + 1)) }
            return starts
        }
    }

    /// The number of lines.
    public var count: Int { spanEnds.last ?? 0 }

    /// The lines in order, each made when it is read.
    public var lines: Lines { Lines(playlist: self) }

    /// The lines of a playlist, in order: a collection whose elements are made when read.
    public struct Lines: RandomAccessCollection, Sendable {
        let playlist: Playlist
        public var startIndex: Int { 0 }
        public var endIndex: Int { playlist.count }
        public subscript(index: Int) -> PlaylistLine { playlist.line(at: index) }
    }

    /// The span holding line `index` and the line's place in it.
    private func locate(_ index: Int) -> (span: Span, offset: Int) {
        precondition(index >= 0 && index < count, "line index \(index) out of range")
        var low = 0
        var high = spanEnds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if spanEnds[middle] > index { high = middle } else { low = middle + 1 }
        }
        let before = low == 0 ? 0 : spanEnds[low - 1]
        return (spans[low], index - before)
    }

    /// Line `index`.
    func line(at index: Int) -> PlaylistLine {
        let (span, offset) = locate(index)
        return span.isOriginal ? originalLine(span.start + offset) : added[span.start + offset]
    }

    /// Line `index` as read or added, before the pending tag and URI rewrites: of the same kind
    /// (a rewrite keeps a tag's name and a URI line a URI), and cheaper to make.
    package func lineBeforeRewrites(_ index: Int) -> PlaylistLine {
        let (span, offset) = locate(index)
        return span.isOriginal ? originalLine(span.start + offset, rewritten: false) : added[span.start + offset]
    }

    /// What a line is, without its text: blank, comment, a tag (with its name) or a URI.
    package enum LineClass: Equatable {
        case blank
        case comment
        case tag(String)
        case uri
    }

    /// What line `index` is, found on the file's bytes where it can be (its text is not made); a
    /// pending rewrite keeps a line's class.
    package func lineClass(_ index: Int) -> LineClass {
        let (span, offset) = locate(index)
        if span.isOriginal, let (kind, base) = bytesKind(span.start + offset) {
            switch kind {
            case .blank: return .blank
            case .comment: return .comment
            case .uri: return .uri
            case .tag(let name, _): return .tag(string(name, from: base))
            }
        }
        switch lineBeforeRewrites(index).kind {
        case .blank: return .blank
        case .comment: return .comment
        case .uri: return .uri
        case .tag(let name, _): return .tag(name)
        }
    }

    /// The attribute list of the tag on line `index` as it reads now, or nil if it is no tag.
    ///
    /// Pending rewrites are made; the list is parsed on the file's bytes when the line is the
    /// file's own and no rewrite changes it. With `values` false the values are left empty (for
    /// the names alone); with `rewritten` false the list is the one before pending rewrites.
    package func attributes(ofLine index: Int, values: Bool = true, rewritten: Bool = true) throws(AttributeListError) -> AttributeList? {
        let (span, offset) = locate(index)
        if span.isOriginal, let (kind, base) = bytesKind(span.start + offset), case .tag(let name, let value) = kind,
            !rewritten || !rewrites.contains(where: { hasText(name, from: base, $0.tag) })
        {
            let range = value.map { ($0.lowerBound + base)..<($0.upperBound + base) } ?? 0..<0
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                Result { () throws(AttributeListError) in try AttributeList(parsing: UnsafeBufferPointer(rebasing: buffer[range]), values: values) }
            }
            return try parsed.get()
        }
        guard case .tag(_, let value) = (rewritten ? line(at: index) : lineBeforeRewrites(index)).kind else { return nil }
        return try AttributeList(parsing: value ?? "")
    }

    /// The kind of the file's line `original` found on its bytes, with the offset its ranges
    /// start from; nil when the characters must decide.
    func bytesKind(_ original: Int) -> (LineBytes.Kind, Int)? {
        let content = originalRange(original).content
        guard let kind = bytes.withUnsafeBufferPointer({ LineBytes.classify(UnsafeBufferPointer(rebasing: $0[content])) }) else { return nil }
        return (kind, content.lowerBound)
    }

    /// The text of the file's bytes in `range` (relative to `base`).
    private func string(_ range: Range<Int>, from base: Int) -> String {
        bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[(range.lowerBound + base)..<(range.upperBound + base)]), as: UTF8.self)
        }
    }

    /// Whether the file's bytes in `range` (relative to `base`) are `text`'s UTF-8.
    func hasText(_ range: Range<Int>, from base: Int, _ text: String) -> Bool {
        bytes[(range.lowerBound + base)..<(range.upperBound + base)].elementsEqual(text.utf8)
    }

    /// The 1-based number in the input of line `index`, or nil for a line added since.
    public func number(ofLine index: Int) -> Int? {
        let (span, offset) = locate(index)
        return span.isOriginal ? span.start + offset + 1 : added[span.start + offset].number
    }

    /// The byte range of the file's line `original`: its content and its terminator's length.
    func originalRange(_ original: Int) -> (content: Range<Int>, terminator: Int) {
        let start = Int(starts[original])
        let end = original + 1 < starts.count ? Int(starts[original + 1]) : bytes.count
        guard end > start, bytes[end - 1] == 0x0A else { return (start..<end, 0) }
        if end - 1 > start, bytes[end - 2] == 0x0D { return (start..<(end - 2), 2) }
        return (start..<(end - 1), 1)
    }

    private func originalLine(_ original: Int, rewritten: Bool = true) -> PlaylistLine {
        let (content, terminator) = originalRange(original)
        let text = bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[content]), as: UTF8.self) }
        let line = PlaylistLine(text: text, terminator: terminator == 2 ? "\r\n" : terminator == 1 ? "\n" : "", number: original + 1)
        guard rewritten, !rewrites.isEmpty || !uriRewrites.isEmpty else { return line }
        return Self.rewriting(Self.rewriting(line, rewrites), uriRewrites)
    }

    /// The playlist's text, each line followed by its own terminator.
    public var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + added.reduce(0) { $0 + $1.text.utf8.count + 2 })
        write { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes the playlist's bytes to `sink` in pieces of at most about 1 MiB: runs of the file's
    /// own lines straight from its bytes, added lines as their text and terminator.
    public func write<E: Error>(_ sink: (UnsafeBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 16)
        func flush() throws(E) {
            guard !pending.isEmpty else { return }
            try pending.withUnsafeBufferPointer { (buffer) throws(E) in try sink(buffer) }
            pending.removeAll(keepingCapacity: true)
        }
        /// The file's bytes in `range`, in pieces of at most 1 MiB.
        func raw(_ range: Range<Int>) throws(E) {
            var from = range.lowerBound
            while from < range.upperBound {
                let to = min(range.upperBound, from + (1 << 20))
                try flush()
                try bytes.withUnsafeBufferPointer { (buffer) throws(E) in try sink(UnsafeBufferPointer(rebasing: buffer[from..<to])) }
                from = to
            }
        }
        func made(_ line: PlaylistLine) throws(E) {
            pending.append(contentsOf: line.text.utf8)
            pending.append(contentsOf: line.terminator.utf8)
            if pending.count >= 1 << 16 { try flush() }
        }
        for span in spans {
            guard span.isOriginal else {
                for line in added[span.start..<(span.start + span.count)] { try made(line) }
                continue
            }
            func start(_ original: Int) -> Int { original < starts.count ? Int(starts[original]) : bytes.count }
            // Runs of lines no rewrite changes go straight from the bytes.
            var runStart = span.start
            let rewriting = !rewrites.isEmpty || !uriRewrites.isEmpty
            for original in span.start..<(span.start + span.count) where rewriting && mayBeRewritten(original) {
                try raw(start(runStart)..<start(original))
                try made(originalLine(original))
                runStart = original + 1
            }
            try raw(start(runStart)..<start(span.start + span.count))
        }
        try flush()
    }

    /// Makes a new line in this playlist's line-ending style.
    public func makeLine(_ text: String) -> PlaylistLine {
        PlaylistLine(text: text, terminator: preferredTerminator, number: nil)
    }

    /// Inserts `newLines` before index `index`.
    ///
    /// Appending after a last line that lacks a
    /// terminator moves the missing newline to the new last line, so the file keeps its shape.
    public mutating func insert(_ newLines: [PlaylistLine], at index: Int) {
        edit(replacing: [:], inserting: [index: newLines], removing: [])
    }

    /// Changes the lines in one pass; every index refers to the lines as they are now.
    ///
    /// Line `i` in `replacing` takes the new text (keeping its number and terminator); the lines in
    /// `inserting[i]` go before line `i` (at `count`: at the end, where a last line without a
    /// terminator gets one and the new last line goes without); lines in `removing` go.
    public mutating func edit(replacing: [Int: String], inserting: [Int: [PlaylistLine]], removing: Set<Int>) {
        var builder = Builder()
        let total = count
        var spanStart = 0
        for span in spans {
            var offset = 0
            while offset < span.count {
                let index = spanStart + offset
                // A run of untouched lines of the file is kept as one span.
                var run = 0
                while span.isOriginal, offset + run < span.count {
                    let at = index + run
                    if replacing[at] != nil || inserting[at] != nil || removing.contains(at) || (at == total - 1 && inserting[total] != nil) { break }
                    run += 1
                }
                if run > 0 {
                    builder.original(span.start + offset, count: run)
                    offset += run
                    continue
                }
                if let lines = inserting[index] { builder.add(lines) }
                if !removing.contains(index) {
                    var line = line(at: index)
                    var changed = false
                    if let text = replacing[index] { (line.text, changed) = (text, true) }
                    if index == total - 1, inserting[total]?.isEmpty == false, line.terminator.isEmpty {
                        (line.terminator, changed) = (preferredTerminator, true)
                    }
                    if span.isOriginal && !changed { builder.original(span.start + offset, count: 1) } else { builder.add([line]) }
                }
                offset += 1
            }
            spanStart += span.count
        }
        if var lines = inserting[total], !lines.isEmpty {
            // The file's shape: no newline after the last line if it had none.
            if total > 0, line(at: total - 1).terminator.isEmpty { lines[lines.count - 1].terminator = "" }
            builder.add(lines)
        }
        (spans, spanEnds, added) = (builder.spans, builder.spanEnds, builder.added)
    }

    /// Builds the spans of an edited playlist.
    private struct Builder {
        var spans: [Span] = []
        var spanEnds: [Int] = []
        var added: [PlaylistLine] = []

        mutating func original(_ start: Int, count: Int) {
            if let last = spans.last, last.isOriginal, last.start + last.count == start {
                spans[spans.count - 1].count += count
                spanEnds[spanEnds.count - 1] += count
            } else {
                spans.append(Span(isOriginal: true, start: start, count: count))
                spanEnds.append((spanEnds.last ?? 0) + count)
            }
        }

        mutating func add(_ lines: [PlaylistLine]) {
            guard !lines.isEmpty else { return }
            if let last = spans.last, !last.isOriginal, last.start + last.count == added.count {
                spans[spans.count - 1].count += lines.count
                spanEnds[spanEnds.count - 1] += lines.count
            } else {
                spans.append(Span(isOriginal: false, start: added.count, count: lines.count))
                spanEnds.append((spanEnds.last ?? 0) + lines.count)
            }
            added += lines
        }
    }

    public static func == (a: Playlist, b: Playlist) -> Bool {
        a.preferredTerminator == b.preferredTerminator && a.lines.elementsEqual(b.lines)
    }
}
