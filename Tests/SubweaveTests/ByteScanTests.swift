import TestSupport
import Testing
import Timebase
import TimedText

@testable import Subweave

/// The scans over a subtitle file's bytes pass over eight bytes at a time where nothing in them
/// concerns the scan; what they find must be what looking at every byte finds, wherever the
/// bytes that concern them fall in a word and wherever a file's pieces are cut.
@Suite struct ByteScanTests {
    /// Texts of ASCII runs of every length between the bytes the scans look for.
    static func randomBytes(_ rng: inout SeededGenerator, valid: Bool = false) -> [UInt8] {
        let all: [[UInt8]] = [
            [0x0A], [0x0D], [0x0D, 0x0A], [0x0A, 0x0A], [0x2D, 0x2D, 0x3E], [0x2D, 0x3E], [0x2D, 0x2D, 0x2D, 0x2D, 0x2D, 0x2D, 0x2D, 0x2D, 0x2D, 0x3E],
            [0x3E], [0x2D], [0x00], [0x07], [0x1B], [0x7F], [0x09], [0x0C], [0xC3, 0xA9], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x8E, 0xAC], [0xC3],
            [0xE6, 0x97], [0xFF], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0x80],
        ]
        // Valid: only the pieces that are UTF-8 on their own.
        let specials = valid ? all.filter { String(validating: $0, as: UTF8.self) != nil } : all
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...40, using: &rng) {
            bytes += (0..<Int.random(in: 0...19, using: &rng)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
            if Int.random(in: 0..<3, using: &rng) > 0 { bytes += specials.randomElement(using: &rng)! }
        }
        return bytes
    }

    /// The file cut into pieces at random places.
    static func pieces(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var at = 0
        while at < bytes.count {
            let next = min(bytes.count, at + Int.random(in: 1...24, using: &rng))
            pieces.append(Array(bytes[at..<next]))
            at = next
        }
        return pieces
    }

    @Test func utf8CheckFindsWhatAByteAtATimeCheckFinds() {
        var rng = SeededGenerator(seed: 21)
        var invalid = 0
        for _ in 0..<4_000 {
            let bytes = Self.randomBytes(&rng)
            // The array form reads a byte at a time.
            let expected = UTF8Check.firstInvalidOffset(bytes)
            #expect(bytes.withUnsafeBufferPointer { UTF8Check.firstInvalidOffset($0) } == expected, "\(bytes)")
            #expect((expected == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            if expected != nil { invalid += 1 }
        }
        #expect(invalid > 400 && invalid < 3_900, "both kinds are made (\(invalid) invalid)")
    }

    @Test func controlCharactersAreFoundOnTheirLineInEveryPiece() {
        var rng = SeededGenerator(seed: 22)
        var found = 0
        for _ in 0..<4_000 {
            let bytes = Self.randomBytes(&rng)
            // Over the decoded scalars, one at a time (the same for these bytes' ASCII controls).
            var expected = ControlCharacters()
            expected.scan(String(decoding: bytes, as: UTF8.self))
            var whole = ControlCharacters()
            bytes.withUnsafeBufferPointer { whole.scan($0) }
            var pieced = ControlCharacters()
            for piece in Self.pieces(bytes, &rng) { piece.withUnsafeBufferPointer { pieced.scan($0) } }
            #expect(whole == expected, "\(bytes)")
            #expect(pieced == expected, "\(bytes)")
            if expected.count > 0 { found += 1 }
        }
        #expect(found > 400, "control characters are made (\(found))")
    }

    @Test func arrowsAreCountedWhereverTheyFall() {
        var rng = SeededGenerator(seed: 23)
        for _ in 0..<4_000 {
            let bytes = Self.randomBytes(&rng)
            // `-->` and longer arrows, counted by their `>` after two or more dashes.
            var expected = 0
            for (i, byte) in bytes.enumerated() where byte == 0x3E && i >= 2 && bytes[i - 1] == 0x2D && bytes[i - 2] == 0x2D { expected += 1 }
            #expect(bytes.withUnsafeBufferPointer { SubRipParser.arrowCount($0) } == expected, "\(bytes)")
        }
    }

    @Test func blocksAndLinesAreMeasuredWhereverTheBreaksFall() {
        var rng = SeededGenerator(seed: 24)
        for _ in 0..<4_000 {
            let bytes = Self.randomBytes(&rng, valid: true)
            // Lines end at LF, CRLF or CR; a block ends at an empty line.
            var lines: [Int] = []
            var length = 0
            var i = 0
            var blocks: [Int] = []
            var block = 0
            while i < bytes.count {
                if bytes[i] == 0x0A || bytes[i] == 0x0D {
                    let breakLength = bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
                    lines.append(length)
                    if length == 0 {
                        blocks.append(block)
                        block = 0
                    } else {
                        block += length + breakLength
                    }
                    length = 0
                    i += breakLength
                } else {
                    length += 1
                    i += 1
                }
            }
            lines.append(length)
            blocks.append(block + length)
            var scan = TextFileScan()
            for piece in Self.piecesAtBreaks(bytes, &rng) { piece.withUnsafeBufferPointer { scan.scan($0) } }
            #expect(scan.isUTF8, "\(bytes)")
            let (longestBlock, longestLine) = (scan.longestBlock, scan.longestLine)
            #expect(longestLine == lines.max(), "\(bytes)")
            #expect(longestBlock == blocks.max(), "\(bytes)")
        }
    }

    /// The file cut into pieces at random line breaks, as ``LinePieces`` cuts a file (every piece
    /// but the last ends with LF, or a CR whose next byte is not LF).
    static func piecesAtBreaks(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        func endsABreak(_ at: Int) -> Bool { bytes[at] == 0x0A || (bytes[at] == 0x0D && bytes.indices.contains(at + 1) && bytes[at + 1] != 0x0A) }
        for end in bytes.indices where endsABreak(end) && Bool.random(using: &rng) {
            pieces.append(Array(bytes[start...end]))
            start = end + 1
        }
        pieces.append(Array(bytes[start...]))
        return pieces
    }

    /// The one pass over a file's pieces answers as each scan on its own does: UTF-8 or not,
    /// the arrows, the control characters and their lines.
    @Test func onePassAnswersAsEachScanDoes() {
        var rng = SeededGenerator(seed: 26)
        var (valid, withArrows, withControls) = (0, 0, 0)
        for n in 0..<6_000 {
            let bytes = Self.randomBytes(&rng, valid: n % 2 == 0)
            var scan = TextFileScan()
            for piece in Self.piecesAtBreaks(bytes, &rng) { piece.withUnsafeBufferPointer { scan.scan($0) } }
            let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
            #expect(scan.isUTF8 == isUTF8, "\(bytes)")
            guard isUTF8 else { continue }
            valid += 1
            var arrows = 0
            for (i, byte) in bytes.enumerated() where byte == 0x3E && i >= 2 && bytes[i - 1] == 0x2D && bytes[i - 2] == 0x2D { arrows += 1 }
            var controls = ControlCharacters()
            controls.scan(String(decoding: bytes, as: UTF8.self))
            #expect(scan.arrows == arrows, "\(bytes)")
            #expect(scan.controls == controls, "\(bytes)")
            if arrows > 0 { withArrows += 1 }
            if controls.count > 0 { withControls += 1 }
        }
        #expect(valid > 400 && withArrows > 400 && withControls > 400, "every kind is made (\(valid), \(withArrows), \(withControls))")
    }

    /// Cue text lines of every length up to a few words, ended by LF, CRLF or CR, come out whole
    /// and numbered as the file numbers them.
    @Test func subRipLinesOfEveryLengthAreSplitAtTheirBreaks() {
        var rng = SeededGenerator(seed: 25)
        for _ in 0..<200 {
            var text = ""
            var expected: [(line: Int, text: String)] = []
            var line = 1
            // A CR is never followed by a break that starts with LF (the two would be one break).
            var last = ""
            func end() -> String {
                last = (last == "\r" ? ["\r"] : ["\n", "\r\n", "\r"]).randomElement(using: &rng)!
                return last
            }
            for cue in 0..<Int.random(in: 1...12, using: &rng) {
                text += "\(cue + 1)" + end()
                text += "00:00:\(String(cue + 10)),000 --> 00:00:\(String(cue + 11)),000" + end()
                let lines = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                    String((0..<Int.random(in: 1...30, using: &rng)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x41...0x5A, using: &rng))) })
                }
                text += lines.joined(separator: end()) + end() + end()
                expected.append((line + 1, lines.joined(separator: "\n")))
                line += 2 + lines.count + 1
            }
            let cues = SubRipParser.parse(text).cues
            #expect(cues.map(\.text) == expected.map(\.text), "\(text.debugDescription)")
            #expect(cues.map(\.sourceLine) == expected.map(\.line), "\(text.debugDescription)")
        }
    }
}
