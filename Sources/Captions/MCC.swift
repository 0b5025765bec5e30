import Timebase
import TimedText

/// MacCaption files (`.mcc`): the caption data of a programme's frames, one SMPTE 334-2 caption
/// distribution packet (CDP) per line, read through the same 608 and 708 decoders as captions in
/// video.
///
/// ```
/// File Format=MacCaption_MCC V2.0
/// // comments
/// Time Code Rate=30DF
///
/// 00:00:01;00	T2BS2B4F43ZZ72EAFC9420FC9420…74ZZ608D
/// ```
/// Each data line is a timecode, a tab and the packet in hexadecimal, shortened by an alphabet of
/// repeated patterns (G–O: `FA0000` once to nine times, P `FB8080`, Q `FC8080`, R `FD8080`, S
/// `9669`, T `6101`, U `E1000000`, Z `00`). A line holds the ancillary packet (DID 0x61, SDID
/// 0x01, its data count, then the CDP) or the CDP alone. The CDP's cc_data triplets are those
/// A/53 carries in video: 608 pairs of field 1 and 2, and DTVCC packets. Every triplet of a line
/// is taken at the frame its timecode names.
package enum MCCReader {
    /// What an MCC file holds.
    package struct Read: Sendable {
        /// The cues of each service with text, services in order (CC1 first).
        package var services: [(service: CaptionService, cues: [Cue])]
        /// The rate its timecodes were read at.
        package var rate: TimecodeRate
        package var warnings: [IngestWarning]
        /// Caption distribution packets read.
        package var packets: Int
        /// Where the first line with data starts, on the file's timecode clock.
        package var firstTime: MediaTime?
    }

    /// Reads `text`; its timecodes at `declared` when the operator gave a rate, else at the rate
    /// its header (`Time Code Rate=`) and its packets' frame rate say.
    package static func read(_ text: String, rate declared: TimecodeRate? = nil) throws(CaptionsError) -> Read {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let header = lines.first, header.trimming([" ", "\t"]).hasPrefix("File Format=MacCaption_MCC V") else {
            throw CaptionsError(
                .malformedMCC, line: 1,
                "an MCC file starts with the line \"File Format=MacCaption_MCC V1.0\" or \"V2.0\" (found \"\(LabelText.excerpt(lines.first.map(String.init) ?? ""))\")"
            )
        }
        var parsed = parse(lines)
        let rate = resolveRate(declared: declared, header: parsed.headerRate, packets: parsed.packets.lazy.compactMap(\.frameRate), warnings: &parsed.warnings)
        var read = decode(parsed.packets, rate: rate)
        read.warnings = parsed.warnings + read.warnings + parsed.damaged.warnings
        return read
    }

    /// A data line read: its line number, timecode, caption data and the packet's frame rate code.
    typealias Packet = (line: Int, timecode: Substring, data: [CCData], frameRate: UInt8?)

    /// What the lines after the first say: the header's rate, the packets, what was skipped.
    struct Lines {
        var headerRate: (label: String, line: Int)?
        var packets: [Packet] = []
        var warnings: [IngestWarning] = []
        var damaged = DamageCount()
    }

    /// Reads the header lines (`Time Code Rate=`), skips comments, and reads each data line.
    static func parse(_ lines: [Substring]) -> Lines {
        var parsed = Lines()
        for (index, raw) in lines.enumerated().dropFirst() {
            let line = raw.trimming([" ", "\t"])
            if line.isEmpty || line.hasPrefix("//") { continue }
            guard line.first?.isASCII == true, line.first?.isNumber == true, let tab = line.firstIndex(where: { $0 == "\t" || $0 == " " }) else {
                if let equals = line.firstIndex(of: "=") {
                    if line[..<equals] == "Time Code Rate" { parsed.headerRate = (String(line[line.index(after: equals)...]), index + 1) }
                    continue
                }
                parsed.warnings.append(
                    IngestWarning(
                        kind: .lineSkipped, line: index + 1, "line skipped: \"\(LabelText.excerpt(String(line)))\" is neither a header nor a timecode and data")
                )
                continue
            }
            var timecode = line[..<tab]
            // MCC 2.0 may add a field number after the frames (`00:00:01:00.1`).
            if timecode.utf8.count == 13, let dot = timecode.lastIndex(of: "."), timecode.distance(from: timecode.startIndex, to: dot) == 11 {
                timecode = timecode[..<dot]
            }
            let payload = line[tab...].trimming([" ", "\t"])
            switch packet(payload) {
            case .success(let (data, frameRate, checksumOK)):
                if !checksumOK { parsed.damaged.checksums += 1 }
                parsed.packets.append((index + 1, timecode, data, frameRate))
            case .failure(let problem):
                parsed.damaged.note(problem, line: index + 1)
            }
        }
        return parsed
    }

    /// The packets' caption data through the decoders, each line at its timecode's frame.
    static func decode(_ packets: [Packet], rate: TimecodeRate) -> Read {
        var warnings: [IngestWarning] = []
        var decoder = CaptionDecoder(codec: .h264)
        var misfits = TimecodeMisfits(rate: rate)
        var lastFrame: Int64 = -1
        var firstTime: MediaTime?
        var backwards = 0
        for packet in packets {
            guard let reading = rate.read(packet.timecode) else {
                warnings.append(
                    IngestWarning(
                        kind: .lineSkipped, line: packet.line,
                        "line skipped: \"\(LabelText.excerpt(String(packet.timecode)))\" is not a timecode HH:MM:SS:FF or HH:MM:SS;FF"))
                continue
            }
            if let misfit = reading.misfit { misfits.add(misfit, timecode: packet.timecode, line: packet.line) }
            var frame = reading.frame
            if frame < lastFrame {
                // Lines may repeat a timecode (more packets for that frame); one going back is
                // taken on the latest frame so far.
                backwards += 1
                frame = lastFrame
            }
            lastFrame = frame
            let time = rate.time(frame: frame)
            if firstTime == nil { firstTime = time }
            decoder.add(presentedCaptionData: packet.data, time: time)
        }
        decoder.finish(at: rate.time(frame: lastFrame) + MediaTime(seconds: 10))
        warnings += misfits.warnings
        if backwards > 0 {
            warnings.append(
                IngestWarning(
                    kind: .timecodeOverlap, line: nil,
                    "\(backwards) line(s) have a timecode before the previous line's; each was taken on the previous line's frame"))
        }
        warnings += decoder.neverErasedWarning(after: rate.time(frame: lastFrame))
        for note in decoder.dtvccLosses { warnings.append(IngestWarning(kind: .cueSkipped, line: nil, note)) }
        let services = decoder.services.map { ($0, decoder.collector.cues[$0] ?? []) }
        return Read(services: services, rate: rate, warnings: warnings, packets: packets.count, firstTime: firstTime)
    }

    /// What is wrong with a line's data.
    enum Problem: Error {
        case notHex(Character, offset: Int)
        case oddDigits
        case notCaptionData(String)
    }

    /// Lines whose data could not be read, gathered per kind: one warning each.
    struct DamageCount {
        var checksums = 0
        var skipped: [(line: Int, reason: String)] = []

        mutating func note(_ problem: Problem, line: Int) {
            let reason: String
            switch problem {
            case .notHex(let c, let offset):
                reason = "character \(offset + 1) of its data, \(LabelText.describe(c.unicodeScalars.first ?? " ")), is not hexadecimal or an MCC letter"
            case .oddDigits: reason = "its data has an odd number of hexadecimal digits"
            case .notCaptionData(let why): reason = why
            }
            skipped.append((line, reason))
        }

        var warnings: [IngestWarning] {
            var result: [IngestWarning] = []
            if let first = skipped.first {
                let more = skipped.count > 1 ? " (\(skipped.count - 1) more line(s) skipped the same way or another)" : ""
                result.append(IngestWarning(kind: .lineSkipped, line: first.line, "line skipped: \(first.reason)\(more)"))
            }
            if checksums > 0 {
                result.append(
                    IngestWarning(
                        kind: .invalidBytes, line: nil,
                        "\(checksums) caption distribution packet(s) fail their checksum (the data may be damaged); their captions were read as they are"))
            }
            return result
        }
    }

    /// The cc_data triplets of one line's data, the CDP's frame rate code and whether its
    /// checksum holds.
    static func packet(_ payload: Substring) -> Result<([CCData], UInt8?, Bool), Problem> {
        let bytes: [UInt8]
        switch expand(payload) {
        case .success(let expanded): bytes = expanded
        case .failure(let problem): return .failure(problem)
        }
        var cdp = bytes[...]
        if bytes.count >= 3, bytes[0] == 0x61, bytes[1] == 0x01 {
            // SMPTE 334-1 ancillary packet: DID 0x61, SDID 0x01 (CEA-708 CDP), data count.
            cdp = bytes[3..<min(bytes.count, 3 + Int(bytes[2]))]
        } else if bytes.count >= 2, bytes[0] == 0x61 {
            return .failure(.notCaptionData(String(format: "its ancillary packet (SDID 0x%02X) is not a caption distribution packet", bytes[1])))
        }
        return cdpData(cdp)
    }

    /// Reads a CDP (SMPTE 334-2): identifier 0x9669, length, frame rate, flags, sequence counter,
    /// then the optional time code section (0x71) and the cc_data section (0x72).
    static func cdpData(_ cdp: ArraySlice<UInt8>) -> Result<([CCData], UInt8?, Bool), Problem> {
        let p = Array(cdp)
        guard p.count >= 7, p[0] == 0x96, p[1] == 0x69 else {
            return .failure(.notCaptionData("its data is not a caption distribution packet (it does not start with 9669, or S)"))
        }
        let length = Int(p[2])
        let frameRate = p[3] >> 4
        let flags = p[4]
        var i = 7
        if flags & 0x80 != 0 {
            guard i + 5 <= p.count, p[i] == 0x71 else { return .failure(.notCaptionData("its packet says it has a time code section, and has none")) }
            i += 5
        }
        var data: [CCData] = []
        if flags & 0x40 != 0 {
            guard i + 2 <= p.count, p[i] == 0x72 else { return .failure(.notCaptionData("its packet says it has caption data, and has none")) }
            let count = Int(p[i + 1] & 0x1F)
            i += 2
            for _ in 0..<count where i + 3 <= p.count {
                data.append(CCData(type: p[i] & 0x03, valid: p[i] & 0x04 != 0, byte1: p[i + 1], byte2: p[i + 2]))
                i += 3
            }
        }
        // The packet checksum makes the sum of its `length` bytes zero (mod 256).
        let checksumOK = length <= p.count && length >= 7 && p[0..<length].reduce(UInt8(0), &+) == 0
        return .success((data, frameRate, checksumOK))
    }

    /// The most bytes a line may stand for: an ancillary packet holds at most 255 data words
    /// (a CDP's length is one byte), so more is not caption data; a line of nine-fold letters
    /// would otherwise make 27 bytes of each byte of the file.
    static let longestPacket = 1024

    /// The bytes a line's data stands for: hexadecimal pairs and the MCC letters.
    static func expand(_ payload: Substring) -> Result<[UInt8], Problem> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(payload.utf8.count, longestPacket))
        var high: UInt8?
        for (offset, c) in payload.utf8.enumerated() {
            guard bytes.count <= longestPacket else {
                return .failure(.notCaptionData("its data stands for more than \(longestPacket) bytes, longer than any caption distribution packet"))
            }
            if let nibble = hexValue(c) {
                if let h = high {
                    bytes.append(h << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
                continue
            }
            guard high == nil else { return .failure(.oddDigits) }
            switch c {
            case UInt8(ascii: "G")...UInt8(ascii: "O"):
                for _ in 0...(c - UInt8(ascii: "G")) { bytes += [0xFA, 0x00, 0x00] }
            case UInt8(ascii: "P"): bytes += [0xFB, 0x80, 0x80]
            case UInt8(ascii: "Q"): bytes += [0xFC, 0x80, 0x80]
            case UInt8(ascii: "R"): bytes += [0xFD, 0x80, 0x80]
            case UInt8(ascii: "S"): bytes += [0x96, 0x69]
            case UInt8(ascii: "T"): bytes += [0x61, 0x01]
            case UInt8(ascii: "U"): bytes += [0xE1, 0x00, 0x00, 0x00]
            case UInt8(ascii: "Z"): bytes.append(0x00)
            default:
                let character = payload.utf8.index(payload.startIndex, offsetBy: offset)
                return .failure(.notHex(payload[character...].first ?? "?", offset: offset))
            }
        }
        guard high == nil else { return .failure(.oddDigits) }
        return .success(bytes)
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The CDP frame rate codes (SMPTE 334-2 Table 3) as timecode rates.
    static func rate(cdpCode: UInt8) -> TimecodeRate? {
        switch cdpCode {
        case 1: TimecodeRate(label: "23.976")
        case 2: TimecodeRate(label: "24")
        case 3: TimecodeRate(label: "25")
        case 4: .ntsc
        case 5: TimecodeRate(label: "30")
        case 6: TimecodeRate(label: "50")
        case 7: TimecodeRate(label: "59.94")
        case 8: TimecodeRate(label: "60")
        default: nil
        }
    }

    /// The rate to read the timecodes at: the operator's; else the header's `Time Code Rate`,
    /// made 1000/1001 when it names a whole rate (`30`, `24`, `60`) and the packets say the
    /// fractional one (29.97, 23.976, 59.94); else the packets' rate; else 29.97.
    static func resolveRate(
        declared: TimecodeRate?, header: (label: String, line: Int)?, packets: some Sequence<UInt8>, warnings: inout [IngestWarning]
    ) -> TimecodeRate {
        if let declared { return declared }
        let fromPackets = packets.first(where: { rate(cdpCode: $0) != nil }).flatMap(rate(cdpCode:))
        guard let header else { return fromPackets ?? .ntsc }
        guard let named = TimecodeRate(label: header.label) else {
            let fallback = fromPackets ?? .ntsc
            warnings.append(
                IngestWarning(
                    kind: .timecodeRate, line: header.line,
                    "Time Code Rate \"\(LabelText.excerpt(header.label))\" is not one MCC defines (24, 25, 30, 30DF, 50, 60, 60DF); read at \(fallback) fps, what its packets say. Declare fps= if that is wrong"
                ))
            return fallback
        }
        if !named.isFractional, let fromPackets, fromPackets.isFractional, fromPackets.framesPerSecond == named.framesPerSecond {
            return TimecodeRate(framesPerSecond: named.framesPerSecond, isFractional: true, dropFrame: .never)
        }
        return named
    }
}
