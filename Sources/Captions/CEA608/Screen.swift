import Timebase

/// A caption memory: 15 rows of 32 cells (CTA-608-E §B.1).
///
/// Positions matter while decoding
/// (overwrites, backspace, roll-up); the text that leaves is rows top to bottom, trimmed.
struct Screen: Equatable {
    static let rows = 15
    static let columns = 32
    private(set) var cells: [[Character]] = Array(repeating: Array(repeating: " ", count: Screen.columns), count: Screen.rows)

    var isEmpty: Bool { cells.allSatisfy { $0.allSatisfy { $0 == " " } } }

    mutating func erase() {
        cells = Array(repeating: Array(repeating: " ", count: Screen.columns), count: Screen.rows)
    }

    mutating func set(_ character: Character, row: Int, column: Int) {
        cells[row][column] = character
    }

    mutating func eraseToEndOfRow(row: Int, from column: Int) {
        for c in column..<Screen.columns { cells[row][c] = " " }
    }

    /// Rolls the window `bottom - depth + 1 ... bottom` up one row: its top row leaves, the
    /// others move up, the bottom row is cleared; rows outside the window are cleared
    /// (CTA-608-E roll-up).
    mutating func rollUp(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        let blank = Array(repeating: Character(" "), count: Screen.columns)
        for r in top..<bottom { cells[r] = cells[r + 1] }
        cells[bottom] = blank
        for r in 0..<Screen.rows where r < top || r > bottom { cells[r] = blank }
    }

    /// Clears every row outside the roll-up window ending at `bottom`.
    mutating func keepWindow(bottom: Int, depth: Int) {
        let top = max(0, bottom - depth + 1)
        for r in 0..<Screen.rows where r < top || r > bottom { cells[r] = Array(repeating: " ", count: Screen.columns) }
    }

    /// Moves the roll-up window so it ends at `newBottom` (a PAC naming another base row).
    mutating func moveWindow(from oldBottom: Int, to newBottom: Int, depth: Int) {
        guard oldBottom != newBottom else { return }
        var moved = Array(repeating: Array(repeating: Character(" "), count: Screen.columns), count: Screen.rows)
        for offset in 0..<depth {
            let from = oldBottom - offset, to = newBottom - offset
            if from >= 0 && to >= 0 { moved[to] = cells[from] }
        }
        cells = moved
    }

    /// True when every character `earlier` shows is still shown, in the same cell (this screen
    /// only added text to it).
    func keepsEveryCharacter(of earlier: Screen) -> Bool {
        for r in 0..<Screen.rows {
            for c in 0..<Screen.columns where earlier.cells[r][c] != " " && cells[r][c] != earlier.cells[r][c] { return false }
        }
        return true
    }

    /// The visible text: non-blank rows, top to bottom, each trimmed, joined by LF.
    var text: String {
        var out = ""
        for row in cells {
            // Trimmed of spaces and no-break spaces at both ends (compared directly: this runs on
            // every change of the screen).
            guard let first = row.firstIndex(where: { $0 != " " && $0 != "\u{00A0}" }),
                let last = row.lastIndex(where: { $0 != " " && $0 != "\u{00A0}" })
            else { continue }
            if !out.isEmpty { out += "\n" }
            for character in row[first...last] { out.append(character) }
        }
        return out
    }
}
