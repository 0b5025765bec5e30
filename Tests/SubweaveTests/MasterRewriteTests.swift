import Foundation
import HLS
import Subweave
import TestSupport
import Testing
import Timebase

/// The vendor-style master keeps every line it does not need to change, byte for byte.
struct MasterRewriteTests {
    func rewrite(
        _ text: String, _ renditions: [NewSubtitleRendition], preferred: String? = nil,
        captions: ClosedCaptionsPolicy = .automatic
    ) throws -> (String, MasterRewriter.Result) {
        let master = try MasterPlaylist(parsing: Array(text.utf8), source: "master.m3u8")
        let result = try MasterRewriter(preferredLanguage: preferred.flatMap(LanguageTag.init(parsing:)), closedCaptions: captions)
            .rewrite(master, renditions: renditions)
        return (result.master.playlist.text, result)
    }

    static func rendition(_ id: String, _ language: String, name: String? = nil, forced: Bool = false, sdh: Bool = false, prefersDefault: Bool = false)
        -> NewSubtitleRendition
    {
        let tag = LanguageTag(parsing: language)!
        return NewSubtitleRendition(
            identity: "external:\(id):\(tag)", name: name ?? tag.autonym ?? id, language: tag, forced: forced, characteristics: sdh ? .sdh : .none,
            prefersDefault: prefersDefault, uri: "subtitles/\(id)-\(tag)/index.m3u8", origin: "track \(id)")
    }

    @Test func complexMasterChangesOnlyWhatItMust() throws {
        let original = try Fixtures.text("media/ts-bframes/complex.m3u8")
        let (output, result) = try rewrite(original, [Self.rendition("en", "en"), Self.rendition("fr", "fr")])
        #expect(result.groups == ["text"])
        let before = original.components(separatedBy: "\r\n")
        let after = output.components(separatedBy: "\r\n")
        #expect(!output.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line keeps CRLF")
        // Unchanged lines survive in order; the only edits are the two variants and two new renditions.
        let added = after.filter { !before.contains($0) }
        let removed = before.filter { !after.contains($0) }
        #expect(removed.count == 2 && removed.allSatisfy { $0.hasPrefix("#EXT-X-STREAM-INF:") })
        #expect(
            added == [
                #"#EXT-X-MEDIA:TYPE=SUBTITLES,URI="subtitles/en-en/index.m3u8",GROUP-ID="text",LANGUAGE="en",NAME="English",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO"#,
                #"#EXT-X-MEDIA:TYPE=SUBTITLES,URI="subtitles/fr-fr/index.m3u8",GROUP-ID="text",LANGUAGE="fr",NAME="Français",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO"#,
                #"#EXT-X-STREAM-INF:BANDWIDTH=200000,AVERAGE-BANDWIDTH=150000,CODECS="avc1.4d400d,mp4a.40.2",RESOLUTION=320x180,FRAME-RATE=29.970,AUDIO="aud",SUBTITLES="text",CLOSED-CAPTIONS=NONE,X-VENDOR-ATTR=7"#,
                #"#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS="avc1.4d400d,mp4a.40.2",RESOLUTION=320x180,AUDIO="aud",SUBTITLES="text",CLOSED-CAPTIONS=NONE"#,
            ])
        // The new renditions sit right after the group's existing one; the I-frame line is untouched.
        let deutsch = try #require(after.firstIndex { $0.contains(#"NAME="Deutsch""#) })
        #expect(after[deutsch + 1].contains(#"NAME="English""#))
        #expect(after.contains(#"#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=50000,CODECS="avc1.4d400d",RESOLUTION=320x180,URI="iframe.m3u8""#))
    }

    @Test func rewritingTwiceChangesNothingMore() throws {
        let original = try Fixtures.text("media/ts-bframes/complex.m3u8")
        let renditions = [Self.rendition("en", "en"), Self.rendition("fr", "fr", forced: true)]
        let (once, _) = try rewrite(original, renditions, preferred: "en")
        let (twice, _) = try rewrite(once, renditions, preferred: "en")
        #expect(once == twice)
    }

    @Test func everySubtitleGroupGetsTheMembers() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="a",NAME="Deutsch",LANGUAGE="de",URI="de-a.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="b",NAME="Deutsch",LANGUAGE="de",URI="de-b.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="a"
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES="b"
            b.m3u8

            """
        let (output, result) = try rewrite(text, [Self.rendition("en", "en")])
        #expect(result.groups == ["a", "b"])
        #expect(output.contains(#"GROUP-ID="a",LANGUAGE="en",NAME="English""#))
        #expect(output.contains(#"GROUP-ID="b",LANGUAGE="en",NAME="English""#))
    }

    @Test func nameClashWithAnExistingRenditionIsAnError() throws {
        let text =
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"English\",LANGUAGE=\"en\",URI=\"x.m3u8\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\"\na.m3u8\n"
        do {
            _ = try rewrite(text, [Self.rendition("en", "en")])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("line 2 of master.m3u8"))
            #expect("\(error)".contains("NAME \"English\""))
        }
    }

    @Test func quotedNoneIsRepaired() throws {
        let text = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"NONE\"\na.m3u8\n"
        let (output, _) = try rewrite(text, [Self.rendition("en", "en")])
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"subs\",CLOSED-CAPTIONS=NONE\n"))
    }
}

/// Variables (EXT-X-DEFINE) in the URIs Subweave must follow.
struct VariableSubstitutionTests {
    @Test func variantURIWithAVariable() async throws {
        let folder = try Fixtures.copy("media/ts-bframes")
        try "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"playlist\",VALUE=\"prog\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{$playlist}.m3u8\n"
            .write(toFile: folder + "/defined.m3u8", atomically: true, encoding: .utf8)
        let tracks = try SubtitleTrack.register([
            try TrackDescriptor(parsing: "url=\(Fixtures.path("subtitles/wild/overlapping.srt")),language=en", origin: "1")
        ])
        let result = try await Presentation(master: URL(fileURLWithPath: folder + "/defined.m3u8")).plan(PackageRequest(tracks: tracks))
        #expect(result.report.segmentCount == 3)
        #expect(result.masterText.contains("{$playlist}.m3u8\n"), "the master keeps its variable")
    }

    @Test func mediaPlaylistImportsAndDefines() throws {
        let text = "#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"base\"\n#EXT-X-DEFINE:NAME=\"n\",VALUE=\"7\"\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n{$base}/seg{$n}.ts\n"
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "p", imports: ["base": "https://cdn.example.com"])
        #expect(playlist.segments.first?.uri == "https://cdn.example.com/seg7.ts")
    }
}
