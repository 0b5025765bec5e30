/// What a playlist line is (RFC 8216bis §4.1), found on its UTF-8 bytes as ranges, without making
/// its text.
///
/// ``PlaylistLine/kind`` decides by characters (grapheme clusters): a combining mark after `#`,
/// `T` or `:` makes a different character, a space after a prepended mark belongs to it. On bytes
/// the same answer holds wherever every byte next to a place where the decision is made is ASCII
/// (an ASCII character then stands alone: only CR LF joins two ASCII characters, and a line holds
/// no LF). Elsewhere ``classify(_:)`` returns nil and the characters decide.
enum LineBytes {
    /// A line's kind as ranges of its bytes.
    enum Kind: Equatable {
        case blank
        case comment
        /// The name and, after the first colon, the value (trailing whitespace left out).
        case tag(name: Range<Int>, value: Range<Int>?)
        /// The URI, without surrounding whitespace.
        case uri(Range<Int>)
    }

    /// The kind of the line `bytes` (its content, without the terminator), or nil when a
    /// non-ASCII character next to a decision leaves it to the characters.
    static func classify(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        // A byte order mark is a control character: a character of its own.
        let start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        var end = bytes.count
        while end > start, isSpace(bytes[end - 1]) || bytes[end - 1] == 0x0D { end -= 1 }
        // A trailing space joins a prepended mark before it (tab and CR are controls: they never join).
        if end < bytes.count, end > start, bytes[end - 1] >= 0x80 { return nil }
        if bytes[start..<end].allSatisfy(isSpace) { return .blank }
        func ascii(_ index: Int) -> Bool { index >= end || bytes[index] < 0x80 }
        if bytes[start] == UInt8(ascii: "#") {
            guard ascii(start + 1) else { return nil }
            guard end - start >= 4, bytes[start + 1] == UInt8(ascii: "E"), bytes[start + 2] == UInt8(ascii: "X"), bytes[start + 3] == UInt8(ascii: "T")
            else { return .comment }
            guard ascii(start + 4) else { return nil }
            guard let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")) else { return .tag(name: start..<end, value: nil) }
            // The colon must be a character of its own (the byte before it may be a prepended mark).
            guard ascii(colon + 1), bytes[colon - 1] < 0x80 else { return nil }
            return .tag(name: start..<colon, value: (colon + 1)..<end)
        }
        var first = start
        while first < end, isSpace(bytes[first]) { first += 1 }
        // A leading space followed by a combining mark is not a space character.
        if first > start, !ascii(first) { return nil }
        return .uri(first..<end)
    }
}
