import Captions
import Containers
import TestSupport
import Testing
import Timebase
import TimedText

/// CEA-708 decoding from hand-built DTVCC packets (TestSupport.DTVCC), each case from CTA-708-E's
/// text, through the whole path (cc_data of types 2 and 3, presentation order, packets, service
/// blocks, windows, cues).
struct CEA708Tests {
    /// A stream of frames at 29.97 fps: each frame's 708 packets (service blocks) and 608 pairs.
    struct Stream {
        var frames: [Int: [(UInt8, UInt8, UInt8)]] = [:]
        private var sequence = 0

        /// Puts `commands` for `service` in one packet, carried by `frame`.
        mutating func send(_ commands: [UInt8]..., service: Int = 1, at frame: Int) {
            send(packet: DTVCC.packet(sequence: sequence, blocks: DTVCC.blocks(commands.flatMap { $0 }, service: service)), at: frame)
        }

        /// Puts a whole packet (header byte included) on `frame`, as cc_data.
        mutating func send(packet: [UInt8], at frame: Int) {
            frames[frame, default: []] += DTVCC.triplets(packet)
            sequence = (sequence + 1) & 3
        }

        /// A 608 pair on field 1 at `frame`.
        mutating func send608(_ pairs: [(UInt8, UInt8)], at frame: Int) {
            for (offset, pair) in pairs.enumerated() { frames[frame + offset, default: []].insert((0xFC, pair.0, pair.1), at: 0) }
        }

        static func time(_ frame: Int) -> MediaTime { MediaTime(ticks: Int64(frame) * 3003) }

        /// Decodes `count` frames; the cues by service.
        func decode(frames count: Int) -> [CaptionService: [(start: Double, end: Double, text: String)]] {
            var decoder = CaptionDecoder(codec: .h264)
            for frame in 0..<count {
                let data = (frames[frame] ?? []).map { CCData(type: $0.0 & 3, valid: $0.0 & 4 != 0, byte1: $0.1, byte2: $0.2) }
                decoder.add(captionData: data, time: Self.time(frame))
            }
            decoder.finish(at: Self.time(count))
            var out: [CaptionService: [(Double, Double, String)]] = [:]
            for (service, cue) in decoder.collector.take() { out[service, default: []].append((cue.start.seconds, cue.end.seconds, cue.text)) }
            return out
        }
    }

    static func seconds(_ frame: Int) -> Double { Stream.time(frame).seconds }

    /// A hostile service: a 10,000-character row in a visible window, then 5,000 toggles of it.
    ///
    /// One toggle a frame. A row holds at most 64 characters (the widest window a stream can
    /// define); the rest is dropped and said, and no state carries more than a window can show
    /// (each state used to carry the whole row: the work and the output grew with row × commands).
    @Test func aRowWiderThanAnyWindowIsCutAndSaid() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: true, rows: 1, columns: 32), at: 0)
        let row = (0..<10_000).map { Character(Unicode.Scalar(UInt8(0x41 + $0 % 26))) }
        for (index, start) in stride(from: 0, to: row.count, by: 100).enumerated() {
            stream.send(DTVCC.text(String(row[start..<min(start + 100, row.count)])), at: 1 + index / 4)
        }
        for frame in 0..<5_000 { stream.send(DTVCC.toggleWindows([0]), at: 40 + frame) }
        var decoder = CaptionDecoder(codec: .h264)
        for frame in 0..<5_050 {
            let data = (stream.frames[frame] ?? []).map { CCData(type: $0.0 & 3, valid: $0.0 & 4 != 0, byte1: $0.1, byte2: $0.2) }
            decoder.add(captionData: data, time: Stream.time(frame))
        }
        decoder.finish(at: Stream.time(5_050))
        let cues = decoder.collector.take().map(\.cue)
        #expect(cues.count == 2_501, "the row as it is written, then every other toggle: \(cues.count) cues")
        #expect(cues.allSatisfy { $0.text == String(row[..<64]) }, "\(cues.first?.text.count ?? 0) characters")
        #expect(decoder.dtvccLosses.contains { $0.hasPrefix("9936 CEA-708 character(s) were written past column 64") }, "\(decoder.dtvccLosses)")
    }

    /// A hidden window is loaded, then shown (DSW) and hidden (HDW): the cue spans exactly that.
    @Test func aWindowShownThenHiddenIsOneCue() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false, rows: 2), DTVCC.text("Hello, world"), at: 10)
        stream.send(DTVCC.displayWindows([0]), at: 30)
        stream.send(DTVCC.hideWindows([0]), at: 90)
        let cues = stream.decode(frames: 120)
        #expect(cues.keys.sorted() == [.dtvcc(1)!])
        let cue = cues[.dtvcc(1)!]?.first
        #expect(cue?.text == "Hello, world")
        #expect(cue.map { abs($0.start - Self.seconds(30)) < 1e-6 && abs($0.end - Self.seconds(90)) < 1e-6 } == true, "\(String(describing: cue))")
    }

    /// Text written into a visible window is shown once it is quiet (never before it arrives),
    /// and CR rolls the rows up; ClearWindows ends it.
    @Test func textPaintedIntoAVisibleWindowAndRolledUp() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: true, rows: 2), DTVCC.text("one"), at: 10)
        stream.send(DTVCC.carriageReturn, DTVCC.text("two"), at: 40)
        stream.send(DTVCC.carriageReturn, DTVCC.text("three"), at: 70)
        stream.send(DTVCC.clearWindows([0]), at: 100)
        let cues = stream.decode(frames: 130)[.dtvcc(1)!] ?? []
        // The scroll at frame 70 and "three" arrive together: the rows never show "two" alone.
        #expect(cues.map(\.text) == ["one", "one\ntwo", "two\nthree"], "\(cues)")
        #expect(cues.count == 3 && abs(cues[1].start - Self.seconds(40)) < 1e-6 && abs(cues[2].start - Self.seconds(70)) < 1e-6, "\(cues)")
        #expect(cues.allSatisfy { $0.start >= Self.seconds(10) - 1e-6 })
        #expect(abs((cues.last?.end ?? 0) - Self.seconds(100)) < 1e-6)
    }

    /// G0's music note, G1 (Latin-1), G2 and G3 through EXT1, P16 (the peer's Korean case: 0xB9D9
    /// and 0xB7CE are 맙 and 럎), and an unassigned G2 code as an underscore.
    @Test func characterSets() {
        var stream = Stream()
        stream.send(
            DTVCC.defineWindow(0, visible: false, rows: 4), [0x7F], DTVCC.text("©¶÷"), DTVCC.setPenLocation(row: 1, column: 0),
            DTVCC.extended(0x79), DTVCC.extended(0x7B), DTVCC.extended(0x39), DTVCC.extended(0x35), at: 5)
        stream.send(DTVCC.setPenLocation(row: 2, column: 0), DTVCC.extended(0xA0), DTVCC.extended(0x36), DTVCC.p16(0xB9D9), DTVCC.p16(0xB7CE), at: 6)
        stream.send(DTVCC.displayWindows([0]), at: 10)
        stream.send(DTVCC.deleteWindows([0]), at: 40)
        let cue = stream.decode(frames: 60)[.dtvcc(1)!]?.first
        #expect(cue?.text == "♪©¶÷\n⅞┐™•\n[CC]_맙럎", "\(String(describing: cue))")
    }

    /// Two windows shown at once: top to bottom by anchor, whatever their numbers; ToggleWindows
    /// hides shown windows and shows hidden ones.
    @Test func twoWindowsAndToggle() {
        var stream = Stream()
        stream.send(
            DTVCC.defineWindow(1, visible: false, anchorVertical: 60), DTVCC.text("bottom"),
            DTVCC.defineWindow(2, visible: false, anchorVertical: 5), DTVCC.text("top"), at: 5)
        stream.send(DTVCC.displayWindows([1, 2]), at: 10)
        stream.send(DTVCC.toggleWindows([1, 2]), at: 40)
        stream.send(DTVCC.defineWindow(3, visible: false), DTVCC.text("third"), at: 50)
        stream.send(DTVCC.toggleWindows([2, 3]), at: 60)
        stream.send(DTVCC.hideWindows([1, 2, 3]), at: 90)
        let cues = stream.decode(frames: 100)[.dtvcc(1)!] ?? []
        // Toggling 1 and 2 at frame 40 hides both; toggling 2 and 3 at 60 shows both (3's anchor is higher).
        #expect(cues.map(\.text) == ["top\nbottom", "third\ntop"], "\(cues)")
        #expect(cues.count == 2 && abs(cues[0].end - Self.seconds(40)) < 1e-6 && abs(cues[1].start - Self.seconds(60)) < 1e-6, "\(cues)")
    }

    /// Two services carry different programmes (an English and a Spanish service): each decodes on
    /// its own; an extended service number (over 6) too.
    @Test func twoServicesAndAnExtendedServiceNumber() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("English"), service: 1, at: 5)
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("Español"), service: 2, at: 6)
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("Forty"), service: 40, at: 7)
        for service in [1, 2, 40] { stream.send(DTVCC.displayWindows([0]), service: service, at: 10 + service) }
        for service in [1, 2, 40] { stream.send(DTVCC.hideWindows([0]), service: service, at: 80) }
        let cues = stream.decode(frames: 100)
        #expect(cues[.dtvcc(1)!]?.map(\.text) == ["English"])
        #expect(cues[.dtvcc(2)!]?.map(\.text) == ["Español"])
        #expect(cues[.dtvcc(40)!]?.map(\.text) == ["Forty"])
    }

    /// A packet cut short by the next packet's start is skipped as far as it is broken; the next
    /// packet still decodes.
    @Test func aBrokenPacketLosesNothingAfterIt() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("Kept"), at: 5)
        // A packet announcing 20 bytes whose block is cut after 3 bytes by the next start.
        let broken = DTVCC.packet(sequence: 1, blocks: [(1, DTVCC.hideWindows([0]) + DTVCC.text("xxxxxxxxxxxxxxx"))])
        stream.send(packet: Array(broken.prefix(4)), at: 8)
        stream.send(DTVCC.displayWindows([0]), at: 10)
        stream.send(DTVCC.hideWindows([0]), at: 50)
        let cues = stream.decode(frames: 60)[.dtvcc(1)!] ?? []
        #expect(cues.map(\.text) == ["Kept"], "\(cues)")
        #expect(cues.first.map { abs($0.start - Self.seconds(10)) < 1e-6 } == true)
    }

    /// 608 and 708 of one stream, with different text, are separate services.
    @Test func cea608And708SideBySide() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("From 708"), at: 5)
        stream.send(DTVCC.displayWindows([0]), at: 40)
        stream.send(DTVCC.hideWindows([0]), at: 100)
        var script = CaptionScript()
        script.popOn(["From 608"], at: 10)
        script.send([CC608.command(0x2C)], at: 100)
        for (frame, pair) in script.field1 { stream.send608([pair], at: frame) }
        let cues = stream.decode(frames: 120)
        #expect(cues[.cc1]?.map(\.text) == ["From 608"])
        #expect(cues[.dtvcc(1)!]?.map(\.text) == ["From 708"])
    }

    /// DLY holds the service's commands for its tenths of a second: the window shows then, not
    /// when the command arrived; DLC lets what waits through at once.
    @Test func delayAndDelayCancel() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("Later"), DTVCC.delay(tenths: 10), DTVCC.displayWindows([0]), at: 5)
        stream.send(DTVCC.hideWindows([0]), at: 80)
        stream.send(DTVCC.defineWindow(1, visible: false), DTVCC.text("Sooner"), DTVCC.delay(tenths: 50), DTVCC.displayWindows([1]), at: 90)
        stream.send(DTVCC.delayCancel, at: 100)
        stream.send(DTVCC.hideWindows([1]), at: 130)
        let cues = stream.decode(frames: 150)[.dtvcc(1)!] ?? []
        #expect(cues.map(\.text) == ["Later", "Sooner"], "\(cues)")
        // DLY 1.0 s from frame 5 (0.167 s): shown at 1.167 s, on the first frame at or after it.
        #expect(cues.first.map { $0.start >= Self.seconds(5) + 1.0 - 1e-6 && $0.start < Self.seconds(5) + 1.0 + 0.034 } == true, "\(cues)")
        #expect(cues.count == 2 && abs(cues[1].start - Self.seconds(100)) < 1e-6, "\(cues)")
    }

    /// During a delay, a parameter byte that happens to be 0x8E (DLC's code: here a window's
    /// horizontal anchor) is not a DelayCancel: the window still waits for the delay.
    @Test func aParameterByteIsNotADelayCancel() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: false), DTVCC.text("Held"), DTVCC.delay(tenths: 20), at: 5)
        stream.send(DTVCC.defineWindow(0, visible: true, anchorHorizontal: 0x8E), at: 10)
        stream.send(DTVCC.hideWindows([0]), at: 150)
        let cues = stream.decode(frames: 160)[.dtvcc(1)!] ?? []
        #expect(cues.map(\.text) == ["Held"], "\(cues)")
        #expect(cues.first.map { $0.start >= Self.seconds(5) + 2.0 - 1e-6 } == true, "shown before the delay ended: \(cues)")
    }

    /// Reset (RST) ends what is shown and forgets every window; backspace, form feed and HCR edit
    /// the current window.
    @Test func resetAndEdits() {
        var stream = Stream()
        stream.send(DTVCC.defineWindow(0, visible: true), DTVCC.text("Typo"), DTVCC.backspace, DTVCC.text("e"), at: 5)
        stream.send(DTVCC.horizontalCarriageReturn, DTVCC.text("Fresh"), at: 40)
        stream.send(DTVCC.reset, at: 70)
        stream.send(DTVCC.text("lost"), at: 75)  // no window after a reset: nothing to write into
        let cues = stream.decode(frames: 100)[.dtvcc(1)!] ?? []
        #expect(cues.map(\.text).last == "Fresh", "\(cues)")
        #expect(cues.map(\.text).contains("Type") && !cues.map(\.text).contains("lost"), "\(cues)")
        #expect(abs((cues.last?.end ?? 0) - Self.seconds(70)) < 1e-6)
    }
}

/// Where decoded captions were put, as WebVTT settings (the W3C's 608-to-WebVTT mapping; 708
/// anchors in percent of the picture).
struct CaptionPlacementTests {
    @Test func cea608RowsAndIndents() {
        var decoder = CaptionDecoder(codec: .h264)
        var script = CaptionScript()
        script.send([CC608.command(0x20), CC608.command(0x2E), CC608.pac(row: 1, indent: 4)] + CC608.text("One") + [CC608.command(0x2F)], at: 5)
        script.send(
            [CC608.command(0x20), CC608.command(0x2E), CC608.pac(row: 14)] + CC608.text("Two") + [CC608.pac(row: 15)] + CC608.text("Rows") + [
                CC608.command(0x2F)
            ], at: 40)
        script.send([CC608.command(0x2C)], at: 90)
        for frame in 0..<100 {
            let data = script.field1[frame].map { [CCData(type: 0, valid: true, byte1: $0.0, byte2: $0.1)] } ?? []
            decoder.add(captionData: data, time: MediaTime(ticks: Int64(frame) * 3003))
        }
        decoder.finish(at: MediaTime(ticks: 100 * 3003))
        let cues = decoder.collector.take().map(\.cue)
        #expect(cues.map(\.text) == ["One", "Two\nRows"])
        // Row 1: 10 %; indent 4 is column 4: 10 % + 4 × 2.5 %; rows 14-15: the top row, 79.33 %.
        #expect(cues.first?.settings == CueSettings(line: .percentage("10"), lineAlign: .start, position: "20", positionAlign: .lineLeft, align: .left))
        #expect(cues.last?.settings.line == .percentage("79.33") && cues.last?.settings.position == "10")
    }

    @Test func cea708Anchors() {
        var stream = CEA708Tests.Stream()
        // Grid anchor (row 0, column 0), top left; then a relative anchor at (90 %, 50 %), bottom centre.
        stream.send(DTVCC.defineWindow(0, visible: true, anchorVertical: 0, anchorHorizontal: 0), DTVCC.text("Top left"), at: 5)
        stream.send(
            DTVCC.deleteWindows([0]), DTVCC.defineWindow(1, visible: true, anchorVertical: 90, anchorHorizontal: 50, relative: true, anchorPoint: 7),
            DTVCC.text("Bottom"), at: 40)
        stream.send(DTVCC.deleteWindows([1]), at: 80)
        var decoder = CaptionDecoder(codec: .h264)
        for frame in 0..<100 {
            let data = (stream.frames[frame] ?? []).map { CCData(type: $0.0 & 3, valid: true, byte1: $0.1, byte2: $0.2) }
            decoder.add(captionData: data, time: MediaTime(ticks: Int64(frame) * 3003))
        }
        decoder.finish(at: MediaTime(ticks: 100 * 3003))
        let cues = decoder.collector.take().map(\.cue)
        #expect(cues.map(\.text) == ["Top left", "Bottom"])
        #expect(cues.first?.settings == CueSettings(line: .percentage("0"), lineAlign: .start, position: "0", positionAlign: .lineLeft, align: .left))
        #expect(cues.last?.settings == CueSettings(line: .percentage("90"), lineAlign: .end, position: "50", positionAlign: .center, align: .center))
    }

    /// Characters still being gathered when the next frame's command deletes their window become
    /// a state of their own, placed where their window was (not where nothing is left).
    @Test func cea708GatheredTextKeepsItsWindowsPlace() {
        var stream = CEA708Tests.Stream()
        stream.send(DTVCC.defineWindow(0, visible: true, anchorVertical: 90, anchorHorizontal: 50, relative: true, anchorPoint: 7), DTVCC.text("Gone"), at: 5)
        stream.send(DTVCC.deleteWindows([0]), at: 6)
        var decoder = CaptionDecoder(codec: .h264)
        for frame in 0..<20 {
            let data = (stream.frames[frame] ?? []).map { CCData(type: $0.0 & 3, valid: true, byte1: $0.1, byte2: $0.2) }
            decoder.add(captionData: data, time: MediaTime(ticks: Int64(frame) * 3003))
        }
        decoder.finish(at: MediaTime(ticks: 20 * 3003))
        let cues = decoder.collector.take().map(\.cue)
        #expect(cues.map(\.text) == ["Gone"])
        #expect(cues.first?.start == MediaTime(ticks: 5 * 3003) && cues.first?.end == MediaTime(ticks: 6 * 3003))
        #expect(cues.first?.settings == CueSettings(line: .percentage("90"), lineAlign: .end, position: "50", positionAlign: .center, align: .center))
    }
}

/// Italics and underline as WebVTT `<i>`/`<u>`: 608 PACs and mid-row codes, 708 SetPenAttributes
/// (the peer's case: plain, italic and underlined, plain).
struct CaptionStyleTests {
    @Test func cea608ItalicsAndUnderline() {
        var decoder = CaptionDecoder(codec: .h264)
        var script = CaptionScript()
        // PAC row 15 with white italics (attribute 0x0E); a mid-row code to white underline (0x21) mid-row.
        let italicPAC = CC608.pair(0x14, 0x6E)
        script.send(
            [CC608.command(0x20), CC608.command(0x2E), italicPAC] + CC608.text("Sung") + [CC608.code(0x11, 0x21)] + CC608.text("line")
                + [CC608.command(0x2F)], at: 5)
        script.send([CC608.command(0x2C)], at: 60)
        for frame in 0..<80 {
            let data = script.field1[frame].map { [CCData(type: 0, valid: true, byte1: $0.0, byte2: $0.1)] } ?? []
            decoder.add(captionData: data, time: MediaTime(ticks: Int64(frame) * 3003))
        }
        decoder.finish(at: MediaTime(ticks: 80 * 3003))
        #expect(decoder.collector.take().map(\.cue.text) == ["<i>Sung</i> <u>line</u>"])
    }

    @Test func cea708PenAttributes() {
        var stream = CEA708Tests.Stream()
        stream.send(
            DTVCC.defineWindow(0, visible: false), DTVCC.text("test"), DTVCC.setPenAttributes(italic: true, underline: true), DTVCC.text("test"),
            DTVCC.setPenAttributes(), DTVCC.text("test"), at: 5)
        stream.send(DTVCC.displayWindows([0]), at: 10)
        stream.send(DTVCC.hideWindows([0]), at: 40)
        #expect(stream.decode(frames: 50)[.dtvcc(1)!]?.map(\.text) == ["test<i><u>test</u></i>test"])
    }
}
