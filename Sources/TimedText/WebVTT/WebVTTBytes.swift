import Timebase

/// WebVTT written as bytes into one buffer: timestamps from a digit table, cue blocks copied
/// from their text's UTF-8, no intermediate strings.
///
/// The bytes are those ``WebVTTWriter`` makes as text, byte for byte (its tests hold the two
/// together), so a generation's hash and its files do not depend on which one wrote them.
package struct WebVTTBytes {
    package var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// A line break and a blank line after a block (two appended bytes, not an array of two).
    package mutating func lineBreaks() {
        bytes.append(0x0A)
        bytes.append(0x0A)
    }

    private mutating func twoDigits(_ n: Int) {
        bytes.append(Self.digitPairs.utf8Start[2 * n])
        bytes.append(Self.digitPairs.utf8Start[2 * n + 1])
    }

    /// `hh:mm:ss.ttt` (at least two hour digits), rounded to the millisecond; negative times as
    /// zero: ``WebVTTTimestamp/format(_:)`` in bytes.
    package mutating func timestamp(_ time: MediaTime) {
        let total = max(0, time.milliseconds)
        if total < Self.hundredHours {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 12) { text in
                guard let at = text.baseAddress else { return }
                Self.put(total, at: at)
                bytes.append(contentsOf: UnsafeBufferPointer(text))
            }
            return
        }
        let ms = Int(total % 1000)
        let s = Int((total / 1000) % 60)
        let m = Int((total / 60_000) % 60)
        append(String(total / 3_600_000))
        bytes.append(0x3A)
        twoDigits(m)
        bytes.append(0x3A)
        twoDigits(s)
        bytes.append(0x2E)
        bytes.append(UInt8(0x30 + ms / 100))
        twoDigits(ms % 100)
    }

    /// A cue's times, `start --> end`, each as ``timestamp(_:)`` writes it: the 29 bytes of a
    /// timing line under 100 hours made apart and appended at once.
    package mutating func timing(_ start: MediaTime, _ end: MediaTime) {
        let (first, last) = (max(0, start.milliseconds), max(0, end.milliseconds))
        guard first < Self.hundredHours, last < Self.hundredHours else {
            timestamp(start)
            arrow()
            timestamp(end)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 29) { line in
            guard let at = line.baseAddress else { return }
            Self.put(first, at: at)
            at[12] = 0x20
            at[13] = 0x2D
            at[14] = 0x2D
            at[15] = 0x3E
            at[16] = 0x20
            Self.put(last, at: at + 17)
            bytes.append(contentsOf: UnsafeBufferPointer(line))
        }
    }

    /// ` --> ` between a cue's times.
    private mutating func arrow() {
        for byte in " --> ".utf8 { bytes.append(byte) }
    }

    /// Milliseconds in 100 hours: a timestamp below it has two hour digits.
    private static let hundredHours: Int64 = 360_000_000

    /// "00" … "99", two bytes each.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes `hh:mm:ss.ttt` of `total` milliseconds (0 ≤ total < 100 hours) into the 12 bytes at `at`.
    private static func put(_ total: Int64, at: UnsafeMutablePointer<UInt8>) {
        let seconds = total / 1000
        let minutes = seconds / 60
        let ms = Int(total - seconds * 1000)
        let (h, m, s) = (Int(minutes / 60), Int(minutes % 60), Int(seconds % 60))
        let pairs = digitPairs.utf8Start
        at[0] = pairs[2 * h]
        at[1] = pairs[2 * h + 1]
        at[2] = 0x3A
        at[3] = pairs[2 * m]
        at[4] = pairs[2 * m + 1]
        at[5] = 0x3A
        at[6] = pairs[2 * s]
        at[7] = pairs[2 * s + 1]
        at[8] = 0x2E
        // The tens of milliseconds (0 … 99) are the first two of the three digits.
        let tens = ms / 10
        at[9] = pairs[2 * tens]
        at[10] = pairs[2 * tens + 1]
        at[11] = UInt8(truncatingIfNeeded: 0x30 + ms - 10 * tens)
    }

    /// A cue block without the blank line after it, its times moved by `offset`:
    /// ``WebVTTWriter/block(_:)`` in bytes.
    package mutating func block(_ cue: Cue, offset: MediaTime = .zero) { markedBlock(cue, offset: offset) }

    /// `cue` as a cues file holds it.
    ///
    /// Its content note (if any) and its block at programme time, each followed by a blank line.
    /// Gives where the block starts, its timing line starts, its times end and the block ends.
    @discardableResult
    package mutating func keptCue(_ cue: Cue) -> (start: Int, timing: Int, rest: Int, end: Int) {
        if let note = cue.contentNote {
            append(note)
            lineBreaks()
        }
        let start = bytes.count
        let (timing, rest) = markedBlock(cue)
        let end = bytes.count
        lineBreaks()
        return (start, timing, rest, end)
    }

    /// ``block(_:offset:)``, giving where its timing line starts and where its times end.
    @discardableResult
    mutating func markedBlock(_ cue: Cue, offset: MediaTime = .zero) -> (timing: Int, rest: Int) {
        if !cue.identifier.isEmpty {
            append(cue.identifier)
            bytes.append(0x0A)
        }
        let timing = bytes.count
        self.timing(cue.start + offset, cue.end + offset)
        let rest = bytes.count
        if cue.hasSettings {
            // A space, then the settings; taken back when they write nothing (an alignment
            // alone, without the setting it aligns).
            bytes.append(0x20)
            cue.settings.write(into: &bytes)
            if bytes.count == rest + 1 { bytes.removeLast() }
        }
        bytes.append(0x0A)
        append(cue.text)
        return (timing, rest)
    }

    /// Adds each cue's block (its times moved by `offset`) and a separator to `hash`, as
    /// ``WordHash/add(_:)-(String)`` adds a string: one block at a time, in one reused buffer,
    /// so hashing a million cues holds one block, not a million.
    package static func addBlocks(of cues: [Cue], offset: MediaTime = .zero, to hash: inout WordHash) {
        addBlocks(of: cues[...], offset: offset, to: &hash)
    }

    /// ``addBlocks(of:offset:to:)`` at programme time, gathering the cues file's body as well.
    ///
    /// After `blocks`' header go what a cues file holds after it: each cue's content note (if
    /// any) and block, each followed by a blank line. Once the file would hold more than `limit`
    /// bytes it is let go (nil) and the hashing goes on as ``addBlocks(of:offset:to:)`` does. The
    /// blocks are made once for all: a rendition hashes its cues, then writes them and copies them
    /// into its segments.
    package static func addBlocks(of cues: [Cue], to hash: inout WordHash, gathering blocks: inout CueBlocks?, limit: Int) {
        guard var gathered = blocks else { return addBlocks(of: cues, to: &hash) }
        blocks = nil
        // The marks are 32-bit offsets.
        let limit = min(limit, Int(Int32.max) - 2)
        gathered.reserve(cues: cues.count)
        // By index, each cue lent to the gathering, not copied for it.
        for n in cues.indices {
            let block = gathered.add(cues[n])
            gathered.file.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0[block])) }
            hash.add(byte: 0xFF)
            if gathered.file.count > limit {
                addBlocks(of: cues[(n + 1)...], offset: .zero, to: &hash)
                return
            }
        }
        blocks = gathered
    }

    /// Block `index` of `blocks` with its times `start` and `end` (``block(_:offset:)`` of that
    /// cue moved to them): the identifier and the rest copied, only the times written.
    package mutating func block(_ index: Int, of blocks: CueBlocks, start: MediaTime, end: MediaTime) {
        let (identifier, rest) = blocks.pieces(index)
        blocks.file.withUnsafeBufferPointer { file in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: file[identifier]))
            timing(start, end)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: file[rest]))
        }
    }

    /// ``addBlocks(of:offset:to:)`` of a slice.
    private static func addBlocks(of cues: ArraySlice<Cue>, offset: MediaTime, to hash: inout WordHash) {
        var scratch = WebVTTBytes(capacity: 256)
        for cue in cues {
            scratch.bytes.removeAll(keepingCapacity: true)
            scratch.block(cue, offset: offset)
            scratch.bytes.withUnsafeBytes { hash.add($0) }
            hash.add(byte: 0xFF)
        }
    }
}

/// A cues file made once: its header, then each cue's content note (if any) and block at
/// programme time, each followed by a blank line; and where in it each block's identifier line
/// and the part after its times lie, so that a segment copies them and writes only its times.
package struct CueBlocks: Sendable {
    /// The file as it is made.
    private var out: WebVTTBytes
    /// For each cue: where its block starts, its timing line starts, its times end, its block ends.
    private var marks: [Int32] = []

    /// A file of `header`.
    package init(header: [UInt8]) {
        out = WebVTTBytes()
        out.bytes = header
    }

    /// The file's bytes.
    package var file: [UInt8] { out.bytes }

    fileprivate mutating func reserve(cues: Int) { marks.reserveCapacity(4 * cues) }

    /// Adds `cue` as a cues file holds it (``WebVTTBytes/keptCue(_:)``); gives where its block is.
    fileprivate mutating func add(_ cue: Cue) -> Range<Int> {
        let (start, timing, rest, end) = out.keptCue(cue)
        marks += [Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: timing), Int32(truncatingIfNeeded: rest), Int32(truncatingIfNeeded: end)]
        return start..<end
    }

    /// Block `index`'s identifier line, and what follows its times.
    fileprivate func pieces(_ index: Int) -> (identifier: Range<Int>, rest: Range<Int>) {
        let at = 4 * index
        return (Int(marks[at])..<Int(marks[at + 1]), Int(marks[at + 2])..<Int(marks[at + 3]))
    }
}
