import Timebase
import TimedText

/// Decodes one CEA-708 service's blocks (CTA-708-E §7–8): its windows, the commands that define,
/// show, hide and clear them, the pen, and the G0–G3 characters; and turns what its visible
/// windows show into captions, as the 608 channels do.
///
/// **A cue is a state of the visible windows**: their text, windows ordered top to bottom by
/// anchor (then by priority), rows trimmed. Characters written into a visible window are gathered
/// (quiet for three frames, or a second from the first) and the state starts at the last of them,
/// so a cue never shows text before it arrived; a command that shows, hides, clears, deletes or
/// scrolls a window makes a new state at once. A state that ends by losing text is capped at ten
/// seconds. Pen and window styling (colours, fonts, sizes, borders) are left to the viewer.
struct ServiceDecoder708 {
    let service: CaptionService
    private var windows = Array(repeating: Window708(), count: 8)
    private var current: Int?
    private var shown: (text: String, start: MediaTime, placement: CueSettings)?
    private var gathering: (first: MediaTime, last: MediaTime)?
    /// DLY: data waits until this time (a DLC or RST ends the wait).
    private var delayedUntil: MediaTime?
    private var delayed: [UInt8] = []
    /// Whether a printable character has been written.
    private(set) var wroteText = false
    /// Bytes of commands or parameters cut off by the end of a block (the rest of the block is
    /// skipped).
    private(set) var truncatedCommands = 0
    /// Characters dropped past the widest row by windows since deleted or reset.
    private var dropped = 0

    init(service: CaptionService) { self.service = service }

    /// Whether characters are being gathered or a delay runs: ``settle(at:into:)`` has work.
    var isWaiting: Bool { gathering != nil || delayedUntil != nil }

    /// Feeds one service block, received at `time`.
    mutating func feed<S: CaptionSink>(_ block: ArraySlice<UInt8>, at time: MediaTime, into sink: inout S) {
        if delayedUntil != nil {
            // DLC (0x8E) and RST (0x8F) act at once even during a delay (§8.10.5.6–7): found at
            // a command's start (a parameter byte of the same value is not one).
            if let cancel = Self.firstDelayBreak(in: block) {
                let reset = block[cancel] == Codes708.reset
                let waiting = delayed + block[..<cancel]
                delayedUntil = nil
                delayed = []
                if reset {
                    self.reset(at: time, into: &sink)
                } else {
                    run(waiting[...], at: time, into: &sink)
                }
                run(block[(cancel + 1)...], at: time, into: &sink)
            } else {
                delayed += block
            }
            return
        }
        run(block, at: time, into: &sink)
    }

    /// Called at every frame: gathered characters settle, and a delay that has passed lets its
    /// data through.
    mutating func settle<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        if let until = delayedUntil, time >= until {
            let waiting = delayed
            delayedUntil = nil
            delayed = []
            run(waiting[...], at: until, into: &sink)
        }
        guard let gathering, time - gathering.last >= Channel608.gatherQuiet || time - gathering.first >= Channel608.gatherLimit else { return }
        changeState(at: gathering.last, into: &sink)
    }

    /// Ends the stream at `time`.
    mutating func finish<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        if let gathering { changeState(at: gathering.last, into: &sink) }
        if let shown {
            let end = min(time, shown.start + Channel608.maximumDuration)
            if end > shown.start { sink.caption(shown.text, service: service, from: shown.start, to: end, placement: shown.placement) }
        }
        shown = nil
    }

    /// What the service shows at `time` and since when, if anything.
    func openCaption(at time: MediaTime) -> (text: String, start: MediaTime, placement: CueSettings)? {
        guard let shown, shown.start < time else { return nil }
        return (shown.text, shown.start, shown.placement)
    }

    /// Where a DLC or RST command starts in `block`, stepping over whole commands.
    static func firstDelayBreak(in block: ArraySlice<UInt8>) -> ArraySlice<UInt8>.Index? {
        var i = block.startIndex
        while i < block.endIndex {
            let code = block[i]
            if code == Codes708.delayCancel || code == Codes708.reset { return i }
            i += commandLength(
                code, next: block.index(after: i) < block.endIndex ? block[block.index(after: i)] : nil,
                afterNext: i + 2 < block.endIndex ? block[i + 2] : nil)
        }
        return nil
    }

    /// The bytes a command takes, its code included (CTA-708-E §7.1: C0, C1, EXT1 and what
    /// follows it; characters are one byte, P16 three).
    static func commandLength(_ code: UInt8, next: UInt8?, afterNext: UInt8?) -> Int {
        switch code {
        case Codes708.extended:
            guard let next else { return 2 }
            switch next {
            case Codes708.g2, Codes708.g3: return 2
            default: return 2 + CharacterSets708.extendedParameterCount(next, next: afterNext)
            }
        case Codes708.c0OneParameter: return 2
        case Codes708.p16, Codes708.c0TwoParameters: return 3
        case Codes708.windowBitmapCommands, Codes708.delay: return 2
        case Codes708.setPenAttributes, Codes708.setPenLocation: return 3
        case Codes708.setPenColor: return 4
        case Codes708.setWindowAttributes: return 5
        case Codes708.defineWindow: return 7
        default: return 1
        }
    }

    // MARK: - Interpretation

    private mutating func run<S: CaptionSink>(_ data: ArraySlice<UInt8>, at time: MediaTime, into sink: inout S) {
        var i = data.startIndex
        while i < data.endIndex {
            if delayedUntil != nil {
                delayed += data[i...]
                return
            }
            let code = data[i]
            let rest = data[(i + 1)...]
            let used: Int?
            switch code {
            case Codes708.c0: used = control0(code, rest, at: time, into: &sink)
            case Codes708.g0: write(CharacterSets708.g0(code), at: time); used = 0
            case Codes708.c1: used = control1(code, rest, at: time, into: &sink)
            default: write(CharacterSets708.g1(code), at: time); used = 0
            }
            guard let used else {
                truncatedCommands += 1
                return
            }
            i += 1 + used
        }
    }

    /// A C0 code (§7.1.4); the parameter bytes it used, or nil when the block ends first.
    private mutating func control0<S: CaptionSink>(_ code: UInt8, _ rest: ArraySlice<UInt8>, at time: MediaTime, into sink: inout S) -> Int? {
        switch code {
        case Codes708.endOfText:
            if let gathering { changeState(at: gathering.last, into: &sink) }
            return 0
        case Codes708.backspace: edit(at: time, into: &sink) { $0.backspace() }; return 0
        case Codes708.formFeed: edit(at: time, into: &sink) { $0.clear() }; return 0
        case Codes708.carriageReturn: edit(at: time, into: &sink) { $0.carriageReturn() }; return 0
        case Codes708.horizontalCarriageReturn: edit(at: time, into: &sink) { $0.horizontalCarriageReturn() }; return 0
        case Codes708.extended: return extended(rest, at: time)
        case Codes708.c0OneParameter: return rest.count >= 1 ? 1 : nil
        case Codes708.p16:
            guard rest.count >= 2 else { return nil }
            let value = UInt32(rest[rest.startIndex]) << 8 | UInt32(rest[rest.startIndex + 1])
            if let scalar = Unicode.Scalar(value), value >= 0x20 { write(Character(scalar), at: time) }
            return 2
        case Codes708.c0TwoParameters: return rest.count >= 2 ? 2 : nil
        default: return 0  // NUL and the unassigned codes
        }
    }

    /// EXT1 and what follows it: a G2 or G3 character, or a C2/C3 code skipped by its size.
    private mutating func extended(_ rest: ArraySlice<UInt8>, at time: MediaTime) -> Int? {
        guard let code = rest.first else { return nil }
        switch code {
        case Codes708.g2:
            write(CharacterSets708.g2(code), at: time)
            return 1
        case Codes708.g3:
            for character in CharacterSets708.g3(code) { write(character, at: time) }
            return 1
        default:
            let next = rest.dropFirst().first
            let count = CharacterSets708.extendedParameterCount(code, next: next)
            return rest.count >= 1 + count ? 1 + count : nil
        }
    }

    /// A C1 command (§7.1.5, §8.10.5); the parameter bytes it used, or nil when the block ends first.
    private mutating func control1<S: CaptionSink>(_ code: UInt8, _ rest: ArraySlice<UInt8>, at time: MediaTime, into sink: inout S) -> Int? {
        func parameters(_ n: Int) -> ArraySlice<UInt8>? { rest.count >= n ? rest.prefix(n) : nil }
        switch code {
        case Codes708.setCurrentWindow:
            let w = Int(code - Codes708.setCurrentWindow.lowerBound)
            if windows[w].defined { current = w }
            return 0
        case Codes708.windowBitmapCommands:
            guard let p = parameters(1) else { return nil }
            let bitmap = p[p.startIndex]
            change(at: time, into: &sink) { decoder in
                for w in 0..<8 where bitmap & (1 << w) != 0 && decoder.windows[w].defined {
                    switch code {
                    case Codes708.clearWindows: decoder.windows[w].clear()
                    case Codes708.displayWindows: decoder.windows[w].visible = true
                    case Codes708.hideWindows: decoder.windows[w].visible = false
                    case Codes708.toggleWindows: decoder.windows[w].visible.toggle()
                    default:  // DeleteWindows
                        decoder.dropped += decoder.windows[w].droppedCharacters
                        decoder.windows[w] = Window708()
                        if decoder.current == w { decoder.current = nil }
                    }
                }
            }
            return 1
        case Codes708.delay:  // tenths of a second
            guard let p = parameters(1) else { return nil }
            delayedUntil = time + MediaTime(ticks: Int64(p[p.startIndex]) * 9_000)
            return 1
        case Codes708.delayCancel: return 0  // with no delay running
        case Codes708.reset:
            reset(at: time, into: &sink)
            return 0
        case Codes708.setPenAttributes:  // italics (bit 7) and underline (bit 6) of the second byte are kept
            guard let p = parameters(2) else { return nil }
            let b = p[p.startIndex + 1]
            if let w = current { windows[w].penStyle = (b & 0x80 != 0 ? CaptionStyle.italic : 0) | (b & 0x40 != 0 ? CaptionStyle.underline : 0) }
            return 2
        case Codes708.setPenColor: return parameters(3) == nil ? nil : 3
        case Codes708.setPenLocation:
            guard let p = parameters(2) else { return nil }
            if let w = current { windows[w].setPen(row: Int(p[p.startIndex] & 0x0F), column: Int(p[p.startIndex + 1] & 0x3F)) }
            return 2
        case Codes708.setWindowAttributes: return parameters(4) == nil ? nil : 4  // styling, direction
        case Codes708.defineWindow:
            guard let p = parameters(6) else { return nil }
            let w = Int(code - Codes708.defineWindow.lowerBound)
            change(at: time, into: &sink) { decoder in decoder.windows[w].define(p) }
            current = w
            return 6
        default: return 0  // 0x93–0x96: unassigned, one byte
        }
    }

    private mutating func reset<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        change(at: time, into: &sink) { decoder in
            decoder.dropped += decoder.windows.reduce(0) { $0 + $1.droppedCharacters }
            decoder.windows = Array(repeating: Window708(), count: 8)
            decoder.current = nil
        }
    }

    // MARK: - States

    /// Writes a character at the current window's pen; in a visible window it is gathered.
    private mutating func write(_ character: Character, at time: MediaTime) {
        guard let w = current else { return }
        windows[w].write(character)
        if character != " " { wroteText = true }
        if windows[w].visible { gathering = (gathering?.first ?? time, time) }
    }

    /// An edit of the current window's text (BS, FF, CR, HCR) is a change of state.
    private mutating func edit<S: CaptionSink>(at time: MediaTime, into sink: inout S, _ body: (inout Window708) -> Void) {
        guard let w = current else { return }
        change(at: time, into: &sink) { body(&$0.windows[w]) }
    }

    /// A change other than a written character: the gathered characters first become a state of
    /// their own (as shown just before), then the change makes the next state at once.
    private mutating func change<S: CaptionSink>(at time: MediaTime, into sink: inout S, _ body: (inout ServiceDecoder708) -> Void) {
        let before = visibleText()
        // Where the text before was, which only gathered characters becoming a state need: worked
        // out now, from the windows as they are (a copy kept across the change would be copied
        // whole by it, every window's rows with it).
        let placementBefore = gathering == nil ? nil : Self.placement(of: windows)
        body(&self)
        guard visibleText() != before else { return }
        if let gathering, let placementBefore {
            changeState(to: before, placement: placementBefore, at: gathering.last, into: &sink)
        }
        changeState(at: time, into: &sink)
    }

    private mutating func changeState<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        let text = visibleText()
        // After visibleText(): the copy carries the windows' texts as just made.
        let windows = self.windows
        changeState(to: text, placement: Self.placement(of: windows), at: time, into: &sink)
    }

    /// `placement` is worked out only when `text` becomes the state shown.
    private mutating func changeState<S: CaptionSink>(to text: String, placement: @autoclosure () -> CueSettings, at time: MediaTime, into sink: inout S) {
        gathering = nil
        if let shown, shown.text == text { return }
        if let shown {
            // Text only added to: the earlier state runs until the addition; else it is capped.
            let added = text.hasPrefix(shown.text)
            let end = added ? time : min(time, shown.start + Channel608.maximumDuration)
            if end > shown.start { sink.caption(shown.text, service: service, from: shown.start, to: end, placement: shown.placement) }
        }
        shown = text.isEmpty ? nil : (text, max(time, shown?.start ?? time), placement())
    }

    /// Where the visible text of `windows` is: the top visible window's anchor (see
    /// ``Window708/placement``).
    private static func placement(of windows: [Window708]) -> CueSettings {
        for w in visibleOrder(of: windows) where !windows[w].isBlank { return windows[w].placement }
        return CueSettings()
    }

    /// The visible windows of `windows`, top to bottom by anchor, then by priority (then by
    /// number): an insertion sort of at most eight, with no closure holding a copy of the windows.
    private static func visibleOrder(of windows: [Window708]) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(windows.count)
        for w in windows.indices where windows[w].defined && windows[w].visible {
            let key = (windows[w].anchorVertical, windows[w].priority, w)
            var at = order.count
            while at > 0, key < (windows[order[at - 1]].anchorVertical, windows[order[at - 1]].priority, order[at - 1]) { at -= 1 }
            order.insert(w, at: at)
        }
        return order
    }

    /// The visible windows' text, top to bottom by anchor, then by priority.
    mutating func visibleText() -> String {
        var out = ""
        for w in Self.visibleOrder(of: windows) {
            let text = windows[w].currentText()
            guard !text.isEmpty else { continue }
            if !out.isEmpty { out += "\n" }
            out += text
        }
        return out
    }

    /// Characters written past the widest row a window can have, in every window so far.
    var droppedCharacters: Int { windows.reduce(dropped) { $0 + $1.droppedCharacters } }
}
