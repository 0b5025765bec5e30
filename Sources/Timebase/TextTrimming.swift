/// Trimming and character classes the other modules share (package access): the one home for
/// trimming.
extension StringProtocol {
    /// The text without leading and trailing characters in `set`.
    package func trimming(_ set: Set<Character>) -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, set.contains(self[start]) { start = index(after: start) }
        while end > start, set.contains(self[index(before: end)]) { end = index(before: end) }
        return self[start..<end]
    }
}

extension Set where Element == Character {
    /// Spaces, tabs and line ends (`"\r\n"` is one character): what ``StringProtocol/trimming(_:)``
    /// takes off an attribute value or a field.
    package static let asciiWhitespace: Set<Character> = [" ", "\t", "\n", "\r", "\r\n"]
}

extension Substring {
    /// Without trailing spaces, tabs and carriage returns (the end of a playlist line).
    package var trimmingTrailingWhitespace: Substring {
        var s = self
        // The last byte first: a text that does not end in one of these bytes cannot end in one of
        // these characters, and most do not (no character is looked at then).
        while let byte = s.utf8.last, byte == 0x20 || byte == 0x09 || byte == 0x0D, let last = s.last, last == " " || last == "\t" || last == "\r" {
            s = s.dropLast()
        }
        return s
    }

    /// Without leading spaces and tabs.
    package var trimmingLeadingWhitespace: Substring {
        var s = self
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        return s
    }
}

extension Character {
    package var isASCIILetter: Bool { isASCII && isLetter }
    package var isASCIIDigit: Bool { isASCII && isNumber }
    package var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
}
