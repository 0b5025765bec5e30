import HLS
import Subweave
import TestSupport
import Testing
import Timebase
import TimedText

/// Each row: an existing group (master lines), the preferred language, the new tracks →
/// the expected attributes of every rendition of the group, in order, written by hand.
struct RenditionRulesTableTests {
    /// A new track: id, language, flags.
    struct Track: Sendable {
        let id: String
        let language: String
        var forced = false
        var sdh = false
        var isDefault = false
        var name: String? = nil
    }

    /// NAME, LANGUAGE, DEFAULT, AUTOSELECT, FORCED, CHARACTERISTICS (nil: absent).
    struct Row: Sendable, CustomTestStringConvertible {
        let title: String
        var existing: [String] = []
        var preferred: String? = nil
        let tracks: [Track]
        let expected: [(String, String, String, String, String?, String?)]
        var testDescription: String { title }
    }

    static let sdh = "public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"

    static let rows: [Row] = [
        Row(
            title: "no preference: nothing is DEFAULT", tracks: [Track(id: "en", language: "en"), Track(id: "fr", language: "fr")],
            expected: [("English", "en", "NO", "YES", "NO", nil), ("Français", "fr", "NO", "YES", "NO", nil)]),
        Row(
            title: "preferred language wins", preferred: "fr", tracks: [Track(id: "en", language: "en"), Track(id: "fr", language: "fr")],
            expected: [("English", "en", "NO", "YES", "NO", nil), ("Français", "fr", "YES", "YES", "NO", nil)]),
        Row(
            title: "639-2/B code matches 639-1", preferred: "cze", tracks: [Track(id: "en", language: "en"), Track(id: "cs", language: "ces")],
            expected: [("English", "en", "NO", "YES", "NO", nil), ("Čeština", "cs", "YES", "YES", "NO", nil)]),
        Row(
            title: "regioned preference matches a bare tag", preferred: "cs-CZ", tracks: [Track(id: "cs", language: "cs")],
            expected: [("Čeština", "cs", "YES", "YES", "NO", nil)]),
        Row(
            title: "bare preference matches a regioned tag", preferred: "pt", tracks: [Track(id: "br", language: "pt-BR")],
            expected: [("Português (BR)", "pt-BR", "YES", "YES", "NO", nil)]),
        Row(
            title: "scripts are respected", preferred: "zh-Hant",
            tracks: [Track(id: "s", language: "zh-Hans"), Track(id: "t", language: "zh-Hant")],
            expected: [("中文 (Hans)", "zh-Hans", "NO", "YES", "NO", nil), ("中文 (Hant)", "zh-Hant", "YES", "YES", "NO", nil)]),
        Row(
            title: "a script mismatch is no match", preferred: "zh-Hant", tracks: [Track(id: "s", language: "zh-Hans")],
            expected: [("中文 (Hans)", "zh-Hans", "NO", "YES", "NO", nil)]),
        Row(
            title: "und matches nothing and is never AUTOSELECT", preferred: "und", tracks: [Track(id: "x", language: "und", name: "Unknown")],
            expected: [("Unknown", "und", "NO", "NO", "NO", nil)]),
        Row(
            title: "a full rendition beats a forced one", preferred: "en",
            tracks: [Track(id: "enf", language: "en", forced: true), Track(id: "en", language: "en")],
            expected: [("English", "en", "YES", "YES", "NO", nil), ("English (Forced)", "en", "NO", "YES", "YES", nil)]),
        Row(
            title: "the descriptor's default breaks a tie", preferred: "en",
            tracks: [Track(id: "a", language: "en", name: "English A"), Track(id: "b", language: "en", isDefault: true, name: "English B")],
            expected: [("English A", "en", "NO", "YES", "NO", nil), ("English B", "en", "YES", "YES", "NO", nil)]),
        Row(
            title: "else the first; a second of the same kind is not AUTOSELECT", preferred: "en",
            tracks: [Track(id: "a", language: "en", name: "English A"), Track(id: "b", language: "en", name: "English B")],
            expected: [("English A", "en", "YES", "YES", "NO", nil), ("English B", "en", "NO", "NO", "NO", nil)]),
        Row(
            title: "no match changes nothing, existing DEFAULT kept",
            existing: [#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="g",NAME="Deutsch",LANGUAGE="de",DEFAULT=YES,AUTOSELECT=YES,URI="de.m3u8""#],
            preferred: "ja", tracks: [Track(id: "en", language: "en")],
            expected: [("Deutsch", "de", "YES", "YES", "", nil), ("English", "en", "NO", "YES", "NO", nil)]),
        Row(
            title: "a match takes DEFAULT from an existing rendition",
            existing: [#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="g",NAME="Deutsch",LANGUAGE="de",DEFAULT=YES,AUTOSELECT=YES,URI="de.m3u8""#],
            preferred: "en", tracks: [Track(id: "en", language: "en")],
            expected: [("Deutsch", "de", "NO", "YES", "", nil), ("English", "en", "YES", "YES", "NO", nil)]),
        Row(
            title: "an existing rendition can be the match",
            existing: [#"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="g",NAME="Français",LANGUAGE="fr",URI="fr.m3u8""#],
            preferred: "fr-CA", tracks: [Track(id: "en", language: "en")],
            expected: [("Français", "fr", "YES", "YES", "", nil), ("English", "en", "NO", "YES", "NO", nil)]),
        Row(
            title: "SDH gets the characteristics; order general, SDH, forced per language",
            tracks: [
                Track(id: "frf", language: "fr", forced: true), Track(id: "en", language: "eng"), Track(id: "fr", language: "fr"),
                Track(id: "ensdh", language: "en", sdh: true),
            ],
            expected: [
                ("Français", "fr", "NO", "YES", "NO", nil), ("Français (Forced)", "fr", "NO", "YES", "YES", nil),
                ("English", "en", "NO", "YES", "NO", nil), ("English (SDH)", "en", "NO", "YES", "NO", sdh),
            ]),
    ]

    @Test(arguments: rows)
    func attributesOfEveryRendition(_ row: Row) throws {
        var text = "#EXTM3U\n"
        for line in row.existing { text += line + "\n" }
        text += "#EXT-X-STREAM-INF:BANDWIDTH=1\(row.existing.isEmpty ? "" : ",SUBTITLES=\"g\"")\nv.m3u8\n"
        let master = try MasterPlaylist(parsing: Array(text.utf8), source: "m")
        let renditions = row.tracks.map { t -> NewSubtitleRendition in
            let tag = LanguageTag(parsing: t.language)!
            let name = t.name ?? (tag.autonym.map { $0 + (t.sdh ? " (SDH)" : "") + (t.forced ? " (Forced)" : "") } ?? t.id)
            return NewSubtitleRendition(
                identity: "external:\(t.id):\(tag)", name: name, language: tag, forced: t.forced, characteristics: t.sdh ? .sdh : .none,
                prefersDefault: t.isDefault, uri: "subtitles/\(t.id)/index.m3u8", origin: t.id)
        }
        let result = try MasterRewriter(preferredLanguage: row.preferred.flatMap(LanguageTag.init(parsing:))).rewrite(master, renditions: renditions)
        let media = result.master.renditions
        let actual = media.map { r in
            (
                r.name ?? "", r.language ?? "", r.attributes["DEFAULT"]?.rawValue ?? "NO", r.attributes["AUTOSELECT"]?.rawValue ?? "NO",
                r.attributes["FORCED"]?.rawValue ?? "", r.attributes["CHARACTERISTICS"]?.unquoted
            )
        }
        #expect(actual.count == row.expected.count)
        for (a, e) in zip(actual, row.expected) {
            #expect(a.0 == e.0 && a.1 == e.1 && a.2 == e.2 && a.3 == e.3 && a.4 == (e.4 ?? "") && a.5 == e.5, "got \(a), expected \(e)")
        }
        // Whatever the row, the result breaks no rule.
        #expect(MasterRules.check(result.master).filter { $0.severity == .error } == [])
    }
}

/// CLOSED-CAPTIONS on the variants.
struct ClosedCaptionsPolicyTests {
    let withCaptions = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",LANGUAGE="en",INSTREAM-ID="CC1"
        #EXT-X-STREAM-INF:BANDWIDTH=1,CLOSED-CAPTIONS="cc"
        a.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2,CLOSED-CAPTIONS=NONE
        b.m3u8

        """
    let track = NewSubtitleRendition(
        identity: "external:en:en", name: "English", language: LanguageTag(parsing: "en")!, forced: false, characteristics: .none,
        prefersDefault: false, uri: "subtitles/en-en/index.m3u8", origin: "en")

    func rewrite(_ policy: ClosedCaptionsPolicy) throws -> (String, [String]) {
        let result = try MasterRewriter(closedCaptions: policy).rewrite(try MasterPlaylist(parsing: Array(withCaptions.utf8), source: "m"), renditions: [track])
        return (result.master.playlist.text, result.warnings.map(\.message.description))
    }

    @Test func automaticKeepsDeclaredCaptionsAndNeverMixesNone() throws {
        let (text, warnings) = try rewrite(.automatic)
        #expect(text.contains(#"TYPE=CLOSED-CAPTIONS,GROUP-ID="cc""#))
        #expect(text.contains(#"#EXT-X-STREAM-INF:BANDWIDTH=1,SUBTITLES="subs",CLOSED-CAPTIONS="cc""#))
        #expect(text.contains("#EXT-X-STREAM-INF:BANDWIDTH=2,SUBTITLES=\"subs\"\n"))
        #expect(warnings.count == 2)
        #expect(warnings[0].contains("kept"))
    }

    @Test func explicitNoneRemovesThem() throws {
        let (text, _) = try rewrite(.none)
        #expect(!text.contains("TYPE=CLOSED-CAPTIONS"))
        #expect(text.components(separatedBy: "CLOSED-CAPTIONS=NONE\n").count == 3)
    }

    @Test func inBandDeclaresTheServices() throws {
        let (text, _) = try rewrite(
            .declare([
                CaptionServiceDeclaration(instreamID: "CC1", name: "English (CC1)", language: LanguageTag(parsing: "en")),
                CaptionServiceDeclaration(instreamID: "CC3", name: "CC3", language: nil),
            ]))
        #expect(
            text.contains(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English (CC1)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=NO,INSTREAM-ID="CC1""#))
        #expect(text.contains(#"#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC3",LANGUAGE="und",DEFAULT=NO,AUTOSELECT=NO,INSTREAM-ID="CC3""#))
        #expect(text.components(separatedBy: "CLOSED-CAPTIONS=\"cc\"\n").count == 3)
        #expect(text.components(separatedBy: "TYPE=CLOSED-CAPTIONS").count == 3, "the old declaration is replaced")
    }

    @Test func inBandWithNothingFoundStillSaysNone() throws {
        let (text, _) = try rewrite(.declare([]))
        #expect(!text.contains("TYPE=CLOSED-CAPTIONS"))
        #expect(text.components(separatedBy: "CLOSED-CAPTIONS=NONE\n").count == 3)
    }
}

struct ForcedCoverageTests {
    @Test func fullTrackMissingAForcedCue() {
        func cue(_ s: Int64, _ e: Int64, _ t: String) -> Cue { Cue(start: MediaTime(milliseconds: s), end: MediaTime(milliseconds: e), text: t) }
        let forced = [cue(1000, 2000, "<i>Achtung!</i>"), cue(5000, 6000, "Sign: EXIT")]
        let full = [cue(900, 2100, "achtung!"), cue(3000, 4000, "Hello")]
        #expect(RenditionRules.forcedCuesMissing(forced: forced, full: full).map(\.text) == ["Sign: EXIT"])
    }
}
