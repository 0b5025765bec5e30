import Captions
import Foundation
import Timebase
import TimedText

/// How a caption file (SCC, MCC) is read: the rate of its timecodes (nil: the file's own, else
/// 29.97) and the service its track takes (nil: the first with text).
public struct CaptionFileReading: Sendable, Equatable {
    public var fps: TimecodeRate?
    public var service: CaptionService?

    public init(fps: TimecodeRate? = nil, service: CaptionService? = nil) {
        self.fps = fps
        self.service = service
    }
}

/// Turns subtitle bytes into cues: decoding, format dispatch, repair, and the checks that catch
/// the classic mistakes.
package enum SubtitleIngest {
    /// What the cues are read for.
    package enum Purpose: Sendable {
        /// Segments to write: markup repaired, every cue an identifier, backward cues dropped.
        case packaging
        /// Another file to write (`convert`): markup repaired, identifiers as in the file.
        case conversion
        /// The file as a browser reads it (`cues`): cue text and identifiers as written, cues whose
        /// end is not after their start kept (and reported).
        case inspection
    }

    /// Reads `bytes` as `format`.
    ///
    /// `location` names the source in failures.
    package static func read(
        _ bytes: consuming [UInt8], format: SubtitleFormat, encoding forced: TextEncoding?, captionFile: CaptionFileReading = CaptionFileReading(),
        sourceID: String, location: String, purpose: Purpose = .packaging
    ) throws(LoadFailure) -> IngestedSubtitles {
        func wrongFormat(_ description: String) -> LoadFailure {
            LoadFailure(.notSubtitles, sourceID: sourceID, location: location, "\(description); check that the declared format matches the file")
        }
        if format == .vtt, TextDecoder.isUTF8(&bytes, forced: forced) {
            // WebVTT in UTF-8 (most of it) is parsed in its own bytes, not decoded into a copy.
            var controls = ControlCharacters()
            bytes.withUnsafeBufferPointer { controls.scan($0) }
            let document: WebVTTDocument
            do {
                document = try WebVTTParser.parse(utf8: consume bytes, options: webVTTOptions(purpose))
            } catch {
                throw wrongFormat(error.description)
            }
            return finish(webVTT(document), format: format, encoding: .utf8, decodingWarnings: controls.warning.map { [$0] } ?? [], purpose: purpose)
        }
        if format == .stl {
            // Binary: its character code table says how its text is encoded.
            let read: EBUSTLReader.Read
            do { read = try EBUSTLReader.read(bytes, rate: captionFile.fps) } catch { throw wrongFormat(error.description) }
            let parsed = Parsed(cues: read.cues, ingestFormat: "stl_converted", warnings: read.warnings, textSanitized: true)
            return finish(parsed, format: format, encoding: .utf8, decodingWarnings: [], purpose: purpose)
        }
        let decoded = TextDecoder.decode(bytes, forced: forced)
        // The bytes go once decoded, and the text once parsed: a large file is never held three
        // times (text, parsed cues, repaired cues) while its cues are read.
        _ = consume bytes
        var warnings = decodingWarnings(decoded)
        var controls = ControlCharacters()
        controls.scan(decoded.text)
        if let warning = controls.warning { warnings.append(warning) }
        let (encoding, confidence) = (decoded.encoding, decoded.confidence)
        let holdsText = format != .vtt && decoded.text.contains { !$0.isWhitespace }
        let text = decoded.text
        _ = consume decoded
        var parsed: Parsed
        do {
            parsed = try parse(consume text, format: format, captionFile: captionFile, purpose: purpose)
        } catch {
            throw wrongFormat(error.description)
        }
        if parsed.cues.isEmpty, holdsText { warnings.append(noCueFound(encoding, format)) }
        var ingested = finish(parsed, format: format, encoding: encoding, decodingWarnings: warnings, purpose: purpose)
        ingested.encodingConfidence = confidence
        return ingested
    }

    /// How the WebVTT parser reads for `purpose`: after the decoder (which removes a first byte
    /// order mark), keeping backward cues for inspection as browsers do.
    static func webVTTOptions(_ purpose: Purpose) -> WebVTTParser.Options {
        WebVTTParser.Options(byteOrderMarkRemoved: true, keepsBackwardCues: purpose == .inspection)
    }

    /// The ingested subtitles from what a parser gave: text repaired for `purpose`.
    static func finish(
        _ parsed: consuming Parsed, format: SubtitleFormat, encoding: TextEncoding, decodingWarnings: [IngestWarning], purpose: Purpose
    ) -> IngestedSubtitles {
        let repairs =
            purpose == .inspection
            ? [] : repair(&parsed.cues, reportMarkup: format == .vtt, numbering: purpose == .packaging, sanitizing: !parsed.textSanitized)
        return IngestedSubtitles(
            ingestFormat: parsed.ingestFormat, cues: parsed.cues, headerBlocks: parsed.headerBlocks, regions: parsed.regions,
            encoding: encoding, warnings: decodingWarnings + parsed.warnings + repairs, declaredLanguage: parsed.language)
    }

    /// What a format's parser gives.
    struct Parsed {
        var cues: [Cue]
        var headerBlocks: [String] = []
        var regions: [CueRegion] = []
        let ingestFormat: String
        var warnings: [IngestWarning]
        var language: String? = nil
        /// The parser made every cue's text valid WebVTT already (``CueText/sanitized(_:)``), so
        /// the repair does not again.
        var textSanitized = false
    }

    /// A file that is not of the format it was read as.
    struct WrongFormat: Error {
        let description: String
    }

    /// For a file written out (`convert`, `cues`): cues with no resolvable end are ended.
    ///
    /// Each ends where the document does, the latest time it names, or 10 s after its start when nothing comes later
    /// (as a last caption never erased). The packager ends it with the programme instead.
    static func endingIndefiniteCues(_ cues: [Cue]) -> [Cue] {
        guard cues.contains(where: { $0.end == .indefinite }) else { return cues }
        let documentEnd = cues.reduce(MediaTime.zero) { max($0, $1.end == .indefinite ? $1.start : $1.end) }
        return cues.map { cue in
            guard cue.end == .indefinite else { return cue }
            var ended = cue
            ended.end = documentEnd > cue.start ? documentEnd : cue.start + MediaTime(seconds: 10)
            return ended
        }
    }

    /// Text that gave no cue: never taken for an empty track in silence.
    static func noCueFound(_ encoding: TextEncoding, _ format: SubtitleFormat) -> IngestWarning {
        IngestWarning(
            kind: .noCueFound, line: nil,
            "the text, read as \(encoding.rawValue) \(format.rawValue), gave no cue; if the file has cues, declare its format= or encoding=")
    }

    /// The bytes were not all valid in the encoding they were read in.
    ///
    /// A guessed encoding is a warning only when the guess is unsure: its calibrated confidence
    /// (the measured share of such guesses that are right) below
    /// ``EncodingCalibration/warningThreshold``.
    static func decodingWarnings(_ decoded: DecodedText) -> [IngestWarning] {
        if decoded.usedFallback {
            let confidence = decoded.confidence ?? 0
            guard confidence < EncodingCalibration.warningThreshold else { return [] }
            return [
                IngestWarning(
                    kind: .encodingFallback, line: nil,
                    "the file is not valid UTF-8 (first bad byte at offset \(decoded.firstInvalidOffset ?? 0)); read as \(decoded.encoding.rawValue), the encoding its text fits best, but unsure: such guesses are right \(Int((confidence * 100).rounded())) times in 100. Declare encoding=… if that is wrong"
                )
            ]
        } else if let bad = decoded.firstInvalidOffset {
            return [
                IngestWarning(
                    kind: .invalidBytes, line: nil, "byte offset \(bad) is not valid \(decoded.encoding.rawValue); such bytes were replaced by U+FFFD")
            ]
        }
        return []
    }

    /// Parses decoded text as `format`; `captionFile` says how a caption file (SCC, MCC) is read.
    static func parse(
        _ text: String, format: SubtitleFormat, captionFile: CaptionFileReading = CaptionFileReading(), purpose: Purpose = .packaging
    ) throws(WrongFormat) -> Parsed {
        switch format {
        case .vtt:
            let document: WebVTTDocument
            do { document = try WebVTTParser.parse(text, options: webVTTOptions(purpose)) } catch { throw WrongFormat(description: error.description) }
            return webVTT(document)
        case .srt:
            let (cues, warnings) = SubRipParser.parse(text)
            return Parsed(cues: cues, ingestFormat: "srt_converted", warnings: warnings, textSanitized: true)
        case .scc:
            do {
                let read = try SCCReader.read(text, rate: captionFile.fps ?? .ntsc, service: captionFile.service)
                return Parsed(cues: read.cues, ingestFormat: "scc_converted", warnings: read.warnings)
            } catch {
                throw WrongFormat(description: error.description)
            }
        case .stl:
            do {
                let read = try EBUSTLReader.read(Array(text.utf8), rate: captionFile.fps)
                return Parsed(cues: read.cues, ingestFormat: "stl_converted", warnings: read.warnings, textSanitized: true)
            } catch {
                throw WrongFormat(description: error.description)
            }
        case .mcc:
            do {
                let read = try MCCReader.read(text, rate: captionFile.fps)
                let chosen = CaptionService.choose(captionFile.service, among: read.services)
                return Parsed(cues: chosen.cues, ingestFormat: "mcc_converted", warnings: read.warnings + chosen.warnings)
            } catch {
                throw WrongFormat(description: error.description)
            }
        case .ass:
            do {
                let read = try ASSParser.parse(text)
                return Parsed(cues: read.cues, ingestFormat: "ass_converted", warnings: read.warnings)
            } catch {
                throw WrongFormat(description: error.description)
            }
        case .vobSub, .pgs, .dvbSub:
            // Pictures, not text: read through OCR (PictureSubtitles), never parsed as text.
            throw WrongFormat(description: "\(format.rawValue) subtitles are pictures, read through OCR")
        case .ttml:
            do {
                let read = try TTMLParser.parse(text)
                let cues = purpose == .packaging ? read.cues : endingIndefiniteCues(read.cues)
                return Parsed(cues: cues, ingestFormat: "ttml_converted", warnings: read.warnings, language: read.language)
            } catch {
                throw WrongFormat(description: error.description)
            }
        }
    }

    /// A WebVTT document as the packager takes it: its own map reported (ignored), cues sorted.
    static func webVTT(_ document: consuming WebVTTDocument) -> Parsed {
        var warnings = document.warnings
        if let mapLine = document.timestampMapLine {
            warnings.append(
                IngestWarning(
                    kind: .timestampMapIgnored, line: mapLine,
                    "the file's own X-TIMESTAMP-MAP is ignored: side-loaded cue times are taken as programme time (0 = the first video frame)"))
        }
        // Browsers keep every cue; the segments must also be sorted (stably; most files are) and
        // carry valid markup.
        var cues: [Cue] = []
        swap(&cues, &document.cues)
        cues.sortByStart()
        return Parsed(
            cues: cues, headerBlocks: WebVTTWriter.headerBlocks(document), regions: document.regions, ingestFormat: "vtt", warnings: warnings)
    }

    /// Makes every cue's text valid WebVTT and every identifier unique (then, with `numbering`,
    /// gives each cue one).
    static func repair(_ cues: inout [Cue], reportMarkup: Bool, numbering: Bool = true, sanitizing: Bool = true) -> [IngestWarning] {
        var warnings: [IngestWarning] = []
        var repairedCount = 0
        var firstRepairLine: Int?
        var seenIdentifiers: Set<String> = []
        for index in cues.indices {
            if sanitizing, case let (text, changed) = CueText.sanitized(cues[index].text), changed {
                repairedCount += 1
                if firstRepairLine == nil { firstRepairLine = cues[index].sourceLine }
                cues[index].text = text
            }
            let id = cues[index].identifier
            if !id.isEmpty && !seenIdentifiers.insert(id).inserted {
                // hls.js drops a cue whose identifier it has seen: a reused identifier would hide this cue.
                warnings.append(
                    IngestWarning(
                        kind: .duplicateIdentifier, line: cues[index].sourceLine,
                        "cue identifier \"\(id)\" is used by an earlier cue; dropped from this cue so players do not discard it as a repeat"))
                cues[index].identifier = ""
            }
        }
        if numbering { assignIdentifiers(&cues, taken: seenIdentifiers) }
        if repairedCount > 0 && reportMarkup {
            warnings.append(
                IngestWarning(
                    kind: .markupRepaired, line: firstRepairLine,
                    "cue text markup repaired in \(repairedCount.counted("cue")) (unknown or unclosed tags, bare '&' or '>')"))
        }
        return warnings
    }

    /// Why `ingested` (read from `location` as `format`) gave no cue: the file is empty, or every
    /// cue was skipped (the first reason and its line), or nothing looked like a cue.
    package static func noCues(_ ingested: IngestedSubtitles, format: SubtitleFormat, sourceID: String, location: String, empty: Bool) -> LoadFailure {
        let skipped = ingested.warnings.filter { $0.kind == .cueSkipped || $0.kind == .emptyCue || $0.kind == .lineSkipped }
        let reason: String
        if empty {
            reason = "the file is empty"
        } else if let first = skipped.first {
            reason = "every cue was skipped (\(skipped.count) in all); the first: \(first)"
        } else {
            reason = "nothing in it reads as a \(format.rawValue) cue; check that the declared format matches the file"
        }
        return LoadFailure(.noCues, sourceID: sourceID, location: location, "no cues: \(reason)")
    }

    /// Gives every cue without an identifier one: its 1-based position, or, if the file already
    /// uses that for another cue, the position with a `-2`, `-3` … suffix.
    ///
    /// A segment repeats a boundary cue; with an identifier a player recognises the repeat by it
    /// (hls.js does) instead of comparing computed times, so the cue shows once.
    static func assignIdentifiers(_ cues: inout [Cue], taken: Set<String>) {
        // Only the file's own identifiers can clash: the ones made here differ in the number
        // before the first `-` (a position has no `-`), so they are not collected (a set of
        // millions of them would outweigh the cues).
        for index in cues.indices where cues[index].identifier.isEmpty {
            var candidate = String(index + 1)
            var suffix = 2
            while taken.contains(candidate) {
                candidate = "\(index + 1)-\(suffix)"
                suffix += 1
            }
            cues[index].identifier = candidate
        }
    }

    /// Shifts every cue by `delay`; cues that end at or before 0 are dropped and starts before 0
    /// are clamped, with warnings.
    package static func applyDelay(_ delay: MediaTime, rate: ClockRate = .one, to cues: [Cue]) -> ([Cue], [IngestWarning]) {
        guard delay != .zero || !rate.isOne else { return (cues, []) }
        var result: [Cue] = []
        var dropped = 0
        var clamped = 0
        for var cue in cues {
            cue.start = rate.divide(cue.start) + delay
            cue.end = rate.divide(cue.end) + delay
            if cue.end <= .zero { dropped += 1; continue }
            if cue.start < .zero { cue.start = .zero; clamped += 1 }
            result.append(cue)
        }
        var warnings: [IngestWarning] = []
        if dropped > 0 {
            warnings.append(
                IngestWarning(
                    kind: .cueSkipped, line: nil,
                    "\(dropped.counted("cue")) \(dropped == 1 ? "ends" : "end") before 0 after delay \(delay.decimalSeconds) s and \(dropped == 1 ? "was" : "were") dropped"
                ))
        }
        if clamped > 0 {
            warnings.append(
                IngestWarning(
                    kind: .cueClamped, line: nil,
                    "\(clamped.counted("cue")) \(clamped == 1 ? "starts" : "start") before 0 after delay \(delay.decimalSeconds) s and now \(clamped == 1 ? "starts" : "start") at 0"
                ))
        }
        return (result, warnings)
    }

    /// Warnings about cues that do not fit a programme of `duration`; `complete` is false while the
    /// video playlist is still growing (no EXT-X-ENDLIST), when late cues are simply not due yet.
    package static func timelineWarnings(_ cues: [Cue], duration: MediaTime, complete: Bool = true) -> [IngestWarning] {
        var warnings: [IngestWarning] = []
        // Counted, not copied: a file of millions of cues may be mostly past the end.
        let lateCount = cues.reduce(0) { $0 + ($1.start >= duration ? 1 : 0) }
        let firstLate = cues.first { $0.start >= duration }
        let hour = MediaTime(seconds: 3600)
        if let first = cues.first, first.start >= hour, duration < hour {
            // Broadcast sidecars are timecoded from 01:00:00:00 (or 10:00:00:00): the offset that
            // brings the first cue into the programme is a whole number of hours.
            let hours = first.start.ticks / hour.ticks
            warnings.append(
                IngestWarning(
                    kind: .timecodedSource, line: first.sourceLine,
                    "the first cue starts at \(first.start.decimalSeconds) s, more than \(hours) h in, on a programme of \(duration.decimalSeconds) s: the file looks timecoded from \(hours < 10 ? "0" : "")\(hours):00:00:00; add offset=-\(hours < 10 ? "0" : "")\(hours):00:00 to its descriptor"
                ))
        }
        if let firstLate, complete {
            warnings.append(
                IngestWarning(
                    kind: .cuesAfterEnd, line: firstLate.sourceLine,
                    "\(lateCount.counted("cue")) \(lateCount == 1 ? "starts" : "start") after the video ends (\(duration.decimalSeconds) s), the first at \(firstLate.start.decimalSeconds) s: not shown now, kept beside the rendition for a refresh on a longer programme. Is this the subtitle file of this asset?"
                ))
        } else if let firstLate {
            warnings.append(
                IngestWarning(
                    kind: .cuesNotYetPublished, line: firstLate.sourceLine,
                    "\(lateCount.counted("cue")) \(lateCount == 1 ? "starts" : "start") after the video published so far (\(duration.decimalSeconds) s; the playlist has no EXT-X-ENDLIST), the first at \(firstLate.start.decimalSeconds) s; they go into the segments that carry them once those are published"
                ))
        }
        if cues.count >= 2, cues[0].start == .zero, cues[1].start - cues[0].end >= MediaTime(seconds: 60) {
            warnings.append(
                IngestWarning(
                    kind: .firstCueAtZero, line: cues[0].sourceLine,
                    "the first cue starts at 0 but the next starts \(cues[1].start.decimalSeconds) s in; a cue at 0 is often a leftover (a title, a credit, a sync marker)"
                ))
        }
        return warnings
    }
}
