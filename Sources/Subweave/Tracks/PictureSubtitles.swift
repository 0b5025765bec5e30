import Foundation
import Pictures
import Platform
import Timebase
import TimedText

/// Bitmap subtitle files read as text: a VobSub pair (`.idx`, with its `.sub` beside it) decoded
/// to pictures (``VobSub``), each cleaned for OCR (``OCRImage``) and read by Tesseract in the
/// track's language (``TesseractOCR``).
///
/// Never a silent guess: every cue keeps the confidence Tesseract gave its words
/// (``IngestedSubtitles/recognition``), a cue below ``lowConfidence`` is a warning with its
/// times and text, and a picture in which nothing could be read is a warning too.
package enum PictureSubtitles {
    /// Below this mean word confidence (percent) a cue is said to need a look.
    package static let lowConfidence = 75.0

    /// The cues of the VobSub index at `url` and the `.sub` file beside it, in `language` (nil:
    /// the index's language for its first stream, else English, said).
    package static func read(
        vobSubIndex url: URL, language: LanguageTag?, loader: ResourceLoader, sourceID: String, location: String
    ) async throws(SubweaveError) -> IngestedSubtitles {
        func failure(_ what: String) -> SubweaveError { .load(LoadFailure(.notSubtitles, sourceID: sourceID, location: location, MessageText(what))) }
        let indexBytes: [UInt8]
        let subURL = url.deletingPathExtension().appendingPathExtension("sub")
        let subBytes: [UInt8]
        do {
            indexBytes = try await loader.read(url, kind: .subtitle)
            subBytes = try await loader.read(subURL, kind: .segment)
        } catch {
            let why = "\(error.explanation) (a VobSub .idx needs its .sub beside it: \(MediaReader.display(subURL)))"
            throw .load(LoadFailure(.unreachable, sourceID: sourceID, location: location, MessageText(why)))
        }
        let index: VobSub.Index
        do { index = try VobSub.index(String(decoding: indexBytes, as: UTF8.self)) } catch {
            throw failure("not a VobSub index: \(error)")
        }
        guard !index.streams.isEmpty else { throw failure("the VobSub index lists no subtitle stream (no \"id:\" or \"timestamp:\" line)") }
        var warnings: [IngestWarning] = []
        let named = LanguageTag(parsing: index.streams[0].language).flatMap { $0.isUndetermined ? nil : $0 }
        let chosen = (language?.isUndetermined == false ? language : nil) ?? named ?? LanguageTag(parsing: "en")
        guard let chosen else { throw failure("no language to read the pictures in") }
        if (language == nil || language?.isUndetermined == true) && named == nil {
            warnings.append(
                IngestWarning(kind: .pictureSkipped, line: nil, "neither the track nor the index names a language: the pictures were read as English"))
        }
        if index.streams.count > 1 {
            warnings.append(
                IngestWarning(
                    kind: .servicesIgnored, line: nil, "the index lists \(index.streams.count) streams; the first (\(index.streams[0].language)) was read"))
        }
        let (pictures, problems) = VobSub.pictures(index: index, sub: subBytes)
        warnings += problems.map { IngestWarning(kind: .pictureSkipped, line: nil, "\(MediaReader.display(subURL)): \($0); that picture was skipped") }
        let ocr = try TesseractOCR(language: chosen)
        let images = pictures.map { OCRImage($0) }
        let readings = try await onDispatch { () throws(SubweaveError) in try ocr.read(images) }
        var cues: [Cue] = []
        var confidences: [Double] = []
        for (picture, reading) in zip(pictures, readings) {
            let end = picture.end ?? picture.start + MediaTime(milliseconds: 5000)
            let span = "\(picture.start.decimalSeconds)-\(end.decimalSeconds) s"
            guard !reading.lines.isEmpty, end > picture.start else {
                warnings.append(
                    IngestWarning(
                        kind: .pictureSkipped, line: nil, "the picture at \(span) (byte \(picture.offset) of the .sub) has no text Tesseract could read"))
                continue
            }
            let text = reading.lines.map(CueText.escaped).joined(separator: "\n")
            cues.append(Cue(start: picture.start, end: end, settings: placement(picture), text: text))
            let confidence = reading.confidence ?? 0
            confidences.append(confidence)
            if confidence < lowConfidence {
                warnings.append(
                    IngestWarning(
                        kind: .lowConfidence, line: nil,
                        "the cue at \(span) was read with \(Int(confidence.rounded())) % confidence: \"\(reading.lines.joined(separator: " / "))\"; check it against the picture"
                    ))
            }
        }
        var ingested = IngestedSubtitles(
            ingestFormat: "vobsub_ocr", cues: cues, headerBlocks: [], regions: [], encoding: .utf8, warnings: warnings,
            declaredLanguage: named?.description)
        ingested.recognition = confidences
        return ingested
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
