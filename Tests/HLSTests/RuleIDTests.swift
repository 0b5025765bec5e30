import Foundation
import HLS
import Testing

/// Every master and subtitle-playlist rule, by its identifier.
///
/// Each has a playlist that keeps it (no finding at all) and one that breaks it (a finding with
/// that identifier). A rule added without a case here fails `everyRuleHasACase`.
struct RuleIDTests {
    /// A rule, a playlist that keeps it and one that breaks it.
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let keeps: String
        let breaks: String
        var testDescription: String { id }
    }

    static let subtitles = #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en.m3u8""#
    static let captions = #"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English CC",LANGUAGE="en",INSTREAM-ID="CC1""#
    static let variant = "#EXT-X-STREAM-INF:BANDWIDTH=100000,SUBTITLES=\"subs\",CLOSED-CAPTIONS=\"cc\"\nv.m3u8"

    /// A master that breaks no rule, with `media` lines (the default: one subtitle and one
    /// caption rendition) and `variants`.
    static func master(version: Int = 7, _ media: [String] = [subtitles, captions], variants: [String] = [variant], extra: [String] = []) -> String {
        (["#EXTM3U", "#EXT-X-VERSION:\(version)"] + extra + media + variants).joined(separator: "\n") + "\n"
    }

    static let forced = #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (Forced)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,FORCED=YES,URI="f.m3u8""#
    static let sdhBoth = "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"
    static func sdh(autoselect: String = "YES", characteristics: String = sdhBoth) -> String {
        #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English SDH",LANGUAGE="en",DEFAULT=NO,AUTOSELECT="#
            + autoselect + #",CHARACTERISTICS=""# + characteristics + #"",URI="sdh.m3u8""#
    }
    static let french = #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="fr.m3u8""#

    static let masterCases: [Case] = [
        Case(
            id: "master.attribute-once", keeps: master(),
            breaks: master(variants: ["#EXT-X-STREAM-INF:BANDWIDTH=100000,BANDWIDTH=200000,SUBTITLES=\"subs\",CLOSED-CAPTIONS=\"cc\"\nv.m3u8"])),
        Case(id: "master.version-once", keeps: master(), breaks: master(extra: ["#EXT-X-VERSION:7"])),
        Case(id: "media.type", keeps: master(), breaks: master([subtitles.replacingOccurrences(of: "TYPE=SUBTITLES", with: "TYPE=\"SUBTITLES\""), captions])),
        Case(id: "media.group-id-and-name", keeps: master(), breaks: master([captions.replacingOccurrences(of: "NAME=\"English CC\",", with: ""), subtitles])),
        Case(id: "media.yes-no", keeps: master(), breaks: master([subtitles.replacingOccurrences(of: "DEFAULT=YES", with: "DEFAULT=yes"), captions])),
        Case(
            id: "media.default-autoselect", keeps: master(),
            breaks: master([subtitles.replacingOccurrences(of: "AUTOSELECT=YES", with: "AUTOSELECT=NO"), captions])),
        Case(
            id: "media.language", keeps: master(),
            breaks: master([subtitles.replacingOccurrences(of: "LANGUAGE=\"en\"", with: "LANGUAGE=\"en_GB!\""), captions])),
        Case(id: "subtitles.uri", keeps: master(), breaks: master([subtitles.replacingOccurrences(of: ",URI=\"en.m3u8\"", with: ""), captions])),
        Case(
            id: "subtitles.forced-autoselect", keeps: master([subtitles, forced, captions]),
            breaks: master([subtitles, forced.replacingOccurrences(of: "AUTOSELECT=YES", with: "AUTOSELECT=NO"), captions])),
        Case(id: "media.sdh-autoselect", keeps: master([subtitles, sdh(), captions]), breaks: master([subtitles, sdh(autoselect: "NO"), captions])),
        Case(
            id: "subtitles.sdh-characteristics", keeps: master([subtitles, sdh(), captions]),
            breaks: master([subtitles, sdh(characteristics: "public.accessibility.transcribes-spoken-dialog"), captions])),
        Case(
            id: "media.characteristics",
            keeps: master([subtitles + ",CHARACTERISTICS=\"public.machine-generated,public.translation,com.example.note-2\"", captions]),
            breaks: master([subtitles + ",CHARACTERISTICS=\"public.machine-generated, ,public.translation\"", captions])),
        Case(
            id: "subtitles.characteristics", keeps: master([subtitles + ",CHARACTERISTICS=\"public.easy-to-read\"", captions]),
            breaks: master([subtitles + ",CHARACTERISTICS=\"public.accessibility.describes-video\"", captions])),
        Case(
            id: "subtitles.order", keeps: master([subtitles, sdh(), forced, captions]),
            breaks: master([sdh(), subtitles, captions])),
        Case(id: "captions.no-uri", keeps: master(), breaks: master([subtitles, captions + ",URI=\"cc.m3u8\""])),
        Case(id: "captions.instream-id", keeps: master(), breaks: master([subtitles, captions.replacingOccurrences(of: "\"CC1\"", with: "\"CC5\"")])),
        Case(
            id: "captions.service-needs-version-7", keeps: master([subtitles, captions.replacingOccurrences(of: "\"CC1\"", with: "\"SERVICE1\"")]),
            breaks: master(version: 6, [subtitles, captions.replacingOccurrences(of: "\"CC1\"", with: "\"SERVICE1\"")])),
        Case(id: "media.forced-only-subtitles", keeps: master(), breaks: master([subtitles, captions + ",FORCED=NO"])),
        Case(id: "media.instream-id-only-captions", keeps: master(), breaks: master([subtitles + ",INSTREAM-ID=\"CC1\"", captions])),
        Case(
            id: "group.one-default", keeps: master([subtitles, french, captions]),
            breaks: master([subtitles, french.replacingOccurrences(of: "DEFAULT=NO", with: "DEFAULT=YES"), captions])),
        Case(
            id: "group.unique-names", keeps: master([subtitles, french, captions]),
            breaks: master([subtitles, french.replacingOccurrences(of: "NAME=\"Français\"", with: "NAME=\"English\""), captions])),
        Case(
            id: "group.autoselect-distinct", keeps: master([subtitles, french, captions]),
            breaks: master([subtitles, french.replacingOccurrences(of: "LANGUAGE=\"fr\"", with: "LANGUAGE=\"en\""), captions])),
        Case(
            id: "group.same-members",
            keeps: master(
                [subtitles, subtitles.replacingOccurrences(of: "\"subs\"", with: "\"subs2\"").replacingOccurrences(of: "en.m3u8", with: "en2.m3u8"), captions],
                variants: [variant, variant.replacingOccurrences(of: "\"subs\"", with: "\"subs2\"").replacingOccurrences(of: "v.m3u8", with: "w.m3u8")]),
            breaks: master(
                [
                    subtitles, french.replacingOccurrences(of: "\"subs\"", with: "\"subs2\"").replacingOccurrences(of: "DEFAULT=NO", with: "DEFAULT=YES"),
                    captions,
                ],
                variants: [variant, variant.replacingOccurrences(of: "\"subs\"", with: "\"subs2\"").replacingOccurrences(of: "v.m3u8", with: "w.m3u8")])),
        Case(id: "variant.bandwidth", keeps: master(), breaks: master(variants: [variant.replacingOccurrences(of: "BANDWIDTH=100000,", with: "")])),
        Case(id: "variant.group-references", keeps: master(), breaks: master(variants: [variant.replacingOccurrences(of: "\"subs\"", with: "\"nosuch\"")])),
        Case(
            id: "variant.subtitles-present", keeps: master(variants: [variant, variant.replacingOccurrences(of: "v.m3u8", with: "w.m3u8")]),
            breaks: master(variants: [
                variant, variant.replacingOccurrences(of: "SUBTITLES=\"subs\",", with: "").replacingOccurrences(of: "v.m3u8", with: "w.m3u8"),
            ])),
        Case(
            id: "variant.closed-captions", keeps: master(),
            breaks: master([subtitles], variants: [variant.replacingOccurrences(of: "\"cc\"", with: "\"NONE\"")])),
        Case(
            id: "variant.none-everywhere", keeps: master([subtitles], variants: [variant.replacingOccurrences(of: "\"cc\"", with: "NONE")]),
            breaks: master(variants: [variant, variant.replacingOccurrences(of: "\"cc\"", with: "NONE").replacingOccurrences(of: "v.m3u8", with: "w.m3u8")])),
        Case(
            id: "iframe.attributes", keeps: master(extra: ["#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=50000,URI=\"iframe.m3u8\""]),
            breaks: master(extra: ["#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=50000,AUDIO=\"aud\",URI=\"iframe.m3u8\""])),
    ]

    static func findings(master text: String) throws -> [ValidationFinding] {
        Array(MasterRules.check(try MasterPlaylist(parsing: Array(text.utf8), source: "master.m3u8")))
    }

    @Test(arguments: masterCases)
    func masterRule(_ c: Case) throws {
        let kept = try Self.findings(master: c.keeps)
        #expect(kept.isEmpty, "\(c.id): the master that keeps it gives \(kept.map { "\($0.id): \($0.message)" })")
        let broken = try Self.findings(master: c.breaks)
        #expect(broken.contains { $0.id == c.id }, "\(c.id): not found in \(broken.map { "\($0.id): \($0.message)" })\n\(c.breaks)")
    }

    /// A video playlist of three 6 s segments (VOD), and subtitle playlists against it.
    static func media(
        version: Int = 3, target: Int = 6, durations: [String] = ["6.000", "6.000", "6.000"], endList: Bool = true, type: String? = "VOD",
        discontinuitySequence: Int? = nil, discontinuityBefore: Int? = nil, dateTime: Bool = false
    ) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(version)", "#EXT-X-TARGETDURATION:\(target)"]
        if let type { lines.append("#EXT-X-PLAYLIST-TYPE:\(type)") }
        if let discontinuitySequence { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        for (index, duration) in durations.enumerated() {
            if index == discontinuityBefore { lines.append("#EXT-X-DISCONTINUITY") }
            if dateTime && index == 0 { lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-12-01T00:00:00.000Z") }
            lines += ["#EXTINF:\(duration),", "s\(index).vtt"]
        }
        if endList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    static let video = media()

    /// Subtitle-playlist rules: (id, the subtitle playlist that keeps it, the one that breaks it,
    /// the video playlist it mirrors).
    static let playlistCases: [(Case, String)] = [
        (Case(id: "subtitle-playlist.extinf-within-target", keeps: video, breaks: media(durations: ["7.000", "5.000", "6.000"])), video),
        (Case(id: "subtitle-playlist.decimal-duration-version", keeps: video, breaks: media(version: 2)), video),
        (Case(id: "subtitle-playlist.covers-the-video", keeps: video, breaks: media(durations: ["6.000", "6.000"])), video),
        (Case(id: "subtitle-playlist.mirrors-endlist", keeps: video, breaks: media(endList: false)), video),
        (Case(id: "subtitle-playlist.mirrors-playlist-type", keeps: video, breaks: media(type: nil)), video),
        (
            Case(
                id: "subtitle-playlist.live-target-duration", keeps: media(endList: false, type: nil),
                breaks: media(target: 7, durations: ["6.000", "6.000", "6.000"], endList: false, type: nil)),
            media(endList: false, type: nil)
        ),
        (
            Case(id: "subtitle-playlist.discontinuity-sequence", keeps: media(discontinuitySequence: 2), breaks: media(discontinuitySequence: 3)),
            media(discontinuitySequence: 2)
        ),
        (
            Case(id: "subtitle-playlist.discontinuities", keeps: media(discontinuityBefore: 1), breaks: media(discontinuityBefore: 2)),
            media(discontinuityBefore: 1)
        ),
        (Case(id: "subtitle-playlist.program-date-time", keeps: media(dateTime: true), breaks: media()), media(dateTime: true)),
        (
            Case(
                id: "subtitle-playlist.mirrors-parts", keeps: lowLatency(["0.4", "0.4"]),
                breaks: lowLatency(["0.4", "0.400000001"])),
            lowLatency(["0.4", "0.4"])
        ),
        (Case(id: "subtitle-playlist.part-duration", keeps: lowLatency(["0.4", "0.4"]), breaks: lowLatency(["0.4", "0.5"])), lowLatency(["0.4", "0.4"])),
    ]

    /// A live low-latency playlist: one 2 s segment, then parts of `parts` durations (as written)
    /// of the segment being made, PART-TARGET 0.4.
    static func lowLatency(_ parts: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:2", "#EXT-X-PART-INF:PART-TARGET=0.4", "#EXTINF:2.0,", "s0.vtt"]
        lines += parts.enumerated().map { "#EXT-X-PART:DURATION=\($1),URI=\"s1.p\($0).vtt\"" }
        return lines.joined(separator: "\n") + "\n"
    }

    static func findings(playlist text: String, reference: String) throws -> [ValidationFinding] {
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "subs.m3u8")
        let video = try MediaPlaylist(parsing: Array(reference.utf8), source: "video.m3u8")
        return Array(SubtitlePlaylistRules.check(playlist, file: "subs.m3u8", reference: video))
    }

    @Test(arguments: playlistCases.map(\.0))
    func subtitlePlaylistRule(_ c: Case) throws {
        let reference = try #require(Self.playlistCases.first { $0.0.id == c.id }?.1)
        let kept = try Self.findings(playlist: c.keeps, reference: reference)
        #expect(kept.isEmpty, "\(c.id): the playlist that keeps it gives \(kept.map { "\($0.id): \($0.message)" })")
        let broken = try Self.findings(playlist: c.breaks, reference: reference)
        #expect(broken.contains { $0.id == c.id }, "\(c.id): not found in \(broken.map { "\($0.id): \($0.message)" })\n\(c.breaks)")
    }

    @Test func everyRuleHasACase() {
        #expect(Set(MasterRules.identifiers) == Set(Self.masterCases.map(\.id)), "master rules without a case")
        #expect(Set(SubtitlePlaylistRules.rows.map(\.id)) == Set(Self.playlistCases.map(\.0.id)), "subtitle-playlist rules without a case")
    }
}
