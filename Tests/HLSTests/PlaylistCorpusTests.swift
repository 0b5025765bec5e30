import Foundation
import HLS
import TestSupport
import Testing

/// Masters in the styles real packagers write (Fixtures/playlists): read and written back
/// unchanged, byte for byte, and checked by the rules.
struct PlaylistCorpusTests {
    static let files = [
        "apple-advanced-style.m3u8", "shaka-packager-style.m3u8", "ffmpeg-master-style.m3u8", "bento4-style.m3u8",
        "mediaconvert-style.m3u8", "steering-define-ll.m3u8", "hand-edited-bom-crlf.m3u8", "multi-angle-video.m3u8",
    ]

    @Test(arguments: files)
    func roundTripsByteForByte(_ file: String) throws {
        let bytes = try Fixtures.bytes("playlists/" + file)
        let master = try MasterPlaylist(parsing: bytes, source: file)
        #expect(Array(master.playlist.text.utf8) == bytes)
        #expect(!master.variants.isEmpty)
    }

    @Test func appleStyleMasterBreaksNoRule() throws {
        let master = try MasterPlaylist(parsing: try Fixtures.bytes("playlists/apple-advanced-style.m3u8"), source: "a")
        #expect(MasterRules.check(master).filter { $0.severity == .error } == [])
    }

    @Test func findingsNameLineAndRule() throws {
        let master = try MasterPlaylist(parsing: try Fixtures.bytes("playlists/mediaconvert-style.m3u8"), source: "mc.m3u8")
        let findings = MasterRules.check(master)
        // LANGUAGE="eng" is a valid BCP 47 tag; the variants lack CLOSED-CAPTIONS.
        #expect(findings.filter { $0.severity == .error } == [])
        #expect(findings.filter { $0.rule == "Apple Technical Q&A QA1801" }.map(\.line) == [5, 7])
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        let text: String
        let rule: String
        let line: Int?
        var testDescription: String { rule + " " + text.prefix(60).replacingOccurrences(of: "\n", with: " ") }
    }

    static let broken: [Broken] = [
        Broken(
            text:
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"A\",LANGUAGE=\"en\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\",CLOSED-CAPTIONS=NONE\nv.m3u8",
            rule: "RFC 8216bis §4.4.6.1", line: 2),
        Broken(
            text:
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"A\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"a\"\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"B\",LANGUAGE=\"fr\",DEFAULT=YES,AUTOSELECT=YES,URI=\"b\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\",CLOSED-CAPTIONS=NONE\nv.m3u8",
            rule: "RFC 8216bis §4.4.6.1.1", line: 3),
        Broken(text: "#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"NONE\"\nv.m3u8", rule: "RFC 8216bis §4.4.6.2", line: 2),
        Broken(
            text: "#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE\nv.m3u8\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"i.m3u8\",CLOSED-CAPTIONS=NONE",
            rule: "RFC 8216bis §4.4.6.3", line: 4),
        Broken(
            text: "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"cc\",NAME=\"CC\",LANGUAGE=\"en\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=\"cc\"\nv.m3u8",
            rule: "RFC 8216bis §4.4.6.1", line: 2),
        Broken(text: "#EXT-X-STREAM-INF:BANDWIDTH=1,BANDWIDTH=2,CLOSED-CAPTIONS=NONE\nv.m3u8", rule: "RFC 8216bis §4.2", line: 2),
        Broken(text: "#EXT-X-VERSION:3\n#EXT-X-VERSION:4\n#EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS=NONE\nv.m3u8", rule: "RFC 8216bis §4.4.1.2", line: 3),
        Broken(
            text:
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"a\",NAME=\"A\",LANGUAGE=\"en\",URI=\"a\"\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"b\",NAME=\"B\",LANGUAGE=\"en\",URI=\"b\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"a\",CLOSED-CAPTIONS=NONE\nv.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"b\",CLOSED-CAPTIONS=NONE\nw.m3u8",
            rule: "RFC 8216bis §4.4.6.1.1", line: 3),
        Broken(
            text:
                "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"A\",LANGUAGE=\"pt_BR\",URI=\"a\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES=\"s\",CLOSED-CAPTIONS=NONE\nv.m3u8",
            rule: "RFC 8216bis §4.4.6.1", line: 2),
    ]

    @Test(arguments: broken)
    func eachRuleIsEnforced(_ b: Broken) throws {
        let master = try MasterPlaylist(parsing: Array(("#EXTM3U\n" + b.text + "\n").utf8), source: "m")
        let errors = MasterRules.check(master).filter { $0.severity == .error }
        #expect(errors.contains { $0.rule == b.rule && $0.line == b.line }, "\(errors)")
    }
}

struct SubtitlePlaylistRulesTests {
    let reference = try! MediaPlaylist(
        parsing: Array(
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4.0,\nb.ts\n#EXT-X-ENDLIST\n".utf8),
        source: "v")

    func findings(_ text: String) throws -> [String] {
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "s")
        return SubtitlePlaylistRules.check(playlist, file: "s", reference: reference).map(\.rule)
    }

    @Test func aMirrorPasses() throws {
        #expect(
            try findings(
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\na.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:4.0,\nb.vtt\n#EXT-X-ENDLIST\n"
            ) == [])
    }

    @Test func shortCoverageMissingEndAndDiscontinuity() throws {
        let rules = try findings("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\na.vtt\n")
        #expect(rules.contains("Apple HLS Authoring Spec 5.5"))
        #expect(rules.contains("Apple HLS Authoring Spec 8.7"))
        #expect(rules.contains("RFC 8216bis §6.2.4"))
    }

    @Test func oneGiantSegmentBreaksTheTargetDuration() throws {
        let rules = try findings("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:8.0,\na.vtt\n#EXT-X-ENDLIST\n")
        #expect(rules.contains("RFC 8216bis §4.4.3.1"))
    }

    @Test func decimalDurationsNeedVersion3() throws {
        #expect(
            try findings(
                "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4.0,\na.vtt\n#EXT-X-DISCONTINUITY\n#EXTINF:4.0,\nb.vtt\n#EXT-X-ENDLIST\n")
                == ["RFC 8216bis §7"])
    }
}
