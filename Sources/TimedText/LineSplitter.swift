/// Splits text into lines at LF, CRLF or CR, dropping a leading byte order mark.
///
/// Works on Unicode scalars: Swift treats CRLF as one `Character`, so splitting on `"\n"` alone
/// would miss it.
enum LineSplitter {
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        if scalars.first == "\u{FEFF}" { start = scalars.index(after: start) }
        var i = start
        while i != scalars.endIndex {
            let c = scalars[i]
            if c == "\n" || c == "\r" {
                result.append(Substring(scalars[start..<i]))
                var next = scalars.index(after: i)
                if c == "\r", next != scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                i = next
                start = next
            } else {
                i = scalars.index(after: i)
            }
        }
        result.append(Substring(scalars[start..<scalars.endIndex]))
        return result
    }
}
