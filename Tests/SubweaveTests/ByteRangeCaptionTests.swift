import Foundation
import Subweave
import TestSupport
import Testing

/// A programme whose segments are byte ranges of one file (EXT-X-BYTERANGE) gives the caption
/// renditions the same programme in a file per segment gives: the ranges are read (in chunks, on
/// both cores) as the files are.
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed (apt-get install -y ffmpeg)"))
struct ByteRangeCaptionTests {
    /// programme.ts (CC1 and CC3) cut by ffmpeg into 2 s segments, as files or as ranges of one.
    static func title(singleFile: Bool) throws -> String {
        let folder = try Scratch.make().path
        let outcome = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-i", Fixtures.path("captions/programme.ts"), "-map", "0:v", "-c", "copy", "-f", "hls",
                "-hls_time", "2", "-hls_playlist_type", "vod",
            ] + (singleFile ? ["-hls_flags", "single_file"] : ["-hls_segment_filename", folder + "/s%03d.ts"]) + [folder + "/prog.m3u8"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000\nprog.m3u8\n".write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        return folder
    }

    /// The cue text of every segment of a rendition, in order.
    static func renditionText(master: String, folder: String) throws -> [String] {
        let generation = try Packaged.generation(master: master, folder: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: generation).filter { $0.hasSuffix(".vtt") }.sorted()
        return try names.map { try String(contentsOfFile: generation + "/" + $0, encoding: .utf8) }
    }

    @Test func rangesGiveTheCaptionsFilesGive() async throws {
        let ranges = try Self.title(singleFile: true), files = try Self.title(singleFile: false)
        let playlist = try String(contentsOfFile: ranges + "/prog.m3u8", encoding: .utf8)
        #expect(playlist.components(separatedBy: "#EXT-X-BYTERANGE").count > 4, "segments are byte ranges")
        var texts: [[String]] = []
        for title in [ranges, files] {
            let master = title + "/master.m3u8"
            let result = try await Packager().run(master: URL(fileURLWithPath: master), PackageRequest(tracks: []))
            #expect(result.report.captions.map(\.service) == ["CC1", "CC3"])
            texts.append(try Self.renditionText(master: master, folder: "captions/cc1") + Self.renditionText(master: master, folder: "captions/cc3"))
            let report = await PresentationValidator().validate(master: URL(fileURLWithPath: master))
            #expect(report.findings.filter { $0.severity == .error } == [])
        }
        #expect(texts[0].joined().components(separatedBy: " --> ").count > 20, "the captions were written")
        #expect(texts[0] == texts[1])
    }
}
