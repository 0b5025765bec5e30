/// Searching text by its bytes: ASCII patterns, and the next occurrence for a forward cursor.
extension StringProtocol {
    /// Whether the UTF-8 of the text contains `needle` (an ASCII string), compared byte by byte:
    /// Foundation's `contains(_:)` goes through NSString and is many times slower.
    package func containsASCII(_ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { pattern in
            if let found = utf8.withContiguousStorageIfAvailable({ TextSearch.contains($0, pattern) }) { return found }
            // A small string's bytes are put on the stack, not in a new array.
            var text = String(self)
            return text.withUTF8 { TextSearch.contains($0, pattern) }
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
