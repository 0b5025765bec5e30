import Foundation
import TestSupport
import Testing
import Timebase

@testable import TimedText

/// EBU STL files built byte by byte, with the cues EBU Tech 3264 says they hold typed by hand.
struct EBUSTLTests {
    static func read(_ file: STLFile, rate: TimecodeRate? = nil) throws -> EBUSTLReader.Read {
        try EBUSTLReader.read(file.bytes, rate: rate)
    }

    /// Table 00 (ISO 6937): a diacritic byte before its letter, the upper half's punctuation;
    /// teletext colours as WebVTT classes lasting to the row's end; rows at CR/LF (double-height
    /// rows come in pairs); box and height codes as spaces, trimmed.
    @Test func textColoursAndRows() throws {
        let text: [UInt8] =
            [0x0D, 0x0B, 0x0B] + Array("Gr".utf8) + [0xC8] + Array("u".utf8) + [0xCF] + Array("s ".utf8) + [0xC2] + Array("e".utf8)
            + [0x0A, 0x0A, 0x8A, 0x8A, 0x0D, 0x0B, 0x0B, 0x01] + Array("red".utf8) + [0x07] + Array("white ".utf8) + [0xA9] + Array("q".utf8) + [0xB9]
        let read = try Self.read(STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 3, 12), text)]))
        #expect(read.cues.map(\.text) == ["Grüš é\n<c.red>red</c> white ‘q’"])
        #expect(read.cues.first?.start == MediaTime(seconds: 1))
        #expect(read.cues.first?.end == MediaTime(milliseconds: 3480))  // frame 12 at 25 fps
        #expect(read.warnings.isEmpty, "\(read.warnings)")
    }

    /// Extension blocks join until 0xFF; comments (comment flag 1) and user data (0xFE) are not
    /// shown; open subtitling's italics and underline last until turned off.
    @Test func extensionsCommentsAndOpenSubtitles() throws {
        var file = STLFile(blocks: [
            .init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("first ".utf8) + [0x80] + Array("it".utf8), extensionNumber: 0),
            .init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("alic".utf8) + [0x81] + Array(" plain ".utf8) + [0x82] + Array("under".utf8)),
            .init(2, (0, 0, 3, 0), (0, 0, 4, 0), Array("not for viewers".utf8), comment: true),
            .init(3, (0, 0, 5, 0), (0, 0, 6, 0), Array("user data".utf8), extensionNumber: 0xFE),
        ])
        file.displayStandard = "0"
        let read = try Self.read(file)
        #expect(read.cues.map(\.text) == ["first <i>italic</i> plain <u>under</u>"])
        #expect(read.warnings.map(\.message).contains { $0.hasPrefix("1 comment block(s)") })
    }

    /// A cumulative set (status 1, 2, 3): each adds its rows below what is shown; a cue per
    /// interval of constant text.
    @Test func cumulativeSets() throws {
        let read = try Self.read(
            STLFile(blocks: [
                .init(1, (0, 0, 1, 0), (0, 0, 5, 0), Array("one".utf8), cumulative: 1),
                .init(2, (0, 0, 2, 0), (0, 0, 5, 0), Array("two".utf8), cumulative: 2),
                .init(3, (0, 0, 3, 0), (0, 0, 5, 0), Array("three".utf8), cumulative: 3),
                .init(4, (0, 0, 6, 0), (0, 0, 7, 0), Array("alone".utf8)),
            ]))
        #expect(read.cues.map(\.text) == ["one", "one\ntwo", "one\ntwo\nthree", "alone"])
        #expect(read.cues.map(\.start.milliseconds) == [1000, 2000, 3000, 6000])
        #expect(read.cues.map(\.end.milliseconds) == [2000, 3000, 5000, 7000])
    }

    /// STL30.01 counts 29.97 drop-frame timecode (as ttconv reads it); the time code status 1 and a
    /// start of programme put 10:00:00:00 at zero; fps= overrides the disk format's rate.
    @Test func ratesAndTheStartOfProgramme() throws {
        var file = STLFile(blocks: [.init(1, (10, 0, 1, 15), (10, 0, 2, 0), Array("ten hours in".utf8))])
        file.diskFormat = "STL30.01"
        // Ten hours of drop-frame timecode are 1,078,920 frames (600 minutes, 540 of them drop 2).
        #expect(try Self.read(file).cues.first?.start == MediaTime(ticks: (1_078_920 + 45) * 3003))
        file.timeCodeStatus = "1"
        file.programmeStart = "10000000"
        #expect(try Self.read(file).cues.first?.start == MediaTime(ticks: 45 * 3003))
        #expect(try Self.read(file, rate: TimecodeRate(label: "30")).cues.first?.start == MediaTime(milliseconds: 1500))
    }

    /// The vertical position places the subtitle: a teletext row in the upper half by its first
    /// row, in the lower half by its last; justification left and right.
    @Test func placement() throws {
        let read = try Self.read(
            STLFile(blocks: [
                .init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("top".utf8), verticalPosition: 1, justification: 1),
                .init(2, (0, 0, 3, 0), (0, 0, 4, 0), Array("bottom".utf8) + [0x8A] + Array("two rows".utf8), verticalPosition: 22, justification: 3),
            ]))
        #expect(read.cues.map(\.settings.text) == ["line:10%,start align:left", "line:90%,end align:right"])
    }

    /// Tables 01-04 are ISO 8859-5 to -8; a byte no table defines is shown as U+FFFD and counted.
    @Test func otherTablesAndUndecodableBytes() throws {
        var file = STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 0), [0xBF, 0xE0, 0xD8, 0xD2, 0xD5, 0xE2])])  // Привет
        file.characterTable = "01"
        #expect(try Self.read(file).cues.map(\.text) == ["Привет"])
        let latin = try Self.read(STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("a".utf8) + [0xD8] + Array("b".utf8))]))
        #expect(latin.cues.map(\.text) == ["a\u{FFFD}b"])
        #expect(latin.warnings.map(\.message).contains { $0.hasPrefix("1 character(s) are not in the file's character code table (00)") })
    }

    /// What is not EBU STL is refused with the byte offset; a torn last block is said.
    @Test func refusals() throws {
        #expect(throws: SubtitleFileError.self) { try EBUSTLReader.read(Array(repeating: 0x20, count: 100)) }
        var bytes = STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("x".utf8))]).bytes
        bytes.replaceSubrange(3..<11, with: Array("STL99.99".utf8))
        do {
            _ = try EBUSTLReader.read(bytes)
            Issue.record("a disk format code that is not one was read")
        } catch {
            #expect(error.offset == 3 && error.reason.contains("STL99.99"))
        }
        let torn = STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 0), Array("x".utf8))]).bytes + [1, 2, 3]
        let read = try EBUSTLReader.read(torn)
        #expect(read.cues.count == 1 && read.warnings.contains { $0.message.contains("from byte offset 1152") })
    }
}

/// The same STL files through ttconv (the IMSC authors' converter, which reads EBU STL).
///
/// At every instant either changes, the same text on screen. Whitespace is not compared: ttconv drops the
/// cell a teletext control code takes beside a space, Subweave keeps one space.
@Suite(.enabled(if: Tools.which("tt") != nil, "ttconv is not installed (pip install ttconv)"))
struct EBUSTLPeerTests {
    static let files: [(String, STLFile)] = {
        var open = STLFile(blocks: [
            .init(1, (0, 0, 0, 10), (0, 0, 2, 0), Array("Open ".utf8) + [0x80] + Array("italic".utf8) + [0x81] + Array(" text".utf8)),
            .init(2, (0, 0, 2, 5), (0, 0, 3, 20), Array("extended ".utf8), extensionNumber: 0),
            .init(2, (0, 0, 2, 5), (0, 0, 3, 20), Array("over two blocks".utf8)),
            .init(3, (0, 0, 4, 0), (0, 0, 9, 0), Array("cumulative".utf8), cumulative: 1),
            .init(4, (0, 0, 5, 0), (0, 0, 9, 0), Array("grows".utf8), cumulative: 3),
        ])
        open.displayStandard = "0"
        var ntsc = STLFile(blocks: [
            .init(1, (0, 0, 1, 29), (0, 0, 3, 1), [0x0D, 0x0B, 0x0B] + Array("Fran".utf8) + [0xCB] + Array("cais ".utf8) + [0xC1] + Array("a la".utf8)),
            .init(2, (0, 1, 0, 5), (0, 1, 2, 15), [0x02] + Array("green ".utf8) + [0x06] + Array("cyan".utf8) + [0x8A, 0x8A] + Array("row two".utf8)),
        ])
        ntsc.diskFormat = "STL30.01"
        var greek = STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 0), [0xC3, 0xE5, 0xE9, 0xDC, 0x20] + Array("ok".utf8))])
        greek.characterTable = "03"
        return [
            ("teletext 25", STLFile(blocks: [.init(1, (0, 0, 1, 0), (0, 0, 2, 12), Array("plain".utf8))])), ("open", open), ("ntsc", ntsc), ("greek", greek),
        ]
    }()

    static func screen(_ cues: [Cue], at t: MediaTime) -> [String] {
        cues.filter { $0.start <= t && t < $0.end }.flatMap { CueText.plainText($0.text).split(separator: "\n") }
            .map { $0.filter { !$0.isWhitespace } }.filter { !$0.isEmpty }.sorted()
    }

    @Test(arguments: files.map(\.0))
    func sameScreensAsTtconv(_ name: String) throws {
        let file = try #require(Self.files.first { $0.0 == name }?.1)
        let dir = try Scratch.make().path
        try Data(file.bytes).write(to: URL(fileURLWithPath: dir + "/in.stl"))
        let run = try Tools.run(try #require(Tools.which("tt")), ["convert", "-i", dir + "/in.stl", "-o", dir + "/out.vtt"])
        #expect(run.status == 0, "\(run.stderr)")
        let theirs = try WebVTTParser.parse(try String(contentsOfFile: dir + "/out.vtt", encoding: .utf8)).cues
        // Ours to the millisecond, as WebVTT writes them (ttconv's are).
        let ours = try EBUSTLReader.read(file.bytes).cues.map { cue in
            var c = cue
            c.start = MediaTime(milliseconds: Int64((cue.start.seconds * 1000).rounded()))
            c.end = MediaTime(milliseconds: Int64((cue.end.seconds * 1000).rounded()))
            return c
        }
        #expect(!ours.isEmpty)
        let changes = Set((ours + theirs).flatMap { [$0.start, $0.end] }).sorted()
        for (a, b) in zip(changes, changes.dropFirst()) {
            let t = MediaTime(ticks: (a.ticks + b.ticks) / 2)
            #expect(
                Self.screen(ours, at: t) == Self.screen(theirs, at: t),
                "\(name) at \(t.seconds) s: ours \(Self.screen(ours, at: t)), ttconv \(Self.screen(theirs, at: t))")
        }
    }
}

/// Hostile STL files stay linear.
struct EBUSTLBoundsTests {
    /// 20,000 subtitles of one cumulative set that never ends: read in linear time (sets are cut
    /// at 64), every subtitle shown.
    @Test func aCumulativeSetThatNeverEnds() throws {
        var blocks: [STLFile.Block] = []
        for i in 0..<20_000 {
            let minutes = UInt8(i / 1500 % 60), seconds = UInt8(i / 25 % 60), frames = UInt8(i % 25)
            let text: [UInt8] = Array("row \(i)".utf8)
            blocks.append(STLFile.Block(UInt16(i & 0xFFFF), (0, minutes, seconds, frames), (1, 0, 0, 0), text, cumulative: i == 0 ? 1 : 2))
        }
        let read = try EBUSTLReader.read(STLFile(blocks: blocks).bytes)
        #expect(read.cues.contains { $0.text.hasSuffix("row 19999") })
        #expect(read.cues.allSatisfy { $0.text.split(separator: "\n").count <= 64 })
    }
}
