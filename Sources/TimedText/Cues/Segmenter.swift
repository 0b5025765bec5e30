import Timebase

/// Assigns cues to consecutive time windows (RFC 8216bis §3.1.4: a segment carries every cue
/// displayed during its period, with its full timing, so a cue spanning a boundary is repeated).
package enum Segmenter {
    /// For each window `[start, end)`, the indices of the cues that overlap it (`cue.start < end`
    /// and `cue.end > start`), in cue order.
    ///
    /// `windows` must be sorted and non-overlapping.
    ///
    /// Runs in O(cues × log windows + output), into one list for all windows.
    package static func assign(_ cues: [Cue], to windows: [Range<MediaTime>]) -> SegmentAssignment {
        // The first window that ends after each cue starts, and how many cues each window gets.
        var firstWindow: [Int] = []
        firstWindow.reserveCapacity(cues.count)
        var counts = Array(repeating: 0, count: windows.count)
        // By index, reading the two times only (a whole cue copied would be retained).
        for index in cues.indices {
            let start = cues[index].start, end = cues[index].end
            var low = 0
            var high = windows.count
            while low < high {
                let mid = (low + high) / 2
                if windows[mid].upperBound <= start { low = mid + 1 } else { high = mid }
            }
            firstWindow.append(low)
            var w = low
            while w < windows.count, windows[w].lowerBound < end {
                if start < windows[w].upperBound && !windows[w].isEmpty { counts[w] += 1 }
                w += 1
            }
        }
        var starts = [0]
        starts.reserveCapacity(windows.count + 1)
        for count in counts { starts.append(starts[starts.count - 1] + count) }
        // Then each cue into its windows' places, in cue order.
        var next = Array(starts.dropLast())
        var list = Array(repeating: 0, count: starts[starts.count - 1])
        for index in cues.indices {
            let start = cues[index].start, end = cues[index].end
            var w = firstWindow[index]
            while w < windows.count, windows[w].lowerBound < end {
                if start < windows[w].upperBound && !windows[w].isEmpty {
                    list[next[w]] = index
                    next[w] += 1
                }
                w += 1
            }
        }
        return SegmentAssignment(list: list, starts: starts)
    }
}

/// For each segment, the indices of the cues it carries (``Segmenter/assign(_:to:)``): one list
/// for all segments and where each segment's part of it starts, not an array per segment.
package struct SegmentAssignment: RandomAccessCollection, Sendable, Equatable {
    private var list: [Int]
    /// Where each segment's indices start in `list`, and where the last ends.
    private var starts: [Int]

    fileprivate init(list: [Int], starts: [Int]) {
        self.list = list
        self.starts = starts
    }

    /// Each segment's indices as given.
    package init(_ segments: [[Int]]) {
        list = segments.flatMap { $0 }
        starts = [0]
        for segment in segments { starts.append(starts[starts.count - 1] + segment.count) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { starts.count - 1 }

    /// The indices of the cues segment `segment` carries, in order.
    package subscript(segment: Int) -> ArraySlice<Int> { list[starts[segment]..<starts[segment + 1]] }

    /// Segment `segment` now carries `indices` (in order) instead.
    package mutating func replace(_ segment: Int, with indices: [Int]) {
        let old = starts[segment]..<starts[segment + 1]
        list.replaceSubrange(old, with: indices)
        let change = indices.count - old.count
        for later in (segment + 1)..<starts.count { starts[later] += change }
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
        // By index: a cue handed to the check whole would be copied (and retained) first.
        if !sanitizing && !cues.indices.contains(where: { needsChange(cues, $0) }) { return cues }
        var result: [Cue] = []
        result.reserveCapacity(cues.count)
        for var cue in cues {
            cue.start = MediaTime(milliseconds: max(0, cue.start.milliseconds))
            cue.end = MediaTime(milliseconds: max(0, cue.end.milliseconds))
            guard cue.end > cue.start else { continue }
            if sanitizing, case let (text, changed) = CueText.sanitized(cue.text), changed { cue.text = text }
            if !cue.identifier.isEmpty && !isReadBack(cue.identifier) { cue.identifier = "" }
            result.append(cue)
        }
        return result
    }

    /// Whether ``writable(_:sanitizing:)`` changes cue `index` of `cues` other than by sanitizing
    /// its text.
    private static func needsChange(_ cues: [Cue], _ index: Int) -> Bool {
        let (start, end) = (cues[index].start, cues[index].end)
        let (rounded, roundedEnd) = (MediaTime(milliseconds: max(0, start.milliseconds)), MediaTime(milliseconds: max(0, end.milliseconds)))
        guard rounded == start, roundedEnd == end, roundedEnd > rounded else { return true }
        return !cues[index].identifier.isEmpty && !isReadBack(cues[index].identifier)
    }

    /// Whether a parser reads `identifier` back as the cue's identifier: no line break or `-->` in it.
    private static func isReadBack(_ identifier: String) -> Bool {
        // On a copy's bytes: a small string's are put on the stack (its UTF-8 view is slow per byte).
        var bytes = identifier
        let breaksLine = bytes.withUTF8 { $0.contains { $0 == 0x0A || $0 == 0x0D } }
        return !breaksLine && !identifier.containsASCII("-->")
    }
}
