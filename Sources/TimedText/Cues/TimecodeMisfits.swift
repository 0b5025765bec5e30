import Timebase

/// The timecodes of a file that do not fit its frame rate, gathered into one warning per kind
/// (the first one, its line, and how many): a whole file at the wrong rate says so once, not on
/// every line.
package struct TimecodeMisfits {
    let rate: TimecodeRate
    private var seen: [Kind: (timecode: String, line: Int, count: Int)] = [:]

    private enum Kind: Int, Comparable {
        case frameBeyondSecond, dropFrameWritten, dropFrameMissing, skippedNumber
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    package init(rate: TimecodeRate) { self.rate = rate }

    /// Counts `misfit`, found in `timecode` on 1-based `line`.
    package mutating func add(_ misfit: TimecodeRate.Misfit, timecode: Substring, line: Int) {
        let kind: Kind
        switch misfit {
        case .frameBeyondSecond: kind = .frameBeyondSecond
        case .dropFrameMismatch(let written): kind = written ? .dropFrameWritten : .dropFrameMissing
        case .skippedNumber: kind = .skippedNumber
        }
        if let known = seen[kind] {
            seen[kind] = (known.timecode, known.line, known.count + 1)
        } else {
            seen[kind] = (String(timecode), line, 1)
        }
    }

    /// One warning per kind of misfit, on the line of its first timecode.
    package var warnings: [IngestWarning] {
        seen.sorted { $0.key < $1.key }.map { kind, first in
            let (timecode, line, count) = first
            let more = count > 1 ? " (and \(count - 1) more timecode\(count == 2 ? "" : "s") like it)" : ""
            let text: String
            switch kind {
            case .frameBeyondSecond:
                text =
                    "timecode \(timecode) names a frame that \(rate) fps timecode does not have (frames run 00-\(rate.framesPerSecond - 1)); read as frame \(rate.framesPerSecond - 1) of that second\(more). The file may be at another rate: declare fps="
            case .dropFrameWritten:
                text =
                    rate.allowsDropFrame
                    ? "timecode \(timecode) is drop-frame (';' or '.' before the frames) although fps=\(rate) says non-drop; read as non-drop\(more)"
                    : "timecode \(timecode) is drop-frame (';' or '.' before the frames), which \(rate) fps does not have; read as non-drop\(more)"
            case .dropFrameMissing:
                text = "timecode \(timecode) is not drop-frame (':' before the frames) although fps=\(rate) says drop-frame; read as drop-frame\(more)"
            case .skippedNumber:
                text =
                    "timecode \(timecode) names a frame number that drop-frame timecode skips (00 and 01 of each minute but every tenth, at 59.94 00 to 03); read as the first that exists\(more)"
            }
            return IngestWarning(kind: .timecodeRate, line: line, text)
        }
    }
}
