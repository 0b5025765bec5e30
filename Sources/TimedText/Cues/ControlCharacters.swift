import Timebase

/// The control characters of a subtitle file that are not text (C0 but tab, line feed and
/// carriage return; DEL): no cue keeps them (they show nothing and act on terminals), and the
/// reading says how many went, and where the first was — never a silent loss.
package struct ControlCharacters: Sendable, Equatable {
    package private(set) var count = 0
    /// The first one, and its 1-based line.
    package private(set) var first: (scalar: Unicode.Scalar, line: Int)?
    /// Lines seen so far (a piece at a time), ended by LF, CRLF or a lone CR.
    private var lines = 1
    /// Whether the last character seen was a CR (whose LF may start the next piece).
    private var afterCR = false

    package init() {}

    package static func == (a: ControlCharacters, b: ControlCharacters) -> Bool {
        a.count == b.count && a.first?.scalar == b.first?.scalar && a.first?.line == b.first?.line
    }

    /// Whether `value` is a control character no cue keeps.
    static func isDropped(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || value == 0x7F
    }

    /// Counts those in `bytes` (ASCII-compatible text: UTF-8 or a code page), a piece at a time.
    package mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            // Past the words without a control character or DEL (most of a line), then a word a byte at a time.
            let word = ByteWords.firstWord(in: bytes, from: i, withByteBelow: 0x20, or: 0x7F)
            if word > i { afterCR = false }
            i = min(word + 8, bytes.count)
            for k in word..<i { see(UInt32(bytes[k])) }
        }
    }

    /// Notes text that holds neither a control character nor a line break (an LF after it
    /// starts a new line).
    package mutating func sawText() { afterCR = false }

    /// Counts those in decoded `text`.
    package mutating func scan(_ text: String) {
        for scalar in text.unicodeScalars { see(scalar.value) }
    }

    /// Counts `value` (a byte of ASCII-compatible text, or a scalar) if it is one, and the line
    /// breaks.
    package mutating func see(_ value: UInt32) {
        if value == 0x0A {
            if !afterCR { lines += 1 }
        } else if value == 0x0D {
            lines += 1
        } else if Self.isDropped(value) {
            count += 1
            if first == nil, let scalar = Unicode.Scalar(value) { first = (scalar, lines) }
        }
        afterCR = value == 0x0D
    }

    /// The warning, when any was found.
    package var warning: IngestWarning? {
        guard let first else { return nil }
        return IngestWarning(
            kind: .controlCharacters, line: first.line,
            "\(count) control character\(count == 1 ? "" : "s") (the first \(LabelText.describe(first.scalar))) \(count == 1 ? "is" : "are") not text and \(count == 1 ? "was" : "were") left out of the cues"
        )
    }
}
