import Foundation
import Subweave
import TestSupport
import Testing
import Timebase
import TimedText

/// A local SubRip file is read a piece at a time (never whole in memory); what it gives must be
/// what the whole file read at once gives, wherever the pieces are cut.
@Suite struct PieceReadingTests {
    /// Lines that make SubRip files hard: CRLF and CR endings, a byte order mark, counters in the
    /// wrong place, blank lines inside cues, garbled timing lines, markup, multi-byte text, a line
    /// that starts with U+FEFF, trailing spaces and no final newline.
    static let lineKinds: [String] = [
        "1", "12", "  7  ", "", " ", "\t", "00:00:01,000 --> 00:00:02,000", "00:00:03,500 --> 00:00:01,000",
        "0:0:4,5-->0:0:6,25 X1:10 Y1:20", "00:00:05.000 ---> 00:00:07.000", "00:00:09,000 -> 00:00:10,000", "not --> a timing",
        "Hello <i>there</i> & you", "{\\an8}Top line", "<font color=\"yellow\">Ja</font>", "Grüße — 日本語 🎬", "\u{FEFF}starts with a BOM",
        "a line with trailing spaces   ", "<b>unclosed", "x > y < z", "-->", "99:99:99,999 --> 100:00:00,000",
        "a bell\u{07} rings", "\u{1B}[31mred\u{1B}[0m", "nul\u{00}byte\u{7F}",
    ]

    static func randomFile(_ rng: inout SeededGenerator) -> [UInt8] {
        let endings = ["\n", "\r\n", "\r"]
        let ending = endings.randomElement(using: &rng)!
        var text = Bool.random(using: &rng) ? "\u{FEFF}" : ""
        var start = 0
        for cue in 0..<Int.random(in: 0...12, using: &rng) {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                text += lineKinds.randomElement(using: &rng)! + (Bool.random(using: &rng) ? ending : endings.randomElement(using: &rng)!)
            }
            start += Int.random(in: -1000...3000, using: &rng)
            text += "\(cue + 1)\(ending)00:00:\(String(format: "%02d,%03d", max(start, 0) / 1000 % 60, max(start, 0) % 1000)) --> 00:01:00,000\(ending)"
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                text += lineKinds.randomElement(using: &rng)! + ending
            }
            text += ending
        }
        if Bool.random(using: &rng), text.hasSuffix(ending) { text.removeLast() }
        return Array(text.utf8)
    }

    /// 1,500 generated SubRip files, each read whole and in pieces of 1 to 40 bytes, for
    /// packaging and for inspection: the same cues, warnings and encoding.
    @Test func piecesGiveWhatTheWholeFileGives() throws {
        try Self.compareWholeAndPieces(.srt, seed: 11, make: Self.randomFile)
    }

    /// Writes 1,500 files `make` generates and reads each whole and in pieces of 1 to 40 bytes, for
    /// packaging and for inspection: the same subtitles, or the same failure.
    static func compareWholeAndPieces(_ format: SubtitleFormat, seed: UInt64, make: (inout SeededGenerator) -> [UInt8]) throws {
        var rng = SeededGenerator(seed: seed)
        let folder = try Scratch.make()
        for n in 0..<1_500 {
            let bytes = make(&rng)
            let path = folder.appendingPathComponent("f\(n).\(format.rawValue)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let file = LinePieces(path: path, limit: 1 << 20, readSize: Int.random(in: 1...40, using: &rng))
            let scan = try SubtitleIngest.scan(file)
            #expect(SubtitleIngest.readsInPieces(format, scan) && scan.size == bytes.count)
            for purpose in [SubtitleIngest.Purpose.packaging, .inspection] {
                let whole = Result { () throws(LoadFailure) in
                    try SubtitleIngest.read(bytes, format: format, encoding: nil, sourceID: "s", location: "l", purpose: purpose)
                }
                let pieces = Result { () throws(SubtitleIngest.PieceFailure) in
                    try SubtitleIngest.readPieces(file, scan: scan, format: format, sourceID: "s", location: "l", purpose: purpose)
                }
                let shown = String(decoding: bytes, as: UTF8.self).debugDescription
                switch (whole, pieces) {
                case (.success(let a), .success(let b)): #expect(a == b, "file \(n) in pieces of \(file.readSize): \(shown)")
                case (.failure(let a), .failure(.load(let b))): #expect(a == b, "file \(n): \(shown)")
                default: Issue.record("file \(n): whole \(whole), pieces \(pieces): \(shown)")
                }
            }
        }
    }

    /// Lines that make WebVTT files hard: headers with a map, NOTE, STYLE and REGION blocks before
    /// and after cues, settings good and bad, garbled timings, `-->` inside a block, NUL, markup.
    static let webVTTLines: [String] = [
        "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000", "NOTE a comment", "STYLE", "::cue { color: red }", "REGION",
        "id:r1 width:40% lines:3", "00:01.000 --> 00:02.000", "00:00:03.000 --> 00:00:04.500 align:start line:0 region:r1",
        "00:05.000 --> 00:04.000", "00:06.000 --> 00:07.000 position:200% size:x", "00:08 --> 00:09.000", "cue-id", "Hello <b>there</b>",
        "a --> b", "Grüße 日本語 🎬", "nul\u{0}byte", "&amp; &lt; <c.yellow>x</c>", "\u{FEFF}BOM inside", "   ",
    ]

    static func randomWebVTT(_ rng: inout SeededGenerator) -> [UInt8] {
        let ending = ["\n", "\r\n", "\r"].randomElement(using: &rng)!
        var text = Int.random(in: 0..<6, using: &rng) == 0 ? "\u{FEFF}" : ""
        text += ["WEBVTT", "WEBVTT title", "WEBVTT\tx", "WEBVTTX", ""].randomElement(using: &rng)!
        for _ in 0..<Int.random(in: 0...10, using: &rng) {
            text += String(repeating: ending, count: Int.random(in: 1...3, using: &rng))
            text += (0..<Int.random(in: 1...4, using: &rng)).map { _ in webVTTLines.randomElement(using: &rng)! }.joined(separator: ending)
        }
        if Bool.random(using: &rng) { text += ending }
        return Array(text.utf8)
    }

    /// 1,500 generated WebVTT files, each read whole and in pieces of 1 to 40 bytes, for
    /// packaging and for inspection: the same document, or the same failure.
    @Test func webVTTPiecesGiveWhatTheWholeFileGives() throws {
        try Self.compareWholeAndPieces(.vtt, seed: 13, make: Self.randomWebVTT)
    }

    /// A WebVTT block, or a SubRip line, longer than the pieces may gather is read whole; a block
    /// of many short lines is a SubRip file's usual shape (no blank lines) and read in pieces.
    @Test func aHugeBlockOrLineIsReadWhole() throws {
        let folder = try Scratch.make()
        let limit = SubtitleIngest.longestBlockInPieces
        let long = folder.appendingPathComponent("long.vtt").path
        try Data(("WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "word ", count: limit / 5 + 10) + "\n\n").utf8)
            .write(to: URL(fileURLWithPath: long))
        let scan = try SubtitleIngest.scan(LinePieces(path: long, limit: 64 << 20))
        #expect(scan.longestBlock > limit && scan.longestLine > limit)
        #expect(!SubtitleIngest.readsInPieces(.vtt, scan) && !SubtitleIngest.readsInPieces(.srt, scan))
        let lines = folder.appendingPathComponent("lines.srt").path
        try Data(String(repeating: "1\n00:00:01,000 --> 00:00:02,000\nword word word\n", count: limit / 40 + 10).utf8)
            .write(to: URL(fileURLWithPath: lines))
        let linesScan = try SubtitleIngest.scan(LinePieces(path: lines, limit: 64 << 20))
        #expect(linesScan.longestBlock > limit && linesScan.longestLine < 40)
        #expect(SubtitleIngest.readsInPieces(.srt, linesScan) && !SubtitleIngest.readsInPieces(.vtt, linesScan))
    }

    /// A file that changes between the scan and the read (another process writing it) gives what
    /// its new bytes give, or a clear failure: never a crash, never a hang.
    @Test func aFileChangedAfterItsScanIsStillReadSafely() throws {
        let folder = try Scratch.make()
        let srt = folder.appendingPathComponent("changing.srt")
        try Data("1\n00:00:01,000 --> 00:00:02,000\nCafe\n".utf8).write(to: srt)
        let srtFile = LinePieces(path: srt.path, limit: 1 << 20, readSize: 7)
        let srtScan = try SubtitleIngest.scan(srtFile)
        // Now Latin-1: not UTF-8 any more. Its bytes are read as UTF-8 with replacement characters.
        try Data(Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + [0xE9, 0x0A]).write(to: srt)
        let read = try SubtitleIngest.readPieces(srtFile, scan: srtScan, format: .srt, sourceID: "s", location: "l")
        #expect(read.cues.map(\.text) == ["Caf\u{FFFD}"])

        let vtt = folder.appendingPathComponent("changing.vtt")
        try Data("WEBVTT\n\n00:01.000 --> 00:02.000\nshort\n".utf8).write(to: vtt)
        let vttFile = LinePieces(path: vtt.path, limit: 64 << 20, readSize: 4096)
        let vttScan = try SubtitleIngest.scan(vttFile)
        // Now with a block longer than the scan allowed for pieces: gathered all the same.
        let grown = Array(("WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "long ", count: 400_000) + "\n\n00:03.000 --> 00:04.000\nnext\n").utf8)
        try Data(grown).write(to: vtt)
        let pieces = try SubtitleIngest.readPieces(vttFile, scan: vttScan, format: .vtt, sourceID: "s", location: "l")
        #expect(pieces == (try SubtitleIngest.read(grown, format: .vtt, encoding: nil, sourceID: "s", location: "l")))
        // Now empty: not WebVTT, said as the whole read says it.
        try Data().write(to: vtt)
        #expect(throws: SubtitleIngest.PieceFailure.self) {
            try SubtitleIngest.readPieces(vttFile, scan: vttScan, format: .vtt, sourceID: "s", location: "l")
        }
    }

    /// The pieces join to the file, and each but the last ends with a whole line break.
    @Test func piecesEndAtLineBreaks() throws {
        var rng = SeededGenerator(seed: 12)
        let folder = try Scratch.make()
        for n in 0..<300 {
            let bytes = (0..<Int.random(in: 0...300, using: &rng)).map { _ in [0x0A, 0x0D, 0x61, 0xC3, 0xA9][Int.random(in: 0..<5, using: &rng)] as UInt8 }
            let path = folder.appendingPathComponent("p\(n)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            var pieces: [[UInt8]] = []
            var lastFlags: [Bool] = []
            let size = try LinePieces(path: path, limit: 1 << 20, readSize: Int.random(in: 1...16, using: &rng)).forEach { piece, isLast in
                pieces.append(Array(piece))
                lastFlags.append(isLast)
            }
            #expect(size == bytes.count)
            #expect(Array(pieces.joined()) == bytes)
            #expect(lastFlags.last == true && lastFlags.dropLast().allSatisfy { !$0 })
            var offset = 0
            for piece in pieces.dropLast() {
                offset += piece.count
                let last = piece.last
                #expect(last == 0x0A || (last == 0x0D && bytes[offset] != 0x0A), "piece ending at \(offset) splits a line")
            }
        }
    }

    /// The read limit holds for a file read in pieces, as for one read whole.
    @Test func theLimitHolds() throws {
        let path = try Scratch.make().appendingPathComponent("big.srt").path
        try Data(repeating: 0x61, count: 5_000).write(to: URL(fileURLWithPath: path))
        #expect(throws: ResourceLoader.Failure.self) { try LinePieces(path: path, limit: 4_000, readSize: 100).forEach { _, _ in } }
    }

    /// A file that is not UTF-8 is found by the scan (it is then read whole and decoded as before).
    @Test func aFileInAnotherEncodingIsReadWhole() async throws {
        let path = try Scratch.make().appendingPathComponent("latin1.srt").path
        let bytes: [UInt8] = Array("1\n00:00:01,000 --> 00:00:02,000\nCaf".utf8) + [0xE9, 0x20, 0x63, 0x72, 0xE8, 0x6D, 0x65, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try !SubtitleIngest.scan(LinePieces(path: path, limit: 1 << 20)).isUTF8)
        let read = try await SubtitleReader().read(.source(SubtitleSource(parsing: path)), format: .srt)
        #expect(read.cues.map(\.text) == ["Café crème"])
        #expect(read.encoding != .utf8)
    }

    /// A file whose UTF-8 byte order mark was written three times reads in pieces as it reads
    /// whole: every mark at the start goes, SubRip and WebVTT alike.
    @Test func marksWrittenAgainGoInPiecesAsWhole() throws {
        let folder = try Scratch.make()
        let mark = TextDecoder.utf8ByteOrderMark
        for (format, text) in [(SubtitleFormat.srt, "1\n00:00:01,000 --> 00:00:02,000\nHello\n"), (.vtt, "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n")] {
            let bytes = mark + mark + mark + Array(text.utf8)
            let path = folder.appendingPathComponent("marks.\(format.rawValue)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let whole = try SubtitleIngest.read(bytes, format: format, encoding: nil, sourceID: "s", location: "l")
            let file = LinePieces(path: path, limit: 1 << 20)
            let scan = try SubtitleIngest.scan(file)
            let pieces = try SubtitleIngest.readPieces(file, scan: scan, format: format, sourceID: "s", location: "l")
            #expect(whole == pieces, "\(format)")
            #expect(whole.cues.map(\.text) == ["Hello"], "\(format): \(whole.cues.map(\.text)) \(whole.warnings)")
        }
    }

    /// A WebVTT file's own map in its header is reported whatever its line endings (a file with
    /// CRLF endings was not: its lines were not split).
    @Test func aHeaderMapIsFoundWithAnyLineEnding() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000", "", "00:00:01.000 --> 00:00:02.000", "Hi", ""]
                .joined(separator: ending)
            let read = try SubtitleIngest.read(Array(text.utf8), format: .vtt, encoding: nil, sourceID: "s", location: "l")
            #expect(read.warnings.contains { $0.kind == .timestampMapIgnored && $0.line == 2 }, "\(ending.debugDescription)")
            #expect(read.cues.map(\.text) == ["Hi"])
        }
    }

    /// Control characters (BEL, ESC, NUL, DEL) are not text: no cue keeps them, and the reading
    /// says how many went and on which line the first was, whether the file is read whole or in
    /// pieces, in UTF-8 or a code page, whatever its line endings.
    @Test func controlCharactersAreLeftOutAndSaid() throws {
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["1", "00:00:01,000 --> 00:00:02,000", "Hello", "", "2", "00:00:03,000 --> 00:00:04,000", "a \u{07}bell and \u{1B}[31mred", ""]
                .joined(separator: ending)
            for encoding in [TextEncoding.utf8, .windows1252] {
                let read = try SubtitleIngest.read(Array(text.utf8), format: .srt, encoding: encoding, sourceID: "s", location: "l")
                #expect(read.cues.map(\.text) == ["Hello", "a bell and [31mred"], "\(ending.debugDescription)")
                let warning = try #require(read.warnings.first { $0.kind == .controlCharacters }, "\(ending.debugDescription)")
                #expect(warning.line == 7)
                #expect(warning.message.contains("2 control characters") && warning.message.contains("U+0007"), "\(warning.message)")
            }
            let folder = try Scratch.make()
            let path = folder.appendingPathComponent("c.srt").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let file = LinePieces(path: path, limit: 1 << 20, readSize: 5)
            let scan = try SubtitleIngest.scan(file)
            let pieces = try SubtitleIngest.readPieces(file, scan: scan, format: .srt, sourceID: "s", location: "l")
            #expect(pieces.warnings.contains { $0.kind == .controlCharacters && $0.line == 7 }, "\(ending.debugDescription)")
        }
        let clean = try SubtitleIngest.read(
            Array("1\n00:00:01,000 --> 00:00:02,000\nHi\tthere\n".utf8), format: .srt, encoding: nil, sourceID: "s", location: "l")
        #expect(!clean.warnings.contains { $0.kind == .controlCharacters })
    }
}
