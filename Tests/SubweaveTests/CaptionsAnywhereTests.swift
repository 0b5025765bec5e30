import Foundation
import HLS
import Subweave
import TestSupport
import Testing

/// In-band captions found wherever they start: the packager decides which services exist from
/// the whole programme, never from its first frames, and never declares `CLOSED-CAPTIONS=NONE`
/// over captions no rendition carries.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct CaptionsAnywhereTests {
    static let frame = 1001.0 / 30000

    /// A programme of `frames` frames whose only caption (CC1 pop-on "Late caption") is shown at
    /// `eocFrame` and erased 60 frames later; every other frame carries cc_data padding.
    static func programme(eocFrame: Int, frames: Int, segmentSeconds: Int = 2) throws -> String {
        var script = CaptionScript()
        // RCL and ENM (doubled: 4 frames), PAC (2), 6 pairs of text, then EOC, whose first copy
        // (frame load + 12) shows the caption.
        let shown = script.popOn(["Late caption"], at: eocFrame - 12) - 2
        precondition(shown == eocFrame)
        script.send([CC608.command(0x2C)], at: eocFrame + 60)
        return try CaptionedStream.hls(script: script, frames: frames, segmentSeconds: segmentSeconds)
    }

    /// The CC1 cue as a player places it (seconds from the first video frame).
    static func placedCue(_ hls: String) throws -> (Double, Double)? {
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        guard master.contains("captions/cc1") else { return nil }
        let generation = try Packaged.generation(master: hls + "/master.m3u8", folder: "captions/cc1")
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let firstPTS = try #require(try Tools.lowestVideoPTS(hls + "/seg_000.ts"))
        var placed: (Double, Double)?
        for segment in playlist.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues where cue.text == "Late caption" {
                placed = (cue.start, cue.end)
            }
        }
        return placed
    }

    @Test(arguments: [1.5, 3.0, 8.0, 30.0])
    func aCaptionThatStartsLateIsFound(seconds: Double) async throws {
        let eoc = Int((seconds / Self.frame).rounded())
        let hls = try Self.programme(eocFrame: eoc, frames: eoc + 120)
        let result = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(result.report.captions.map(\.service) == ["CC1"])
        let cue = try #require(try Self.placedCue(hls), "no CC1 rendition for a caption at \(seconds) s")
        #expect(abs(cue.0 - Double(eoc) * Self.frame) <= Self.frame, "\(cue)")
        #expect(abs(cue.1 - Double(eoc + 60) * Self.frame) <= Self.frame, "\(cue)")
    }

    /// 50 one-second segments, the caption in the 40th.
    @Test func aCaptionInTheFortiethOfFiftySegmentsIsFound() async throws {
        let eoc = 39 * 30 + 15
        let hls = try Self.programme(eocFrame: eoc, frames: 50 * 30, segmentSeconds: 1)
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: hls + "/prog.m3u8"))), source: "v")
        #expect(video.segments.count >= 45)
        let result = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(result.report.captions.map(\.service) == ["CC1"])
        let cue = try #require(try Self.placedCue(hls))
        #expect(abs(cue.0 - Double(eoc) * Self.frame) <= Self.frame, "\(cue)")
    }

    /// `refresh` reads the whole programme too: a title packaged with its captions turned off
    /// gets them, first seen at 30 s, when it is refreshed with captions on.
    @Test func refreshFindsALateCaption() async throws {
        let eoc = Int((30 / Self.frame).rounded())
        let hls = try Self.programme(eocFrame: eoc, frames: eoc + 120)
        let srt = hls + "/en.srt"
        try SubtitleText.srt([(0.5, 1.5, "Hello")]).write(toFile: srt, atomically: true, encoding: .utf8)
        let track = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(srt),language=en", origin: "1")])
        let first = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: track, captions: .off))
        #expect(first.report.captions.map(\.service) == ["CC1"], "the scan runs with captions off too")
        var master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(!master.contains("CLOSED-CAPTIONS=NONE"), "NONE would hide CC1, which no rendition carries")
        #expect(master.contains(#"INSTREAM-ID="CC1""#) && master.contains(#"CLOSED-CAPTIONS="cc""#))
        _ = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: [], captions: .auto))
        master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("captions/cc1/"), "CC1 has its rendition now")
        let cue = try #require(try Self.placedCue(hls))
        #expect(abs(cue.0 - Double(eoc) * Self.frame) <= Self.frame, "\(cue)")
    }

    /// Caption data that never carries a character is said, and fails a strict run.
    @Test func paddingOnlyIsReported() async throws {
        let hls = try CaptionedStream.hls(script: CaptionScript(), frames: 120)
        let srt = hls + "/en.srt"
        try SubtitleText.srt([(0.5, 1.5, "Hello")]).write(toFile: srt, atomically: true, encoding: .utf8)
        let track = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(srt),language=en", origin: "1")])
        let plan = try await Presentation(master: URL(fileURLWithPath: hls + "/master.m3u8")).plan(PackageRequest(tracks: track))
        let warning = try #require(plan.report.warnings.first { $0.code == .captionDataWithoutText })
        #expect(warning.message.contains("in 120 of its 120 frames"), "\(warning.message)")
        var strict = PackageRequest(tracks: track)
        strict.strict = true
        await #expect(throws: SubweaveError.self) { _ = try await Presentation(master: URL(fileURLWithPath: hls + "/master.m3u8")).plan(strict) }
        // Video without any caption data says nothing.
        let plain = try CaptionedStream.hls(script: nil, frames: 60)
        try SubtitleText.srt([(0.5, 1.5, "Hello")]).write(toFile: plain + "/en.srt", atomically: true, encoding: .utf8)
        let plainTrack = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(plain)/en.srt,language=en", origin: "1")])
        let quiet = try await Presentation(master: URL(fileURLWithPath: plain + "/master.m3u8")).plan(PackageRequest(tracks: plainTrack))
        #expect(quiet.report.warnings.isEmpty, "\(quiet.report.warnings)")
    }

    /// Captions off and `CLOSED-CAPTIONS=NONE` asked for: the operator wants nothing of the
    /// in-band captions, and the video is not read for them.
    @Test func captionsOffAndNoneSkipTheScan() async throws {
        let hls = try Self.programme(eocFrame: 40, frames: 120)
        try SubtitleText.srt([(0.5, 1.5, "Hello")]).write(toFile: hls + "/en.srt", atomically: true, encoding: .utf8)
        let track = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(hls)/en.srt,language=en", origin: "1")])
        let plan = try await Presentation(master: URL(fileURLWithPath: hls + "/master.m3u8"))
            .plan(PackageRequest(tracks: track, closedCaptions: ClosedCaptionsRequest.none, captions: .off))
        #expect(plan.report.captions.isEmpty && plan.masterText.contains("CLOSED-CAPTIONS=NONE"))
    }

    /// A pop-on whose EOC is in the stream's last frame is shown for that frame.
    @Test func aPopOnInTheLastFrameIsShown() async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        // RCL 49, ENM 51, PAC 53, text 55-58, EOC 59: the last frame (its repeat would be frame 60).
        let shown = script.popOn(["The end"], at: 49) - 2
        #expect(shown == 59)
        let ts = try CaptionedStream.make(script: script, frames: 60, folder: folder)
        let captions = try await CaptionFile.decode(ts)
        let cue = try #require(captions.services.first?.cues.first, "the last frame's caption was dropped")
        #expect(abs(cue.start.seconds - 59 * Self.frame) < 0.002 && abs(cue.end.seconds - 60 * Self.frame) < 0.002, "\(cue)")
    }
}
