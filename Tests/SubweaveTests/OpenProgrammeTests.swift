import Foundation
import HLS
import Subweave
import TestSupport
import Testing

/// Re-running `package` on a growing EVENT playlist appends to what it published, under the same
/// URIs, as a pass of `--follow` does: viewers who loaded the master keep reloading the same
/// media playlists, which grow, and no published segment ever changes.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct OpenProgrammeTests {
    static func playlistURI(_ folder: String, _ language: String) throws -> String {
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        let marker = "URI=\"subtitles/\(language)-\(language)/"
        let start = try #require(master.range(of: marker))
        let end = try #require(master[start.upperBound...].firstIndex(of: "\""))
        return String(master[master.index(start.lowerBound, offsetBy: 5)..<end])
    }

    @Test func aRerunOnAnEventPlaylistAppends() async throws {
        let folder = try Scratch.make().path
        let encoder = try LiveSimulator(folder: folder, seconds: 14)
        encoder.publishNext()
        encoder.publishNext()  // 3 of 6 segments out
        try SubtitleText.srt([(0.5, 1.5, "One"), (3.5, 4.5, "Across four")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        try SubtitleText.srt([(1, 2, "Un")]).write(toFile: folder + "/fr.srt", atomically: true, encoding: .utf8)
        let tracks = try ["en", "fr"].map { try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/\($0).srt")), language: LanguageTag(parsing: $0)) }
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        try await Packager().run(master: master, PackageRequest(tracks: tracks, captions: .off))
        let english = try Self.playlistURI(folder, "en"), french = try Self.playlistURI(folder, "fr")
        let generation = folder + "/" + (english as NSString).deletingLastPathComponent
        var published: [String: Data] = [:]
        for name in ["00000.vtt", "00001.vtt", "00002.vtt"] { published[name] = try Data(contentsOf: URL(fileURLWithPath: generation + "/" + name)) }

        // Three more segments, a late cue (2.5 s, in a published segment) and a cue at 9 s.
        encoder.publishNext()
        encoder.publishNext()
        encoder.publishNext()
        try SubtitleText.srt([(0.5, 1.5, "One"), (2.5, 3.0, "Late"), (3.5, 4.5, "Across four"), (9, 10, "Nine")])
            .write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let second = try await Packager().run(master: master, PackageRequest(tracks: tracks, captions: .off))
        #expect(try Self.playlistURI(folder, "en") == english, "the URI players follow is kept")
        #expect(try Self.playlistURI(folder, "fr") == french)
        for (name, bytes) in published { #expect(try Data(contentsOf: URL(fileURLWithPath: generation + "/" + name)) == bytes, "\(name) changed") }
        let en = try #require(second.report.tracks.first { $0.identity == "external:en:en" })
        #expect(en.action == "appended")
        #expect(en.warnings.contains { $0.contains("1 cue starts in segments already published") }, "\(en.warnings)")
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + english))), source: "s")
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "v")
        #expect(playlist.segments.count == video.segments.count && !playlist.hasEndList)
        // Every cue is placed where it belongs, the late one from the first new segment.
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/v000.ts"))
        var placed: [String: Double] = [:]
        for segment in playlist.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues { placed[cue.text] = cue.start }
        }
        for (text, time) in [("One", 0.5), ("Late", 2.5), ("Across four", 3.5), ("Nine", 9.0)] {
            #expect(abs((placed[text] ?? -1) - time) < 0.0011, "\(text) at \(placed[text] ?? -1)")
        }
        let late = try String(contentsOfFile: generation + "/00003.vtt", encoding: .utf8)
        #expect(late.contains("Late"), "the late cue is in the first new segment")

        // A run that finds nothing new writes nothing.
        let idle = try await Packager().run(master: master, PackageRequest(tracks: tracks, captions: .off))
        #expect(idle.report.unchanged, "\(idle.report.tracks.map(\.action))")

        // The last segment and ENDLIST: appended too, so its viewers see the end.
        encoder.publishNext()
        _ = try await Packager().run(master: master, PackageRequest(tracks: tracks, captions: .off))
        #expect(try Self.playlistURI(folder, "en") == english)
        let final = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + english))), source: "s")
        #expect(final.hasEndList && final.segments.count == 7)
        for (name, bytes) in published { #expect(try Data(contentsOf: URL(fileURLWithPath: generation + "/" + name)) == bytes, "\(name) changed") }
    }
}
