import TimedText

/// One of a 708 service's eight windows (CTA-708-E §8.4): where it is, how many rows and
/// columns it has, whether it is shown, and its text.
struct Window708: Equatable {
    var defined = false
    var visible = false
    /// 0 (highest) to 7: which of two overlapping windows is drawn on top.
    var priority = 0
    /// The anchor: vertical and horizontal (in the 75 × 210 grid, or percent when relative).
    var anchorVertical = 0
    var anchorHorizontal = 0
    /// Whether the anchor is in percent of the screen (else in the 75 × 210 grid).
    var relative = false
    /// 0–8: which point of the window the anchor is (top left … bottom right).
    var anchorPoint = 0
    var rowCount = 1
    var columnCount = 32
    /// The text, row by row; a row may run past the window's column count, up to
    /// ``maximumRowLength`` (the widest window a stream can define).
    var rows: [[Character]] = [[]] { didSet { rendered = nil } }
    /// Each character's style (``CaptionStyle``), row by row as `rows`.
    var styles: [[UInt8]] = [[]] { didSet { rendered = nil } }
    /// ``text`` as last made, until the rows change: a state is compared and shown after every
    /// command, and remaking it each time made a long row quadratic.
    private var rendered: String?
    /// Characters written past ``maximumRowLength`` (dropped, and said in the report).
    private(set) var droppedCharacters = 0
    /// The most characters a row holds: `column_count` is six bits, so no window is wider than 64
    /// columns (CTA-708-E §8.10.5.2); a character written beyond is dropped and counted.
    static let maximumRowLength = 64
    /// The pen's italics and underline (SetPenAttributes).
    var penStyle: UInt8 = 0
    var penRow = 0
    var penColumn = 0

    /// DefineWindow (DF0–DF7) from its six parameter bytes.
    ///
    /// A window defined anew starts empty; one defined again keeps its text (§8.10.5.2).
    mutating func define(_ p: ArraySlice<UInt8>) {
        let b = Array(p)
        let wasDefined = defined
        defined = true
        visible = b[0] & 0x20 != 0
        priority = Int(b[0] & 0x07)
        relative = b[1] & 0x80 != 0
        anchorVertical = Int(b[1] & 0x7F)
        anchorHorizontal = Int(b[2])
        anchorPoint = Int(b[3] >> 4)
        rowCount = Int(b[3] & 0x0F) + 1
        columnCount = Int(b[4] & 0x3F) + 1
        if !wasDefined {
            clear()
        } else if rows.count > rowCount {
            styles.removeFirst(rows.count - rowCount)
            rows.removeFirst(rows.count - rowCount)
            penRow = min(penRow, rowCount - 1)
        }
    }

    /// Clears the text and puts the pen at the top left (ClearWindows, FF).
    mutating func clear() {
        rows = Array(repeating: [], count: rowCount)
        styles = Array(repeating: [], count: rowCount)
        penRow = 0
        penColumn = 0
    }

    /// Writes a character at the pen and moves it right.
    mutating func write(_ character: Character) {
        guard penColumn < Self.maximumRowLength else {
            droppedCharacters += 1
            return
        }
        if penRow >= rows.count {
            rows += Array(repeating: [], count: penRow - rows.count + 1)
            styles += Array(repeating: [], count: penRow - styles.count + 1)
        }
        while rows[penRow].count < penColumn {
            rows[penRow].append(" ")
            styles[penRow].append(0)
        }
        let style = character == " " ? 0 : penStyle
        if penColumn < rows[penRow].count {
            rows[penRow][penColumn] = character
            styles[penRow][penColumn] = style
        } else {
            rows[penRow].append(character)
            styles[penRow].append(style)
        }
        penColumn += 1
    }

    /// Backspace: the character before the pen goes.
    mutating func backspace() {
        guard penColumn > 0, penRow < rows.count else { return }
        penColumn -= 1
        if penColumn < rows[penRow].count {
            rows[penRow][penColumn] = " "
            styles[penRow][penColumn] = 0
        }
    }

    /// Carriage return: the next row; past the last one the rows scroll up (roll-up).
    mutating func carriageReturn() {
        penColumn = 0
        if penRow + 1 < rowCount {
            penRow += 1
            return
        }
        if !rows.isEmpty {
            rows.removeFirst()
            styles.removeFirst()
        }
        while rows.count < rowCount {
            rows.append([])
            styles.append([])
        }
        penRow = rowCount - 1
    }

    /// Horizontal carriage return: the pen's row is cleared and the pen goes to its start.
    mutating func horizontalCarriageReturn() {
        if penRow < rows.count {
            rows[penRow] = []
            styles[penRow] = []
        }
        penColumn = 0
    }

    /// SetPenLocation: row and column within the window.
    mutating func setPen(row: Int, column: Int) {
        penRow = min(row, max(rowCount - 1, 0))
        penColumn = column
    }

    /// Where the window is, as WebVTT settings: its anchor in percent of the picture (the grid is
    /// 75 rows by 210 columns, 16:9, unless the anchor is relative) as `line:` and `position:`,
    /// aligned by the anchor point (top, middle or bottom; left, centre or right).
    var placement: CueSettings {
        let vertical = relative ? Double(min(anchorVertical, 100)) : Double(min(anchorVertical, 74)) * 100 / 74
        let horizontal = relative ? Double(min(anchorHorizontal, 100)) : Double(min(anchorHorizontal, 209)) * 100 / 209
        let point = min(anchorPoint, 8)
        let lineAlign: CueSettings.LineAlign = point < 3 ? .start : point < 6 ? .center : .end
        let positionAlign: CueSettings.PositionAlign = point % 3 == 0 ? .lineLeft : point % 3 == 1 ? .center : .lineRight
        return CueSettings(
            line: .percentage(CuePercent.text(vertical)), lineAlign: lineAlign, position: CuePercent.text(horizontal), positionAlign: positionAlign,
            align: point % 3 == 0 ? .left : point % 3 == 1 ? .center : .right)
    }

    /// ``text``, made once per change of the rows.
    mutating func currentText() -> String {
        if let rendered { return rendered }
        let made = text
        rendered = made
        return made
    }

    /// Whether the window shows no text (``text`` as last made, if it was).
    var isBlank: Bool { (rendered ?? text).isEmpty }

    /// The window's text: non-blank rows, top to bottom, trimmed, joined by LF.
    var text: String { CaptionStyle.visibleText(rows: rows, styles: styles) }
}
