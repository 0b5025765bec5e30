/// The lines of a text, split at LF, CRLF or CR, a leading byte order mark dropped; made one at a
/// time, so that a file of millions of lines is never held as a list of them.
///
/// Works on UTF-8 bytes (CR and LF are ASCII, so every split falls on a character boundary):
/// Swift treats CRLF as one `Character`, so splitting on `"\n"` alone would miss it.
struct LineSplitter: Sequence {
    let text: String
    /// Whether a byte order mark at the start is dropped (only at the start of a file).
    let dropsByteOrderMark: Bool

    init(_ text: String, dropsByteOrderMark: Bool = true) {
        self.text = text
        self.dropsByteOrderMark = dropsByteOrderMark
    }

    struct Iterator: IteratorProtocol {
        let text: String
        var start: String.Index
        var finished = false

        mutating func next() -> Substring? {
            guard !finished else { return nil }
            let utf8 = text.utf8
            var i = start
            while i != utf8.endIndex {
                let c = utf8[i]
                if c == 0x0A || c == 0x0D {
                    let line = text[start..<i]
                    var next = utf8.index(after: i)
                    if c == 0x0D, next != utf8.endIndex, utf8[next] == 0x0A { next = utf8.index(after: next) }
                    start = next
                    return line
                }
                i = utf8.index(after: i)
            }
            finished = true
            return text[start..<utf8.endIndex]
        }
    }

    func makeIterator() -> Iterator {
        var start = text.utf8.startIndex
        if dropsByteOrderMark, text.unicodeScalars.first == "\u{FEFF}" { start = text.unicodeScalars.index(after: start) }
        return Iterator(text: text, start: start)
    }
}
