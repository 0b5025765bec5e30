import Foundation
import TestSupport
import Testing

/// `subweave captions` and SCC side-loading through the built binary.
@Suite(.enabled(if: BuiltTool.subweave != nil && Tools.ffmpeg != nil, "the subweave binary or ffmpeg is missing"))
struct CaptionsCommandTests {
    @Test func printsServicesAsJSON() throws {
        var script = CaptionScript()
        script.popOn(["Hello"], at: 5)  // RCL 5, ENM 7, PAC 9, text 11-13, EOC 14
        script.send([CC608.command(0x2C)], at: 40)
        script.popOn(["Bonjour"], at: 5, field: 2)
        let file = try CaptionedStream.make(script: script, frames: 60, folder: try Scratch.make().path, language: "fra", remux: false)
        let outcome = try BuiltTool.run(["captions", file, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let services = try #require(object["services"] as? [[String: Any]])
        #expect(services.map { $0["service"] as? String } == ["CC1", "CC3"])
        #expect(services.first?["language"] as? String == "fr")
        let cue = try #require((services.first?["cues"] as? [[String: Any]])?.first)
        #expect(cue["text"] as? String == "Hello")
        #expect(abs((cue["startTime"] as? Double ?? 0) - 14 * 1001.0 / 30000) < 0.001)
        #expect(abs((cue["endTime"] as? Double ?? 0) - 40 * 1001.0 / 30000) < 0.001)
    }

    /// A fragmented MP4 file (both the `default-base-is-moof` layout and absolute base offsets):
    /// read fragment by fragment, the same cues as the TS it was remuxed from; `--detect` too.
    @Test(arguments: ["+frag_keyframe+empty_moov+default_base_moof", "+frag_keyframe+empty_moov"])
    func readsFragmentedMP4Files(_ flags: String) throws {
        var script = CaptionScript()
        script.popOn(["Hello"], at: 5)  // EOC 14
        script.send([CC608.command(0x2C)], at: 40)
        script.popOn(["Later"], at: 45)
        script.send([CC608.command(0x2C)], at: 80)
        let dir = try Scratch.make().path
        let ts = try CaptionedStream.make(script: script, frames: 90, folder: dir)
        let mp4 = dir + "/x.mp4"
        let remux = try Tools.run(Tools.ffmpeg!, ["-hide_banner", "-loglevel", "error", "-y", "-i", ts, "-map", "0:v", "-c", "copy", "-movflags", flags, mp4])
        #expect(remux.status == 0, "\(remux.stderr)")
        func cues(_ file: String) throws -> [[String: Any]] {
            let outcome = try BuiltTool.run(["captions", file, "--json"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
            return try #require((object["services"] as? [[String: Any]])?.first?["cues"] as? [[String: Any]])
        }
        let fromMP4 = try cues(mp4), fromTS = try cues(ts)
        #expect(fromMP4.map { $0["text"] as? String } == ["Hello", "Later"])
        #expect(fromMP4.map { $0["text"] as? String } == fromTS.map { $0["text"] as? String })
        for (a, b) in zip(fromMP4, fromTS) {
            #expect(abs((a["startTime"] as? Double ?? -1) - (b["startTime"] as? Double ?? 1)) < 0.002)
        }
        let detect = try BuiltTool.run(["captions", "--detect", mp4])
        #expect(detect.status == 0)
        #expect(detect.stdout.contains("captions: CC1"), "\(detect.stdout)")
    }

    /// `--detect` of a master finds what `--detect` of its first segment finds: the first
    /// caption, on screen when the look stops (it said "no captions" for the master).
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func detectingAMasterAgreesWithItsFirstSegment() throws {
        let hls = try CaptionedStream.hls()
        let master = try BuiltTool.run(["captions", "--detect", hls + "/master.m3u8", "--json"])
        let segment = try BuiltTool.run(["captions", "--detect", hls + "/seg_000.ts", "--json"])
        #expect(master.status == 0 && segment.status == 0, "\(master.stderr) \(segment.stderr)")
        let a = try #require(try JSONSerialization.jsonObject(with: Data(master.stdout.utf8)) as? [String: Any])
        let b = try #require(try JSONSerialization.jsonObject(with: Data(segment.stdout.utf8)) as? [String: Any])
        #expect(a["captions"] as? Bool == true && a["service"] as? String == "CC1", "\(a)")
        #expect(b["captions"] as? Bool == true && b["service"] as? String == "CC1", "\(b)")
        #expect(abs((a["time"] as? Double ?? -1) - (b["time"] as? Double ?? 1)) < 0.002, "\(a) \(b)")
    }

    /// `validate` on a master whose variants say nothing of CLOSED-CAPTIONS, over video that
    /// carries captions: the advice is to declare or publish them, never NONE (which hides them).
    @Test(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
    func validateNeverAdvisesNoneOverCaptions() throws {
        let hls = try CaptionedStream.hls()
        let validated = try BuiltTool.run(["validate", hls + "/master.m3u8"])
        let finding = try #require(validated.stdout.split(separator: "\n").first { $0.contains("no CLOSED-CAPTIONS attribute") }, "\(validated.stdout)")
        #expect(finding.contains("the video carries CC1") && finding.contains("NONE would hide them"), "\(finding)")
        // Over video without captions, NONE is the advice.
        let dir = try Fixtures.copyExample()
        let plain = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        let advice = try #require(plain.stdout.split(separator: "\n").first { $0.contains("no CLOSED-CAPTIONS attribute") }, "\(plain.stdout)")
        #expect(advice.contains("say CLOSED-CAPTIONS=NONE if the video carries no"), "\(advice)")
    }

    /// `cues` and `convert` read SCC by its content (no `--format` needed), as `package` does:
    /// the EOC is the 9th word of the line at frame 30, so the caption shows at frame 38.
    @Test func cuesAndConvertReadSCC() throws {
        let dir = try Scratch.make().path
        try "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f\n\n00:00:03:00\t942c 942c\n"
            .write(toFile: dir + "/in.scc", atomically: true, encoding: .utf8)
        let converted = try BuiltTool.run(["convert", dir + "/in.scc"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.hasPrefix("WEBVTT"))
        // Row 15, column 0: the W3C mapping's bottom row and left edge.
        #expect(converted.stdout.contains("00:00:01.268 --> 00:00:03.003 line:84.67%,start position:10%,line-left align:left\nHi!"), "\(converted.stdout)")
        let toSRT = try BuiltTool.run(["convert", dir + "/in.scc", "--to", "srt"])
        #expect(toSRT.stdout.contains("00:00:01,268 --> 00:00:03,003\nHi!"), "\(toSRT.stdout)")
        let cues = try BuiltTool.run(["cues", dir + "/in.scc", "--json"])
        #expect(cues.status == 0 && cues.stdout.contains("\"text\" : \"Hi!\""), "\(cues.stdout)")
    }

    @Test func notATransportStream() throws {
        let dir = try Scratch.make().path
        try "hello".write(toFile: dir + "/x.ts", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["captions", dir + "/x.ts"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("no MPEG-TS video stream"))
    }

    @Test func sccSideLoadsLikeSRT() throws {
        let dir = try Fixtures.copyExample()
        try "Scenarist_SCC V1.0\n\n00:00:01:00\t9420 9420 94ae 94ae 9470 9470 c8e9 a180 942f 942f\n\n00:00:03:00\t942c 942c\n"
            .write(toFile: dir + "/subs/en.scc", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.scc,language=en", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"ingest_format\" : \"scc_converted\""))
        let segment = try String(
            contentsOfFile: try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en") + "/00000.vtt", encoding: .utf8)
        // Frame 38 (EOC) to frame 90 (EDM) of 29.97 fps, on the programme timeline, as a player places it.
        let firstPTS = try #require(try Tools.lowestVideoPTS(dir + "/video/low/seg_000.ts"))
        let cue = try #require(PlayerClock.place(segment: segment, firstPTS: firstPTS, sequenceStart: 0).cues.first)
        #expect(cue.text == "Hi!")
        #expect(abs(cue.start - 1.268) < 0.001 && abs(cue.end - 3.003) < 0.001, "\(cue)")
    }
}
