import Timebase
import TimedText

/// Scenarist Closed Caption files (`.scc`): 608 byte pairs scheduled by SMPTE timecode, read
/// through the same decoder as captions in video.
///
/// ```
/// Scenarist_SCC V1.0
///
/// 00:00:01;02	9420 9420 94ae 94ae 9452 9452 c8e5 ecec ef80 942f 942f
/// ```
/// Each line's first pair is sent on the frame its timecode names and each next pair on the next
/// frame. The rate is 29.97 frames per second unless the operator declares another
/// (``TimecodeRate``: 23.976, 24, 25, 29.97 drop or non-drop, 30); at 29.97 `;` (or `.`) before the
/// frames marks drop-frame timecode, `:` non-drop, and both count real frames of 1001/30000 s.
package enum SCCReader {
    /// The captions of `service`, or of the first service with text (CC1 unless the file carries
    /// only CC2), and warnings (lines skipped, other services ignored, timecodes that do not fit
    /// `rate`).
    package static func read(_ text: String, rate: TimecodeRate = .ntsc, service wanted: CaptionService? = nil) throws(CaptionsError) -> (
        cues: [Cue], service: CaptionService?, warnings: [IngestWarning]
    ) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let header = lines.first, header.trimming([" ", "\t"]).hasPrefix("Scenarist_SCC V1.0") else {
            throw CaptionsError(
                .malformedSCC, line: 1, "an SCC file starts with the line \"Scenarist_SCC V1.0\" (found \"\(lines.first.map { String($0.prefix(40)) } ?? "")\")"
            )
        }
        var warnings: [IngestWarning] = []
        var decoder = CaptionDecoder(codec: .h264)
        var lastFrame: Int64 = -1
        var misfits = TimecodeMisfits(rate: rate)
        for (index, raw) in lines.enumerated().dropFirst() {
            let line = raw.trimming([" ", "\t"])
            if line.isEmpty { continue }
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let timecode = parts.first, let reading = rate.read(timecode) else {
                warnings.append(
                    IngestWarning(
                        kind: .lineSkipped, line: index + 1, "line skipped: \"\(line.prefix(30))\" does not start with a timecode HH:MM:SS:FF or HH:MM:SS;FF"))
                continue
            }
            let frame = reading.frame
            if let misfit = reading.misfit { misfits.add(misfit, timecode: timecode, line: index + 1) }
            let pairs = Self.pairs(parts.dropFirst(), line: index + 1, warnings: &warnings)
            if frame < lastFrame {
                warnings.append(
                    IngestWarning(
                        kind: .timecodeOverlap, line: index + 1,
                        "timecode \(timecode) starts before the previous line's data has been sent; its pairs are sent from there on"))
            }
            var f = max(frame, lastFrame)
            for pair in pairs {
                decoder.add(pairs: [pair], field: 1, time: rate.time(frame: f))
                f += 1
            }
            lastFrame = f
        }
        // A caption still on screen at the end of the file (the usual last line of a programme) is
        // never erased: it stays up for the 10 s rule (the packager also ends it with the programme).
        decoder.finish(at: rate.time(frame: lastFrame) + MediaTime(seconds: 10))
        warnings += misfits.warnings
        warnings += decoder.neverErasedWarning(after: rate.time(frame: lastFrame))
        let chosen = CaptionService.choose(wanted, among: decoder.services.map { ($0, decoder.collector.cues[$0] ?? []) })
        return (chosen.cues, chosen.service, warnings + chosen.warnings)
    }

    /// The byte pairs of a line's words (after its timecode); a word that is not four hexadecimal
    /// digits is sent as padding, with a warning, so the pairs around it keep their frames.
    static func pairs(_ words: ArraySlice<Substring>, line: Int, warnings: inout [IngestWarning]) -> [(UInt8, UInt8)] {
        var pairs: [(UInt8, UInt8)] = []
        for (position, word) in words.enumerated() {
            guard word.utf8.count == 4, let value = UInt16(word, radix: 16) else {
                warnings.append(
                    IngestWarning(
                        kind: .wordSkipped, line: line,
                        "word \(position + 1) \"\(LabelText.excerpt(String(word)))\" is not a 4-digit hexadecimal byte pair; sent as padding (the rest of the line is kept)"
                    ))
                pairs.append((0x80, 0x80))
                continue
            }
            pairs.append((UInt8(value >> 8), UInt8(value & 0xFF)))
        }
        return pairs
    }

}

extension CaptionDecoder {
    /// A timecoded file's (SCC, MCC) last caption, when it is still on screen after `end`, the
    /// file's last frame.
    package func neverErasedWarning(after end: MediaTime) -> [IngestWarning] {
        guard let last = collector.cues.values.compactMap(\.last).first(where: { $0.end > end }) else { return [] }
        return [
            IngestWarning(
                kind: .captionNotErased, line: nil,
                "the last caption (\"\(LabelText.excerpt(last.text))\" from \(last.start.decimalSeconds) s) is never erased; it is shown for 10 s, or until the programme ends"
            )
        ]
    }
}
