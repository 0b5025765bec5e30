import HLS
import Subweave
import TestSupport
import Testing
import Timebase

/// What a player selects at load, modelled on AVFoundation's automatic selection.
struct MediaSelectionTests {
    let master = try! MasterPlaylist(
        parsing: Array(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="fr.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="s-en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English (Forced)",LANGUAGE="en",AUTOSELECT=YES,FORCED=YES,URI="s-en-f.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Deutsch",LANGUAGE="de",AUTOSELECT=YES,URI="s-de.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a",SUBTITLES="s",CLOSED-CAPTIONS=NONE
            v.m3u8

            """.utf8), source: "m")

    func select(_ locales: String...) -> MediaSelectionReport.Selection? {
        MediaSelectionReport(master: master, locales: locales.compactMap(LanguageTag.init(parsing:))).selection
    }

    @Test func groupsAsAVFoundationShowsThem() {
        let report = MediaSelectionReport(master: master, locales: [])
        #expect(report.groups.map(\.characteristic) == ["audible", "legible"])
        #expect(report.groups[1].allowsEmptySelection)
        #expect(report.groups[1].options.filter(\.listed).map(\.displayName) == ["English", "Deutsch"])
    }

    @Test func viewerWhoUnderstandsTheAudioGetsOnlyForced() {
        let s = select("en-US")
        #expect(s?.audio == "English")
        #expect(s?.subtitles == "English (Forced)")
    }

    @Test func viewerWithoutAMatchingAudioGetsSubtitles() {
        let s = select("de-DE")
        #expect(s?.audio == "English")
        #expect(s?.subtitles == "Deutsch")
        #expect(s?.forcedWithAudio.first { $0.audio == "English" }?.forced == "English (Forced)")
        #expect(s?.forcedWithAudio.first { $0.audio == "Français" }?.forced == nil)
    }

    @Test func secondLocaleChoosesTheAudio() {
        let s = select("es", "fr")
        #expect(s?.audio == "Français")
        #expect(s?.subtitles == nil)
    }
}
