import Foundation
import Subweave
import TestSupport
import Testing
import Timebase
import TimedText

/// Descriptors to tracks: every registration error, from the descriptor alone.
struct TrackRegistrationTests {
    func register(_ descriptors: String...) -> Result<[SubtitleTrack], SubweaveError> {
        do {
            let parsed = try descriptors.enumerated().map { try TrackDescriptor(parsing: $0.element, origin: "#\($0.offset + 1)") }
            return .success(try SubtitleTrack.register(parsed))
        } catch let error as SubweaveError {
            return .failure(error)
        } catch {
            return .failure(.registration([error as! RegistrationError]))
        }
    }

    func codes(_ result: Result<[SubtitleTrack], SubweaveError>) -> [RegistrationError.Code] {
        guard case .failure(.registration(let errors)) = result else { return [] }
        return errors.map(\.code)
    }

    @Test func derivesWhatItCan() throws {
        let tracks = try register("url=subs/My Film.fr.srt,language=fre", "url=https://cdn.example.com/a/en.vtt?token=1,language=en-us,sdh,forced=no").get()
        #expect(tracks[0].sourceID == "My Film.fr")
        #expect(RenditionLayout.folder(for: tracks[0].identity) == "subtitles/My_Film.fr-fr")
        #expect(tracks[0].language.description == "fr")
        #expect(tracks[0].label == "Français")
        #expect(tracks[0].format == .srt)
        #expect(tracks[0].identity.description == "external:My Film.fr:fr")
        #expect(tracks[1].sourceID == "en")
        #expect(tracks[1].format == .vtt)
        #expect(tracks[1].label == "English (US) (SDH)")
        #expect(tracks[1].isSDH && !tracks[1].isForced)
        #expect(tracks[1].identity.description == "external:en:en-US")
    }

    static let errors: [SourceRow<(String, RegistrationError.Code)>] = [
        SourceRow(("url=a.srt,id=,language=en", .emptySourceID)),
        SourceRow(("url=a.srt,language=en,name=", .emptyLabel)),
        SourceRow(("url=a.srt", .invalidLanguage)),  // the language must be said
        SourceRow(("url=a.srt,name=Subtitles", .invalidLanguage)),  // even with a name
        SourceRow(("url=a.srt,language=und", .emptyLabel)),  // und: nothing to derive a name from
        SourceRow(("url=a.srt,language=xx,name=X", .invalidLanguage)),  // not an ISO 639 code
        SourceRow(("url=a.srt,language=qaa", .emptyLabel)),  // no known name for the code
        SourceRow(("url=http://,language=en", .malformedURL)),
        SourceRow(("url=http:/host/a.srt,language=en", .malformedURL)),
        SourceRow(("url=//cdn.example.com/a.srt,language=en", .malformedURL)),
        SourceRow(("url=www.example.com/a.srt,language=en", .malformedURL)),
        SourceRow(("url=file://server/share/a.srt,language=en", .malformedURL)),
        SourceRow(("url=ftp://example.com/a.srt,language=en", .unsupportedScheme)),
        SourceRow(("url=s3://bucket/a.srt,language=en", .unsupportedScheme)),
        SourceRow(("url=https://example.com/subtitles?file=en.srt,language=en", .indeterminateFormat)),
        SourceRow(("url=subs/en.txt,language=en", .indeterminateFormat)),
        SourceRow(("url=a.srt,language=english please", .invalidLanguage)),
        SourceRow(("url=a.srt,language=en,format=sbv", .invalidValue)),
        SourceRow(("url=a.srt,language=en,encoding=ebcdic", .invalidValue)),
        SourceRow(("url=a.srt,language=en,delay=soon", .invalidValue)),
        SourceRow(("url=a.srt,language=en,forced=maybe", .invalidValue)),
        SourceRow(("url=a.srt,language=en,langauge=fr", .unknownKey)),
        SourceRow(("url=a.srt,language=english", .invalidLanguage)),  // a name, not a tag: the message suggests en
        SourceRow(("url=a.srt,language=en,name=Eng\u{202E}hsilgnE", .unsafeText)),  // a bidi override
        SourceRow(("url=a.srt,language=en,name=A\u{2028}#EXT-X-ENDLIST", .unsafeText)),  // a line separator
        SourceRow(("url=a.srt,language=en,name=Eng\u{200B}lish", .unsafeText)),  // a zero-width space
        SourceRow(("url=a.srt,language=en,id=\(String(repeating: "x", count: 300))", .invalidValue)),
        SourceRow(("url=a.srt,language=en,offset=soon", .invalidValue)),
        SourceRow(("url=a.srt,id=../../etc,language=en", .unsafeText)),
        SourceRow(("url=a.srt,id=..,language=en", .unsafeText)),
        SourceRow(("url=a.srt,id=a\"b,language=en", .invalidValue)),  // an unclosed quote in the descriptor
        SourceRow(("url=a.srt,id=a\u{7}b,language=en", .unsafeText)),
        SourceRow(("url=a.srt,language=en,name=Two\nlines", .unsafeText)),
    ]

    @Test func eachErrorExplainsItself() {
        for row in Self.errors {
            let (descriptor, code) = row.value
            let result = register(descriptor)
            #expect(codes(result) == [code], "\(descriptor.debugDescription) at line \(row.line): \(result)")
        }
    }

    @Test func declaredFormatOverridesTheMissingExtension() throws {
        let tracks = try register("url=https://example.com/subtitles?file=en.srt,language=en,format=srt").get()
        #expect(tracks[0].format == .srt)
    }

    @Test func allProblemsTogether() {
        let result = register("url=a.srt,id=x,language=en", "url=b.srt,id=x,language=fr", "url=ftp://x/c.srt,language=en", "url=d.srt,language=en,name=")
        #expect(codes(result) == [.duplicateSourceID, .unsupportedScheme, .emptyLabel])
    }

    @Test func idsThatShareAFolderCollide() {
        #expect(codes(register("url=a.srt,id=a b,language=en", "url=b.srt,id=a_b,language=en")) == [.duplicateSourceID])
    }

    @Test func delayIsClampedWithANote() throws {
        let tracks = try register("url=a.srt,language=en,delay=-12.5", "url=b.srt,id=b,language=en,delay=+1.25").get()
        #expect(tracks[0].delay == MediaTime(seconds: -10))
        #expect(tracks[0].notes.first?.contains("clamped") == true)
        #expect(tracks[1].delay == MediaTime(milliseconds: 1250))
    }

    @Test func quotedValuesMayHoldCommas() throws {
        let tracks = try register(#"url=a.srt,language=en,name="English, signs""#).get()
        #expect(tracks[0].label == "English, signs")
    }
}

/// The load report's warnings for the classic mistakes.
struct LoadReportTests {
    @Test func warnsAboutACueAtZeroBeforeLateDialogue() throws {
        let srt = "1\n00:00:00,000 --> 00:00:02,000\nSubtitles by someone\n\n2\n00:05:00,000 --> 00:05:02,000\nFirst line\n"
        let ingested = try SubtitleIngest.read(Array(srt.utf8), format: .srt, encoding: nil, sourceID: "x", location: "x.srt")
        let warnings = SubtitleIngest.timelineWarnings(ingested.cues, duration: MediaTime(seconds: 3600))
        #expect(warnings.map(\.kind.rawValue) == ["first_cue_at_zero"])
    }

    @Test func warnsAboutCuesAfterTheEnd() throws {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nA\n\n2\n00:30:00,000 --> 00:30:02,000\nB\n"
        let ingested = try SubtitleIngest.read(Array(srt.utf8), format: .srt, encoding: nil, sourceID: "x", location: "x.srt")
        let warnings = SubtitleIngest.timelineWarnings(ingested.cues, duration: MediaTime(seconds: 12))
        #expect(warnings.map(\.kind.rawValue) == ["cues_after_end"])
        #expect(warnings[0].message.contains("1 cue starts after the video ends"))
    }

    /// Every cue gets an identifier, unique in the file: its position, or with a suffix when the
    /// file's own identifiers already use it (hls.js drops a cue whose identifier it has seen).
    @Test func givenIdentifiersAreUniqueAndAvoidTheFilesOwn() throws {
        let vtt = [
            "WEBVTT", "", "00:01.000 --> 00:02.000", "a", "", "2", "00:02.000 --> 00:03.000", "b", "",
            "00:03.000 --> 00:04.000", "c", "", "3-2", "00:04.000 --> 00:05.000", "d", "", "3", "00:05.000 --> 00:06.000", "e", "",
            "00:06.000 --> 00:07.000", "f", "",
        ].joined(separator: "\n")
        let ingested = try SubtitleIngest.read(Array(vtt.utf8), format: .vtt, encoding: nil, sourceID: "x", location: "x.vtt")
        #expect(ingested.cues.map(\.identifier) == ["1", "2", "3-3", "3-2", "3", "6"])
        // Many cues, some named by the file with the positions others get.
        var text = "WEBVTT\n\n"
        for i in 0..<3_000 {
            if i % 7 == 0 { text += "\(i + 2)\n" } else if i % 11 == 0 { text += "\(i + 1)-2\n" }
            text += "00:00:\(String(format: "%02d", i / 100 % 60)).\(String(format: "%03d", i % 100 * 10)) --> 00:59:00.000\ncue \(i)\n\n"
        }
        let many = try SubtitleIngest.read(Array(text.utf8), format: .vtt, encoding: nil, sourceID: "x", location: "x.vtt")
        #expect(Set(many.cues.map(\.identifier)).count == many.cues.count)
        #expect(many.cues.allSatisfy { !$0.identifier.isEmpty })
    }

    @Test func delayShiftsAndClampsAtZero() {
        let cues = [
            Cue(start: MediaTime(milliseconds: 500), end: MediaTime(milliseconds: 1000), text: "a"),
            Cue(start: MediaTime(milliseconds: 1500), end: MediaTime(milliseconds: 3000), text: "b"),
        ]
        let (shifted, warnings) = SubtitleIngest.applyDelay(MediaTime(milliseconds: -2000), to: cues)
        #expect(shifted.map(\.text) == ["b"])
        #expect(shifted[0].start == .zero && shifted[0].end == MediaTime(milliseconds: 1000))
        #expect(warnings.map(\.kind.rawValue) == ["cue_skipped", "cue_clamped"])
    }

    @Test func noCuesSaysWhy() throws {
        let noteOnly = try SubtitleIngest.read(Array("WEBVTT\n\nNOTE only a note\n".utf8), format: .vtt, encoding: nil, sourceID: "x", location: "x.vtt")
        #expect(noteOnly.cues.isEmpty)
        #expect(
            SubtitleIngest.noCues(noteOnly, format: .vtt, sourceID: "x", location: "x.vtt", empty: false).explanation.contains("check that the declared format")
        )
        let allSkipped = try SubtitleIngest.read(
            Array("WEBVTT\n\n00:00:05.000 --> 99999999999:00:08.000\nx\n".utf8), format: .vtt, encoding: nil, sourceID: "x", location: "x.vtt")
        let message = SubtitleIngest.noCues(allSkipped, format: .vtt, sourceID: "x", location: "x.vtt", empty: false).explanation
        #expect(message.contains("every cue was skipped") && message.contains("line 3"), "\(message)")
    }
}
