/// Small text helpers the other modules share (package access: not part of the public API): the
/// one home for trimming.
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

extension String {
    /// `self` (digits) with zeros before it to at least `width` characters: the one home for
    /// zero padding (segment names, timestamps, hashes, code points).
    package func zeroPadded(to width: Int) -> String {
        let missing = width - utf8.count
        return missing > 0 ? String(repeating: "0", count: missing) + self : self
    }

    /// The same text in storage of its own size: a string built by appending keeps the capacity it
    /// grew to, which a list of millions of cue texts should not.
    package var compacted: String {
        let count = utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var copy = self
            return copy.withUTF8 {
                UnsafeMutableRawBufferPointer(buffer).copyBytes(from: $0); return $0.count
            }
        }
    }
}

extension StringProtocol {
    /// Whether the UTF-8 of the text contains `needle` (an ASCII string), compared byte by byte:
    /// Foundation's `contains(_:)` goes through NSString and is many times slower.
    package func containsASCII(_ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { pattern in
            if let found = utf8.withContiguousStorageIfAvailable({ TextSearch.contains($0, pattern) }) { return found }
            return Array(utf8).withUnsafeBufferPointer { TextSearch.contains($0, pattern) }
        }
    }
}

/// Byte search for short patterns.
enum TextSearch {
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first else { return true }
        guard bytes.count >= pattern.count else { return false }
        var i = 0
        let last = bytes.count - pattern.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < pattern.count && bytes[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            i += 1
        }
        return false
    }
}

extension Substring {
    /// Without trailing spaces, tabs and carriage returns (the end of a playlist line).
    package var trimmingTrailingWhitespace: Substring {
        var s = self
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s = s.dropLast() }
        return s
    }

    /// Without leading spaces and tabs.
    package var trimmingLeadingWhitespace: Substring {
        var s = self
        while let first = s.first, first == " " || first == "\t" { s = s.dropFirst() }
        return s
    }
}

extension Double {
    /// Seconds written with three decimals (`12.345`), as ``MediaTime/decimalSeconds`` writes them.
    package var decimalSeconds: String {
        // Beyond what a media time holds (or not a number), the plain form: never a trap.
        let ticks = (self * Double(MediaTime.ticksPerSecond)).rounded()
        guard ticks.isFinite, abs(ticks) < Double(MediaTime.limit) else { return "\(self)" }
        return MediaTime(ticks: Int64(ticks)).decimalSeconds
    }
}

extension Character {
    package var isASCIILetter: Bool { isASCII && isLetter }
    package var isASCIIDigit: Bool { isASCII && isNumber }
    package var isASCIIAlphanumeric: Bool { isASCIILetter || isASCIIDigit }
}

/// Levenshtein distance, for "did you mean …?" suggestions.
package enum EditDistance {
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    package static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard let best = candidates.min(by: { between($0, word) < between($1, word) }) else { return nil }
        return between(best, word) <= max(2, word.count / 3) ? best : nil
    }
}

/// The next position of one element at or after a position that only moves forward (a parser's
/// cursor), found once for all the positions before it: a scan that asks at every `{` for the
/// next `}` stays linear however many `{` come without one.
package struct NextIndex<Element: Equatable> {
    package let element: Element
    /// The last answer: where the search started and what it found (nil: none to the end).
    private var searchedFrom = Int.max
    private var found: Int?

    package init(_ element: Element) { self.element = element }

    /// The first index of the element at or after `i` in `s`; `i` must not go back between calls.
    package mutating func find<C: RandomAccessCollection<Element>>(in s: C, from i: Int) -> Int? where C.Index == Int {
        if i >= searchedFrom, found.map({ $0 >= i }) ?? true { return found }
        searchedFrom = i
        found = s[i...].firstIndex(of: element)
        return found
    }
}

extension Int {
    /// The count with its noun in the right number: `1.counted("cue")` is "1 cue",
    /// `2.counted("cue")` "2 cues" (the one home for plurals in messages).
    package func counted(_ singular: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
    }
}
