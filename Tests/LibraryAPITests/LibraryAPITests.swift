import Foundation
import Subweave
import TestSupport
import Testing

/// The library as a caller outside this package sees it: `import Subweave` alone (no module of
/// Subweave's own besides it) packages a presentation, lists its renditions and reads cues.
struct LibraryAPITests {
    @Test func packageListAndReadCuesWithImportSubweaveAlone() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        try SubtitleText.srt([(0.5, 2, "Hello"), (3.9, 4.5, "Across")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)

        // A track from typed values, a plan, then the writes.
        let english = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"), isSDH: true)
        #expect(english.label == "English (SDH)")
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        let presentation = try await Presentation(master: master)
        let plan = try await presentation.plan(PackageRequest(tracks: [english], preferredLanguage: LanguageTag(parsing: "en")))
        #expect(plan.report.tracks.map(\.cueCount) == [2])
        #expect(plan.masterText.contains("NAME=\"English (SDH)\",DEFAULT=YES"))
        try await Packager().apply(plan)

        // What the master now holds.
        let listed = try await RenditionList.read(master: master)
        let ours = try #require(listed.first { $0.managed })
        #expect(ours.identity == "external:en:en")
        #expect(ours.cueCount == 2)
        #expect(listed.contains { !$0.managed } == false)

        // The cues of the file, as the packager read them.
        var cues: [TappedCue] = []
        for try await cue in CueTap.subtitles(.source(.file(URL(fileURLWithPath: folder + "/en.srt")))) { cues.append(cue) }
        #expect(cues.map(\.text) == ["Hello", "Across"])
        #expect(cues.first?.start == MediaTime(milliseconds: 500))
    }

    /// The cue tap on a transport stream with DVB subtitle streams beside the video: each
    /// stream's cues read by Tesseract, handed out as their pictures end, on their times.
    @Test(.enabled(if: BitmapSubtitles.missingTools.isEmpty && Tools.which("tesseract") != nil, "spumux, tesseract or ffmpeg is missing"))
    func theCueTapReadsDVBSubtitles() async throws {
        let folder = try Scratch.make().path
        _ = try BitmapSubtitles.dvbTitle(
            [
                .init(language: "eng", cues: [(1, 3, "First of all"), (4, 6, "Then the rest")]),
                .init(language: "fra", cues: [(2, 5, "Au milieu")]),
            ], folder: folder)
        var cues: [TappedCue] = []
        for try await cue in CueTap.transportStream(path: folder + "/whole.ts") { cues.append(cue) }
        #expect(cues.map(\.track).sorted() == ["DVB0101", "DVB0101", "DVB0102"])
        #expect(cues.filter { $0.track == "DVB0101" }.map(\.text) == ["First of all", "Then the rest"])
        #expect(cues.first { $0.track == "DVB0102" }?.text == "Au milieu")
        for (cue, start) in zip(cues.filter { $0.track == "DVB0101" }, [1.0, 4.0]) { #expect(abs(cue.start.seconds - start) <= 0.04, "\(cue)") }
    }

    @Test func applyingAStalePlanFails() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        try SubtitleText.srt([(1, 2, "x")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        let plan = try await Presentation(master: master).plan(PackageRequest(tracks: [track]))
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nprog.m3u8\n".write(to: master, atomically: true, encoding: .utf8)
        await #expect(throws: SubweaveError.self) { try await Packager().apply(plan) }
    }

    /// Failures a caller can branch on: a media segment that cannot be read names its path, what
    /// it is and why; a master output that is a folder is a file-system problem naming the operation.
    @Test func readAndFileSystemFailuresAreTyped() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ts") }.sorted().first)
        try FileManager.default.moveItem(atPath: folder + "/" + segment, toPath: folder + "/moved")
        do {
            _ = try await Presentation(master: master)
            Issue.record("a missing segment was read")
        } catch {
            guard case .unreadable(let path, _, let failure) = error else {
                Issue.record("\(error.code): \(error)")
                return
            }
            #expect(path.hasSuffix(segment) && failure.explanation.hasPrefix("does not exist (errno 2"), "\(failure.explanation)")
            #expect(error.code == "unreadable")
        }
        try FileManager.default.moveItem(atPath: folder + "/moved", toPath: folder + "/" + segment)
        try SubtitleText.srt([(1, 2, "x")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        let track = try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/en.srt")), language: LanguageTag(parsing: "en"))
        try FileManager.default.createDirectory(atPath: folder + "/out.m3u8", withIntermediateDirectories: false)
        var request = PackageRequest(tracks: [track], captions: .off)
        request.output = URL(fileURLWithPath: folder + "/out.m3u8")
        do {
            try await Packager().run(master: master, request)
            Issue.record("a master was written over a folder")
        } catch {
            guard case .fileSystem(let problem) = error else {
                Issue.record("\(error.code): \(error)")
                return
            }
            #expect(problem.path.hasSuffix("out.m3u8") && problem.operation.contains("is a folder"), "\(problem)")
        }
    }

    /// Removal is a request like any other: a plan that says what goes, applied atomically.
    @Test func removeThroughTheLibrary() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        try SubtitleText.srt([(1, 2, "x")]).write(toFile: folder + "/en.srt", atomically: true, encoding: .utf8)
        try SubtitleText.srt([(1, 2, "y")]).write(toFile: folder + "/de.srt", atomically: true, encoding: .utf8)
        let master = URL(fileURLWithPath: folder + "/master.m3u8")
        let tracks = try ["en", "de"].map { try SubtitleTrack(source: .file(URL(fileURLWithPath: folder + "/\($0).srt")), language: LanguageTag(parsing: $0)) }
        try await Packager().run(master: master, PackageRequest(tracks: tracks, captions: .off))

        var request = PackageRequest(tracks: [], captions: .off)
        request.removals = [RemovalSelector(sourceID: "de")]
        let plan = try await Presentation(master: master).plan(request)
        #expect(plan.report.removed.map(\.identity) == ["external:de:de"])
        #expect(plan.report.tracks.map(\.action) == ["unchanged"])
        var packager = Packager()
        packager.retireAfter = 0  // no grace period for players of the old master: its folder goes now
        try await packager.apply(plan)
        #expect(try await RenditionList.read(master: master).compactMap(\.identity) == ["external:en:en"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/subtitles/de-de"))

        request.removals = [RemovalSelector(sourceID: "de")]
        await #expect(throws: SubweaveError.self) { try await Presentation(master: master).plan(request) }
    }
}
