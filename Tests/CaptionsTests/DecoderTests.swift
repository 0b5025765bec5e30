import TestSupport
import Testing
import Timebase
import TimedText

@testable import Captions

/// The 608 decoder from byte pairs, per mode and command (CTA-608-E).
///
/// One pair per frame at
/// 30000/1001 fps; times in frames.
struct DecoderTests {
    struct Run {
        var decoder = CEA608FieldDecoder(field: 1)
        var collector = CaptionCollector()
        var frame = 0

        static func time(_ frame: Int) -> MediaTime { MediaTime(ticks: Int64(frame) * 3003) }

        mutating func send(_ pairs: [(UInt8, UInt8)], doubleControls: Bool = true) {
            for p in pairs {
                let isControl = (0x10...0x1F).contains(p.0 & 0x7F)
                for _ in 0..<(isControl && doubleControls ? 2 : 1) {
                    decoder.decode(p.0, p.1, at: Self.time(frame), into: &collector)
                    frame += 1
                }
            }
        }

        mutating func wait(until frame: Int) { self.frame = max(self.frame, frame) }

        mutating func cues(_ service: CaptionService = .cc1) -> [(Int, Int, String)] {
            decoder.finish(at: Self.time(frame), into: &collector)
            return (collector.cues[service] ?? []).map { (Int($0.start.ticks / 3003), Int($0.end.ticks / 3003), $0.text) }
        }
    }

    let rcl = CC608.command(0x20), eoc = CC608.command(0x2F), edm = CC608.command(0x2C), enm = CC608.command(0x2E)
    let cr = CC608.command(0x2D), rdc = CC608.command(0x29), bs = CC608.command(0x21), der = CC608.command(0x24)

    func equal(_ a: [(Int, Int, String)], _ b: [(Int, Int, String)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
    }

    @Test func popOnShowsAtEOCUntilErase() {
        var run = Run()
        run.send([rcl, enm, CC608.pac(row: 14)] + CC608.text("Hello") + [CC608.pac(row: 15)] + CC608.text("world") + [eoc])
        // RCL 0-1, ENM 2-3, PAC 4-5, text 6-8, PAC 9-10, text 11-13, EOC 14-15: shown from 14.
        run.wait(until: 40)
        run.send([edm])
        #expect(equal(run.cues(), [(14, 40, "Hello\nworld")]))
    }

    @Test func secondEOCReplacesTheFirst() {
        var run = Run()
        run.send([rcl] + CC608.text("One") + [eoc])
        run.wait(until: 20)
        run.send([rcl, enm] + CC608.text("Two") + [eoc])
        let second = run.frame - 2
        run.wait(until: 50)
        run.send([edm])
        #expect(equal(run.cues(), [(4, second, "One"), (second, 50, "Two")]))
    }

    @Test func captionsEndAfterTenSeconds() {
        var run = Run()
        run.send([rcl] + CC608.text("Long") + [eoc])
        run.wait(until: 600)
        run.send([edm])
        run.decoder.finish(at: Run.time(run.frame), into: &run.collector)
        let cue = run.collector.cues[.cc1]?.first
        #expect(cue?.start == Run.time(4))
        #expect(cue?.end == Run.time(4) + MediaTime(seconds: 10))
    }

    @Test func doubledControlCodesAreDroppedOnce() {
        var run = Run()
        // EOC sent four times in a row is two EOCs: the caption shows, then the (empty) other memory.
        run.send([rcl] + CC608.text("X"))
        run.send([eoc, eoc], doubleControls: true)
        #expect(run.cues().map(\.2) == ["X"])
        #expect(run.cues().first?.1 == 5, "the second EOC (frames 5-6) flips back and ends the caption")
    }

    @Test func rollUpRowsScrollAndNeverOverlap() {
        var run = Run()
        run.send([CC608.command(0x25), CC608.pac(row: 15)] + CC608.text("one"))  // RU2: frames 0-1, PAC 2-3, text 4-5
        run.send([cr])  // 6-7
        run.send(CC608.text("two") + [cr])  // text 8-9, CR 10-11
        run.send(CC608.text("three") + [cr])  // text 12-14, CR 15-16
        run.wait(until: 30)
        run.send([edm])
        // One cue per screen: "one" from its last character (5); the CR rolls it up without changing
        // the text; "two" is on screen from 9; the next CR takes "one" off (RU2), and so on.
        #expect(equal(run.cues(), [(5, 9, "one"), (9, 10, "one\ntwo"), (10, 14, "two"), (14, 15, "two\nthree"), (15, 30, "three")]))
    }

    @Test func rollUpDepthThree() {
        var run = Run()
        run.send([CC608.command(0x26)] + CC608.text("a") + [cr] + CC608.text("b") + [cr] + CC608.text("c") + [cr] + CC608.text("d") + [cr])
        let texts = run.cues().map(\.2)
        #expect(texts == ["a", "a\nb", "a\nb\nc", "b\nc", "b\nc\nd", "c\nd"])
    }

    @Test func rollUpFourAndBaseRowFromPAC() {
        var run = Run()
        run.send([CC608.command(0x27), CC608.pac(row: 10)] + CC608.text("x") + [cr] + CC608.text("y") + [CC608.pac(row: 12)] + CC608.text("z") + [cr])
        // The PAC moves the window to end at row 12 and puts the cursor at column 0: z overwrites y.
        #expect(run.cues().map(\.2) == ["x", "x\ny", "x\nz"])
    }

    @Test func paintOnShowsEachStateOfTheScreen() {
        var run = Run()
        run.send([rdc, CC608.pac(row: 15)] + CC608.text("Paint"))  // characters at frames 4-6
        run.wait(until: 20)
        run.send(CC608.text("ed"))
        run.wait(until: 40)
        run.send([edm])
        #expect(equal(run.cues(), [(6, 20, "Paint"), (20, 40, "Painted")]))
    }

    @Test func backspaceAndDeleteToEndOfRow() {
        var run = Run()
        run.send(
            [rcl, CC608.pac(row: 15)] + CC608.text("Helpx") + [bs] + CC608.text("!") + [CC608.pac(row: 14)] + CC608.text("gone") + [CC608.pac(row: 14)] + [
                der, eoc,
            ])
        #expect(run.cues().map(\.2) == ["Help!"])
    }

    @Test func tabOffsetsMoveTheCursor() {
        var run = Run()
        run.send([rcl, CC608.pac(row: 15)] + CC608.text("a") + [CC608.code(0x17, 0x22)] + CC608.text("b") + [eoc])
        #expect(run.cues().map(\.2) == ["a  b"])
    }

    @Test func specialAndExtendedCharacters() {
        var run = Run()
        // "Gruss" then extended ß (0x13 0x34) replaces the last s; ♪ is special 0x37; 0x2A in the basic set is á.
        // An extended character replaces the one before it: "!" gives way to “.
        run.send([rcl] + CC608.text("Grus") + [CC608.code(0x13, 0x34), CC608.code(0x11, 0x37)] + CC608.text("*!") + [CC608.code(0x12, 0x2E)] + [eoc])
        #expect(run.cues().map(\.2) == ["Gruß♪á“"])
    }

    @Test func midRowCodesShowAsSpaces() {
        var run = Run()
        // 0x2E is white italics: the space it shows, then italic text.
        run.send([rcl] + CC608.text("a") + [CC608.code(0x11, 0x2E)] + CC608.text("b") + [eoc])
        #expect(run.cues().map(\.2) == ["a <i>b</i>"])
    }

    @Test func parityErrors() {
        var run = Run()
        run.send([rcl] + CC608.text("ok"))
        // A character with bad parity: a solid block. 'X' is 0x58 (odd count? 3 bits: odd), sent with the top bit set.
        run.send([(0x58 | 0x80, CC608.parity(0x21))], doubleControls: false)
        // A control code with bad parity is dropped; its good repeat still works.
        run.send([(0x14, 0x2F)], doubleControls: false)  // EOC, first byte without its parity bit
        run.send([eoc], doubleControls: false)
        #expect(run.cues().map(\.2) == ["ok█!"])
    }

    @Test func secondDataChannelIsCC2() {
        var run = Run()
        run.send([CC608.command(0x20, channel: 2)] + CC608.text("two") + [CC608.command(0x2F, channel: 2)])
        run.send([rcl] + CC608.text("one") + [eoc])
        #expect(run.cues(.cc2).map(\.2) == ["two"])
        #expect(run.cues(.cc1).map(\.2) == ["one"])
    }

    @Test func textModeIsNotCaptions() {
        var run = Run()
        run.send([CC608.command(0x2A)] + CC608.text("text service") + [rcl] + CC608.text("caption") + [eoc])
        #expect(run.cues().map(\.2) == ["caption"])
    }

    @Test func xdsOnFieldTwoIsSkipped() {
        var decoder = CEA608FieldDecoder(field: 2)
        var collector = CaptionCollector()
        var frame = 0
        func send(_ p: (UInt8, UInt8)) { decoder.decode(p.0, p.1, at: MediaTime(ticks: Int64(frame) * 3003), into: &collector); frame += 1 }
        // XDS: program name start (0x01 0x03), characters, end (0x0F + checksum).
        send(CC608.pair(0x01, 0x03)); send(CC608.pair(0x41, 0x42)); send(CC608.pair(0x0F, 0x1D))
        for p in [CC608.command(0x20, field: 2), CC608.command(0x20, field: 2)] + CC608.text("CC3") + [
            CC608.command(0x2F, field: 2), CC608.command(0x2F, field: 2),
        ] { send(p) }
        decoder.finish(at: MediaTime(ticks: Int64(frame + 10) * 3003), into: &collector)
        #expect(collector.cues[.cc3]?.map(\.text) == ["CC3"])
    }

    @Test func reorderBufferRestoresPresentationOrder() {
        var buffer = ReorderBuffer()
        var out: [Int64] = []
        // Decode order I P B B with presentation times 0, 3, 1, 2 (×1000), repeated.
        for gop in 0..<10 {
            for t: Int64 in [0, 3, 1, 2] {
                let time = MediaTime(ticks: (Int64(gop) * 4 + t) * 1000)
                buffer.add(UnsafeBufferPointer(start: nil, count: 0), time: time) { released, _ in out.append(released.ticks / 1000) }
            }
        }
        buffer.drain { released, _ in out.append(released.ticks / 1000) }
        #expect(out == Array(0..<40))
    }

    /// The buffer releases what a plain model does (of the units held, the one shown first, the
    /// earlier arrival on equal times) on random orders: repeated times, a unit later than the
    /// window, one earlier than everything already released.
    @Test func reorderBufferReleasesWhatTheModelReleases() {
        var state: UInt64 = 12_345
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<200 {
            var buffer = ReorderBuffer()
            var model: [(time: Int64, tag: UInt8)] = []
            var got: [(Int64, UInt8)] = [], expected: [(Int64, UInt8)] = []
            func popModel() -> (Int64, UInt8) {
                var best = 0
                for i in model.indices.dropFirst() where model[i].time < model[best].time { best = i }
                return model.remove(at: best)
            }
            for n in 0..<next(80) {
                let time = Int64([next(40), next(4), 1_000 + next(3), -next(50)][next(4)])
                let tag = UInt8(truncatingIfNeeded: n)
                model.append((time, tag))
                if model.count > ReorderBuffer.depth { expected.append(popModel()) }
                // Units of one to 40 triplets (more than a slot first holds): each comes back whole.
                let data = (0...(n % 40)).map { CCData(type: 0, valid: true, byte1: tag, byte2: UInt8($0)) }
                data.withUnsafeBufferPointer { data in
                    buffer.add(data, time: MediaTime(ticks: time)) { released, items in
                        #expect(items.map(\.byte2) == (0...(Int(items[0].byte1) % 40)).map { UInt8($0) })
                        got.append((released.ticks, items[0].byte1))
                    }
                }
            }
            while !model.isEmpty { expected.append(popModel()) }
            buffer.drain { released, items in got.append((released.ticks, items[0].byte1)) }
            #expect(got.map(\.0) == expected.map(\.0) && got.map(\.1) == expected.map(\.1))
        }
    }

    /// A 608 screen's text, placement and "only added" test against plain models on random
    /// screens: rows trimmed of spaces and no-break spaces, joined by LF, styles marked as the
    /// 708 windows' text is (``CaptionStyle/visibleText(rows:styles:)``); the top row and
    /// leftmost column showing something; every character shown before still in its cell.
    @Test func screenTextAndPlacementAreWhatTheModelsGive() {
        var state: UInt64 = 2_026
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let scalars: [Unicode.Scalar] = [" ", " ", " ", "\u{00A0}", "A", "z", "é", "♪", "日", "'"]
        for _ in 0..<300 {
            var screen = Screen()
            var grid = [[Character]](repeating: [Character](repeating: " ", count: Screen.columns), count: Screen.rows)
            var styles = [[UInt8]](repeating: [UInt8](repeating: 0, count: Screen.columns), count: Screen.rows)
            let before = screen
            for _ in 0..<next(40) {
                let (row, column) = (next(Screen.rows), next(Screen.columns))
                let scalar = scalars[next(scalars.count)]
                let style = next(3) == 0 ? UInt8(next(4)) : 0
                screen.set(scalar, row: row, column: column, style: style)
                grid[row][column] = Character(scalar)
                styles[row][column] = scalar == Screen.blank ? 0 : style
            }
            #expect(screen.text == CaptionStyle.visibleText(rows: grid, styles: styles))
            let shown = grid.indices.flatMap { r in grid[r].indices.filter { grid[r][$0] != " " && grid[r][$0] != "\u{00A0}" }.map { (r, $0) } }
            let placement = screen.placement
            if let top = shown.map(\.0).min(), let left = shown.map(\.1).min() {
                #expect(placement.line == .percentage(CuePercent.text(10 + Double(top) * 80 / Double(Screen.rows))))
                #expect(placement.position == CuePercent.text(10 + Double(left) * 80 / Double(Screen.columns)))
            } else {
                #expect(placement == CueSettings())
            }
            #expect(screen.keepsEveryCharacter(of: before))
            #expect(before.keepsEveryCharacter(of: screen) == grid.allSatisfy { $0.allSatisfy { $0 == " " } })
            if let (r, c) = shown.first {
                var changed = screen
                changed.set(Screen.blank, row: r, column: c)
                #expect(!changed.keepsEveryCharacter(of: screen))
            }
            // Equality is the cells' and styles' (a row blanked cell by cell stays in use on one
            // side only): against another random screen, and against this one rebuilt cell by cell.
            var other = Screen()
            var otherGrid = grid, otherStyles = styles
            for _ in 0..<next(6) {
                let (row, column) = (next(Screen.rows), next(Screen.columns))
                let scalar = scalars[next(scalars.count)]
                let style = next(3) == 0 ? UInt8(next(4)) : 0
                otherGrid[row][column] = Character(scalar)
                otherStyles[row][column] = scalar == Screen.blank ? 0 : style
            }
            for r in 0..<Screen.rows {
                for c in 0..<Screen.columns {
                    other.set(otherGrid[r][c].unicodeScalars.first ?? Screen.blank, row: r, column: c, style: otherStyles[r][c])
                }
            }
            #expect((screen == other) == (grid == otherGrid && styles == otherStyles))
            #expect(other == other && screen == screen)
        }
    }

    // MARK: - A cue is a screen state (CTA-608-E: what the displayed memory shows, frame by frame)

    /// Paint-on "LINE ONE" at 1 s, "LINE TWO" on row 15 at 13 s, EDM at 16 s.
    ///
    /// The second line must not show before it is sent, and the first is on screen the whole time.
    @Test func paintOnLinesAreStatesOfTheirOwn() {
        var run = Run()
        run.wait(until: 30)
        run.send([rdc, CC608.pac(row: 14)] + CC608.text("LINE ONE"))  // RDC 30-31, PAC 32-33, text 34-37
        run.wait(until: 390)
        run.send([CC608.pac(row: 15)] + CC608.text("LINE TWO"))  // PAC 390-391, text 392-395
        run.wait(until: 480)
        run.send([edm])
        // The first state lasts 11.9 s: it ends because text was added, so the 10 s cap does not cut it.
        #expect(equal(run.cues(), [(37, 395, "LINE ONE"), (395, 480, "LINE ONE\nLINE TWO")]))
    }

    @Test func paintOnOverAPopOnCaptionAndARepaint() {
        var run = Run()
        run.send([rcl, enm, CC608.pac(row: 15)] + CC608.text("Popped") + [eoc])  // EOC at 9
        run.wait(until: 30)
        // Paint-on writes into the displayed memory: a row above, then a correction of a letter.
        run.send([rdc, CC608.pac(row: 14)] + CC608.text("Above"))  // text 34-36
        run.wait(until: 60)
        run.send([CC608.pac(row: 15)] + CC608.text("T"))  // "Popped" → "Topped" at 62
        run.wait(until: 90)
        run.send([edm])
        #expect(equal(run.cues(), [(9, 36, "Popped"), (36, 62, "Above\nPopped"), (62, 90, "Above\nTopped")]))
    }

    @Test func paintOnAfterRollUpKeepsTheRolledText() {
        var run = Run()
        run.send([CC608.command(0x25), CC608.pac(row: 15)] + CC608.text("rolled") + [cr])  // text 4-6, CR 7-8
        run.wait(until: 20)
        run.send([rdc, CC608.pac(row: 15)] + CC608.text("painted"))  // RDC keeps the display; text 24-27
        run.wait(until: 50)
        run.send([edm])
        #expect(equal(run.cues(), [(6, 27, "rolled"), (27, 50, "rolled\npainted")]))
    }

    @Test func backspaceAndDeleteChangeTheScreenAtOnce() {
        var run = Run()
        run.send([rdc, CC608.pac(row: 15)] + CC608.text("Helpx"))  // text 4-6
        run.wait(until: 20)
        run.send([bs])  // 20-21: the x goes at once (20)
        run.wait(until: 30)
        run.send([CC608.pac(row: 15, indent: 0), der])  // PAC 30-31, DER 32: the row is cleared
        run.wait(until: 40)
        #expect(equal(run.cues(), [(6, 20, "Helpx"), (20, 32, "Help")]))
    }

    @Test func characterChangesAreGatheredWithinBounds() {
        var run = Run()
        run.send([rdc, CC608.pac(row: 15)])  // 0-3
        // One character pair every frame for 3 s (90 frames): a continuous paint-on line that wraps
        // over the 32 columns many times.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for i in 0..<90 { run.send(CC608.text(String([letters[(2 * i) % 26], letters[(2 * i + 1) % 26]]))) }
        run.wait(until: 200)
        run.send([edm])
        let cues = run.cues()
        // A state starts at most 1 s (30 frames) after the first character it gathers, and never
        // before its last character: the states start at frames 33, 63, 93 (the 1 s bound) and the
        // end of the line at 93.
        #expect(cues.count >= 3)
        for (a, b) in zip(cues, cues.dropFirst()) {
            #expect(b.0 - a.0 <= 31, "states \(a) and \(b) are more than 1 s apart")
            #expect(a.1 == b.0)
        }
        #expect(cues.last?.1 == 200)
    }

    @Test func aStateEndedByRemovalIsCappedAtTenSeconds() {
        var run = Run()
        run.send([rdc, CC608.pac(row: 15)] + CC608.text("stays"))  // text 4-6
        run.wait(until: 700)
        run.send([bs])  // 23 s later a backspace: the state had ended at 6 + 10 s
        run.wait(until: 720)
        run.send([edm])
        let cues = run.cues()
        #expect(cues.first?.0 == 6)
        #expect(cues.first?.2 == "stays")
        #expect(cues.first.map { Run.time($0.1) - Run.time($0.0) } ?? .zero <= MediaTime(seconds: 10) + MediaTime(ticks: 3003))
        #expect(cues.last?.2 == "stay")
    }

    // MARK: - The roll-up window

    @Test func aBaseRowTooHighForTheDepthPushesTheWindowDown() {
        var run = Run()
        // RU3 with base row 1: rows 1-3 must all show (the window moves down to end at row 3).
        run.send([CC608.command(0x26), CC608.pac(row: 1)] + CC608.text("a") + [cr] + CC608.text("b") + [cr] + CC608.text("c"))
        #expect(run.cues().last?.2 == "a\nb\nc")
    }

    @Test func loweringTheDepthEndsTheOldWindowFirst() {
        var run = Run()
        run.send([CC608.command(0x27), CC608.pac(row: 15)] + CC608.text("1") + [cr] + CC608.text("2") + [cr] + CC608.text("3") + [cr] + CC608.text("4"))
        let before = run.frame
        run.wait(until: before + 20)
        run.send([CC608.command(0x25)])  // RU4 → RU2: the two top rows go at once
        run.wait(until: before + 40)
        let cues = run.cues()
        #expect(cues.map(\.2).suffix(2) == ["1\n2\n3\n4", "3\n4"])
        #expect(cues.dropLast().last?.1 == before + 20)
    }

    @Test func charactersBeforeAnyControlCodeAreDropped() {
        var run = Run()
        // A stream that starts in the middle of CC2's text: the characters belong to no known channel.
        run.send(CC608.text("orphan"))
        run.send([CC608.command(0x20, channel: 2)] + CC608.text("two") + [CC608.command(0x2F, channel: 2)])
        run.send([rcl] + CC608.text("one") + [eoc])
        #expect(run.cues(.cc1).map(\.2) == ["one"])
        #expect(run.cues(.cc2).map(\.2) == ["two"])
    }
}
