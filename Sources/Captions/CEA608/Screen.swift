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
    var text: String {
        var out = ""
        for (index, row) in cells.enumerated() {
            // Trimmed of spaces and no-break spaces at both ends (compared directly: this runs on
            // every change of the screen).
            guard let first = row.firstIndex(where: { $0 != " " && $0 != "\u{00A0}" }),
                let last = row.lastIndex(where: { $0 != " " && $0 != "\u{00A0}" })
            else { continue }
            if !out.isEmpty { out += "\n" }
            CaptionStyle.append(row[first...last], styles: styles[index][first...last], to: &out)
        }
        return out
    }
}

/// Italics and underline of caption text (608 PACs and mid-row codes, 708 SetPenAttributes).
///
/// They are carried in a caption's text as private-use marks around each styled run until the collector
/// writes them as WebVTT `<i>` and `<u>` (``webVTT(_:)``). Colours and the rest are left to the viewer.
package enum CaptionStyle {
    static let italic: UInt8 = 1
    static let underline: UInt8 = 2
    private static let italicOn: Character = "\u{E000}", italicOff: Character = "\u{E001}"
    private static let underlineOn: Character = "\u{E002}", underlineOff: Character = "\u{E003}"

    /// Appends `characters` with their `styles`, marking where each style starts and ends.
    static func append(_ characters: ArraySlice<Character>, styles: ArraySlice<UInt8>, to out: inout String) {
        // Most text has no style: copied as it is.
        guard styles.contains(where: { $0 != 0 }) else {
            for character in characters { out.append(character) }
            return
        }
        var current: UInt8 = 0
        let characters = Array(characters), styles = Array(styles)
        // The style of the next character that is not a space, from each position (one pass back).
        var nextStyle = [UInt8](repeating: 0, count: characters.count + 1)
        for index in characters.indices.reversed() { nextStyle[index] = characters[index] == " " ? nextStyle[index + 1] : styles[index] }
        for (index, character) in characters.enumerated() {
            // A space takes the styles in force on both sides of it: inside a styled phrase it
            // is styled, between two runs it belongs to neither.
            let wanted = character == " " ? current & nextStyle[index] : styles[index]
            if wanted != current {
                if current & underline != 0 && wanted & underline == 0 { out.append(underlineOff) }
                if current & italic != 0 && wanted & italic == 0 { out.append(italicOff) }
                if wanted & italic != 0 && current & italic == 0 { out.append(italicOn) }
                if wanted & underline != 0 && current & underline == 0 { out.append(underlineOn) }
                current = wanted
            }
            out.append(character)
        }
        if current & underline != 0 { out.append(underlineOff) }
        if current & italic != 0 { out.append(italicOff) }
    }

    /// A caption's text as WebVTT cue text: escaped, the style marks as `<i>`/`<u>` tags,
    /// sanitised (tags balanced).
    package static func webVTT(_ text: String) -> String {
        let escaped = CueText.escaped(text)
        guard escaped.unicodeScalars.contains(where: { (0xE000...0xE003).contains($0.value) }) else { return CueText.sanitized(escaped).text }
        var tagged = ""
        for character in escaped {
            switch character {
            case italicOn: tagged += "<i>"
            case italicOff: tagged += "</i>"
            case underlineOn: tagged += "<u>"
            case underlineOff: tagged += "</u>"
            default: tagged.append(character)
            }
        }
        return CueText.sanitized(tagged).text
    }
}

/// Percentages for cue settings: at most two decimals, no trailing zeros (`84.67`, `10`).
enum CuePercent {
    static func text(_ value: Double) -> String {
        let hundredths = Int((min(max(value, 0), 100) * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
