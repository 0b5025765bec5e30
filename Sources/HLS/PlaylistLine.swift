import Timebase

/// Gives the new URI for a URI line of a playlist (see ``Playlist/rewriteURIs(_:)``).
public protocol URIRewriting: Sendable {
    /// The URI `uri` (as written, without surrounding whitespace) becomes, or nil to keep it (an
    /// empty URI keeps it too: a URI line stays a URI line).
    func rewrittenURI(_ uri: String) -> String?
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
        if let kind = asciiKind { return kind }
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

    /// ``kind`` found on the line's bytes (``LineBytes``), nil when the characters must decide.
    private var asciiKind: Kind? {
        let utf8 = text.utf8
        guard let found = utf8.withContiguousStorageIfAvailable({ LineBytes.classify($0) }), let found else { return nil }
        func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        switch found {
        case .blank: return .blank
        case .comment: return .comment
        case .tag(let name, let value):
            return .tag(name: String(text[at(name.lowerBound)..<at(name.upperBound)]), value: value.map { text[at($0.lowerBound)..<at($0.upperBound)] })
        case .uri(let range): return .uri(text[at(range.lowerBound)..<at(range.upperBound)])
        }
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
