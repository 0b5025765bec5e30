/// Splits text into lines at LF, CRLF or CR, dropping a leading byte order mark.
///
/// Works on UTF-8 bytes (CR and LF are ASCII, so every split falls on a character boundary):
/// Swift treats CRLF as one `Character`, so splitting on `"\n"` alone would miss it.
enum LineSplitter {
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        if text.unicodeScalars.first == "\u{FEFF}" { start = text.unicodeScalars.index(after: start) }
        var i = start
        while i != utf8.endIndex {
            let c = utf8[i]
            if c == 0x0A || c == 0x0D {
                result.append(text[start..<i])
                var next = utf8.index(after: i)
                if c == 0x0D, next != utf8.endIndex, utf8[next] == 0x0A { next = utf8.index(after: next) }
                i = next
                start = next
            } else {
                i = utf8.index(after: i)
            }
        }
        result.append(text[start..<utf8.endIndex])
        return result
    }
}
