import Testing
import Timebase

@testable import TimedText

/// The byte writer against the text writer it replaces on the packaging path, and the SubRip
/// reader's plain-text fast path against the full conversion: the same bytes, the same hash, the
/// same cue text, so a generation's name and files do not depend on which path made them.
struct ByteWriterTests {
    /// A deterministic generator (the tests are reproducible).
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let times: [Int64] = [0, 1, 999, 1_000, 59_999, 60_000, 3_599_999, 3_600_000, 359_999_999, 360_000_000, 4_443_000_123, -5]

    static func cues(_ count: Int, seed: UInt64) -> [Cue] {
        var g = Generator(state: seed)
        let words = ["hello", "é", "日本語", "🎬", "a&amp;b", "<i>x</i>", "  indented", "tab\there", "-- dash"]
        let settings = [CueSettings(), CueSettings(line: .number("0"), align: .start), CueSettings(position: "10", size: "50")]
        return (0..<count).map { i in
            let start = Self.times[g.next(Self.times.count)] + Int64(g.next(90_000))
            let text = (0...g.next(3)).map { _ in words[g.next(words.count)] }.joined(separator: g.next(2) == 0 ? " " : "\n")
            return Cue(
                identifier: g.next(4) == 0 ? "id-\(i)" : "", start: MediaTime(milliseconds: start),
                end: MediaTime(milliseconds: start + 1 + Int64(g.next(9_000))),
                settings: settings[g.next(settings.count)], text: text)
        }
    }

    @Test func blocksAreTheTextWritersBytes() {
        for cue in Self.cues(2_000, seed: 7) {
            var bytes = WebVTTBytes()
            bytes.block(cue)
            #expect(bytes.bytes == Array(WebVTTWriter.block(cue).utf8), "\(WebVTTWriter.block(cue))")
            let offset = MediaTime(ticks: 123_456_789)
            var moved = cue
            moved.start = cue.start + offset
            moved.end = cue.end + offset
            bytes.bytes.removeAll()
            bytes.block(cue, offset: offset)
            #expect(bytes.bytes == Array(WebVTTWriter.block(moved).utf8))
        }
    }

    /// Each setting as WebVTT writes it (W3C WebVTT §4.4), in the writers' fixed order, and an
    /// alignment without the setting it aligns written as nothing (no space left after the times).
    @Test func settingsAreWrittenAsTheSpecSpellsThem() {
        let written: [(CueSettings, String)] = [
            (CueSettings(), ""),
            (CueSettings(region: "r1"), "region:r1"),
            (CueSettings(vertical: .rl), "vertical:rl"),
            (CueSettings(vertical: .lr), "vertical:lr"),
            (CueSettings(line: .number("-2")), "line:-2"),
            (CueSettings(line: .number("0"), lineAlign: .end), "line:0,end"),
            (CueSettings(line: .percentage("84.67"), lineAlign: .start), "line:84.67%,start"),
            (CueSettings(line: .percentage("50"), lineAlign: .center), "line:50%,center"),
            (CueSettings(position: "10"), "position:10%"),
            (CueSettings(position: "10", positionAlign: .lineLeft), "position:10%,line-left"),
            (CueSettings(position: "90", positionAlign: .lineRight), "position:90%,line-right"),
            (CueSettings(position: "50", positionAlign: .center), "position:50%,center"),
            (CueSettings(size: "60"), "size:60%"),
            (CueSettings(align: .left), "align:left"),
            (CueSettings(align: .right), "align:right"),
            (CueSettings(align: .center), "align:center"),
            (CueSettings(lineAlign: .end), ""),
            (CueSettings(positionAlign: .lineLeft), ""),
            (CueSettings(lineAlign: .start, positionAlign: .lineRight, align: .end), "align:end"),
            (
                CueSettings(
                    vertical: .rl, line: .percentage("10"), lineAlign: .start, position: "80", positionAlign: .lineLeft, size: "15", align: .start,
                    region: "fred"),
                "region:fred vertical:rl line:10%,start position:80%,line-left size:15% align:start"
            ),
        ]
        for (settings, text) in written {
            #expect(settings.text == text)
            let cue = Cue(start: MediaTime(milliseconds: 1_000), end: MediaTime(milliseconds: 2_000), settings: settings, text: "Hi")
            var bytes = WebVTTBytes()
            bytes.block(cue)
            let expected = "00:00:01.000 --> 00:00:02.000" + (text.isEmpty ? "" : " " + text) + "\nHi"
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == expected)
            #expect(WebVTTWriter.block(cue) == expected)
        }
    }

    @Test func timestampsAreTheTextWritersForEveryField() {
        for ms in Self.times + [86_399_999, 99 * 3_600_000 + 59 * 60_000 + 59_999, 100 * 3_600_000, 12_345 * 3_600_000 + 7] {
            var bytes = WebVTTBytes()
            bytes.timestamp(MediaTime(milliseconds: ms))
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == WebVTTTimestamp.format(MediaTime(milliseconds: ms)), "\(ms) ms")
        }
        // Each value of each field, the others held.
        var fields: [Int64] = Array(0..<1000)
        for n: Int64 in 0..<60 { fields += [n * 1_000 + 7, n * 60_000 + 59_123] }
        for n: Int64 in 0...100 { fields.append(n * 3_600_000 + 61_001) }
        for ms in fields {
            var bytes = WebVTTBytes()
            bytes.timestamp(MediaTime(milliseconds: ms))
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == WebVTTTimestamp.format(MediaTime(milliseconds: ms)), "\(ms) ms")
        }
        // Ticks between milliseconds round as the text writer rounds them.
        for ticks: Int64 in [44, 45, 46, 89, 91, 134, 135, -44, -46] {
            var bytes = WebVTTBytes()
            bytes.timestamp(MediaTime(ticks: ticks))
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == WebVTTTimestamp.format(MediaTime(ticks: ticks)), "\(ticks) ticks")
        }
    }

    /// A timing line is made whole when both times are under 100 hours, and a time at a time
    /// otherwise: both give the text writer's timestamps either side of the arrow.
    @Test func timingLinesAreTheTextWritersOnEitherSideOfOneHundredHours() {
        let times = Self.times + [99 * 3_600_000 + 59 * 60_000 + 59_999, 100 * 3_600_000 + 1]
        for first in times {
            for last in times {
                var bytes = WebVTTBytes()
                bytes.timing(MediaTime(milliseconds: first), MediaTime(milliseconds: last))
                let text = WebVTTTimestamp.format(MediaTime(milliseconds: first)) + " --> " + WebVTTTimestamp.format(MediaTime(milliseconds: last))
                #expect(String(decoding: bytes.bytes, as: UTF8.self) == text, "\(first) → \(last) ms")
            }
        }
        // Added to what is there, as the timestamps are.
        var bytes = WebVTTBytes()
        bytes.append("1\n")
        bytes.timing(MediaTime(ticks: 45), MediaTime(ticks: -46))
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == "1\n00:00:00.001 --> 00:00:00.000")
    }

    @Test func theHashOverBytesIsTheHashOverText() {
        let cues = Self.cues(5_000, seed: 11)
        var text = WordHash()
        for cue in cues { text.add(WebVTTWriter.block(cue)) }
        var bytes = WordHash()
        WebVTTBytes.addBlocks(of: cues, to: &bytes)
        #expect(bytes.hex() == text.hex())
        var other = WordHash()
        WebVTTBytes.addBlocks(of: Array(cues.dropLast()), to: &other)
        #expect(other.hex() != text.hex(), "one cue fewer changes the hash")
    }

    /// Gathering a cues file while hashing changes nothing of the hash, and gathers what the text
    /// writer writes (each cue's note and block, a blank line after each) until the limit, past
    /// which nothing is kept.
    @Test func theCuesFileGatheredWithTheHashIsTheTextWritersFile() {
        var cues = Self.cues(3_000, seed: 12)
        for i in stride(from: 0, to: cues.count, by: 7) { cues[i].keptContent = SubRipMarkup.content("<font color=\"#123456\">\(cues[i].text)</font>") }
        #expect(cues.contains { $0.contentNote != nil })
        var plain = WordHash()
        WebVTTBytes.addBlocks(of: cues, to: &plain)
        let header = Array("WEBVTT\n\n".utf8)
        let expected = header + Array(cues.map { cue in (cue.contentNote.map { $0 + "\n\n" } ?? "") + WebVTTWriter.block(cue) + "\n\n" }.joined().utf8)
        for limit in [0, 1, 200, expected.count / 2, expected.count - 1, expected.count, 1 << 30] {
            var hash = WordHash()
            var blocks: CueBlocks? = CueBlocks(header: header)
            WebVTTBytes.addBlocks(of: cues, to: &hash, gathering: &blocks, limit: limit)
            #expect(hash == plain, "limit \(limit)")
            #expect(blocks?.file == (expected.count <= limit ? expected : nil), "limit \(limit)")
            // Each block copied from the file with its times moved is the block made moved.
            if let blocks {
                for (index, cue) in cues.enumerated() {
                    for offset in [MediaTime.zero, MediaTime(ticks: 123_456_789), MediaTime(ticks: -5_000_000), MediaTime(milliseconds: 360_000_000)] {
                        var made = WebVTTBytes()
                        made.block(cue, offset: offset)
                        var copied = WebVTTBytes()
                        copied.block(index, of: blocks, start: cue.start + offset, end: cue.end + offset)
                        #expect(copied.bytes == made.bytes, "cue \(index) moved by \(offset.ticks)")
                    }
                }
            }
        }
        var hash = WordHash()
        var none: CueBlocks? = nil
        WebVTTBytes.addBlocks(of: cues, to: &hash, gathering: &none, limit: 1 << 30)
        #expect(hash == plain && none == nil, "nothing gathered without a file to gather into")
    }

    /// Plain cue text (no markup byte, no control character) skips the conversion and repair:
    /// what it keeps must be what they would have made of it.
    @Test func plainTextIsWhatTheFullConversionMakes() {
        var g = Generator(state: 3)
        let pieces = ["word", " ", "  ", "\t", "é", "ß", "日本", "🎬", "–", "1", "00:00", "\u{00A0}", "\u{200B}", "ǅ", "e\u{0301}", ",", "."]
        var lines: [[String]] = []
        var srt = ""
        for i in 0..<3_000 {
            let count = 1 + g.next(3)
            let cueLines = (0..<count).map { _ in "x" + (0..<g.next(6)).map { _ in pieces[g.next(pieces.count)] }.joined() }
            lines.append(cueLines)
            srt +=
                "\(i + 1)\n0\(i / 3_600):\(String(format: "%02d:%02d", i / 60 % 60, i % 60)),000 --> 09:00:00,000\n" + cueLines.joined(separator: "\n") + "\n\n"
        }
        let parsed = SubRipParser.parse(srt)
        #expect(parsed.cues.count == lines.count)
        for (cue, cueLines) in zip(parsed.cues, lines) {
            let raw = cueLines.map { line in String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed()) }.joined(separator: "\n")
            #expect(Array(raw.utf8).withUnsafeBufferPointer { SubRipParser.isPlain($0) }, "the generator makes plain text")
            let full = CueText.sanitized(SubRipMarkup.convert(raw).0).text
            #expect(cue.text == full, "\(raw.debugDescription)")
        }
    }

    /// The arrow test every SubRip line goes through, against its definition on each byte, over
    /// lines long and short with dashes and `>` in and across the words it passes at once.
    @Test func anArrowIsFoundWhereverItIs() {
        var g = Generator(state: 21)
        let pieces = ["-", "--", "-->", ">", "->", "- >", "a", "word ", "é", "00:00:01,000", " ", "\u{0}", "---------", "plain text run"]
        for _ in 0..<20_000 {
            let line = Array((0..<g.next(12)).map { _ in pieces[g.next(pieces.count)] }.joined().utf8)
            for needed in [1, 2] {
                var dashes = 0
                var expected = false
                for byte in line {
                    if byte == 0x2D {
                        dashes += 1
                    } else {
                        if byte == 0x3E && dashes >= needed { expected = true }
                        dashes = 0
                    }
                }
                let found = line.withUnsafeBufferPointer { SubRipParser.containsArrow($0, dashes: needed) }
                #expect(found == expected, "\(String(decoding: line, as: UTF8.self).debugDescription) \(needed)")
            }
        }
    }

    /// A timing line read at its fixed places gives what reading it field by field gives, for
    /// the usual line and for every byte value at every place of it, with and without what may
    /// follow it; the fixed places answer for the usual line alone.
    @Test func aTimingLineReadAtItsPlacesIsTheLineReadByFields() {
        func both(_ line: [UInt8]) -> (canonical: Bool, fast: [Int64]?, fields: [Int64]?) {
            line.withUnsafeBufferPointer { bytes in
                (
                    SubRipParser.Timing.canonical(bytes) != nil,
                    SubRipParser.Timing.parse(bytes).map { [$0.0.ticks, $0.1.ticks] },
                    SubRipParser.Timing.parseFields(bytes[...]).map { [$0.0.ticks, $0.1.ticks] }
                )
            }
        }
        let usual = "01:02:03,456 --> 59:58:57.999"
        #expect(both(Array(usual.utf8)).canonical)
        let first: Int64 = ((1 * 60 + 2) * 60 + 3) * 1000 + 456
        let last: Int64 = ((59 * 60 + 58) * 60 + 57) * 1000 + 999
        #expect(both(Array(usual.utf8)).fast == [first * 90, last * 90])
        var canonicalSeen = 0
        for tail in ["", " ", "\tX1:10 Y1:20", "0", ",5", "x"] {
            let base = Array((usual + tail).utf8)
            for place in 0..<base.count {
                for byte in UInt8.min...UInt8.max {
                    var line = base
                    line[place] = byte
                    let (canonical, fast, fields) = both(line)
                    #expect(fast == fields, "\(String(decoding: line, as: UTF8.self).debugDescription)")
                    if canonical { canonicalSeen += 1 }
                }
            }
        }
        // A digit for a digit, `.` for `,`, a tab after the line, and each of them alone.
        #expect(canonicalSeen > 1_000)
        #expect(!both(Array("1:02:03,456 --> 01:02:04,000".utf8)).canonical)
        #expect(!both(Array("01:60:03,456 --> 01:02:04,000".utf8)).canonical)
        #expect(both(Array("01:60:03,456 --> 01:02:04,000".utf8)).fields == nil)
    }

    @Test func markupAndControlBytesAreNotPlain() {
        for text in ["<i>a</i>", "a > b", "a & b", "{\\an8}a", "a\\Nb", "a\u{7F}b", "a\u{01}b", "a\rb"] {
            #expect(!Array(text.utf8).withUnsafeBufferPointer { SubRipParser.isPlain($0) }, "\(text.debugDescription)")
        }
        #expect(Array("plain, é 日本\ttab\nline".utf8).withUnsafeBufferPointer { SubRipParser.isPlain($0) })
        // Each byte value at each place of a text that is otherwise plain, in and past the words
        // read eight at a time: plain unless it is markup or a control byte other than tab and LF.
        let filler = Array("a plain line é, with ß and digits 0123456789".utf8)
        for byte in UInt8.min...UInt8.max {
            let plain = !([0x3C, 0x3E, 0x26, 0x7B, 0x5C, 0x7F].contains(byte) || (byte < 0x20 && byte != 0x09 && byte != 0x0A))
            for place in 0...filler.count {
                var text = filler
                text.insert(byte, at: place)
                #expect(text.withUnsafeBufferPointer { SubRipParser.isPlain($0) } == plain, "byte \(byte) at \(place)")
            }
        }
    }

    /// Cue text whose only markup is `<i>`, `<b>`, `<u>`, `&` and `>` is converted in one pass:
    /// what it makes must be what the full conversion, repair and sanitising make, and text it
    /// cannot make that way (crossed or open tags, other tags, escapes, controls, blank lines,
    /// nothing visible) must be left to them.
    @Test func simpleMarkupIsWhatTheFullConversionMakes() {
        var g = Generator(state: 5)
        let pieces: [[UInt8]] =
            [
                "word", " ", "\t", "é", "日本", "<i>", "</i>", "<I>", "</I>", "<b>", "</B>", "<u>", "</u>", "&", "&amp;", ">", "<", "a < b",
                "\n", "\n", "<s>", "</x>", "< i>", "{\\an8}", "\\N", "<font color=red>", "</font>", "\u{01}", "\u{7F}", "<i", "</",
                "         ", "a-longer-run-of-plain-words",
            ].map { Array($0.utf8) } + [[0xC3], [0xFF], [0xE2, 0x82]]
        // Half the texts are made of what the fast path takes, tags nested by construction.
        let plain: [[UInt8]] =
            ["word", " ", "\t", "é", "日本", "&", "&amp;", ">", "x\ny", "a  b", "         ", "a-longer-run-of-plain-words"].map { Array($0.utf8) } + [
                [0xC3], [0xE2, 0x82],
            ]
        func nested(_ depth: Int) -> [UInt8] {
            (0..<(1 + g.next(3))).flatMap { _ -> [UInt8] in
                guard depth < 9, g.next(3) == 0 else { return plain[g.next(plain.count)] }
                let name = ["i", "b", "u", "I", "B", "U"][g.next(6)]
                return Array("<\(name)>".utf8) + nested(depth + 1) + Array("</\(g.next(2) == 0 ? name : name.lowercased())>".utf8)
            }
        }
        var simple = 0
        for round in 0..<20_000 {
            let bytes = round % 2 == 0 ? nested(0) : (0..<(1 + g.next(8))).flatMap { _ in pieces[g.next(pieces.count)] }
            let text = String(decoding: bytes, as: UTF8.self)
            let fast = bytes.withUnsafeBufferPointer { SubRipMarkup.simpleMarkup($0) }
            let (markup, settings, otherColours) = SubRipMarkup.convert(text)
            let full = CueText.sanitized(markup).text
            guard let fast else { continue }
            simple += 1
            #expect(fast == full, "\(text.debugDescription)")
            #expect(settings == CueSettings() && !otherColours, "\(text.debugDescription)")
            #expect(SubRipParser.hasVisibleText(full), "\(text.debugDescription)")
        }
        #expect(simple > 8_000, "the generator makes simple markup often (\(simple))")
        for text in [
            "<i><b>x</i></b>", "<i>open", "x</i>", "< i>x</ i>", "<s>x</s>", "a < b", "<font color=red>x</font>", "{\\an8}x", "a\\Nb",
            "x\u{01}", "<i></i>", " ", "a\n \nb", "<i><i><i><i><i><i><i><i><i>deep</i></i></i></i></i></i></i></i></i>",
        ] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { SubRipMarkup.simpleMarkup($0) } == nil, "\(text.debugDescription)")
        }
        #expect(Array("<I>Hi</I> & <b>bye</b> >".utf8).withUnsafeBufferPointer { SubRipMarkup.simpleMarkup($0) } == "<i>Hi</i> &amp; <b>bye</b> &gt;")
    }

    /// Text without a tag or a reference is shown as it is: what the tokenizer makes of it.
    @Test func unmarkedTextIsItsOwnPlainText() {
        var g = Generator(state: 9)
        let pieces = ["word", " ", "\n", "\t", "é", "日本", "🎬", ">", "--", "\u{0}", "\r", "x", ";", "#"]
        for _ in 0..<2_000 {
            let text = (0..<g.next(12)).map { _ in pieces[g.next(pieces.count)] }.joined()
            var tokenizer = CueText.Tokenizer(Array(text.unicodeScalars))
            var shown = ""
            while let token = tokenizer.next() { if case .text(let t) = token { shown += CueText.decodeReferences(t) } }
            #expect(CueText.plainText(text) == shown, "\(text.debugDescription)")
        }
        #expect(CueText.plainText("<i>a</i> &amp; b") == "a & b")
    }
}
