import Testing

@testable import Captions

/// The 608 caption memory on its own (CTA-608-E §B.1: 15 rows of 32 cells): writing, erasing,
/// the roll-up window's scroll, keep and move, and the text that leaves it.
struct ScreenTests {
    static func screen(_ rows: [Int: String]) -> Screen {
        var screen = Screen()
        for (row, text) in rows {
            for (column, character) in text.unicodeScalars.enumerated() { screen.set(character, row: row, column: column) }
        }
        return screen
    }

    @Test func textIsTheNonBlankRowsTopToBottomTrimmed() {
        var screen = Self.screen([14: "  bottom  ", 2: "top", 9: "a  b"])
        #expect(screen.text == "top\na  b\nbottom", "inner spaces kept, ends trimmed, blank rows skipped")
        screen.set("\u{00A0}", row: 2, column: 5)
        #expect(screen.text.hasPrefix("top\n"), "a no-break space at a row's end is trimmed like a space")
        screen.set("!", row: 2, column: 6)
        #expect(screen.text.hasPrefix("top  \u{00A0}!\n"), "inside a row it is kept: \(screen.text.debugDescription)")
        #expect(!Screen().text.contains("\n") && Screen().text.isEmpty && Screen().isEmpty)
    }

    @Test func theLastColumnHoldsACharacter() {
        var screen = Screen()
        screen.set("z", row: 0, column: Screen.columns - 1)
        #expect(screen.text == "z" && !screen.isEmpty)
    }

    @Test func eraseAndEraseToEndOfRow() {
        var screen = Self.screen([5: "hello world", 6: "kept"])
        screen.eraseToEndOfRow(row: 5, from: 5)
        #expect(screen.text == "hello\nkept")
        screen.eraseToEndOfRow(row: 5, from: 0)
        #expect(screen.text == "kept")
        screen.erase()
        #expect(screen.isEmpty && screen == Screen())
    }

    /// RU2 at the bottom row: the top line of the window leaves, the bottom one moves up, the
    /// new bottom row is empty; rows outside the window are cleared.
    @Test func rollUpScrollsTheWindowOneRow() {
        var screen = Self.screen([13: "one", 14: "two", 3: "stray"])
        screen.rollUp(bottom: 14, depth: 2)
        #expect(screen.text == "two")
        #expect(screen.row(13).starts(with: "two") && screen.row(14).allSatisfy { $0 == " " })
        screen.set("t", row: 14, column: 0)
        screen.rollUp(bottom: 14, depth: 3)
        #expect(screen.text == "two\nt", "a deeper window keeps what was above")
    }

    @Test func aWindowTallerThanTheRowsAboveItStopsAtTheTop() {
        var screen = Self.screen([0: "a", 1: "b"])
        screen.rollUp(bottom: 1, depth: 4)
        #expect(screen.text == "b")
        #expect(screen.row(0).starts(with: "b"))
    }

    @Test func keepWindowClearsOnlyOutside() {
        var screen = Self.screen([10: "out", 12: "in one", 13: "in two", 14: "out too"])
        screen.keepWindow(bottom: 13, depth: 2)
        #expect(screen.text == "in one\nin two")
    }

    /// A PAC naming another base row moves the window's rows with it, in order; rows that would
    /// go above the top are lost.
    @Test func moveWindowCarriesTheRowsToTheNewBase() {
        var screen = Self.screen([13: "first", 14: "second"])
        screen.moveWindow(from: 14, to: 4, depth: 2)
        #expect(screen.text == "first\nsecond")
        #expect(screen.row(3).starts(with: "first") && screen.row(4).starts(with: "second"))
        #expect(screen.row(14).allSatisfy { $0 == " " })
        var high = Self.screen([12: "x", 13: "y", 14: "z"])
        high.moveWindow(from: 14, to: 1, depth: 3)
        #expect(high.text == "y\nz", "the row that would be above row 0 is gone")
        var same = Self.screen([14: "z"])
        same.moveWindow(from: 14, to: 14, depth: 3)
        #expect(same == Self.screen([14: "z"]))
    }

    @Test func keepsEveryCharacterTellsAdditionFromChange() {
        let earlier = Self.screen([14: "Hel"])
        #expect(Self.screen([14: "Hello"]).keepsEveryCharacter(of: earlier))
        #expect(Self.screen([14: "Hel", 13: "new row"]).keepsEveryCharacter(of: earlier))
        #expect(!Self.screen([14: "Help"]).keepsEveryCharacter(of: Self.screen([14: "Helo"])))
        #expect(!Self.screen([13: "Hel"]).keepsEveryCharacter(of: earlier), "moved text is not kept text")
        #expect(Screen().keepsEveryCharacter(of: Screen()))
    }
}
