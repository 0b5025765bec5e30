import Timebase

/// Assigns cues to consecutive time windows (RFC 8216bis §3.1.4: a segment carries every cue
/// displayed during its period, with its full timing, so a cue spanning a boundary is repeated).
package enum Segmenter {
    /// For each window `[start, end)`, the indices of the cues that overlap it (`cue.start < end`
    /// and `cue.end > start`), in cue order.
    ///
    /// `windows` must be sorted and non-overlapping.
    ///
    /// Runs in O(cues × log windows + output).
    package static func assign(_ cues: [Cue], to windows: [Range<MediaTime>]) -> [[Int]] {
        var result = Array(repeating: [Int](), count: windows.count)
        // By index, reading the two times only (a whole cue copied would be retained).
        for index in cues.indices {
            let start = cues[index].start, end = cues[index].end
            // The first window that ends after the cue starts.
            var low = 0
            var high = windows.count
            while low < high {
                let mid = (low + high) / 2
                if windows[mid].upperBound <= start { low = mid + 1 } else { high = mid }
            }
            var w = low
            while w < windows.count, windows[w].lowerBound < end {
                if start < windows[w].upperBound && !windows[w].isEmpty { result[w].append(index) }
                w += 1
            }
        }
        return result
    }
}

/// Cues as a segment writes them, so that what is written parses back as what was meant.
package enum SegmentCues {
    /// `cues` made writable: times rounded to the millisecond a WebVTT timestamp holds (negative
    /// times become 0), text through ``CueText/sanitized(_:)``, an identifier that a parser would
    /// not read back as one (a line break or `-->` in it) removed, and cues whose end is not after
    /// their start once rounded dropped (the WebVTT syntax requires end > start).
    ///
    /// `sanitizing` false: the text is known to be sanitized already (the packager's ingest
    /// repaired every cue, and the caption decoder writes valid text), so it is not done twice.
    ///
    /// Cues already writable (the common case when `sanitizing` is false) are returned as they
    /// are: the same array, not a copy.
    package static func writable(_ cues: [Cue], sanitizing: Bool = true) -> [Cue] {
        if !sanitizing && !cues.contains(where: needsChange) { return cues }
        var result: [Cue] = []
        result.reserveCapacity(cues.count)
        for var cue in cues {
            cue.start = MediaTime(milliseconds: max(0, cue.start.milliseconds))
            cue.end = MediaTime(milliseconds: max(0, cue.end.milliseconds))
            guard cue.end > cue.start else { continue }
            if sanitizing, case let (text, changed) = CueText.sanitized(cue.text), changed { cue.text = text }
            if cue.identifier.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) || cue.identifier.containsASCII("-->") {
                cue.identifier = ""
            }
            result.append(cue)
        }
        return result
    }

    /// Whether ``writable(_:sanitizing:)`` changes `cue` other than by sanitizing its text.
    private static func needsChange(_ cue: Cue) -> Bool {
        let start = MediaTime(milliseconds: max(0, cue.start.milliseconds))
        let end = MediaTime(milliseconds: max(0, cue.end.milliseconds))
        return start != cue.start || end != cue.end || end <= start
            || (!cue.identifier.isEmpty && (cue.identifier.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) || cue.identifier.containsASCII("-->")))
    }
}
