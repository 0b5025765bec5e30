import Foundation
import Pictures
import Platform
import Timebase
import TimedText

/// Bitmap subtitle files read as text: a VobSub pair (`.idx`, with its `.sub` beside it), a PGS
/// `.sup` or the DVB subtitles of an MPEG-TS file decoded to pictures (``VobSub``, ``PGS``,
/// ``DVBSubtitles``), each cleaned for OCR (``OCRImage``) and read by Tesseract in the track's
/// language (``TesseractOCR``), a page of pictures at a time.
///
/// Never a silent guess: every cue keeps the confidence Tesseract gave its words
/// (``IngestedSubtitles/recognition``), a cue below ``lowConfidence`` is a warning with its
/// times and text, and a picture in which nothing could be read is a warning too.
package enum PictureSubtitles {
    /// Below this mean word confidence (percent) a cue is said to need a look.
    package static let lowConfidence = 75.0

    /// The cues of the picture file at `url` (a VobSub index with the `.sub` beside it, a PGS
    /// `.sup`, or an MPEG-TS file's DVB subtitles), in `language` (nil: the file's, else English,
    /// said).
    ///
    /// Pictures flagged forced (shown even with subtitles off): a track declared forced
    /// (`forcedTrack`) is only those, when the file flags any, the others left out and said; a
    /// track not declared forced reads them all and says how many are flagged, and how to
    /// publish them as a forced rendition.
    package static func read(
        _ url: URL, format: SubtitleFormat, language: LanguageTag?, loader: ResourceLoader, sourceID: String, location: String, crops: Bool = false,
        forcedTrack: Bool = false
    ) async throws(SubweaveError) -> IngestedSubtitles {
        func failure(_ what: String) -> SubweaveError { .load(LoadFailure(.notSubtitles, sourceID: sourceID, location: location, MessageText(what))) }
        var warnings: [IngestWarning] = []
        let pictures: [SubtitlePicture]
        var named: LanguageTag?
        // A .sup or .ts file, read whole.
        func whole() async throws(SubweaveError) -> [UInt8] {
            do { return try await loader.read(url, kind: .segment) } catch {
                throw .load(LoadFailure(.unreachable, sourceID: sourceID, location: location, MessageText(error.explanation)))
            }
        }
        if format == .dvbSub {
            let bytes = try await whole()
            let stream = DVBSubtitles.pictures(transportStream: bytes)
            guard stream.found else {
                throw failure("no DVB subtitle stream (stream type 0x06 with a subtitling_descriptor) in this MPEG-TS file")
            }
            pictures = SubtitlePicture.joiningRepeats(stream.pictures)
            named = namedLanguage(stream.language)
            warnings += stream.problems.map { IngestWarning(kind: .pictureSkipped, line: nil, "\($0); that part of the stream was skipped") }
            if stream.problemsLeftOut > 0 {
                warnings.append(
                    IngestWarning(
                        kind: .pictureSkipped, line: nil,
                        "\(stream.problemsLeftOut) more problem(s) in the stream were left out (the first \(stream.problems.count) are above)"))
            }
        } else if format == .pgs {
            let bytes = try await whole()
            let read = PGS.pictures(bytes)
            guard !read.pictures.isEmpty || read.problems.isEmpty || bytes.isEmpty else { throw failure("not a PGS file: \(read.problems[0])") }
            pictures = SubtitlePicture.joiningRepeats(read.pictures)
            warnings += read.problems.map { IngestWarning(kind: .pictureSkipped, line: nil, "\($0); that part of the file was skipped") }
        } else {
            let (read, language, notes) = try await vobSub(url, loader: loader, failure: failure)
            pictures = read
            named = language
            warnings += notes
        }
        let chosen = (language?.isUndetermined == false ? language : nil) ?? named ?? LanguageTag(parsing: "en")
        guard let chosen else { throw failure("no language to read the pictures in") }
        if (language == nil || language?.isUndetermined == true) && named == nil {
            warnings.append(
                IngestWarning(kind: .pictureSkipped, line: nil, "neither the track nor the file names a language: the pictures were read as English"))
        }
        let flagged = pictures.filter(\.forced).count
        var shown = pictures
        if flagged > 0 && flagged < pictures.count {
            if forcedTrack {
                shown = pictures.filter(\.forced)
                warnings.append(
                    IngestWarning(
                        kind: .servicesIgnored, line: nil,
                        "the track is forced: only the \(flagged) of \(pictures.count) pictures the file flags forced were read; the \(pictures.count - flagged) others were left out"
                    ))
            } else {
                warnings.append(
                    IngestWarning(
                        kind: .servicesIgnored, line: nil,
                        "\(flagged) of \(pictures.count) pictures are flagged forced (shown even with subtitles off); all were read: to publish those as a forced rendition, add this file again with forced=yes"
                    ))
            }
        } else if flagged > 0 && !forcedTrack {
            warnings.append(
                IngestWarning(
                    kind: .servicesIgnored, line: nil,
                    "every picture is flagged forced (shown even with subtitles off): declare the track forced=yes to publish it as a forced rendition"))
        }
        let read = try await recognise(shown, in: chosen, crops: crops)
        warnings += read.warnings
        var ingested = IngestedSubtitles(
            ingestFormat: format == .pgs ? "pgs_ocr" : format == .dvbSub ? "dvbsub_ocr" : "vobsub_ocr", cues: read.cues, headerBlocks: [], regions: [],
            encoding: .utf8, warnings: warnings,
            declaredLanguage: named?.description)
        ingested.recognition = read.confidences
        if flagged > 0 { ingested.forced = read.forced }
        if crops { ingested.crops = read.crops }
        return ingested
    }

    /// Pictures read as cues: what Tesseract read in each, its confidence, and the warnings.
    package struct Recognised: Sendable {
        package var cues: [Cue] = []
        /// Each cue's picture: its index in the pictures read.
        package var pictures: [Int] = []
        /// Whether each cue's picture is flagged forced.
        package var forced: [Bool] = []
        /// Each cue's mean word confidence (percent).
        package var confidences: [Double] = []
        /// Each cue's picture as PNG, when asked for.
        package var crops: [[UInt8]] = []
        package var warnings: [IngestWarning] = []
    }

    /// Reads `pictures` in `language`, a page of cleaned images at a time (a film's pictures are
    /// never all enlarged at once): a cue per picture with text, with its placement and italics;
    /// a picture without text and a cue below ``lowConfidence`` are warnings.
    package static func recognise(_ pictures: [SubtitlePicture], in language: LanguageTag, crops: Bool = false) async throws(SubweaveError)
        -> Recognised
    {
        try await onDispatch { () throws(SubweaveError) in try recogniseNow(pictures, in: language, crops: crops) }
    }

    /// ``recognise(_:in:crops:)`` on the calling thread, which it blocks while Tesseract runs.
    package static func recogniseNow(_ pictures: [SubtitlePicture], in language: LanguageTag, crops: Bool = false) throws(SubweaveError)
        -> Recognised
    {
        let ocr = try TesseractOCR(language: language)
        var readings: [TesseractOCR.Reading] = []
        var italic: [Bool] = []
        var start = 0
        while start < pictures.count {
            let images = pictures[start..<min(pictures.count, start + TesseractOCR.pageSize)].map { OCRImage($0) }
            readings += try ocr.read(images)
            italic += images.map(\.italic)
            start += images.count
        }
        var result = Recognised()
        for (index, (picture, (reading, leans))) in zip(pictures, zip(readings, italic)).enumerated() {
            let end = picture.end ?? picture.start + MediaTime(milliseconds: 5000)
            let span = "\(picture.start.decimalSeconds)-\(end.decimalSeconds) s"
            guard !reading.lines.isEmpty, end > picture.start else {
                result.warnings.append(
                    IngestWarning(
                        kind: .pictureSkipped, line: nil, "the picture at \(span) (byte \(picture.offset) of the file) has no text Tesseract could read"))
                continue
            }
            // Letters that lean (``OCRImage/italic``): the cue's lines in italics.
            let escaped = reading.lines.map(CueText.escaped)
            let text = (leans ? escaped.map { "<i>\($0)</i>" } : escaped).joined(separator: "\n")
            result.cues.append(Cue(start: picture.start, end: end, settings: placement(picture), text: text))
            result.pictures.append(index)
            result.forced.append(picture.forced)
            if crops { result.crops.append(PNGImage.png(picture)) }
            let confidence = reading.confidence ?? 0
            result.confidences.append(confidence)
            if confidence < lowConfidence {
                result.warnings.append(
                    IngestWarning(
                        kind: .lowConfidence, line: nil,
                        "the cue at \(span) was read with \(Int(confidence.rounded())) % confidence: \"\(reading.lines.joined(separator: " / "))\"; check it against the picture"
                    ))
            }
        }
        return result
    }

    /// A VobSub index's pictures (from the `.sub` beside it), the language it names for its
    /// first stream, and what it could not read.
    static func vobSub(_ url: URL, loader: ResourceLoader, failure: (String) -> SubweaveError) async throws(SubweaveError) -> (
        [SubtitlePicture], LanguageTag?, [IngestWarning]
    ) {
        let subURL = url.deletingPathExtension().appendingPathExtension("sub")
        let indexBytes: [UInt8]
        let subBytes: [UInt8]
        do {
            indexBytes = try await loader.read(url, kind: .subtitle)
            subBytes = try await loader.read(subURL, kind: .segment)
        } catch {
            throw failure("\(error.explanation) (a VobSub .idx needs its .sub beside it: \(MediaReader.display(subURL)))")
        }
        let index: VobSub.Index
        do { index = try VobSub.index(String(decoding: indexBytes, as: UTF8.self)) } catch {
            throw failure("not a VobSub index: \(error)")
        }
        guard !index.streams.isEmpty else { throw failure("the VobSub index lists no subtitle stream (no \"id:\" or \"timestamp:\" line)") }
        var warnings: [IngestWarning] = []
        if index.streams.count > 1 {
            warnings.append(
                IngestWarning(
                    kind: .servicesIgnored, line: nil, "the index lists \(index.streams.count) streams; the first (\(index.streams[0].language)) was read"))
        }
        let (pictures, problems) = VobSub.pictures(index: index, sub: subBytes)
        warnings += problems.map { IngestWarning(kind: .pictureSkipped, line: nil, "\(MediaReader.display(subURL)): \($0); that picture was skipped") }
        let named = namedLanguage(index.streams[0].language)
        return (pictures, named, warnings)
    }

    /// The language a file's code names, nil for none or `und`.
    static func namedLanguage(_ code: String?) -> LanguageTag? {
        code.flatMap(LanguageTag.init(parsing:)).flatMap { $0.isUndetermined ? nil : $0 }
    }

    /// Where a picture shows, as cue settings: near the top of the frame a line at the top, in
    /// the middle one at the middle, else the default (the bottom).
    static func placement(_ picture: SubtitlePicture) -> CueSettings {
        guard let height = picture.frameHeight ?? (picture.y + picture.height > 576 ? nil : 576), height > 0 else { return CueSettings() }
        let middle = Double(picture.y) + Double(picture.height) / 2
        if middle < Double(height) / 3 { return CueSettings(line: .number("0")) }
        if middle < Double(height) * 0.6 { return CueSettings(line: .percentage("50"), lineAlign: .center) }
        return CueSettings()
    }
}
