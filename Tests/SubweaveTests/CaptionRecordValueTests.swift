import Captions
import Containers
import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

@testable import Subweave

/// The captions record keeps everything a reading gave: each cue's every setting, the stream's
/// languages, how much was read, the notes, which variant, the warnings.
struct CaptionRecordValueTests {
    /// The record's key (and the run fingerprint) find a segment named by a plain file name
    /// without a URL: where they take that path, the path is the one resolving the URI as a URL
    /// gives.
    @Test(arguments: [
        "s00001.ts", "seg-1_a.TS", "a", "..", ".", "sub/s1.ts", "../s1.ts", "./s1.ts", "s 1.ts", "s%201.ts", "s1.ts?x=1", "s1.ts#f",
        "/abs/s1.ts", "file:///tmp/s1.ts", "https://cdn.example/s1.ts", "été.ts", "",
    ])
    func aPlainFileNameIsInThePlaylistsFolder(_ uri: String) throws {
        for playlist in ["/tmp/ladder/low/index.m3u8", "/tmp/a b/c%d/index.m3u8", "/index.m3u8"] {
            let url = URL(fileURLWithPath: playlist)
            let resolved = MediaReader.resolve(uri, against: url).flatMap { $0.isFileURL ? $0.path : nil }
            #expect(MediaReader.LocalPaths(playlist: url).path(uri) == resolved, "\(uri) in \(playlist)")
        }
        let plain = ["s00001.ts", "seg-1_a.TS", "a"].contains(uri)
        #expect(MediaReader.LocalPaths.isPlainFileName(uri) == plain, "\(uri)")
    }

    /// The key is the hash of the text it is documented to be: the record a run kept is found by
    /// any later build, however the key is put together.
    @Test func theKeyIsTheHashOfItsText() throws {
        let folder = try Scratch.make()
        for name in ["s0.ts", "s1.ts", "s 2.ts", "all.ts"] { try Data(repeating: 0x47, count: 376).write(to: folder.appendingPathComponent(name)) }
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-VERSION:4
            #EXTINF:6.006,
            s0.ts
            #EXTINF:5.5,
            s%202.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=AES-128,URI="k.key"
            #EXTINF:4,
            s1.ts
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-BYTERANGE:188@0
            #EXTINF:2,
            all.ts
            #EXT-X-BYTERANGE:188
            #EXTINF:2,
            all.ts
            #EXT-X-GAP
            #EXTINF:2,
            missing.ts
            #EXT-X-ENDLIST

            """
        let url = folder.appendingPathComponent("v.m3u8")
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "v.m3u8")
        var settings = CaptionServiceSettings()
        settings.defaultLanguage = LanguageTag(parsing: "de")
        let key = CaptionRecord.key([(role: "reference", url: url, playlist: playlist)], pictureLanguages: settings)

        var hash = ContentHash()
        hash.add("subweave-captions-1\u{0}")
        hash.add("ocr\u{0}\u{0}de\u{0}")
        hash.add(stat: "/proc/self/exe")
        hash.add("reference\u{0}\(url.absoluteString)\u{0}true\u{0}")
        for segment in playlist.segments {
            let path = try #require(MediaReader.resolve(segment.uri, against: url)).path
            let range = segment.byteRange.map { "\($0.length)@\($0.offset ?? -1)" } ?? ""
            hash.add(
                "\(path)\u{0}\(range)\u{0}\(segment.duration.ticks)\u{0}\(segment.start.ticks)\u{0}\(segment.discontinuitySequence)\u{0}"
                    + "\(segment.encryption != nil)\u{0}\(segment.isGap)\u{0}")
            hash.add(stat: path)
        }
        #expect(key == hash.hex(16))
        #expect(playlist.segments.contains { $0.byteRange != nil } && playlist.segments.contains { $0.encryption != nil })
    }

    @Test func aRecordGivesBackWhatWasRead() throws {
        let settings = [
            CueSettings(),
            CueSettings(line: .percentage("84.67"), lineAlign: .start, position: "10", positionAlign: .lineLeft, align: .left),
            CueSettings(vertical: .rl, line: .number("-2"), lineAlign: .end, position: "50", positionAlign: .center, size: "80", align: .center),
            CueSettings(line: .number("0"), region: "top"),
        ]
        let cues = settings.enumerated().map { index, setting in
            Cue(
                identifier: index == 1 ? "id \(index)" : "", start: MediaTime(ticks: Int64(index) * 90_000 + 1),
                end: MediaTime(ticks: Int64(index) * 90_000 + 45_001), settings: setting, text: "<i>Line</i> \(index)\nsecond &amp; more",
                sourceLine: index == 2 ? nil : index * 7)
        }
        let languages = CaptionLanguages(
            announced: [
                TransportStream.CaptionServiceEntry(language: "eng", digital: false, number: 1),
                TransportStream.CaptionServiceEntry(language: "spa", digital: true, number: 2),
            ], video: "fra", teletext: [(try #require(CaptionService(rawValue: "888")), "deu")])
        var captions = ProgrammeCaptions(
            services: [
                ProgrammeCaptions.Service(service: .cc1, cues: cues, firstSeen: MediaTime(ticks: 1), segment: "seg_000.ts"),
                ProgrammeCaptions.Service(service: .cc3, cues: [], firstSeen: nil, segment: nil),
            ], languages: languages,
            coverage: ProgrammeCaptions.Coverage(accessUnits: 1_800, captionDataUnits: 1_799, through: MediaTime(ticks: 5_400_000), complete: false))
        captions.notes = ["seg_001.ts: a note (once, first at byte 188)"]
        captions.readFrom = ProgrammeCaptions.ReadFrom(playlist: "low/index.m3u8", reason: "variant 3", confirmedSegments: [0, 1])
        let warnings = [PackageWarning(.media, "while reading captions: something")]

        let folder = try Scratch.make()
        let master = folder.appendingPathComponent("master.m3u8")
        let text = try #require(CaptionRecord(key: "k1", captions: captions, warnings: warnings).text)
        try text.write(toFile: CaptionRecord.path(master: master), atomically: true, encoding: .utf8)
        #expect(CaptionRecord.read(master: master, key: "another") == nil, "another key is another reading")
        let record = try #require(CaptionRecord.read(master: master, key: "k1"))
        let back = record.captions
        #expect(back.services.map(\.service) == [.cc1, .cc3])
        #expect(back.services[0].cues == cues)
        #expect(back.services[0].cues.map(\.settings) == settings)
        #expect(back.services[0].firstSeen == MediaTime(ticks: 1) && back.services[0].segment == "seg_000.ts")
        #expect(back.services[1].cues.isEmpty && back.services[1].firstSeen == nil && back.services[1].segment == nil)
        #expect(back.languages == languages)
        for service in [CaptionService.cc1, .cc3, .cc2] {
            #expect(back.languages.language(for: service)?.tag == languages.language(for: service)?.tag)
        }
        #expect(back.coverage == captions.coverage)
        #expect(back.notes == captions.notes && back.readFrom == captions.readFrom)
        #expect(record.warnings == warnings)
    }
}
