import Captions
import Containers
import Foundation
import HLS
import Subweave
import TestSupport
import Testing
import Timebase

/// In-band CEA-608 captions packaged as WebVTT renditions, on an HLS asset ffmpeg segments from a
/// captioned stream (CaptionedStream).
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed"), .serialized)
struct CaptionPackagingTests {
    static let frame = 1001.0 / 30000

    static func asset(fmp4: Bool = false) throws -> String { try CaptionedStream.hls(fmp4: fmp4) }

    @Test func servicesBecomeRenditionsOnTheProgrammeTimeline() async throws {
        let hls = try Self.asset()
        let result = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(result.report.captions.map(\.service) == ["CC1", "CC3"])
        let tracks = result.report.tracks
        #expect(tracks.map(\.identity) == ["cea608:CC1", "cea608:CC3"])
        #expect(tracks.map(\.ingestFormat) == ["cea608", "cea608"])
        #expect(tracks.map(\.cueCount) == [2, 1])
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        // No language known (und): never AUTOSELECT, SDH or not (docs/decisions.md), so two und
        // services are not two automatic choices a player cannot tell apart.
        #expect(
            master.contains(
                #"NAME="CC1",DEFAULT=NO,AUTOSELECT=NO,FORCED=NO,CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound""#
            ))
        #expect(master.contains("CLOSED-CAPTIONS=NONE"))
        // Cue times on the programme timeline (0 = the first video frame): the EOC frames.
        let reference = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: hls + "/prog.m3u8"))), source: "p")
        let firstPTS = try #require(try Tools.lowestVideoPTS(hls + "/seg_000.ts"))
        var seen: [String: (Double, Double)] = [:]
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: hls + "/" + tracks[0].playlist))), source: "s")
        #expect(playlist.segments.count == reference.segments.count)
        for segment in playlist.segments {
            let text = try String(
                contentsOfFile: try Packaged.generation(master: hls + "/master.m3u8", folder: "captions/cc1") + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues { seen[cue.text] = (cue.start, cue.end) }
        }
        let first = try #require(seen["First caption"]), second = try #require(seen["Across\na boundary"])
        #expect(abs(first.0 - 23 * Self.frame) <= Self.frame && abs(first.1 - 50 * Self.frame) <= Self.frame)
        #expect(abs(second.0 - 71 * Self.frame) <= Self.frame && abs(second.1 - 100 * Self.frame) <= Self.frame)
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: hls + "/master.m3u8"))
        #expect(report.findings.filter { $0.severity == .error } == [])
    }

    /// The same captions in CMAF/fMP4 segments: found by the bounded scan, decoded from the
    /// samples' SEI, and written on the programme timeline (0 = the first presented frame, tfdt
    /// plus the composition offset, as ffprobe reads it).
    @Test func fragmentedMP4CaptionsBecomeRenditions() async throws {
        let hls = try Self.asset(fmp4: true)
        let result = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(result.report.captions.map(\.service) == ["CC1", "CC3"])
        #expect(result.report.tracks.map(\.cueCount) == [2, 1])
        let firstPTS = try Tools.firstPresentationTime(init: hls + "/init.mp4", segment: hls + "/seg_000.m4s")
        let playlist = try MediaPlaylist(
            parsing: Array(try Data(contentsOf: URL(fileURLWithPath: hls + "/" + result.report.tracks[0].playlist))), source: "s")
        var seen: [String: (Double, Double)] = [:]
        for segment in playlist.segments {
            let text = try String(
                contentsOfFile: try Packaged.generation(master: hls + "/master.m3u8", folder: "captions/cc1") + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues { seen[cue.text] = (cue.start, cue.end) }
        }
        let first = try #require(seen["First caption"]), second = try #require(seen["Across\na boundary"])
        #expect(abs(first.0 - 23 * Self.frame) <= Self.frame && abs(first.1 - 50 * Self.frame) <= Self.frame, "\(first)")
        #expect(abs(second.0 - 71 * Self.frame) <= Self.frame && abs(second.1 - 100 * Self.frame) <= Self.frame, "\(second)")
    }

    @Test func inBandDeclarationsAndOff() async throws {
        let hls = try Self.asset()
        let track = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(Fixtures.path("subtitles/wild/overlapping.srt")),language=en", origin: "1")]
        )
        _ = try await Packager().run(master: URL(fileURLWithPath: hls + "/master.m3u8"), PackageRequest(tracks: track, closedCaptions: .inBand, captions: .off))
        let master = try String(contentsOfFile: hls + "/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",LANGUAGE="und",DEFAULT=NO,AUTOSELECT=NO,INSTREAM-ID="CC1""#))
        #expect(master.contains(#"INSTREAM-ID="CC3""#))
        #expect(master.contains(#"CLOSED-CAPTIONS="cc""#))
        #expect(!master.contains("cea608") && !master.contains("captions/cc"), "captions off: no caption renditions")
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: hls + "/master.m3u8"))
        #expect(report.findings.filter { $0.severity == .error } == [])
    }

    @Test func noCaptionsCostsOnlyTheScan() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        let track = try SubtitleTrack.register([try TrackDescriptor(parsing: "url=\(Fixtures.path("subtitles/wild/overlapping.srt")),language=en", origin: "1")]
        )
        let result = try await Presentation(master: URL(fileURLWithPath: folder + "/master.m3u8")).plan(PackageRequest(tracks: track))
        #expect(result.report.captions.isEmpty)
        #expect(result.report.tracks.count == 1)
        do {
            _ = try await Presentation(master: URL(fileURLWithPath: folder + "/master.m3u8")).plan(PackageRequest(tracks: []))
            Issue.record("nothing to package must be an error")
        } catch {
            #expect("\(error)".contains("nothing to package"))
        }
    }

    @Test func namesFollowTheVideoLanguage() {
        let known = ProgrammeCaptions(services: [], languages: CaptionLanguages(announced: [], video: "eng"))
        #expect(known.name(for: .cc1) == "English (CC1)")
        #expect(known.languages.language(for: .cc1)?.source == .videoStream)
        #expect(ProgrammeCaptions.none.name(for: .cc3) == "CC3")
    }

    /// ATSC A/65's caption_service_descriptor names a language per line-21 field: CC3 (field 2)
    /// in Spanish on an English programme; it wins over the video's ISO 639 language.
    @Test func theCaptionServiceDescriptorNamesEachFieldsLanguage() {
        let announced = [
            TransportStream.CaptionServiceEntry(language: "eng", digital: false, number: 1),
            TransportStream.CaptionServiceEntry(language: "spa", digital: false, number: 2),
            TransportStream.CaptionServiceEntry(language: "fra", digital: true, number: 1),  // 708: not a 608 field
        ]
        let captions = ProgrammeCaptions(services: [], languages: CaptionLanguages(announced: announced, video: "deu"))
        #expect(captions.name(for: .cc1) == "English (CC1)")
        #expect(captions.name(for: .cc3) == "Spanish (CC3)")
        #expect(captions.languages.language(for: .cc4)?.source == .captionServiceDescriptor)
        #expect(ProgrammeCaptions(services: [], languages: CaptionLanguages(announced: [], video: "deu")).name(for: .cc3) == "German (CC3)")
    }
}
