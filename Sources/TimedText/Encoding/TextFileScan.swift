import Timebase

/// One pass over a text file, a piece at a time, for what must be known before it is read in
/// pieces: whether it is UTF-8, how many `-->` it holds, its control characters, its longest
/// line and its longest block (the bytes between two blank lines, as WebVTT reads them).
///
/// Each byte is looked at once, and a word of eight printable ASCII bytes other than `-` and
/// `>` (most of a subtitle file) at once: the four answers were four passes. The pieces end at
/// whole line breaks (LF, CRLF or a lone CR), as ``LinePieces`` cuts a file. Once a byte is not
/// UTF-8 the scan stops: a file in another encoding is read whole, and the rest is not needed.
package struct TextFileScan: Sendable {
    /// Whether every byte seen is UTF-8 (a UTF-8 byte order mark included).
    package private(set) var isUTF8 = true
    /// How many times `-->` (or a longer arrow) occurs: at least the number of SubRip cues.
    package private(set) var arrows = 0
    /// The control characters no cue keeps.
    package private(set) var controls = ControlCharacters()
    /// Bytes seen (up to the first that is not UTF-8), and where the current line and block start.
    private var offset = 0
    private var lineStart = 0
    private var blockStart = 0
    private var longestEndedBlock = 0
    private var longestEndedLine = 0
    /// Dashes right before the current byte.
    private var dashes = 0

    package init() {}

    /// The most bytes between two blank lines (a block and its line breaks).
    package var longestBlock: Int { max(longestEndedBlock, offset - blockStart) }
    /// The most bytes in a line.
    package var longestLine: Int { max(longestEndedLine, offset - lineStart) }

    /// Looks at the next piece of the file.
    package mutating func scan(_ piece: UnsafeBufferPointer<UInt8>) {
        guard isUTF8 else { return }
        let count = piece.count
        var i = 0
        while i < count {
            // Past the words that concern none of the answers, then a word a byte at a time.
            let run = i
            i = ByteWords.firstWord(in: piece, from: i, notPrintableOr: 0x2D, 0x3E)
            if i > run {
                dashes = 0
                controls.sawText()
            }
            let wordEnd = min(i + 8, count)
            while i < wordEnd {
                let byte = piece[i]
                switch byte {
                case 0x2D:
                    dashes += 1
                    controls.sawText()
                    i += 1
                case 0x3E:
                    if dashes >= 2 { arrows += 1 }
                    dashes = 0
                    controls.sawText()
                    i += 1
                case 0x20..<0x7F:
                    dashes = 0
                    controls.sawText()
                    i += 1
                case 0x80...:
                    // A run of non-ASCII bytes, checked whole (it may pass the word's end); a
                    // two-byte character alone (é, ß) checked here.
                    var end = i + 1
                    while end < count, piece[end] >= 0x80 { end += 1 }
                    if end == i + 2, byte >= 0xC2, byte <= 0xDF, piece[i + 1] <= 0xBF {
                        dashes = 0
                        controls.sawText()
                        i = end
                        continue
                    }
                    guard UTF8Check.firstInvalidOffset(UnsafeBufferPointer(rebasing: piece[i..<end])) == nil else {
                        isUTF8 = false
                        offset += i
                        return
                    }
                    dashes = 0
                    controls.sawText()
                    i = end
                case 0x0A, 0x0D:
                    let breakStart = offset + i
                    longestEndedLine = max(longestEndedLine, breakStart - lineStart)
                    controls.see(UInt32(byte))
                    i += 1
                    if byte == 0x0D, i < count, piece[i] == 0x0A {
                        controls.see(0x0A)
                        i += 1
                    }
                    if breakStart == lineStart {
                        longestEndedBlock = max(longestEndedBlock, breakStart - blockStart)
                        blockStart = offset + i
                    }
                    lineStart = offset + i
                    dashes = 0
                default:
                    // A control character (or DEL).
                    dashes = 0
                    controls.see(UInt32(byte))
                    i += 1
                }
            }
        }
        offset += count
    }
}
