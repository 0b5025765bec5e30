import Foundation
import TestSupport
import Testing

/// DVB subtitles carried beside the video (EN 300 743 in the title's MPEG-TS segments): listed
/// by `captions` as services named by PID, read by Tesseract in the subtitling descriptor's
/// language, and published by `package` as subtitle renditions with what the operator says.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: BitmapSubtitles.missingTools.isEmpty && Tools.which("tesseract") != nil, "spumux, tesseract, ffmpeg or the DejaVu font is missing"))
struct InBandDVBSubtitleTests {
    static let english: [(Double, Double, String)] = [
        (2, 4.5, "The river rose in the night."), (6, 8.5, "Nobody heard the bells."), (10.2, 12, "[Thunder]\nGet inside!"),
    ]
    static let french: [(Double, Double, String)] = [
        (2.4, 4.5, "La rivière a monté cette nuit."), (6, 8.5, "Personne n'a entendu les cloches."), (9.6, 12, "Rentrez vite !"),
    ]

    /// A title with an English stream for the hard of hearing and a French one.
    static func title() throws -> String {
        try BitmapSubtitles.dvbTitle(
            [.init(language: "eng", hardOfHearing: true, cues: english), .init(language: "fra", cues: french)], folder: try Scratch.make().path)
    }

    static func services(_ master: String) throws -> [[String: Any]] {
        let outcome = try BuiltTool.run(["captions", master, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return try #require(object["services"] as? [[String: Any]])
    }

    /// Each stream is a service named by its PID, in its descriptor's language, every cue read
    /// (character errors under 1 %) within a frame (40 ms) of the time spumux drew it for, with
    /// its confidence.
    @Test func captionsListsEachStreamWithItsText() throws {
        let master = try Self.title()
        let services = try Self.services(master)
        #expect(services.map { $0["service"] as? String } == ["DVB0101", "DVB0102"])
        #expect(services.map { $0["language"] as? String } == ["en", "fr"])
        #expect(services.allSatisfy { $0["kind"] as? String == "dvbsub_ocr" && $0["language_source"] as? String == "subtitling_descriptor" })
        for (service, expected) in zip(services, [Self.english, Self.french]) {
            let cues = try #require(service["cues"] as? [[String: Any]])
            #expect(cues.count == expected.count)
            var errors = 0, characters = 0
            for (cue, want) in zip(cues, expected) {
                let text = (cue["text"] as? String ?? "").replacingOccurrences(of: "\n", with: " ")
                errors += PictureSubtitleCommandTests.distance(text, want.2.replacingOccurrences(of: "\n", with: " "))
                characters += want.2.count
                #expect(abs((cue["startTime"] as? Double ?? -1) - want.0) <= 0.04, "\(cue)")
                #expect(abs((cue["endTime"] as? Double ?? -1) - want.1) <= 0.04, "\(cue)")
                #expect((cue["confidence"] as? Double ?? 0) > 75, "\(cue)")
            }
            #expect(Double(errors) / Double(characters) < 0.01, "\(errors) of \(characters) wrong: \(cues.map { $0["text"] ?? "" })")
        }
    }

    /// `package` publishes both (SDH characteristics only on the stream for the hard of hearing),
    /// each segment holding the cues it shows; then a sequence of commands, each followed by
    /// `validate`: a setting that names one and leaves the other out, a refresh that keeps it,
    /// and a language Tesseract has no pack for: the stream is read again, not published, and
    /// the warning names the package (a strict run fails and writes nothing).
    @Test func packagePublishesThemAndKeepsWhatTheOperatorSaid() throws {
        let master = try Self.title()
        func validate() throws {
            let outcome = try BuiltTool.run(["validate", master])
            #expect(outcome.status == 0 && (outcome.stdout + outcome.stderr).contains("0 errors, 0 warnings"), "\(outcome.stdout)\(outcome.stderr)")
        }
        var outcome = try BuiltTool.run(["package", master])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try validate()
        var text = try String(contentsOfFile: master, encoding: .utf8)
        let media = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:") }
        #expect(media.count == 2, "\(text)")
        #expect(media.first { $0.contains("LANGUAGE=\"en\"") }?.contains("public.accessibility.describes-music-and-sound") == true)
        #expect(media.first { $0.contains("LANGUAGE=\"fr\"") }?.contains("CHARACTERISTICS") == false)
        #expect(text.contains("captions/dvb0101/") && text.contains("captions/dvb0102/"))
        // The French cue of 6–8.5 s is in the segments of 4–8 and 8–12 s, not in the first.
        let folder = (master as NSString).deletingLastPathComponent
        let frenchURI = try #require(media.first { $0.contains("LANGUAGE=\"fr\"") }.flatMap { $0.split(separator: "\"").dropFirst().first })
        let frenchFolder = folder + "/" + (String(frenchURI) as NSString).deletingLastPathComponent
        let segments = try (0..<3).map { try String(contentsOfFile: frenchFolder + "/0000\($0).vtt", encoding: .utf8) }
        #expect(segments.map { $0.contains("cloches") } == [false, true, true], "\(segments)")

        outcome = try BuiltTool.run(["package", master, "--caption-service", "DVB0101:publish=no", "--caption-service", "DVB0102:name=Français"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try validate()
        text = try String(contentsOfFile: master, encoding: .utf8)
        #expect(!text.contains("dvb0101") && text.contains("NAME=\"Français\""), "\(text)")

        outcome = try BuiltTool.run(["refresh", master])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try validate()
        #expect(try String(contentsOfFile: master, encoding: .utf8) == text, "refresh forgot what the operator said")

        outcome = try BuiltTool.run(["package", master, "--caption-service", "DVB0102:language=ja", "--strict"])
        #expect(outcome.status != 0 && (outcome.stdout + outcome.stderr).contains("tesseract-ocr-jpn"), "\(outcome.stdout)\(outcome.stderr)")
        #expect(try String(contentsOfFile: master, encoding: .utf8) == text, "a strict run that failed wrote the master")
    }
}
