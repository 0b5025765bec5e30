import TimedText

/// Italics and underline of caption text (608 PACs and mid-row codes, 708 SetPenAttributes).
///
/// They are carried in a caption's text as private-use marks around each styled run until the collector
/// writes them as WebVTT `<i>` and `<u>` (``webVTT(_:)``). Colours and the rest are left to the viewer.
package enum CaptionStyle {
    static let italic: UInt8 = 1
    static let underline: UInt8 = 2
    private static let italicOn: Character = "\u{E000}", italicOff: Character = "\u{E001}"
    private static let underlineOn: Character = "\u{E002}", underlineOff: Character = "\u{E003}"

    /// The visible text of a grid of character rows (a 608 screen, a 708 window) with styles.
    ///
    /// Non-blank rows, top to bottom, each trimmed of spaces and no-break spaces, joined by LF,
    /// styles marked as ``append(_:styles:to:)`` marks them.
    static func visibleText(rows: [[Character]], styles: [[UInt8]]) -> String {
        var out = ""
        for (index, row) in rows.enumerated() {
            // Compared directly: this runs on every change of the screen.
            guard let first = row.firstIndex(where: { $0 != " " && $0 != "\u{00A0}" }),
                let last = row.lastIndex(where: { $0 != " " && $0 != "\u{00A0}" })
            else { continue }
            if !out.isEmpty { out += "\n" }
            append(row[first...last], styles: styles[index][first...last], to: &out)
        }
        return out
    }

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
        // The marks U+E000-U+E003 are EE 80 80-83 in UTF-8: text without 0xEE has none.
        guard escaped.utf8.contains(0xEE), escaped.unicodeScalars.contains(where: { (0xE000...0xE003).contains($0.value) }) else {
            return CueText.sanitized(escaped).text
        }
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
