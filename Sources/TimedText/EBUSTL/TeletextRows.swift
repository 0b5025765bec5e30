/// What teletext rows become in WebVTT, shared by the readers that carry teletext text: DVB
/// teletext subtitle pages and EBU STL files.
package enum TeletextRows {
    /// The WebVTT colour class of each teletext alpha colour code 0x00–0x07 (green is `lime`);
    /// white, the default, has none.
    package static let colourClasses: [String?] = ["black", "red", "lime", "yellow", "blue", "magenta", "cyan", nil]

    /// How a run of text looks: a colour class, italics, underline.
    package struct Style: Equatable {
        package var colour: String?
        package var italic = false
        package var underline = false

        package init(colour: String? = nil, italic: Bool = false, underline: Bool = false) {
            self.colour = colour
            self.italic = italic
            self.underline = underline
        }
    }

    /// One row as cue text, built a character at a time: spaces collapsed and trimmed (teletext
    /// pads rows to centre them and spacing attributes take a cell), each run of one style in the
    /// tags it asks for, the spaces between runs outside them.
    package struct Row {
        private var text = ""
        private var piece = ""
        private var pieceStyle = Style()
        private var pendingSpace = false

        package init() {}

        /// A space, or a cell a spacing attribute takes.
        package mutating func space() {
            if !text.isEmpty || !piece.isEmpty { pendingSpace = true }
        }

        /// A character other than a space, in `style`.
        package mutating func append(_ character: Character, _ style: Style) {
            if style != pieceStyle {
                text += Self.wrap(piece, pieceStyle)
                piece = ""
                pieceStyle = style
                if pendingSpace { text += " " }
            } else if pendingSpace {
                piece += " "
            }
            pendingSpace = false
            piece.append(character)
        }

        /// The row's cue text.
        package var cueText: String { text + Self.wrap(piece, pieceStyle) }

        static func wrap(_ text: String, _ style: Style) -> String {
            guard !text.isEmpty else { return "" }
            var out = CueText.escaped(text)
            if style.underline { out = "<u>\(out)</u>" }
            if style.italic { out = "<i>\(out)</i>" }
            if let colour = style.colour { out = "<c.\(colour)>\(out)</c>" }
            return out
        }
    }

    /// Where rows `first` to `last` of a screen of `rows` rows go: a subtitle in the upper half
    /// placed by its first row's top, one in the lower half by its last row's bottom, rows spread
    /// over the 10–90 % title-safe height.
    package static func placement(firstRow first: Int, lastRow last: Int, rows: Int) -> CueSettings {
        var settings = CueSettings()
        if Double(first) < Double(rows) / 2 {
            settings.line = .percentage(percent(10 + Double(first - 1) / Double(rows) * 80))
            settings.lineAlign = .start
        } else {
            settings.line = .percentage(percent(10 + Double(last) / Double(rows) * 80))
            settings.lineAlign = .end
        }
        return settings
    }

    /// A percentage to two decimals, without a trailing `.0`.
    static func percent(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
