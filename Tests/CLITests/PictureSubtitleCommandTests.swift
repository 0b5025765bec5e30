import Foundation
import Pictures
import TestSupport
import Testing

/// VobSub subtitles (pictures) read as text by Tesseract: `cues`, `convert` and `package` take
/// an `.idx` file, each cue with its confidence, on its time, in its place.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: BitmapSubtitles.missingTools.isEmpty && Tools.which("tesseract") != nil, "spumux, mkvextract, tesseract or the DejaVu font is missing"))
struct PictureSubtitleCommandTests {
    static let texts: [String: [String]] = [
        "en": ["I never said she stole my money.", "Where were you on the night\nof the fourteenth?", "Stop! Don't move, or I'll shoot."],
        "fr": ["Je ne sais pas où il est allé.", "Qu'est-ce que tu fais ici,\nà cette heure-ci ?", "Ça ne se reproduira plus, c'est promis."],
        "de": ["Ich weiß nicht, wo er hingegangen ist.", "Was machst du hier\num diese Uhrzeit?", "Das wird nie wieder passieren, versprochen."],
    ]

    /// Levenshtein distance in characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return row[b.count]
    }

    /// The cues `subweave cues --json --language` gives for a rendering of `lines`.
    static func read(_ lines: [String], language: String, font: String, size: Double, top: Bool = false) throws -> (
        cues: [[String: Any]], made: BitmapSubtitles.Made
    ) {
        let folder = try Scratch.make().path
        let cues = lines.enumerated().map { (Double(2 + $0 * 4), Double(4 + $0 * 4) + 0.5, $1) }
        let made = try BitmapSubtitles.vobSub(cues, folder: folder, font: font, size: size, top: top)
        let outcome = try BuiltTool.run(["cues", made.idx, "--json", "--language", language])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return (try #require(object["cues"] as? [[String: Any]]), made)
    }

    /// Clean renderings (DejaVu Sans 24 and Serif 32, English, French, German): under 1 % of the
    /// characters wrong in each language, each cue within a frame of its time, with its confidence.
    @Test(arguments: ["en", "fr", "de"])
    func cleanRenderingsReadBackAlmostExactly(_ language: String) throws {
        let lines = try #require(Self.texts[language])
        var errors = 0, characters = 0
        for (font, size) in [("DejaVuSans.ttf", 24.0), ("DejaVuSerif.ttf", 32.0)] {
            let (cues, made) = try Self.read(lines, language: language, font: font, size: size)
            #expect(cues.count == lines.count, "\(font) \(size): \(cues)")
            for (index, (cue, line)) in zip(cues, lines).enumerated() {
                // spumux wraps long lines itself: compared as words.
                let text = (cue["text"] as? String ?? "").replacingOccurrences(of: "\n", with: " ")
                errors += Self.distance(text, line.replacingOccurrences(of: "\n", with: " "))
                characters += line.count
                let start = Double(2 + index * 4) + made.start
                #expect(abs((cue["startTime"] as? Double ?? -1) - start) <= 0.04, "\(line): starts at \(cue["startTime"] ?? "?"), not \(start)")
                #expect(abs((cue["endTime"] as? Double ?? -1) - (start + 2.5)) <= 0.04, "\(line): ends at \(cue["endTime"] ?? "?")")
                let confidence = cue["confidence"] as? Double ?? -1
                #expect(confidence > 0 && confidence <= 100, "\(line): confidence \(confidence)")
            }
        }
        #expect(Double(errors) / Double(characters) < 0.01, "\(language): \(errors) of \(characters) characters wrong")
    }

    /// The same pictures as a Blu-ray PGS `.sup` (written by the tests' PGS writer, which
    /// ffmpeg's decoder reads: PGSTests) read back as well, on a 1920×1080 frame.
    @Test func pgsPicturesReadBackAlmostExactly() throws {
        let lines = try #require(Self.texts["en"])
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub(lines.enumerated().map { (Double(2 + $0 * 4), Double(4 + $0 * 4) + 0.5, $1) }, folder: folder)
        let index = try VobSub.index(try String(contentsOfFile: made.idx, encoding: .utf8))
        let pictures = VobSub.pictures(index: index, sub: Array(try Data(contentsOf: URL(fileURLWithPath: made.sub)))).pictures
        let sup = PGSWriter.sup(
            pictures.map { p in
                PGSWriter.Picture(
                    start: p.start.seconds, end: (p.end ?? p.start).seconds, x: p.x + 600, y: p.y + 480, width: p.width, height: p.height,
                    indices: p.indices, palette: p.palette.map { ($0.red, $0.green, $0.blue, $0.alpha) })
            }, frameWidth: 1920, frameHeight: 1080)
        try Data(sup).write(to: URL(fileURLWithPath: folder + "/subs.sup"))
        let outcome = try BuiltTool.run(["cues", folder + "/subs.sup", "--json", "--language", "en"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.count == lines.count)
        var errors = 0
        for (index, (cue, line)) in zip(cues, lines).enumerated() {
            errors += Self.distance((cue["text"] as? String ?? "").replacingOccurrences(of: "\n", with: " "), line.replacingOccurrences(of: "\n", with: " "))
            let start = Double(2 + index * 4) + made.start
            #expect(abs((cue["startTime"] as? Double ?? -1) - start) <= 0.04, "\(line)")
            #expect(cue["confidence"] is Double)
        }
        #expect(Double(errors) / Double(lines.map(\.count).reduce(0, +)) < 0.01, "\(errors) characters wrong: \(cues.map { $0["text"] ?? "" })")
        let dir = try Fixtures.copyExample()
        let packaged = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(folder)/subs.sup,language=en"])
        #expect(packaged.status == 0 && (packaged.stdout + packaged.stderr).contains("pgs_ocr"), "\(packaged.stderr)")
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)
    }

    /// DVB subtitles in MPEG-TS (ffmpeg's dvbsub encoder, from spumux's pictures): the language
    /// from the subtitling descriptor, the text read back, each cue on its packet's time.
    @Test func dvbSubtitlesInATransportStreamReadBack() throws {
        let lines = try #require(Self.texts["fr"])
        let folder = try Scratch.make().path
        _ = try BitmapSubtitles.vobSub(lines.enumerated().map { (Double(2 + $0 * 4), Double(4 + $0 * 4) + 0.5, $1) }, folder: folder, size: 24)
        let made = try Tools.run(
            try #require(Tools.ffmpeg),
            [
                "-nostdin", "-loglevel", "error", "-y", "-i", folder + "/subs-spu.mpg", "-map", "0:v", "-map", "0:s", "-c:v", "libx264", "-preset",
                "ultrafast", "-c:s", "dvbsub", "-metadata:s:s:0", "language=fra", "-f", "mpegts", folder + "/dvb.ts",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let outcome = try BuiltTool.run(["cues", folder + "/dvb.ts", "--json"])
        #expect(outcome.status == 0 && !outcome.stderr.contains("read as English"), "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.count == lines.count, "\(cues)")
        var errors = 0
        for (cue, line) in zip(cues, lines) {
            errors += Self.distance((cue["text"] as? String ?? "").replacingOccurrences(of: "\n", with: " "), line.replacingOccurrences(of: "\n", with: " "))
        }
        #expect(Double(errors) / Double(lines.map(\.count).reduce(0, +)) < 0.01, "\(errors) wrong: \(cues.map { $0["text"] ?? "" })")
    }

    /// A PGS file whose middle picture is flagged forced: `cues --json` marks that cue and says
    /// how many are flagged; a track declared forced=yes publishes that one only (FORCED=YES),
    /// saying the others were left out; the master passes `validate`.
    @Test func forcedPicturesAreMarkedAndAForcedTrackKeepsOnlyThem() throws {
        let lines = try #require(Self.texts["en"])
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub(lines.enumerated().map { (Double(2 + $0 * 4), Double(4 + $0 * 4) + 0.5, $1) }, folder: folder)
        let index = try VobSub.index(try String(contentsOfFile: made.idx, encoding: .utf8))
        let pictures = VobSub.pictures(index: index, sub: Array(try Data(contentsOf: URL(fileURLWithPath: made.sub)))).pictures
        let sup = PGSWriter.sup(
            pictures.enumerated().map { k, p in
                var picture = PGSWriter.Picture(
                    start: p.start.seconds, end: (p.end ?? p.start).seconds, x: p.x, y: p.y, width: p.width, height: p.height, indices: p.indices,
                    palette: p.palette.map { ($0.red, $0.green, $0.blue, $0.alpha) })
                picture.forced = k == 1
                return picture
            }, frameWidth: 720, frameHeight: 576)
        try Data(sup).write(to: URL(fileURLWithPath: folder + "/subs.sup"))
        let outcome = try BuiltTool.run(["cues", folder + "/subs.sup", "--json", "--language", "en"])
        #expect(outcome.status == 0 && outcome.stderr.contains("1 of 3 pictures are flagged forced"), "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let cues = try #require(object["cues"] as? [[String: Any]])
        #expect(cues.map { $0["forced"] as? Bool ?? false } == [false, true, false], "\(cues)")

        let dir = try Fixtures.copyExample()
        let packaged = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(folder)/subs.sup,language=en,forced=yes"])
        #expect(packaged.status == 0 && (packaged.stdout + packaged.stderr).contains("the 2 others were left out"), "\(packaged.stderr)")
        let master = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        #expect(master.contains("FORCED=YES"), "\(master)")
        let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/subs-en")
        let kept = try String(contentsOfFile: generation + "/cues.vtt", encoding: .utf8)
        #expect(kept.contains("Where were you") && !kept.contains("stole") && !kept.contains("shoot"), "\(kept)")
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)
    }

    /// Letters that lean (an oblique or italic face) make an italic cue; upright ones do not.
    @Test(arguments: [("DejaVuSans-Oblique.ttf", true), ("DejaVuSerif-Italic.ttf", true), ("DejaVuSans.ttf", false), ("DejaVuSerif.ttf", false)])
    func italicsAreSeenInThePicture(_ font: String, _ italic: Bool) throws {
        try #require(BitmapSubtitles.font(font) != nil, "\(font) is not installed")
        let (cues, _) = try Self.read(["Where were you on the night\nof the fourteenth?"], language: "en", font: font, size: 26)
        let text = try #require(cues.first?["text"] as? String)
        #expect(text.hasPrefix("<i>") == italic && text.hasSuffix("</i>") == italic, "\(font): \(text)")
    }

    /// Never a silent guess: text Tesseract is unsure of (tiny nonsense) is a warning with its
    /// times, and --strict refuses to package it.
    @Test func unsureTextIsSaidAndStrictRefusesIt() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub([(1.0, 2.5, "xq zv kj wp")], folder: folder, size: 9)
        let read = try BuiltTool.run(["cues", made.idx, "--json", "--language", "en"])
        #expect(read.status == 0 && read.stderr.contains("% confidence") && read.stderr.contains("check it against the picture"), "\(read.stderr)")
        let dir = try Fixtures.copyExample()
        let before = try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8)
        let strict = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(made.idx),language=en", "--strict"])
        #expect(strict.status != 0 && strict.stderr.contains("confidence"), "\(strict.stderr)")
        #expect(try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8) == before, "nothing written")
    }

    /// `--crops`: every picture as a PNG that ffprobe reads at the picture's size, and a page
    /// showing each beside its text and confidence; a text file has none to give.
    @Test func cropsShowEachPictureBesideItsText() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub([(1.0, 3.0, "Look at this"), (4.0, 5.0, "Second")], folder: folder)
        let review = folder + "/review"
        let outcome = try BuiltTool.run(["cues", made.idx, "--crops", review])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let page = try String(contentsOfFile: review + "/index.html", encoding: .utf8)
        #expect(page.contains("<img src=\"cue-0001.png\"") && page.contains("<img src=\"cue-0002.png\"") && page.contains("<pre>Second</pre>"), "\(page)")
        let probe = try Tools.run(
            try #require(Tools.ffprobe), ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", review + "/cue-0001.png"])
        let size = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        #expect(size.count == 2 && size[0] > 100 && size[1] > 10, "ffprobe reads \(probe.stdout)\(probe.stderr)")
        let text = try BuiltTool.run(["cues", try Fixtures.copyExample() + "/subs/en.srt", "--crops", review + "2"])
        #expect(text.status == 64 && text.stderr.contains("--crops applies to picture subtitles"), "\(text.stderr)")
    }

    /// A picture at the top of the frame is placed at the top; one at the bottom keeps the default.
    @Test func placementFollowsThePicture() throws {
        let (top, _) = try Self.read(["Up here"], language: "en", font: "DejaVuSans.ttf", size: 28, top: true)
        #expect(top.first?["line"] as? Double == 0, "\(top)")
        let (bottom, _) = try Self.read(["Down here"], language: "en", font: "DejaVuSans.ttf", size: 28)
        #expect(bottom.first?["line"] as? String == "auto", "\(bottom)")
    }

    /// `package` takes an `.idx` track as any other: the rendition validates and its cues are
    /// on their times.
    @Test func aVobSubTrackIsPackaged() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub([(1.0, 3.0, "Packaged from a picture")], folder: folder + "/subs")
        let dir = try Fixtures.copyExample()
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(made.idx),language=en"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect((outcome.stdout + outcome.stderr).contains("vobsub_ocr"), "\(outcome.stdout)\(outcome.stderr)")
        #expect(try BuiltTool.run(["validate", dir + "/master.m3u8"]).status == 0)
        let converted = try BuiltTool.run(["convert", made.idx, "--to", "srt"])
        #expect(converted.stdout.contains("Packaged from a picture"), "\(converted.stdout)\(converted.stderr)")
    }

    /// Without its `.sub`, or without Tesseract, the error says what is missing.
    @Test func whatIsMissingIsNamed() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub([(1.0, 3.0, "Alone")], folder: folder)
        try FileManager.default.removeItem(atPath: made.sub)
        let noSub = try BuiltTool.run(["cues", made.idx])
        #expect(noSub.status != 0 && noSub.stderr.contains(".sub"), "\(noSub.stderr)")
        let again = try BitmapSubtitles.vobSub([(1.0, 3.0, "Alone")], folder: folder + "/again")
        var environment = ProcessInfo.processInfo.environment
        environment["SUBWEAVE_TESSERACT"] = "/nonexistent/tesseract"
        let noTesseract = try Tools.run(try #require(BuiltTool.subweave), ["cues", again.idx], environment: environment)
        #expect(noTesseract.status != 0 && noTesseract.stderr.contains("tesseract"), "\(noTesseract.stderr)")
        let noLanguage = try BuiltTool.run(["cues", again.idx, "--language", "gd"])
        #expect(noLanguage.status != 0 && noLanguage.stderr.contains("Tesseract"), "\(noLanguage.stderr)")
    }
}
