import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

@testable import Captions

/// The bounded detection scan: at most 28 access units, stopping at the first printable character.
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed"))
struct DetectionTests {
    func scan(_ file: String) throws -> TransportStreamCaptionReader {
        var reader = TransportStreamCaptionReader(accessUnitLimit: 28, timeOf: { MediaTime(ticks: $0) })
        _ = reader.feed(ArraySlice(try Data(contentsOf: URL(fileURLWithPath: file))))
        return reader
    }

    @Test func findsTextEarlyAndStops() throws {
        var script = CaptionScript()
        script.popOn(["Early"], at: 2)
        let reader = try scan(try CaptionedStream.make(script: script, frames: 90, folder: try Scratch.make().path))
        #expect(reader.decoder?.firstText?.service == .cc1)
        #expect((reader.decoder?.accessUnits ?? 99) < 28, "the scan stops at the first character, before its limit")
    }

    @Test func textAfterTheWindowIsNotSeen() throws {
        var script = CaptionScript()
        script.popOn(["Late"], at: 60)
        let reader = try scan(try CaptionedStream.make(script: script, frames: 90, folder: try Scratch.make().path))
        #expect(reader.decoder?.firstText == nil)
        #expect(reader.decoder?.accessUnits == 28)
    }

    /// Video that cannot carry A/53 captions (MPEG-4 Part 2, stream type 0x10) costs nothing: no
    /// decoder is made and the scan stops at once.
    @Test func videoWithoutCaptionCarriageIsSkipped() throws {
        let dir = try Scratch.make().path
        let file = dir + "/mpeg4.ts"
        let outcome = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "25",
                "-c:v", "mpeg4", "-f", "mpegts", file,
            ])
        #expect(outcome.status == 0)
        let reader = try scan(file)
        #expect(reader.videoStreamType == 0x10)
        #expect(reader.decoder == nil)
        #expect(reader.finished)
    }

    /// MPEG-2 video without captions is scanned (its picture user data could carry them) and
    /// the bounded scan ends empty.
    @Test func mpeg2WithoutCaptionsIsScannedAndEmpty() throws {
        let dir = try Scratch.make().path
        let file = dir + "/mpeg2.ts"
        let outcome = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "40",
                "-c:v", "mpeg2video", "-f", "mpegts", file,
            ])
        #expect(outcome.status == 0)
        let reader = try scan(file)
        #expect(reader.videoStreamType == 0x02)
        #expect(reader.decoder?.firstText == nil)
        #expect(reader.decoder?.accessUnits == 28)
    }
}

/// Scenarist SCC files through the same decoder.
struct SCCTests {
    @Test func dropAndNonDropTimecodes() {
        let ntsc = TimecodeRate.ntsc
        #expect(ntsc.read("00:00:01:00")?.frame == 30)
        #expect(ntsc.read("00:01:00;02")?.frame == 1800)  // 1:00;02 is frame 1800 in drop-frame
        #expect(ntsc.read("00:10:00;00")?.frame == 17982)  // ten minutes drop 18 frames
        #expect(ntsc.read("01:00:00;00")?.frame == 107892)
        #expect(ntsc.read("01:00:00.00")?.frame == 107892)  // '.' is drop-frame too
        #expect(ntsc.read("bogus") == nil)
        #expect(ntsc.read("0:00:01:00") == nil)
        #expect(ntsc.read("24:00:00:00") == nil)
        // A frame past the second is a timecode that does not fit: read as the second's last.
        #expect(ntsc.read("00:00:00:30") == TimecodeRate.Reading(frame: 29, misfit: .frameBeyondSecond(30)))
    }

    /// Each declared rate against the SMPTE 12M arithmetic: frames per timecode second, how long
    /// a frame lasts, and drop-frame numbering only at 29.97.
    @Test func everyDeclaredRate() throws {
        func time(_ label: String, _ timecode: Substring) throws -> MediaTime {
            let rate = try #require(TimecodeRate(label: label))
            return rate.time(frame: try #require(rate.read(timecode)).frame)
        }
        #expect(try time("25", "01:00:00:00") == MediaTime(seconds: 3600))
        #expect(try time("25", "00:00:00:24") == MediaTime(milliseconds: 960))
        #expect(try time("24", "00:00:10:12") == MediaTime(milliseconds: 10_500))
        #expect(try time("30", "00:00:10:15") == MediaTime(milliseconds: 10_500))
        // 23.976: 24 frames a timecode second, each 1001/24000 s; one timecode second is 1.001 s.
        #expect(try time("23.976", "00:00:01:00") == MediaTime(milliseconds: 1001))
        #expect(try time("23.98", "00:01:00:00") == MediaTime(milliseconds: 60_060))
        // 29.97 non-drop runs 3.6 s slow an hour; drop-frame keeps (nearly) to the clock.
        #expect(try time("29.97ndf", "01:00:00;00") == MediaTime(milliseconds: 3_603_600))
        #expect(try time("29.97df", "01:00:00:00") == MediaTime(ticks: 107_892 * 3003))
        #expect(try time("29.97", "01:00:00:00") == MediaTime(milliseconds: 3_603_600))
        #expect(TimecodeRate(label: "26") == nil)
        #expect(TimecodeRate.labels.compactMap(TimecodeRate.init(label:)).map(\.description) == TimecodeRate.labels)
    }

    @Test func timecodesThatDoNotFitTheRate() throws {
        let pal = try #require(TimecodeRate(label: "25"))
        #expect(pal.read("00:00:01:27") == TimecodeRate.Reading(frame: 49, misfit: .frameBeyondSecond(27)))
        #expect(pal.read("00:00:01;05") == TimecodeRate.Reading(frame: 30, misfit: .dropFrameMismatch(written: true)))
        let df = try #require(TimecodeRate(label: "29.97df"))
        #expect(df.read("00:00:01:00")?.misfit == .dropFrameMismatch(written: false))
        #expect(df.read("00:01:00;00") == TimecodeRate.Reading(frame: 1800, misfit: .skippedNumber))
        #expect(df.read("00:10:00;00")?.misfit == nil)
        let ndf = try #require(TimecodeRate(label: "29.97ndf"))
        #expect(ndf.read("00:01:00;00") == TimecodeRate.Reading(frame: 1800, misfit: .dropFrameMismatch(written: true)))
    }

    /// An SCC file at 25 fps read as declared: each pair on its 40 ms frame; one warning per kind
    /// of misfit, however many timecodes share it.
    @Test func sccAtTwentyFive() throws {
        let text = """
            Scenarist_SCC V1.0

            00:00:01:00	9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f

            00:00:03:00	942c 942c

            00:00:04:27	9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f

            00:00:05:26	942c 942c

            """
        let pal = try #require(TimecodeRate(label: "25"))
        let (cues, _, warnings) = try SCCReader.read(text, rate: pal)
        // The EOC is the 9th word of the line at frame 25: frame 33, 1.32 s; EDM at 3 s.
        #expect(cues.first?.start == MediaTime(milliseconds: 1320))
        #expect(cues.first?.end == MediaTime(milliseconds: 3000))
        #expect(warnings.map(\.kind) == [.timecodeRate])
        #expect(warnings.first?.line == 7)
        #expect(warnings.first?.message.contains("00:00:04:27") == true)
        #expect(warnings.first?.message.contains("1 more timecode") == true)
        // The same file at the default rate: 29.97 frames.
        let (ntscCues, _, ntscWarnings) = try SCCReader.read(text)
        #expect(ntscCues.first?.start == MediaTime(ticks: 38 * 3003))
        #expect(ntscWarnings.isEmpty)
    }

    @Test func popOnFromSCC() throws {
        // RCL RCL ENM ENM PAC(15) PAC "Hi" "!" EOC EOC at 00:00:01;00 (frame 30): the EOC pair is
        // the 9th word, so the caption shows at frame 38; EDM at 00:00:03:00 (frame 90).
        let text = """
            Scenarist_SCC V1.0

            00:00:01;00	9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f

            00:00:03:00	942c 942c

            """
        let (cues, service, warnings) = try SCCReader.read(text)
        #expect(service == .cc1)
        #expect(warnings.isEmpty)
        #expect(cues.map(\.text) == ["Hi!"])
        #expect(cues.first?.start == MediaTime(ticks: 38 * 3003))
        #expect(cues.first?.end == MediaTime(ticks: 90 * 3003))
    }

    @Test func badHeaderAndBadLines() throws {
        #expect(throws: CaptionsError.self) { try SCCReader.read("WEBVTT\n") }
        let (cues, _, warnings) = try SCCReader.read("Scenarist_SCC V1.0\n\n00:00:00:00\t9420 zz20\nnot a line\n00:00:01:00\t9420 9420 c8e9 942f 942f 942c\n")
        #expect(warnings.map(\.line) == [3, 4])
        #expect(cues.map(\.text) == ["Hi"])
    }

    /// An SCC file from byte pairs: each line starts at its frame (non-drop timecode, 30 frames a
    /// second of 1001/30000 s) and sends its words on consecutive frames.
    static func scc(_ lines: [(frame: Int, pairs: [(UInt8, UInt8)])]) -> String {
        var text = "Scenarist_SCC V1.0\n\n"
        for line in lines {
            let f = line.frame
            let timecode = String(format: "%02d:%02d:%02d:%02d", f / 108000, f / 1800 % 60, f / 30 % 60, f % 30)
            text += timecode + "\t" + line.pairs.map { String(format: "%02x%02x", $0.0, $0.1) }.joined(separator: " ") + "\n\n"
        }
        return text
    }

    static func twice(_ pair: (UInt8, UInt8)) -> [(UInt8, UInt8)] { [pair, pair] }

    static func frames(_ cues: [Cue]) -> [(Int, Int, String)] {
        cues.map { (Int($0.start.ticks / 3003), Int($0.end.ticks / 3003), $0.text) }
    }

    static func same(_ a: [(Int, Int, String)], _ b: [(Int, Int, String)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 }
    }

    @Test func rollUpWindowMovesAndDepthChanges() throws {
        let ru2 = Self.twice(CC608.command(0x25)), ru3 = Self.twice(CC608.command(0x26)), cr = Self.twice(CC608.command(0x2D))
        let text = Self.scc([
            (30, ru2 + Self.twice(CC608.pac(row: 15)) + CC608.text("ab") + cr),  // "ab" at 34, CR 35
            (60, CC608.text("cd")),  // a second row at 60
            (90, ru3 + cr),  // deeper window, then a roll: the text stays
            (120, CC608.text("ef")),  // three rows at 120
            (150, Self.twice(CC608.pac(row: 5))),  // the window moves up to end at row 5: same text
            (180, ru2),  // shallower: the top row goes at once
            (210, Self.twice(CC608.command(0x2C))),
        ])
        let (cues, _, _) = try SCCReader.read(text)
        #expect(Self.same(Self.frames(cues), [(34, 60, "ab"), (60, 120, "ab\ncd"), (120, 180, "ab\ncd\nef"), (180, 210, "cd\nef")]), "\(Self.frames(cues))")
    }

    @Test func paintOnAfterPopOnAndAfterRollUp() throws {
        let rdc = Self.twice(CC608.command(0x29)), edm = Self.twice(CC608.command(0x2C))
        let popOn = Self.scc([
            (
                30,
                Self.twice(CC608.command(0x20)) + Self.twice(CC608.command(0x2E)) + Self.twice(CC608.pac(row: 15)) + CC608.text("Pop")
                    + Self.twice(CC608.command(0x2F))
            ),
            (60, rdc + Self.twice(CC608.pac(row: 14)) + CC608.text("Up")),
            (90, edm),
        ])
        #expect(Self.same(Self.frames(try SCCReader.read(popOn).cues), [(38, 64, "Pop"), (64, 90, "Up\nPop")]))
        let rollUp = Self.scc([
            (30, Self.twice(CC608.command(0x25)) + Self.twice(CC608.pac(row: 15)) + CC608.text("rl") + Self.twice(CC608.command(0x2D))),
            (60, rdc + Self.twice(CC608.pac(row: 15)) + CC608.text("pn")),
            (90, edm),
        ])
        #expect(Self.same(Self.frames(try SCCReader.read(rollUp).cues), [(34, 64, "rl"), (64, 90, "rl\npn")]))
    }

    @Test func theLastCaptionIsNotCutToAFrame() throws {
        // A pop-on caption never erased: the file's last line is its EOC.
        let text = Self.scc([
            (30, Self.twice(CC608.command(0x20)) + Self.twice(CC608.pac(row: 15)) + CC608.text("The end") + Self.twice(CC608.command(0x2F)))
        ])
        let (cues, _, warnings) = try SCCReader.read(text)
        let cue = try #require(cues.first)
        #expect(cue.text == "The end")
        #expect(cue.end - cue.start == MediaTime(seconds: 10))
        #expect(warnings.contains { $0.kind == .captionNotErased && $0.message.contains("The end") }, "\(warnings)")
    }

    @Test func aBadWordCostsOnlyItsFrame() throws {
        let text = """
            Scenarist_SCC V1.0

            00:00:01:00	9420 9420 9470 9470 c8e9 xyz! a180 942f 942f

            00:00:03:00	942c 942c

            """
        let (cues, _, warnings) = try SCCReader.read(text)
        #expect(cues.map(\.text) == ["Hi!"])
        // The EOC is still the 8th word: frame 30 + 7 = 37 (the bad word kept its frame).
        #expect(cues.first?.start == MediaTime(ticks: 37 * 3003))
        #expect(warnings.map(\.kind) == [.wordSkipped])
        #expect(warnings.first?.line == 3)
        #expect(warnings.first?.message.contains("xyz!") == true)
    }
}

/// MCC data lines are bounded by what a caption distribution packet can hold.
struct MCCBoundsTests {
    @Test func aLineOfNineFoldLettersIsSkipped() throws {
        let text = "File Format=MacCaption_MCC V1.0\n\n00:00:00:00\t" + String(repeating: "O", count: 200_000) + "\n"
        let read = try MCCReader.read(text)
        #expect(read.packets == 0)
        #expect(read.warnings.contains { $0.message.contains("longer than any caption distribution packet") })
    }
}
