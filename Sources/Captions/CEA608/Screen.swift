import Timebase
import TimedText

/// A caption memory: 15 rows of 32 cells (CTA-608-E §B.1).
///
/// Positions matter while decoding
/// (overwrites, backspace, roll-up); the text that leaves is rows top to bottom, trimmed.
struct Screen: Equatable {
    static let rows = 15
    static let columns = 32
    private(set) var cells: [[Character]] = Array(repeating: Array(repeating: " ", count: Screen.columns), count: Screen.rows)
    /// Each cell's style (``CaptionStyle`` bits), moved with its character.
    private(set) var styles: [[UInt8]] = Array(repeating: Array(repeating: 0, count: Screen.columns), count: Screen.rows)
    private static let blankStyles = Array(repeating: UInt8(0), count: Screen.columns)

    var isEmpty: Bool { cells.allSatisfy { $0.allSatisfy { $0 == " " } } }

    mutating func erase() {
        cells = Array(repeating: Array(repeating: " ", count: Screen.columns), count: Screen.rows)
        styles = Array(repeating: Self.blankStyles, count: Screen.rows)
    }

    mutating func set(_ character: Character, row: Int, column: Int, style: UInt8 = 0) {
        cells[row][column] = character
        styles[row][column] = character == " " ? 0 : style
    }

    mutating func eraseToEndOfRow(row: Int, from column: Int) {
        for c in column..<Screen.columns {
            cells[row][c] = " "
            styles[row][c] = 0
        }
    }

    /// Rolls the window `bottom - depth + 1 ... bottom` up one row: its top row leaves, the
    /// others move up, the bottom row is cleared; rows outside the window are cleared
    /// (CTA-608-E roll-up).
    mutating func rollUp(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        let blank = Array(repeating: Character(" "), count: Screen.columns)
        for r in top..<bottom {
            cells[r] = cells[r + 1]
            styles[r] = styles[r + 1]
        }
        cells[bottom] = blank
        styles[bottom] = Self.blankStyles
        for r in 0..<Screen.rows where r < top || r > bottom {
            cells[r] = blank
            styles[r] = Self.blankStyles
        }
    }

    /// Clears every row outside the roll-up window ending at `bottom`.
    mutating func keepWindow(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        for r in 0..<Screen.rows where r < top || r > bottom {
            cells[r] = Array(repeating: " ", count: Screen.columns)
            styles[r] = Self.blankStyles
        }
    }

    /// Moves the roll-up window so it ends at `newBottom` (a PAC naming another base row).
    mutating func moveWindow(from oldBottom: Int, to newBottom: Int, depth: Int) {
        guard oldBottom != newBottom else { return }
        var moved = Array(repeating: Array(repeating: Character(" "), count: Screen.columns), count: Screen.rows)
        var movedStyles = Array(repeating: Self.blankStyles, count: Screen.rows)
        for offset in 0..<depth {
            let from = oldBottom - offset, to = newBottom - offset
            if from >= 0 && to >= 0 {
                moved[to] = cells[from]
                movedStyles[to] = styles[from]
            }
        }
        cells = moved
        styles = movedStyles
    }

    /// True when every character `earlier` shows is still shown, in the same cell (this screen
    /// only added text to it).
    func keepsEveryCharacter(of earlier: Screen) -> Bool {
        for r in 0..<Screen.rows {
            for c in 0..<Screen.columns where earlier.cells[r][c] != " " && cells[r][c] != earlier.cells[r][c] { return false }
        }
        return true
    }

    /// Where the text is, as WebVTT settings.
    ///
    /// After the W3C's mapping of CEA-608 to WebVTT: the 15 rows and 32 columns fill the middle 80 % of the picture, so a row is 5.33 % of its height
    /// and a column 2.5 % of its width; the cue's top is its top row (`line:`, start-aligned)
    /// and its left edge the leftmost text (`position:`, `align:left`). Empty for an empty screen.
    var placement: CueSettings {
        guard let top = cells.firstIndex(where: { row in row.contains { $0 != " " && $0 != "\u{00A0}" } }) else { return CueSettings() }
        let left = cells.compactMap { row in row.firstIndex { $0 != " " && $0 != "\u{00A0}" } }.min() ?? 0
        return CueSettings(
            line: .percentage(CuePercent.text(10 + Double(top) * 80 / Double(Screen.rows))), lineAlign: .start,
            position: CuePercent.text(10 + Double(left) * 80 / Double(Screen.columns)), positionAlign: .lineLeft, align: .left)
    }

    /// The visible text: non-blank rows, top to bottom, each trimmed, joined by LF.
    var text: String { CaptionStyle.visibleText(rows: cells, styles: styles) }
}
