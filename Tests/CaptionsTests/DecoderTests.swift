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
        #expect(equal(run.cues(), [(4, 6, "one"), (6, 10, "one\ntwo"), (10, 15, "two\nthree"), (15, 30, "three")]))
    }

    @Test func rollUpDepthThree() {
        var run = Run()
        run.send([CC608.command(0x26)] + CC608.text("a") + [cr] + CC608.text("b") + [cr] + CC608.text("c") + [cr] + CC608.text("d") + [cr])
        let texts = run.cues().map(\.2)
        #expect(texts == ["a", "a\nb", "a\nb\nc", "b\nc\nd", "c\nd"])
    }

    @Test func rollUpFourAndBaseRowFromPAC() {
        var run = Run()
        run.send([CC608.command(0x27), CC608.pac(row: 10)] + CC608.text("x") + [cr] + CC608.text("y") + [CC608.pac(row: 12)] + CC608.text("z") + [cr])
        // The PAC moves the window to end at row 12 and puts the cursor at column 0: z overwrites y.
        #expect(run.cues().map(\.2) == ["x", "x\nz", "x\nz"])
    }

    @Test func paintOnShowsAsItIsPainted() {
        var run = Run()
        run.send([rdc, CC608.pac(row: 15)] + CC608.text("Paint"))  // first character at frame 4
        run.wait(until: 20)
        run.send(CC608.text("ed"))
        run.wait(until: 40)
        run.send([edm])
        #expect(equal(run.cues(), [(4, 40, "Painted")]))
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
        run.send([rcl] + CC608.text("a") + [CC608.code(0x11, 0x2E)] + CC608.text("b") + [eoc])
        #expect(run.cues().map(\.2) == ["a b"])
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
                out += buffer.add([], time: time).map { $0.0.ticks / 1000 }
            }
        }
        out += buffer.drain().map { $0.0.ticks / 1000 }
        #expect(out == Array(0..<40))
    }
}
