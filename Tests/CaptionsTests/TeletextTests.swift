import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

@testable import Captions

/// DVB teletext subtitles from streams made here byte by byte (TestSupport's TeletextStream).
struct TeletextTests {
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    static func decode(_ stream: TeletextStream) -> TeletextStreamReader {
        var reader = TeletextStreamReader()
        reader.feed(stream.bytes[...])
        reader.finish(at: .zero)
        return reader
    }

    /// The Hamming 8/4 code built from the standard's equations is the table it prints.
    @Test func hammingTable() {
        #expect(TeletextCoding.hamming84 == TeletextStream.hamming)
        for (value, code) in TeletextStream.hamming.enumerated() {
            #expect(TeletextCoding.hamming(code) == value)
            #expect(TeletextCoding.hamming(code ^ 0x10) == value, "one wrong bit is corrected")
        }
        #expect(TeletextCoding.hamming(0x15 ^ 0x03) == nil, "two wrong bits are refused")
    }

    /// A character whose parity fails is shown as a space and counted, never dropped in silence.
    @Test func parityErrorsAreSpacesAndCounted() {
        var decoder = TeletextDecoder()
        let odd = { (c: UInt8) -> UInt8 in c.nonzeroBitCount % 2 == 0 ? c | 0x80 : c }
        let text = decoder.line([odd(0x41), 0x41, odd(0x42)], national: 0, boxed: false)  // 0x41 alone has even parity
        #expect(text == "A B")
        #expect(decoder.damagedBytes == 1)
    }

    /// Hamming 24/18: every 18-bit value round-trips, one wrong bit anywhere is corrected, two
    /// are refused.
    @Test func hamming2418() {
        for data in [0, 1, 0x3FFFF, 0x2A55A, 0x08 << 7, 0x16 << 7] {
            let code = TeletextStream.hamming2418(data)
            #expect(TeletextCoding.hamming2418(code[0], code[1], code[2]) == data)
            for bit in 0..<24 {
                var flipped = code
                flipped[bit / 8] ^= 1 << (bit % 8)
                #expect(TeletextCoding.hamming2418(flipped[0], flipped[1], flipped[2]) == data, "bit \(bit) of \(data)")
            }
            var twice = code
            twice[0] ^= 0x06
            #expect(TeletextCoding.hamming2418(twice[0], twice[1], twice[2]) == nil)
        }
    }

    /// A broadcast's other pages (an index page 100, not a subtitle page nor announced as one)
    /// are received but make no cues.
    @Test func otherPagesMakeNoCues() {
        let stream = TeletextStream(transmissions: [
            .init(seconds: 1, magazine: 1, page: 0x00, rows: [(1, Array("INDEX".utf8) + [UInt8](repeating: 0x20, count: 35))], subtitle: false),
            .init(seconds: 2, rows: [(22, TeletextStream.boxedRow(Array("Subtitle".utf8)))]),
            .init(seconds: 4, rows: []),
        ])
        let reader = Self.decode(stream)
        #expect(reader.subtitlePages.map(\.page) == ["888"])
        #expect(reader.decoder.cues["100"] == nil)
    }

    @Test func pagesRowsAndTimes() {
        let stream = TeletextStream(transmissions: [
            .init(
                seconds: 1, rows: [(20, TeletextStream.boxedRow(Self.ascii("First line"))), (22, TeletextStream.boxedRow(Self.ascii("second"), colour: 0x03))]),
            .init(seconds: 3, rows: []),
            .init(seconds: 4, rows: [(22, TeletextStream.boxedRow([0x5B] + Self.ascii("rger ") + [0x7E]))], national: 1),
            .init(seconds: 6, rows: []),
        ])
        let reader = Self.decode(stream)
        let pages = reader.subtitlePages
        #expect(pages.map(\.page) == ["888"])
        #expect(pages.first?.language == "deu")
        let cues = pages.first?.cues ?? []
        let base = MediaTime(ticks: stream.ptsBase)
        #expect(cues.map(\.text) == ["First line\n<c.yellow>second</c>", "Ärger ß"])
        #expect(cues.map { ($0.start - base).milliseconds } == [1000, 4000])
        #expect(cues.map { ($0.end - base).milliseconds } == [3000, 6000])
    }
}

/// The stream generator and the decoder against two independent decoders on Debian: ffmpeg's
/// libzvbi teletext decoder and GStreamer's teletextdec.
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed"))
struct TeletextPeerTests {
    static let stream = TeletextStream(transmissions: [
        .init(
            seconds: 1, rows: [(20, TeletextStream.boxedRow(Array("Guten Abend".utf8))), (22, TeletextStream.boxedRow(Array("zusammen".utf8)))], national: 1),
        .init(seconds: 3, rows: [], national: 1),
        .init(seconds: 4, rows: [(22, TeletextStream.boxedRow([0x5B] + Array("rger mit ".utf8) + [0x7E] + Array("e".utf8)))], national: 1),
        .init(seconds: 6, rows: [], national: 1),
    ])

    static func write() throws -> String {
        let path = try Scratch.make().path + "/teletext.ts"
        try Data(Self.stream.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func ours() -> [Cue] {
        var reader = TeletextStreamReader()
        reader.feed(Self.stream.bytes[...])
        reader.finish(at: .zero)
        return reader.subtitlePages.first?.cues ?? []
    }

    /// A character whose parity fails is reported while the stream is read, not only when it
    /// ends: an open programme (no EXT-X-ENDLIST) or a live follow never ends the reader.
    @Test func damageIsReportedBeforeTheEnd() throws {
        var bytes = Self.stream.bytes
        let pattern = TeletextStream.sent(Array("Guten".utf8))
        let at = try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern })
        bytes[at] ^= 0x01  // the parity bit, as sent (bit-reversed)
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = reader.feed(bytes[...])
        reader.endOfSegment()
        #expect(reader.notes.contains { $0.hasPrefix("teletext: 1 byte(s) failed their parity") }, "\(reader.notes)")
        #expect(reader.cues.values.first?.first.map { CueText.plainText($0.text) }?.hasPrefix("uten Abend") == true, "\(reader.cues)")
    }

    /// ffmpeg (libzvbi): the same pages, the same text, at the same times after the first.
    ///
    /// German national characters included. ffmpeg leaves a page up until the next page with text, so
    /// ends are not compared.
    @Test func sameAsFFmpeg() throws {
        let path = try Self.write()
        let run = try Tools.run(
            Tools.ffmpeg!,
            ["-hide_banner", "-loglevel", "error", "-txt_format", "text", "-txt_page", "888", "-i", path, "-map", "0:0", "-c:s", "srt", "-f", "srt", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let theirs = SubRipParser.parse(run.stdout).cues
        let ours = Self.ours()
        #expect(ours.map { CueText.plainText($0.text) } == theirs.map(\.text), "ours \(ours.map(\.text)), ffmpeg \(theirs.map(\.text))")
        let ourStarts = ours.map { ($0.start - (ours.first?.start ?? .zero)).milliseconds }
        let theirStarts = theirs.map { ($0.start - (theirs.first?.start ?? .zero)).milliseconds }
        #expect(ourStarts == theirStarts)
        #expect(ours.first?.text == "Guten Abend\nzusammen")
        #expect(ours.last?.text == "Ärger mit ße")
    }

    /// X/28/0 character set designations: Polish (group 1) and Turkish (group 2) pages read as
    /// ffmpeg's libzvbi reads them; a page designated Cyrillic shows U+FFFD, counted.
    @Test func designatedSetsAsFFmpegReadsThem() throws {
        let national: [UInt8] = [0x40, 0x24, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D, 0x7E]
        let row: [UInt8] = national.flatMap { code -> [UInt8] in [code, 0x20] }
        for (designation, expected) in [(0x08, "ą ń Ƶ Ś Ł ć ó ę ż ś ł ź"), (0x16, "İ ğ Ş Ö Ç Ü Ğ ı ş ö ç ü")] {
            let stream = TeletextStream(transmissions: [
                .init(seconds: 1, rows: [(22, TeletextStream.boxedRow(row))], national: designation & 7, designation: designation),
                .init(seconds: 3, rows: [], national: designation & 7, designation: designation),
            ])
            var reader = TeletextStreamReader()
            reader.feed(stream.bytes[...])
            reader.finish(at: .zero)
            #expect(reader.subtitlePages.first?.cues.map(\.text) == [expected])
            let path = try Scratch.make().path + "/designated.ts"
            try Data(stream.bytes).write(to: URL(fileURLWithPath: path))
            let run = try Tools.run(
                Tools.ffmpeg!,
                ["-hide_banner", "-loglevel", "error", "-txt_format", "text", "-txt_page", "888", "-i", path, "-map", "0:0", "-c:s", "srt", "-f", "srt", "-"])
            #expect(SubRipParser.parse(run.stdout).cues.map(\.text) == [expected], "\(run.stdout)")
        }
        var reader = TeletextStreamReader()
        reader.feed(
            TeletextStream(transmissions: [.init(seconds: 1, rows: [(22, TeletextStream.boxedRow(Array("Shalom".utf8)))], designation: 0x55)]).bytes[...])
        reader.finish(at: MediaTime(seconds: 9))
        #expect(reader.subtitlePages.first?.cues.first?.text == String(repeating: "\u{FFFD}", count: 6))
        #expect(reader.decoder.undecodedCharacters == 6)
        #expect(reader.notes.contains { $0.contains("6 character(s)") && $0.contains("Arabic or Hebrew") }, "\(reader.notes)")
    }

    /// The Cyrillic (Serbian/Croatian, Russian/Bulgarian, Ukrainian) and Greek G0 sets, every
    /// code from 0x21 to 0x7F, as ffmpeg's libzvbi reads them, but for the three positions where
    /// it parts from the standard's table (Й and й, not Ѝ and ѝ; the Cyrillic ї, not the Latin ï).
    @Test func cyrillicAndGreekSetsAsFFmpegReadsThem() throws {
        let codes: [UInt8] = Array(0x21...0x7F)
        // Rows two apart: a double-height row hides the one below it.
        let rows = stride(from: 0, to: codes.count, by: 24).map { Array(codes[$0..<min(codes.count, $0 + 24)]) }
        let ours: [Int: String] = [
            0x20: "!\"#$%&'()*+,-./0123456789:;<=>?ЧАБЦДЕФГХИЈКЛМНОПЌРСТУВЃЉЊЗЋЖЂШЏчабцдефгхијклмнопќрстувѓљњзћжђш■",
            0x24: "!\"#$%ы'()*+,-./0123456789:;<=>?ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬЪЗШЭЩЧЫюабцдефгхийклмнопярстужвьъзшэщч■",
            0x25: "!\"#$%ї'()*+,-./0123456789:;<=>?ЮАБЦДЕФГХИЙКЛМНОПЯРСТУЖВЬІЗШЄЩЧЇюабцдефгхийклмнопярстужвьізшєщч■",
            0x37: "!\"#$%&'()*+,-./0123456789:;«=»?ΐΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡʹΣΤΥΦΧΨΩΪΫάέήίΰαβγδεζηθικλμνξοπρςστυφχψωϊϋόύώ■",
        ]
        for (designation, expected) in ours.sorted(by: { $0.key < $1.key }) {
            let stream = TeletextStream(transmissions: [
                .init(
                    seconds: 1, rows: rows.enumerated().map { (16 + 2 * $0.offset, TeletextStream.boxedRow($0.element)) }, national: designation & 7,
                    designation: designation),
                .init(seconds: 3, rows: [], national: designation & 7, designation: designation),
            ])
            var reader = TeletextStreamReader()
            reader.feed(stream.bytes[...])
            reader.finish(at: .zero)
            let text = CueText.plainText(reader.subtitlePages.first?.cues.first?.text ?? "").replacingOccurrences(of: "\n", with: "")
            #expect(text == expected, "designation \(designation)")
            let path = try Scratch.make().path + "/set.ts"
            try Data(stream.bytes).write(to: URL(fileURLWithPath: path))
            let run = try Tools.run(
                Tools.ffmpeg!,
                ["-hide_banner", "-loglevel", "error", "-txt_format", "text", "-txt_page", "888", "-i", path, "-map", "0:0", "-c:s", "srt", "-f", "srt", "-"])
            let cue = CueText.plainText(SubRipParser.parse(run.stdout).cues.first?.text ?? "")
            var theirs = cue.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            #expect(theirs.count == expected.count, "\(theirs)")
            // Where libzvbi parts from the table, the standard's letter.
            theirs = String(theirs.map { c -> Character in c == "Ѝ" ? "Й" : c == "ѝ" ? "й" : c == "ï" && designation == 0x25 ? "ї" : c })
            #expect(theirs == expected, "designation \(designation): ffmpeg reads \(theirs)")
        }
    }

    /// GStreamer's teletextdec (also libzvbi, through another demuxer) gives the same lines.
    @Test(.enabled(if: Tools.which("gst-launch-1.0") != nil, "GStreamer is not installed"))
    func sameLinesAsGStreamer() throws {
        let path = try Self.write()
        let run = try Tools.run(
            try #require(Tools.which("gst-launch-1.0")),
            [
                "-q", "filesrc", "location=\(path)", "!", "tsdemux", "!", "teletextdec", "page=888", "subtitles-mode=true", "!",
                "text/x-raw,format=utf-8", "!", "fdsink", "fd=1",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        // teletextdec writes each line with its template "%s\n", the backslash and n as written.
        // Empty pages come out as NUL bytes.
        let theirs = run.stdout.replacingOccurrences(of: "\0", with: "").components(separatedBy: "\\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let ours = Self.ours().flatMap { CueText.plainText($0.text).split(separator: "\n").map(String.init) }
        #expect(ours == theirs, "ours \(ours), GStreamer \(theirs)")
    }
}
