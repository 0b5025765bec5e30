import Timebase

/// Why a subtitle file is not one its reader can read.
///
/// Says which format, the 1-based line, and what is wrong: the one error the TimedText readers
/// throw.
package struct SubtitleFileError: ExplainedError, Equatable {
    package enum Format: String, Sendable {
        case webVTT = "webvtt"
        case ttml
        case ass
        case ebuSTL = "ebu_stl"
    }

    package let format: Format
    package let line: Int
    /// The byte offset the problem is at, for a binary format (EBU STL); then `line` is 0.
    package let offset: Int?
    package let reason: String

    package init(_ format: Format, line: Int, _ reason: String) {
        self.format = format
        self.line = line
        self.offset = nil
        self.reason = reason
    }

    /// A problem at byte `offset` of a binary file.
    package init(_ format: Format, offset: Int, _ reason: String) {
        self.format = format
        self.line = 0
        self.offset = offset
        self.reason = reason
    }

    /// The file does not begin with the `WEBVTT` signature line; `found` is the start of its
    /// first line.
    package static func webVTTSignature(found: String) -> SubtitleFileError {
        if found.unicodeScalars.first == "\u{FEFF}" {
            return SubtitleFileError(
                .webVTT, line: 1,
                "not a WebVTT file: it starts with two byte order marks (U+FEFF); a WebVTT parser removes one, so the first line does not begin with \"WEBVTT\""
            )
        }
        return SubtitleFileError(
            .webVTT, line: 1, "not a WebVTT file: the first line must be \"WEBVTT\", optionally followed by a space or tab and text (found \"\(found)\")")
    }

    package var codeName: String { "not_\(format.rawValue)" }
    package var context: String { offset.map { "byte offset \($0)" } ?? "line \(line)" }
    package var explanation: String { reason }
    package var description: String { explainedDescription }
}
