import Timebase
import TimedText

/// A caption memory: 15 rows of 32 cells (CTA-608-E §B.1).
///
/// Positions matter while decoding
/// (overwrites, backspace, roll-up); the text that leaves is rows top to bottom, trimmed.
///
/// Every 608 character is one Unicode scalar, so the cells are scalars in one flat array (row by
/// row) and the styles another: a copy is two buffers, and comparing two screens is comparing
/// them, which the decoder does for every character it writes.
///
/// A caption holds one to four rows of the fifteen: which rows may hold something is kept
/// (``rowsInUse``), so that reading the text, the placement or what was kept looks at those
/// rows only.
struct Screen: Equatable {
    static let rows = 15
    static let columns = 32
    /// An empty cell.
    static let blank: Unicode.Scalar = " "
    private static let blankCells = [Unicode.Scalar](repeating: blank, count: rows * columns)
    private static let blankStyles = [UInt8](repeating: 0, count: rows * columns)
    private var cells = Screen.blankCells
    /// Each cell's style (``CaptionStyle`` bits), moved with its character.
    private var styles = Screen.blankStyles
    /// Bit `r` is clear only when row `r` is all blank, unstyled cells: a row something was put
    /// in since it was last cleared has its bit set (it may have been blanked cell by cell since).
    private var rowsInUse: UInt16 = 0

    /// Screens are equal when their cells and styles are (however they came to be).
    ///
    /// Only rows in use on either screen are compared: a row in use on neither is blank and
    /// unstyled on both.
    static func == (a: Screen, b: Screen) -> Bool {
        let rows = a.rowsInUse | b.rowsInUse
        guard rows != 0 else { return true }
        return a.cells.withUnsafeBufferPointer { aCells in
            b.cells.withUnsafeBufferPointer { bCells in
                a.styles.withUnsafeBufferPointer { aStyles in
                    b.styles.withUnsafeBufferPointer { bStyles in
                        for row in 0..<Self.rows where rows & (1 << row) != 0 {
                            for index in (row * Self.columns)..<((row + 1) * Self.columns)
                            where aCells[index] != bCells[index] || aStyles[index] != bStyles[index] {
                                return false
                            }
                        }
                        return true
                    }
                }
            }
        }
    }

    /// Whether row `row` may hold something (see ``rowsInUse``).
    @inline(__always)
    private func inUse(_ row: Int) -> Bool { rowsInUse & (1 << row) != 0 }

    var isEmpty: Bool {
        (0..<Self.rows).allSatisfy { row in
            !inUse(row) || cells[(row * Self.columns)..<((row + 1) * Self.columns)].allSatisfy { $0 == Self.blank }
        }
    }

    /// The characters of row `index`, left to right.
    func row(_ index: Int) -> [Character] { cells[(index * Self.columns)..<((index + 1) * Self.columns)].map(Character.init) }

    mutating func erase() {
        cells = Self.blankCells
        styles = Self.blankStyles
        rowsInUse = 0
    }

    /// Puts `scalar` (with `style`, none for a space) in a cell; whether the cell changed.
    @discardableResult
    mutating func set(_ scalar: Unicode.Scalar, row: Int, column: Int, style: UInt8 = 0) -> Bool {
        let index = row * Self.columns + column
        let newStyle = scalar == Self.blank ? 0 : style
        guard cells[index] != scalar || styles[index] != newStyle else { return false }
        cells[index] = scalar
        styles[index] = newStyle
        if scalar != Self.blank { rowsInUse |= 1 << row }
        return true
    }

    mutating func eraseToEndOfRow(row: Int, from column: Int) {
        for c in column..<Screen.columns { set(Self.blank, row: row, column: c) }
    }

    /// Copies row `from` of `source` over row `to` of this screen.
    private mutating func copyRow(_ from: Int, of source: Screen, to: Int) {
        let s = from * Self.columns, d = to * Self.columns
        cells.replaceSubrange(d..<(d + Self.columns), with: source.cells[s..<(s + Self.columns)])
        styles.replaceSubrange(d..<(d + Self.columns), with: source.styles[s..<(s + Self.columns)])
        rowsInUse = source.inUse(from) ? rowsInUse | 1 << to : rowsInUse & ~(1 << to)
    }

    /// Blanks row `row` (nothing to do when it is not in use).
    private mutating func clearRow(_ row: Int) {
        guard inUse(row) else { return }
        let d = row * Self.columns
        cells.replaceSubrange(d..<(d + Self.columns), with: Self.blankCells[0..<Self.columns])
        styles.replaceSubrange(d..<(d + Self.columns), with: Self.blankStyles[0..<Self.columns])
        rowsInUse &= ~(1 << row)
    }

    /// Rolls the window `bottom - depth + 1 ... bottom` up one row: its top row leaves, the
    /// others move up, the bottom row is cleared; rows outside the window are cleared
    /// (CTA-608-E roll-up).
    mutating func rollUp(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        let source = self
        for r in top..<bottom { copyRow(r + 1, of: source, to: r) }
        clearRow(bottom)
        for r in 0..<Screen.rows where r < top || r > bottom { clearRow(r) }
    }

    /// Clears every row outside the roll-up window ending at `bottom`.
    mutating func keepWindow(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        for r in 0..<Screen.rows where r < top || r > bottom { clearRow(r) }
    }

    /// Moves the roll-up window so it ends at `newBottom` (a PAC naming another base row).
    mutating func moveWindow(from oldBottom: Int, to newBottom: Int, depth: Int) {
        guard oldBottom != newBottom else { return }
        var moved = Screen()
        for offset in 0..<depth {
            let from = oldBottom - offset, to = newBottom - offset
            if from >= 0 && to >= 0 { moved.copyRow(from, of: self, to: to) }
        }
        self = moved
    }

    /// True when every character `earlier` shows is still shown, in the same cell (this screen
    /// only added text to it).
    func keepsEveryCharacter(of earlier: Screen) -> Bool {
        cells.withUnsafeBufferPointer { now in
            earlier.cells.withUnsafeBufferPointer { before in
                for row in 0..<Self.rows where earlier.inUse(row) {
                    for index in (row * Self.columns)..<((row + 1) * Self.columns) where before[index] != Self.blank && now[index] != before[index] {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// Whether a cell shows something (neither a space nor a no-break space).
    private static func shows(_ scalar: Unicode.Scalar) -> Bool { scalar != " " && scalar != "\u{00A0}" }

    /// Where the text is, as WebVTT settings.
    ///
    /// After the W3C's mapping of CEA-608 to WebVTT: the 15 rows and 32 columns fill the middle 80 % of the picture, so a row is 5.33 % of its height
    /// and a column 2.5 % of its width; the cue's top is its top row (`line:`, start-aligned)
    /// and its left edge the leftmost text (`position:`, `align:left`). Empty for an empty screen.
    var placement: CueSettings {
        // The top row showing something, and the leftmost column any row shows something in:
        // each row looked at up to the leftmost found so far.
        var top: Int?
        var left = Self.columns
        cells.withUnsafeBufferPointer { cells in
            for row in 0..<Self.rows where inUse(row) {
                let start = row * Self.columns
                for column in 0..<left where Self.shows(cells[start + column]) {
                    if top == nil { top = row }
                    left = column
                    break
                }
            }
        }
        guard let top else { return CueSettings() }
        return CueSettings(
            line: .percentage(CuePercent.text(10 + Double(top) * 80 / Double(Screen.rows))), lineAlign: .start,
            position: CuePercent.text(10 + Double(left) * 80 / Double(Screen.columns)), positionAlign: .lineLeft, align: .left)
    }

    /// The visible text: non-blank rows, top to bottom, each trimmed, joined by LF.
    var text: String {
        var out = ""
        // Unstyled rows as UTF-8, put into `out` before a styled row and at the end.
        var bytes: [UInt8] = []
        var rowsWritten = 0
        cells.withUnsafeBufferPointer { cells in
            styles.withUnsafeBufferPointer { styles in
                for r in 0..<Self.rows where inUse(r) {
                    let start = r * Self.columns, end = start + Self.columns
                    var first = start
                    while first < end && !Self.shows(cells[first]) { first += 1 }
                    guard first < end else { continue }
                    var last = end - 1
                    while !Self.shows(cells[last]) { last -= 1 }
                    if rowsWritten > 0 { bytes.append(0x0A) }
                    rowsWritten += 1
                    if !(first...last).contains(where: { styles[$0] != 0 }) {
                        // A row without styles is its scalars as they are.
                        for index in first...last {
                            let scalar = cells[index]
                            if scalar.isASCII { bytes.append(UInt8(truncatingIfNeeded: scalar.value)) } else { UTF8.encode(scalar) { bytes.append($0) } }
                        }
                        continue
                    }
                    out += String(decoding: bytes, as: UTF8.self)
                    bytes.removeAll(keepingCapacity: true)
                    CaptionStyle.append(
                        UnsafeBufferPointer(rebasing: cells[first...last]).map(Character.init)[...], styles: Array(styles[first...last])[...], to: &out)
                }
            }
        }
        out += String(decoding: bytes, as: UTF8.self)
        return out
    }
}
