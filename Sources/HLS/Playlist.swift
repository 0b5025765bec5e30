import Timebase

/// A playlist as a list of lines that remember their exact text, so that writing it back
/// reproduces the input byte for byte.
///
/// A line is re-serialised only when a caller replaces its text. Unknown tags, comments, blank
/// lines, attribute order, quoting, a byte order mark, CRLF or LF endings and a missing final
/// newline all survive a round trip.
///
/// ```swift
/// let playlist = try Playlist(parsing: bytes, source: "master.m3u8")
/// playlist.text == String(decoding: bytes, as: UTF8.self)   // true
/// ```
public struct Playlist: Sendable, Equatable {
    /// The lines in order.
    public var lines: [PlaylistLine]
    /// The line terminator new lines should use: the one the playlist's first line uses.
    public var preferredTerminator: String

    /// Splits `bytes` into lines; fails if the bytes are not UTF-8 or do not start with `#EXTM3U`.
    public init(parsing bytes: consuming [UInt8], source: String) throws(HLSError) {
        if let offset = UTF8Check.firstInvalidOffset(bytes) {
            throw HLSError(
                .notUTF8, source: source, line: nil,
                "byte offset \(offset) is not UTF-8; RFC 8216bis §4.1 requires playlists to be UTF-8")
        }
        // Lines are made from the bytes: the file is not decoded into a copy first.
        let lines = bytes.withUnsafeBufferPointer { Self.lines(in: $0) }
        _ = consume bytes
        try self.init(lines: lines, source: source)
    }

    /// Splits `text` into lines at LF (a CR before it belongs to the terminator); fails if the
    /// first line is not `#EXTM3U`.
    public init(parsing text: String, source: String) throws(HLSError) {
        var text = text
        try self.init(lines: text.withUTF8 { Self.lines(in: $0) }, source: source)
    }

    private init(lines: [PlaylistLine], source: String) throws(HLSError) {
        guard let first = lines.first, first.content.trimmingTrailingWhitespace == "#EXTM3U" else {
            // The line is not quoted: a master may name any file, and its content is not ours to show.
            let found = lines.first.map { "a first line of \($0.content.count) characters that is not #EXTM3U" } ?? "an empty file"
            throw HLSError(
                .notAPlaylist, source: source, line: 1,
                "expected #EXTM3U on the first line (RFC 8216bis §4.4.1.1), found \(found); this is not an M3U8 playlist")
        }
        self.lines = lines
        self.preferredTerminator = first.terminator.isEmpty ? "\n" : first.terminator
    }

    /// The lines of valid UTF-8 `bytes`, split at LF (a CR before it belongs to the terminator);
    /// the list is sized once.
    private static func lines(in bytes: UnsafeBufferPointer<UInt8>) -> [PlaylistLine] {
        var lines: [PlaylistLine] = []
        lines.reserveCapacity(bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) })
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A {
            var contentEnd = index
            var terminator = "\n"
            if contentEnd > start, bytes[contentEnd - 1] == 0x0D {
                contentEnd -= 1
                terminator = "\r\n"
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<contentEnd]), as: UTF8.self)
            lines.append(PlaylistLine(text: text, terminator: terminator, number: lines.count + 1))
            start = index + 1
        }
        if start != bytes.count {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
            lines.append(PlaylistLine(text: text, terminator: "", number: lines.count + 1))
        }
        return lines
    }

    /// The playlist's text, each line followed by its own terminator.
    public var text: String {
        var out = ""
        out.reserveCapacity(lines.reduce(0) { $0 + $1.text.utf8.count + 2 })
        for line in lines {
            out += line.text
            out += line.terminator
        }
        return out
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
        guard !newLines.isEmpty else { return }
        var inserted = newLines
        if index == lines.count, let last = lines.indices.last, lines[last].terminator.isEmpty {
            lines[last].terminator = preferredTerminator
            inserted[inserted.count - 1].terminator = ""
        }
        lines.insert(contentsOf: inserted, at: index)
    }
}

/// One line of a playlist: its text without the terminator, the terminator, and where it came from.
public struct PlaylistLine: Sendable, Equatable {
    /// The line's text exactly as read (or as written by the caller), without its terminator.
    public var text: String
    /// `"\n"`, `"\r\n"`, or empty for a last line without a newline.
    public var terminator: String
    /// The 1-based line number in the input, or nil for a line Subweave added.
    public let number: Int?

    /// A line with `text`, its `terminator`, and its 1-based `number` in the input (nil for a new line).
    public init(text: String, terminator: String, number: Int?) {
        self.text = text
        self.terminator = terminator
        self.number = number
    }

    /// The text without a leading byte order mark.
    public var content: Substring {
        text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
    }

    /// What the line is, by RFC 8216bis §4.1: blank, comment, tag or URI.
    public var kind: Kind {
        let trimmed = content.trimmingTrailingWhitespace
        if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) { return .blank }
        if trimmed.hasPrefix("#EXT") {
            if let colon = trimmed.firstIndex(of: ":") {
                return .tag(name: String(trimmed[..<colon]), value: trimmed[trimmed.index(after: colon)...])
            }
            return .tag(name: String(trimmed), value: nil)
        }
        if trimmed.hasPrefix("#") { return .comment }
        return .uri(trimmed.trimmingLeadingWhitespace)
    }

    /// The tag name if the line is a tag.
    public var tagName: String? {
        if case .tag(let name, _) = kind { return name }
        return nil
    }

    /// The kinds of playlist line.
    public enum Kind: Sendable, Equatable {
        case blank
        case comment
        case tag(name: String, value: Substring?)
        case uri(Substring)
    }
}
