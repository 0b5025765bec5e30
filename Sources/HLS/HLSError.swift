import Timebase

/// A playlist that cannot be read, with where and why.
///
/// Every error names the playlist (as the caller identified it), the 1-based line, what was found
/// and what RFC 8216bis requires there.
public struct HLSError: ExplainedError, Equatable {
    /// What went wrong, as a small closed set.
    public enum Code: String, Sendable {
        /// The first line is not `#EXTM3U` (RFC 8216bis §4.4.1.1).
        case notAPlaylist
        /// A master playlist was expected but this is a media playlist, or the reverse.
        case wrongPlaylistKind
        /// A tag's value does not have the form its definition requires.
        case malformedTag
        /// An attribute list does not follow §4.2.
        case malformedAttributeList
        /// A required tag or attribute is absent.
        case missingRequired
        /// The bytes are not UTF-8 (§4.1 requires it).
        case notUTF8
    }

    public let code: Code
    /// The playlist's path or URL, as given by the caller.
    public let source: String
    /// The 1-based line number, or nil when the error concerns the whole file.
    public let line: Int?
    /// What was found and what is required, in a sentence or two.
    public let reason: String

    /// An error of `code` in `source` at 1-based `line`, explained by `reason`.
    public init(_ code: Code, source: String, line: Int?, _ reason: String) {
        self.code = code
        self.source = source
        self.line = line
        self.reason = reason
    }

    public var codeName: String { code.rawValue }
    public var context: String { line.map { "\(source):\($0)" } ?? source }
    public var explanation: String { reason }
    public var description: String { explainedDescription }
}
