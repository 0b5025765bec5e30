import Timebase

/// EBU STL subtitle files (EBU Tech 3264, `.stl`): a 1024-byte General Subtitle Information (GSI)
/// block, then 128-byte Text and Timing Information (TTI) blocks.
///
/// - The GSI gives the frame rate (disk format code `STL25.01`, `STL30.01`; also `STL23.01`,
///   `STL24.01`, `STL50.01`), the display standard (open subtitling or teletext), the character
///   code table (00 Latin ISO 6937, 01 Cyrillic, 02 Arabic, 03 Greek, 04 Hebrew: ISO 8859-5 to -8),
///   and the time code status and start of programme.
/// - Each TTI block has a subtitle number, an extension block number (blocks of one subtitle are
///   joined until 0xFF; 0xFE user data and 0xF0–0xFD reserved are skipped), a cumulative status,
///   time code in and out (binary hours, minutes, seconds, frames), the vertical position, the
///   justification, a comment flag (comments are not shown) and 112 bytes of text.
///
/// Timing: the frames count at the disk format's rate (`STL30.01` read as 29.97 drop-frame, as
/// ttconv does; `fps=` overrides it: `29.97ndf`, `30`). When the GSI's time code status says its time codes are for
/// use (TCS `1`) and names a start of programme (TCP), times count from it: a file whose
/// programme starts at 10:00:00:00 lands on a programme that starts at zero.
///
/// Placement: the vertical position is a teletext row (1–23) or, for open subtitles, a row of
/// the GSI's maximum rows; a subtitle in the upper half is placed by its first row, one in the
/// lower half by its last (`line:…%,end`); rows map to 10 %–90 % of the height (the title-safe
/// area). Justification left and right become `align:left` and `align:right`.
package enum EBUSTLReader {
    /// What an STL file gives.
    package struct Read {
        package var cues: [Cue]
        package var warnings: [IngestWarning]
        package var rate: TimecodeRate
    }

    static let gsiSize = 1024
    static let ttiSize = 128

    /// Reads `bytes`; its time codes at `declared` when given, else at its disk format's rate.
    package static func read(_ bytes: [UInt8], rate declared: TimecodeRate? = nil) throws(SubtitleFileError) -> Read {
        let gsi = try GSI(bytes)
        var warnings = gsi.warnings
        let rate = declared ?? gsi.rate
        var subtitles = SubtitleAssembly(gsi: gsi, rate: rate)
        var offset = gsiSize
        while offset + ttiSize <= bytes.count {
            subtitles.add(bytes[offset..<offset + ttiSize], at: offset)
            offset += ttiSize
        }
        if offset < bytes.count {
            subtitles.warnings.append(
                IngestWarning(
                    kind: .lineSkipped, line: nil,
                    "the last \(bytes.count - offset) byte(s), from byte offset \(offset), are not a whole 128-byte TTI block: skipped"))
        }
        warnings += subtitles.finish()
        return Read(cues: subtitles.cues, warnings: warnings, rate: rate)
    }

    /// The General Subtitle Information block's fields Subweave uses.
    struct GSI {
        let rate: TimecodeRate
        let teletext: Bool
        let table: EBUSTLText.Table
        /// Rows a vertical position counts in.
        let rows: Int
        /// The start of programme, when the time code status says the time codes are for use.
        let programmeStart: (h: Int64, m: Int64, s: Int64, f: Int64)?
        var warnings: [IngestWarning] = []

        init(_ bytes: [UInt8]) throws(SubtitleFileError) {
            guard bytes.count >= EBUSTLReader.gsiSize else {
                throw SubtitleFileError(
                    .ebuSTL, offset: bytes.count, "not an EBU STL file: \(bytes.count) bytes, shorter than its 1024-byte GSI block")
            }
            func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
            let format = text(3..<11)
            switch format {
            case "STL23.01": rate = TimecodeRate(framesPerSecond: 24, isFractional: true, dropFrame: .never)
            case "STL24.01": rate = TimecodeRate(framesPerSecond: 24, isFractional: false, dropFrame: .never)
            case "STL25.01": rate = TimecodeRate(framesPerSecond: 25, isFractional: false, dropFrame: .never)
            case "STL30.01": rate = TimecodeRate(framesPerSecond: 30, isFractional: true, dropFrame: .always)
            case "STL50.01": rate = TimecodeRate(framesPerSecond: 50, isFractional: false, dropFrame: .never)
            default:
                throw SubtitleFileError(
                    .ebuSTL, offset: 3,
                    "not an EBU STL file: its disk format code (bytes 3-10) is \"\(LabelText.excerpt(format))\", not STL25.01 or STL30.01")
            }
            teletext = bytes[11] == UInt8(ascii: "1") || bytes[11] == UInt8(ascii: "2")
            let code = text(12..<14)
            if let known = EBUSTLText.Table(rawValue: code) {
                table = known
            } else {
                table = .latin
                warnings.append(
                    IngestWarning(
                        kind: .encodingFallback, line: nil,
                        "byte offset 12: character code table \"\(LabelText.excerpt(code))\" is not one EBU STL defines (00-04); read as 00 (Latin, ISO 6937)"))
            }
            let maximumRows = Int(text(253..<255).trimmingCharacters(in: .whitespaces)) ?? 0
            rows = teletext || !(1...99).contains(maximumRows) ? 23 : maximumRows
            let start = Array(bytes[256..<264])
            if bytes[255] == UInt8(ascii: "1"), start.allSatisfy({ (0x30...0x39).contains($0) }) {
                let field = { (i: Int) in Int64(start[i] - 0x30) * 10 + Int64(start[i + 1] - 0x30) }
                programmeStart = (field(0), field(2), field(4), field(6))
            } else {
                programmeStart = nil
            }
        }
    }

    /// TTI blocks made into cues: extension blocks joined, comments left out, cumulative sets
    /// shown together.
    struct SubtitleAssembly {
        let gsi: GSI
        let rate: TimecodeRate
        var cues: [Cue] = []
        var warnings: [IngestWarning] = []
        private var text: [UInt8] = []
        private var collecting = false
        /// The subtitles of the cumulative set being built: each row group with its interval.
        private var cumulative: [(start: MediaTime, end: MediaTime, text: String, settings: CueSettings)] = []
        private var misfits: TimecodeMisfits
        private var undecodable = 0
        private var badTimes: (count: Int, offset: Int)?
        private var comments = 0
        private let origin: MediaTime

        init(gsi: GSI, rate: TimecodeRate) {
            self.gsi = gsi
            self.rate = rate
            misfits = TimecodeMisfits(rate: rate)
            if let start = gsi.programmeStart, let reading = rate.read(hours: start.h, minutes: start.m, seconds: start.s, frames: start.f) {
                origin = rate.time(frame: reading.frame)
            } else {
                origin = .zero
            }
        }

        mutating func add(_ block: ArraySlice<UInt8>, at offset: Int) {
            let b = Array(block)
            let extensionNumber = b[3]
            if (0xF0...0xFE).contains(extensionNumber) { return }  // user data, reserved
            var field = b[16..<128]
            while field.last == 0x8F { field = field.dropLast() }
            if !collecting { text = [] }
            text += field
            guard extensionNumber == 0xFF else {
                collecting = true
                return
            }
            collecting = false
            guard b[15] == 0 else {
                comments += 1
                return
            }
            guard let start = time(b[5], b[6], b[7], b[8], offset: offset + 5), let end = time(b[9], b[10], b[11], b[12], offset: offset + 9) else {
                badTimes = ((badTimes?.count ?? 0) + 1, badTimes?.offset ?? offset + 5)
                return
            }
            let decoded = EBUSTLText.decode(text[...], table: gsi.table, teletext: gsi.teletext)
            undecodable += decoded.undecodable
            let settings = placement(verticalPosition: Int(b[13]), justification: b[14], decoded: decoded)
            let status = b[4]
            if status == 0 || status == 1 { flushCumulative() }
            guard status != 0 else {
                if !decoded.text.isEmpty, end > start { cues.append(Cue(start: start, end: end, settings: settings, text: decoded.text)) }
                return
            }
            if !decoded.text.isEmpty { cumulative.append((start, end, decoded.text, settings)) }
            // A set is a few rows of a screen; a hostile file that never ends one would make each
            // flush quadratic: past 64 subtitles the set is shown as it stands and a new one begins.
            if status == 3 || cumulative.count >= 64 { flushCumulative() }
        }

        /// A cumulative set (status 1, 2…, 3): each subtitle adds its rows below those shown;
        /// a cue per interval in which what is shown stays the same, placed as the first is.
        private mutating func flushCumulative() {
            defer { cumulative = [] }
            guard let first = cumulative.first else { return }
            let boundaries = Set(cumulative.flatMap { [$0.start, $0.end] }).sorted()
            for (a, b) in zip(boundaries, boundaries.dropFirst()) {
                let shown = cumulative.filter { $0.start <= a && a < $0.end }.map(\.text)
                guard !shown.isEmpty else { continue }
                cues.append(Cue(start: a, end: b, settings: first.settings, text: shown.joined(separator: "\n")))
            }
        }

        /// A time code's time on the programme, nil when it is not one.
        private mutating func time(_ h: UInt8, _ m: UInt8, _ s: UInt8, _ f: UInt8, offset: Int) -> MediaTime? {
            guard let reading = rate.read(hours: Int64(h), minutes: Int64(m), seconds: Int64(s), frames: Int64(f)) else { return nil }
            if let misfit = reading.misfit {
                let separator = rate.dropFrame == .always && rate.allowsDropFrame ? ";" : ":"
                misfits.add(misfit, timecode: Substring(format2(h) + ":" + format2(m) + ":" + format2(s) + separator + format2(f)), line: 0)
            }
            let time = rate.time(frame: reading.frame) - origin
            return time < .zero ? .zero : time
        }

        private func format2(_ v: UInt8) -> String { v < 10 ? "0\(v)" : "\(v)" }

        /// The cue settings a vertical position and justification give.
        func placement(verticalPosition vp: Int, justification: UInt8, decoded: EBUSTLText.Decoded) -> CueSettings {
            let height = decoded.doubleHeight && gsi.teletext ? 2 : 1
            let first = max(1, min(vp, gsi.rows))
            let last = min(gsi.rows, first + max(decoded.rows, 1) * height - 1)
            var settings = TeletextRows.placement(firstRow: first, lastRow: last, rows: gsi.rows)
            switch justification {
            case 1: settings.align = .left
            case 3: settings.align = .right
            default: break
            }
            return settings
        }

        /// Ends the last set and says what was left out or misread.
        mutating func finish() -> [IngestWarning] {
            flushCumulative()
            if collecting {
                warnings.append(
                    IngestWarning(kind: .cueSkipped, line: nil, "the last subtitle's extension blocks never end (no block numbered 0xFF): left out"))
            }
            var said = warnings
            said += misfits.warnings.map { IngestWarning(kind: $0.kind, line: nil, $0.message) }
            if let (count, offset) = badTimes {
                said.append(
                    IngestWarning(
                        kind: .cueSkipped, line: nil,
                        "\(count) subtitle(s) have a time code that is not one (hours 24 or more, minutes or seconds 60 or more), the first at byte offset \(offset): left out"
                    ))
            }
            if comments > 0 {
                said.append(IngestWarning(kind: .cueSkipped, line: nil, "\(comments) comment block(s) (comment flag 1) are not subtitles: not shown"))
            }
            if undecodable > 0 {
                said.append(
                    IngestWarning(
                        kind: .invalidBytes, line: nil,
                        "\(undecodable) character(s) are not in the file's character code table (\(gsi.table.rawValue)): shown as U+FFFD"))
            }
            cues.sortByStart()
            return said
        }
    }
}
