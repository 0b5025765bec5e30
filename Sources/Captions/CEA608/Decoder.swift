import Timebase
import TimedText

/// Receives what a 608 channel shows: each caption with the time it appeared and the time it
/// was removed.
///
/// It knows nothing of WebVTT.
package protocol CaptionSink {
    /// A caption shown from `start` to `end`; `placement` says where it was put on screen (as
    /// WebVTT cue settings; empty when it is not known).
    mutating func caption(_ text: String, service: CaptionService, from start: MediaTime, to end: MediaTime, placement: CueSettings)
}

/// Decodes the 608 byte pairs of one field (CTA-608-E): a dispatcher over its two data channels,
/// XDS skipped, doubled control codes dropped, odd parity checked.
///
/// Pairs are fed in presentation order with the time of the frame that carries them.
package struct CEA608FieldDecoder {
    package let field: Int
    private var channels: [Channel608]
    /// The data channel the last control code named; nil until one does (characters before it
    /// are dropped: a stream that starts in the middle of CC2's text must not leak into CC1).
    private var current: Int?
    private var lastControl: (UInt8, UInt8)?
    private var inXDS = false
    private var lastTime = MediaTime.zero
    /// Services in which a printable character has been seen.
    package private(set) var servicesWithText: Set<CaptionService> = []
    /// Whether each channel's service is in ``servicesWithText`` already (asked at every
    /// character, without hashing the service).
    private var channelHasText = [false, false]

    package init(field: Int) {
        self.field = field
        channels = [Channel608(service: CaptionService(field: field, channel: 1)), Channel608(service: CaptionService(field: field, channel: 2))]
    }

    /// Decodes one pair, as transmitted (with parity bits).
    package mutating func decode<S: CaptionSink>(_ byte1: UInt8, _ byte2: UInt8, at time: MediaTime, into sink: inout S) {
        lastTime = time
        // Looked at before it is changed: most pairs find nothing gathered (no write access then).
        for index in channels.indices where channels[index].gathering != nil { channels[index].settle(at: time, into: &sink) }
        let c1 = byte1 & 0x7F, c2 = byte2 & 0x7F
        let parity1 = CharacterSets.hasOddParity(byte1), parity2 = CharacterSets.hasOddParity(byte2)
        if c1 == 0 && c2 == 0 {
            lastControl = nil  // padding: a control code after it is not a repeat
            return
        }
        if inXDS {
            // XDS runs until its end code (0x0F, with the checksum) or a caption control code.
            if c1 == 0x0F { inXDS = false; lastControl = nil; return }
            if !(0x10...0x1F).contains(c1) { return }
            inXDS = false
        }
        if (0x01...0x0F).contains(c1) {
            if field == 2 { inXDS = c1 != 0x0F }
            lastControl = nil
            return
        }
        if (0x10...0x1F).contains(c1) {
            // A control code with a parity error cannot be trusted: drop the pair.
            guard parity1 && parity2 else { lastControl = nil; return }
            if let last = lastControl, last == (c1, c2) {
                lastControl = nil  // the redundant second transmission
                return
            }
            lastControl = (c1, c2)
            let channel = c1 & 0x08 == 0 ? 0 : 1
            current = channel
            channels[channel].control(c1 & 0xF7, c2, at: time, into: &sink)
            noteText(channel)
            return
        }
        lastControl = nil
        guard let channel = current else { return }
        // Two characters of the basic set; a byte with a parity error shows as a solid block; a
        // null (0x00) is filler and shows nothing (CTA-608-E §4.1).
        if c1 >= 0x20 { channels[channel].write(parity1 ? CharacterSets.basic(c1) : "█", at: time, into: &sink) }
        if c2 >= 0x20 { channels[channel].write(parity2 ? CharacterSets.basic(c2) : "█", at: time, into: &sink) }
        noteText(channel)
    }

    /// Adds `channel`'s service to ``servicesWithText`` once the channel has written text.
    private mutating func noteText(_ channel: Int) {
        guard !channelHasText[channel], channels[channel].wroteText else { return }
        channelHasText[channel] = true
        servicesWithText.insert(channels[channel].service)
    }

    /// What each channel shows at `time` and since when (captions not ended yet), for a live
    /// output that publishes a caption while it is still on screen.
    package func openCaptions(at time: MediaTime) -> [(service: CaptionService, text: String, start: MediaTime, placement: CueSettings)] {
        channels.compactMap { channel in
            guard let shown = channel.shown, shown.start < time else { return nil }
            return (channel.service, shown.text, shown.start, shown.screen.placement)
        }
    }

    /// Ends the stream at `time`: captions still shown end there.
    package mutating func finish<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        for index in channels.indices { channels[index].commit(at: max(time, lastTime), into: &sink) }
    }

    /// Resets every channel (at a discontinuity), ending captions at `time`.
    package mutating func reset<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        finish(at: time, into: &sink)
        channels = channels.map { Channel608(service: $0.service) }
        current = nil
        lastControl = nil
        inXDS = false
    }
}

/// One data channel's state (CTA-608-E §B): mode, memories, cursor, and the cue on screen.
///
/// **A cue is a screen state.** Every change of the displayed memory's text ends the cue on screen
/// and starts the next, so at every moment the cues shown equal what a television shows. Two
/// exceptions, both bounded:
/// - characters painted into displayed memory (paint-on, roll-up) are gathered: the state they
///   make starts when the line has been quiet for ``gatherQuiet`` (3 frames) after the last of
///   them, or at most ``gatherLimit`` (1 s) after the first, and it starts at the time of the
///   last character it includes, so a cue never shows text before it was received (it may show
///   it up to those bounds later);
/// - a state that ends by losing text (an erase, a flip, a roll, a backspace) is capped at
///   ``maximumDuration`` (10 s) from its start, for streams that never erase; a state that ends
///   because text was added to it runs until then.
struct Channel608 {
    enum Mode: Equatable { case popOn, rollUp(Int), paintOn, text }

    /// The longest a caption stays up without an erase (the packager's rule).
    static let maximumDuration = MediaTime(seconds: 10)
    /// Painted characters are gathered until the screen has been quiet this long (3 frames at 29.97).
    static let gatherQuiet = MediaTime(ticks: 3 * 3003)
    /// … or for at most this long from the first of them.
    static let gatherLimit = MediaTime(seconds: 1)

    /// The state on screen as a cue: its text, cells (to tell additions from removals) and start.
    struct Shown {
        let text: String
        let screen: Screen
        let start: MediaTime
    }

    let service: CaptionService
    var mode: Mode = .popOn
    var displayed = Screen()
    var nonDisplayed = Screen()
    var row = 14
    var column = 0
    /// The pen's italics and underline (``CaptionStyle``), set by PACs and mid-row codes.
    var style: UInt8 = 0
    /// The cue on screen; nil when the screen is empty.
    var shown: Shown?
    /// The first and last painted-character changes not yet in a cue.
    var gathering: (first: MediaTime, last: MediaTime)?
    /// Set when the last call wrote a printable character.
    var wroteText = false

    init(service: CaptionService) { self.service = service }

    private var rollDepth: Int? { if case .rollUp(let n) = mode { return n } else { return nil } }

    /// Called with the time of every pair of the field (padding too): gathered characters that
    /// have been quiet long enough, or gathered long enough, become the screen's next state.
    mutating func settle<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        guard let gathering, time - gathering.last >= Self.gatherQuiet || time - gathering.first >= Self.gatherLimit else { return }
        changeState(at: gathering.last, into: &sink)
    }

    /// The displayed memory may have changed at `time`: if its text did, the cue on screen ends
    /// and the next starts.
    mutating func changeState<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        changeState(to: displayed, at: time, into: &sink)
    }

    /// The screen showed `screen` from `time`: if its text differs from the cue on screen, that
    /// cue ends and the next starts.
    private mutating func changeState<S: CaptionSink>(to screen: Screen, at time: MediaTime, into sink: inout S) {
        gathering = nil
        let text = screen.text
        if let shown, shown.text == text { return }
        if let shown {
            let added = screen.keepsEveryCharacter(of: shown.screen)
            let end = added ? time : min(time, shown.start + Self.maximumDuration)
            if end > shown.start { sink.caption(shown.text, service: service, from: shown.start, to: end, placement: shown.screen.placement) }
        }
        shown = text.isEmpty ? nil : Shown(text: text, screen: screen, start: max(time, shown?.start ?? time))
    }

    /// Gathered characters become a state of their own (they were on screen before what follows).
    private mutating func flushGathered<S: CaptionSink>(into sink: inout S) {
        if let gathering { changeState(at: gathering.last, into: &sink) }
    }

    /// Ends the stream (or the channel) at `time`: the state on screen ends there, capped.
    mutating func commit<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        flushGathered(into: &sink)
        if let shown {
            let end = min(time, shown.start + Self.maximumDuration)
            if end > shown.start { sink.caption(shown.text, service: service, from: shown.start, to: end, placement: shown.screen.placement) }
        }
        shown = nil
    }

    mutating func write<S: CaptionSink>(_ character: Unicode.Scalar, at time: MediaTime, into sink: inout S) {
        wroteText = false
        switch mode {
        case .text:
            return
        case .popOn:
            nonDisplayed.set(character, row: row, column: column, style: style)
        case .rollUp, .paintOn:
            if displayed.set(character, row: row, column: column, style: style) {
                gathering = (gathering?.first ?? time, time)
            }
        }
        if character != Screen.blank { wroteText = true }
        column = min(column + 1, Screen.columns - 1)
    }

    private mutating func backspace() {
        guard column > 0 else { return }
        column -= 1
        switch mode {
        case .popOn: nonDisplayed.set(Screen.blank, row: row, column: column)
        case .rollUp, .paintOn: displayed.set(Screen.blank, row: row, column: column)
        case .text: break
        }
    }

    /// A control pair, `c1` with the channel bit cleared (0x10-0x17).
    ///
    /// Characters it writes (special, extended, mid-row spaces) are gathered like any other; any
    /// other change of the displayed memory makes a new state at once, after the gathered
    /// characters (shown as they were just before) became one.
    mutating func control<S: CaptionSink>(_ c1: UInt8, _ c2: UInt8, at time: MediaTime, into sink: inout S) {
        let before = displayed
        apply(c1, c2, at: time, into: &sink)
        let writesCharacters = c1 == 0x11 || ((c1 == 0x12 || c1 == 0x13) && c2 <= 0x3F)
        guard !writesCharacters, displayed != before else { return }
        if let gathering { changeState(to: before, at: gathering.last, into: &sink) }
        changeState(at: time, into: &sink)
    }

    private mutating func apply<S: CaptionSink>(_ c1: UInt8, _ c2: UInt8, at time: MediaTime, into sink: inout S) {
        wroteText = false
        switch (c1, c2) {
        case (0x14, 0x20...0x2F), (0x15, 0x20...0x2F):
            command(c2, at: time, into: &sink)
        case (0x17, 0x21...0x23):
            column = min(column + Int(c2 - 0x20), Screen.columns - 1)  // TO1-TO3
        case (0x11, 0x20...0x2F):
            // A mid-row code shows as a space and sets the style from there: italics (0x2E, 0x2F)
            // or a colour (which ends italics), underline in its low bit; the colour is dropped.
            write(Screen.blank, at: time, into: &sink)
            style = (c2 & 0x0E == 0x0E ? CaptionStyle.italic : 0) | (c2 & 0x01 != 0 ? CaptionStyle.underline : 0)
        case (0x11, 0x30...0x3F):
            write(CharacterSets.special[Int(c2 - 0x30)], at: time, into: &sink)
        case (0x12, 0x20...0x3F), (0x13, 0x20...0x3F):
            // An extended character replaces the standard one sent before it.
            backspace()
            let table = c1 == 0x12 ? CharacterSets.extendedSpanishFrench : CharacterSets.extendedPortugueseGerman
            write(table[Int(c2 - 0x20)], at: time, into: &sink)
        case (0x10...0x17, 0x40...0x7F):
            preambleAddress(c1, c2)
        default:
            break  // background and foreground attributes: styling is left to the viewer
        }
    }

    private mutating func preambleAddress(_ c1: UInt8, _ c2: UInt8) {
        var newRow = CharacterSets.pacRows[Int((c1 & 0x07) << 1 | (c2 & 0x20) >> 5)] - 1
        guard newRow >= 0 else { return }
        // A base row with no room above it for the window's depth pushes the window down so
        // every row fits (CTA-608-E §B.6: the window is depth rows ending at the base row).
        if let depth = rollDepth { newRow = max(newRow, depth - 1) }
        if let depth = rollDepth, newRow != row {
            displayed.moveWindow(from: row, to: newRow, depth: depth)
        }
        row = newRow
        let attribute = c2 & 0x1F
        column = attribute >= 0x10 ? Int((attribute - 0x10) >> 1) * 4 : 0  // indent codes
        // The row's style: underline in the low bit; italics for 0x0E/0x0F (white italics).
        style = (attribute & 0x0E == 0x0E && attribute < 0x10 ? CaptionStyle.italic : 0) | (attribute & 0x01 != 0 ? CaptionStyle.underline : 0)
    }

    private mutating func command<S: CaptionSink>(_ code: UInt8, at time: MediaTime, into sink: inout S) {
        switch code {
        case 0x20:  // RCL resume caption loading
            mode = .popOn
        case 0x21:  // BS backspace
            backspace()
        case 0x24:  // DER delete to end of row
            switch mode {
            case .popOn: nonDisplayed.eraseToEndOfRow(row: row, from: column)
            case .rollUp, .paintOn: displayed.eraseToEndOfRow(row: row, from: column)
            case .text: break
            }
        case 0x25, 0x26, 0x27:  // RU2, RU3, RU4
            let depth = Int(code - 0x23)
            if rollDepth == nil {
                // Entering roll-up from pop-on or paint-on erases both memories.
                displayed.erase()
                nonDisplayed.erase()
                row = 14
                column = 0
            } else {
                // A deeper window than the base row allows moves down with its rows.
                let bottom = max(row, depth - 1)
                if bottom != row { displayed.moveWindow(from: row, to: bottom, depth: depth) }
                row = bottom
                displayed.keepWindow(bottom: row, depth: depth)
            }
            mode = .rollUp(depth)
        case 0x29:  // RDC resume direct captioning (paint-on)
            mode = .paintOn
        case 0x2A, 0x2B:  // TR text restart, RTD resume text display: not captions
            mode = .text
        case 0x2C:  // EDM erase displayed memory
            displayed.erase()
        case 0x2D:  // CR carriage return
            guard let depth = rollDepth else { return }
            displayed.rollUp(bottom: row, depth: depth)
            column = 0
        case 0x2E:  // ENM erase non-displayed memory
            nonDisplayed.erase()
        case 0x2F:  // EOC end of caption: flip memories
            swap(&displayed, &nonDisplayed)
            mode = .popOn
        default:
            break  // AOF, AON, FON: no effect on the text
        }
    }
}
