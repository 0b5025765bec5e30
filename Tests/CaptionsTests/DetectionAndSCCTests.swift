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

    @Test func videoWithoutSEIIsSkipped() throws {
        let dir = try Scratch.make().path
        let file = dir + "/mpeg2.ts"
        let outcome = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "25",
                "-c:v", "mpeg2video", "-f", "mpegts", file,
            ])
        #expect(outcome.status == 0)
        let reader = try scan(file)
        #expect(reader.videoStreamType == 0x02)
        #expect(reader.decoder == nil)
        #expect(reader.finished)
    }
}

/// Scenarist SCC files through the same decoder.
struct SCCTests {
    @Test func dropAndNonDropTimecodes() {
        #expect(SCCReader.frame("00:00:01:00") == 30)
        #expect(SCCReader.frame("00:01:00;02") == 1800)  // 1:00;02 is frame 1800 in drop-frame
        #expect(SCCReader.frame("00:10:00;00") == 17982)  // ten minutes drop 18 frames
        #expect(SCCReader.frame("01:00:00;00") == 107892)
        #expect(SCCReader.frame("00:00:00:30") == nil)
        #expect(SCCReader.frame("bogus") == nil)
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
}
