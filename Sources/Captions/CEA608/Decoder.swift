import Timebase
import TimedText

/// Receives what a 608 channel shows: each caption with the time it appeared and the time it
/// was removed.
///
/// It knows nothing of WebVTT.
package protocol CaptionSink {
    mutating func caption(_ text: String, service: CaptionService, from start: MediaTime, to end: MediaTime)
}

/// Decodes the 608 byte pairs of one field (CTA-608-E): a dispatcher over its two data channels,
/// XDS skipped, doubled control codes dropped, odd parity checked.
///
/// Pairs are fed in presentation order with the time of the frame that carries them.
package struct CEA608FieldDecoder {
    package let field: Int
    private var channels: [Channel608]
    private var current = 0
    private var lastControl: (UInt8, UInt8)?
    private var inXDS = false
    private var lastTime = MediaTime.zero
    /// Services in which a printable character has been seen.
    package private(set) var servicesWithText: Set<CaptionService> = []

    package init(field: Int) {
        self.field = field
        channels = [Channel608(service: CaptionService(field: field, channel: 1)), Channel608(service: CaptionService(field: field, channel: 2))]
    }

    /// Decodes one pair, as transmitted (with parity bits).
    package mutating func decode<S: CaptionSink>(_ byte1: UInt8, _ byte2: UInt8, at time: MediaTime, into sink: inout S) {
        lastTime = time
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
            current = c1 & 0x08 == 0 ? 0 : 1
            channels[current].control(c1 & 0xF7, c2, at: time, into: &sink)
            if channels[current].wroteText { servicesWithText.insert(channels[current].service) }
            return
        }
        lastControl = nil
        // Two characters of the basic set; a byte with a parity error shows as a solid block; a
        // null (0x00) is filler and shows nothing (CTA-608-E §4.1).
        if c1 >= 0x20 { channels[current].write(parity1 ? CharacterSets.basic(c1) : "█", at: time, into: &sink) }
        if c2 >= 0x20 { channels[current].write(parity2 ? CharacterSets.basic(c2) : "█", at: time, into: &sink) }
        if channels[current].wroteText { servicesWithText.insert(channels[current].service) }
    }

    /// Ends the stream at `time`: captions still shown end there.
    package mutating func finish<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        for index in channels.indices { channels[index].commit(at: max(time, lastTime), into: &sink) }
    }

    /// Resets every channel (at a discontinuity), ending captions at `time`.
    package mutating func reset<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        finish(at: time, into: &sink)
        channels = channels.map { Channel608(service: $0.service) }
        lastControl = nil
        inXDS = false
    }
}

/// One data channel's state (CTA-608-E §B): mode, memories, cursor.
struct Channel608 {
    enum Mode: Equatable { case popOn, rollUp(Int), paintOn, text }

    /// The longest a caption stays up without an erase (the packager's rule).
    static let maximumDuration = MediaTime(seconds: 10)

    let service: CaptionService
    var mode: Mode = .popOn
    var displayed = Screen()
    var nonDisplayed = Screen()
    var row = 14
    var column = 0
    /// When the displayed memory started showing what it shows now; nil when it is empty.
    var displayStart: MediaTime?
    /// Set when the last call wrote a printable character.
    var wroteText = false

    init(service: CaptionService) { self.service = service }

    private var rollDepth: Int? { if case .rollUp(let n) = mode { return n } else { return nil } }

    /// Emits what the display showed from `displayStart` until `time`.
    mutating func commit<S: CaptionSink>(at time: MediaTime, into sink: inout S) {
        let text = displayed.text
        if let start = displayStart, !text.isEmpty, time > start {
            sink.caption(text, service: service, from: start, to: min(time, start + Self.maximumDuration))
        }
        displayStart = nil
    }

    /// After a change of the displayed memory at `time`, the next caption starts then.
    private mutating func restart(at time: MediaTime) {
        displayStart = displayed.isEmpty ? nil : time
    }

    mutating func write<S: CaptionSink>(_ character: Character, at time: MediaTime, into sink: inout S) {
        wroteText = false
        switch mode {
        case .text:
            return
        case .popOn:
            nonDisplayed.set(character, row: row, column: column)
        case .rollUp, .paintOn:
            if displayStart == nil && character != " " { displayStart = time }
            displayed.set(character, row: row, column: column)
        }
        if character != " " { wroteText = true }
        column = min(column + 1, Screen.columns - 1)
    }

    private mutating func backspace() {
        guard column > 0 else { return }
        column -= 1
        switch mode {
        case .popOn: nonDisplayed.set(" ", row: row, column: column)
        case .rollUp, .paintOn: displayed.set(" ", row: row, column: column)
        case .text: break
        }
    }

    /// A control pair, `c1` with the channel bit cleared (0x10-0x17).
    mutating func control<S: CaptionSink>(_ c1: UInt8, _ c2: UInt8, at time: MediaTime, into sink: inout S) {
        wroteText = false
        switch (c1, c2) {
        case (0x14, 0x20...0x2F), (0x15, 0x20...0x2F):
            command(c2, at: time, into: &sink)
        case (0x17, 0x21...0x23):
            column = min(column + Int(c2 - 0x20), Screen.columns - 1)  // TO1-TO3
        case (0x11, 0x20...0x2F):
            write(" ", at: time, into: &sink)  // a mid-row code shows as a space; its style is dropped
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
        let newRow = CharacterSets.pacRows[Int((c1 & 0x07) << 1 | (c2 & 0x20) >> 5)] - 1
        guard newRow >= 0 else { return }
        if let depth = rollDepth, newRow != row {
            displayed.moveWindow(from: row, to: newRow, depth: depth)
        }
        row = newRow
        let attribute = c2 & 0x1F
        column = attribute >= 0x10 ? Int((attribute - 0x10) >> 1) * 4 : 0  // indent codes
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
                commit(at: time, into: &sink)
                displayed.erase()
                nonDisplayed.erase()
                row = 14
                column = 0
            } else {
                displayed.keepWindow(bottom: row, depth: depth)
            }
            mode = .rollUp(depth)
        case 0x29:  // RDC resume direct captioning (paint-on)
            mode = .paintOn
        case 0x2A, 0x2B:  // TR text restart, RTD resume text display: not captions
            mode = .text
        case 0x2C:  // EDM erase displayed memory
            commit(at: time, into: &sink)
            displayed.erase()
        case 0x2D:  // CR carriage return
            guard let depth = rollDepth else { return }
            commit(at: time, into: &sink)
            displayed.rollUp(bottom: row, depth: depth)
            column = 0
            restart(at: time)
        case 0x2E:  // ENM erase non-displayed memory
            nonDisplayed.erase()
        case 0x2F:  // EOC end of caption: flip memories
            commit(at: time, into: &sink)
            swap(&displayed, &nonDisplayed)
            mode = .popOn
            restart(at: time)
        default:
            break  // AOF, AON, FON: no effect on the text
        }
    }
}
