import Foundation
import TestSupport
import Testing

/// In-band captions as hls.js in Chromium shows them: CEA-608 in fMP4, a CEA-708 service, and
/// where captions were put on screen.
extension BrowserPlaybackTests {
    /// CEA-608 captions carried in CMAF/fMP4 video, decoded by `subweave package` into a CC1
    /// WebVTT rendition: hls.js shows each caption on the frame whose picture carried its EOC.
    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
    func fragmentedMP4CaptionsPlayInSync() throws {
        let site = try CaptionedStream.hls(fmp4: true)
        // The operator names the services: hls.js offers them by that name and language.
        let packaged = try BuiltTool.run([
            "package", site + "/master.m3u8", "--captions", "auto", "--caption-service", "CC1:language=en,name=English CC",
            "--caption-service", "CC3:language=es",
        ])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        try Self.addPlayer(to: site)
        let result = try Self.play(site: site)
        #expect(result.errors.filter { $0.contains("fatal") }.isEmpty, "hls.js errors: \(result.errors)")
        #expect(result.tracks.map(\.label).sorted() == ["English CC", "Spanish (CC3)"], "\(result)")
        let track = try #require(result.tracks.first { $0.label == "English CC" && $0.language == "en" }, "no English CC track: \(result)")
        let cues = try #require(track.cues, "no cues: \(result)")
        #expect(cues.map(\.text) == ["First caption", "Across\na boundary"])
        let frame = 1001.0 / 30000
        let firstPTS = Double(try Tools.firstPresentationTime(init: site + "/init.mp4", segment: site + "/seg_000.m4s"))
        let initPTS = try #require(result.initPTS["0"], "no initPTS")
        for (cue, eoc) in zip(cues, [23.0, 71.0]) {
            let at = (firstPTS + eoc * frame * 90000 - initPTS) / 90000
            #expect(abs(cue.start - at) <= frame, "\"\(cue.text)\": hls.js shows it at \(cue.start) s, its frame is at \(at) s")
        }
    }

    /// A CEA-708 service (SERVICE2, Spanish) carried in the TS video beside CC1, decoded by
    /// `subweave package` into a WebVTT rendition: hls.js offers it by its name and language and
    /// shows each caption on the frame whose picture carried its DisplayWindows.
    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
    func cea708CaptionsPlayInSync() throws {
        var script = CaptionScript()
        script.popOn(["English from 608"], at: 10)
        script.send([CC608.command(0x2C)], at: 100)
        script.send708(DTVCC.defineWindow(0, visible: false), DTVCC.text("Primero"), service: 2, at: 12)
        script.send708(DTVCC.displayWindows([0]), service: 2, at: 30)
        script.send708(DTVCC.deleteWindows([0]), DTVCC.defineWindow(1, visible: false), DTVCC.text("Segundo"), service: 2, at: 70)
        script.send708(DTVCC.displayWindows([1]), service: 2, at: 95)  // 3.17 s: in the second segment
        script.send708(DTVCC.hideWindows([1]), service: 2, at: 150)
        let site = try CaptionedStream.hls(script: script, frames: 180)
        let packaged = try BuiltTool.run([
            "package", site + "/master.m3u8", "--caption-language", "en", "--caption-service", "SERVICE2:language=es,name=Español 708",
        ])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        try Self.addPlayer(to: site)
        let result = try Self.play(site: site, query: "lang=es").result
        #expect(result.errors.filter { $0.contains("fatal") }.isEmpty, "hls.js errors: \(result.errors)")
        #expect(result.tracks.map(\.label).sorted() == ["English (CC1)", "Español 708"], "\(result)")
        let track = try #require(result.tracks.first { $0.language == "es" }, "no Spanish track: \(result)")
        let cues = try #require(track.cues, "no cues: \(result)")
        #expect(cues.map(\.text) == ["Primero", "Segundo"], "\(cues)")
        let frame = 1001.0 / 30000
        let firstFrame = try #require(result.bufferedStart, "no buffered range: \(result)")
        for (cue, shown) in zip(cues, [30.0, 95.0]) {
            let at = firstFrame + shown * frame
            #expect(abs(cue.start - at) <= frame / 2 + 0.001, "\"\(cue.text)\": hls.js shows it at \(cue.start) s, its frame is at \(at) s")
        }
    }

    /// Placement as players honour it: a 608 caption sent to row 2 gets `line:15.33%` (the top
    /// third), one on row 15 `line:84.67%` (the bottom), and Chromium's VTTCue holds exactly
    /// those (snapToLines off, start-aligned), with the indent as `position:`; with
    /// `--caption-placement none` the cues have no placement (`auto`, drawn at the bottom).
    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
    func captionPlacementReachesThePlayer() throws {
        var script = CaptionScript()
        var pairs = [CC608.command(0x20), CC608.command(0x2E), CC608.pac(row: 2, indent: 8)] + CC608.text("Top")
        pairs.append(CC608.command(0x2F))
        script.send(pairs, at: 10)
        script.send([CC608.command(0x2C)], at: 50)
        script.popOn(["Bottom"], at: 60)  // row 15, no indent
        script.send([CC608.command(0x2C)], at: 120)
        for placement in ["auto", "none"] {
            let site = try CaptionedStream.hls(script: script, frames: 150)
            let packaged = try BuiltTool.run(["package", site + "/master.m3u8", "--caption-language", "en", "--caption-placement", placement])
            #expect(packaged.status == 0, "\(packaged.stderr)")
            try Self.addPlayer(to: site)
            let result = try Self.play(site: site)
            let cues = try #require(result.tracks.first { $0.language == "en" }?.cues, "no cues: \(result)")
            #expect(cues.map(\.text) == ["Top", "Bottom"], "\(cues)")
            guard cues.count == 2 else { continue }
            if placement == "auto" {
                #expect(cues[0].snapToLines == false && abs((cues[0].line ?? -1) - 15.33) < 0.01 && cues[0].lineAlign == "start", "\(cues[0])")
                #expect((cues[0].line ?? 100) < 100.0 / 3, "row 2 is in the top third")
                #expect(abs((cues[0].position ?? -1) - 30) < 0.01, "indent 8 is column 8: 10 % + 8 × 2.5 %: \(cues[0])")
                #expect(cues[1].snapToLines == false && abs((cues[1].line ?? -1) - 84.67) < 0.01, "\(cues[1])")
                #expect((cues[1].line ?? 0) > 200.0 / 3, "row 15 is in the bottom third")
            } else {
                #expect(cues.allSatisfy { $0.line == nil && $0.snapToLines != false }, "\(cues)")
            }
        }
    }
}
