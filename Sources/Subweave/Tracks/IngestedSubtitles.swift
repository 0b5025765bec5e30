import Timebase
import TimedText

/// Cues read from a subtitle file, ready to segment, and how they were read.
public struct IngestedSubtitles: Sendable, Equatable {
    /// `vtt`, `srt_converted` or `scc_converted`.
    public let ingestFormat: String
    /// Cues sorted by start time, text valid WebVTT.
    public let cues: [Cue]
    /// `REGION` and `STYLE` blocks every segment repeats.
    public let headerBlocks: [String]
    /// The `REGION` definitions cues may refer to.
    public let regions: [CueRegion]
    /// The encoding the bytes were read in.
    public let encoding: TextEncoding
    /// When the encoding was guessed: the measured chance the guess is right (0 to 1).
    public var encodingConfidence: Double? = nil
    public let warnings: [IngestWarning]
    /// The language the file declares (a TTML document's `xml:lang`), if any.
    public var declaredLanguage: String? = nil
    /// Cues read from pictures by OCR: each cue's confidence (percent, the mean of its words'),
    /// in the order of ``cues``; nil for text files.
    public var recognition: [Double]? = nil
    /// Cues read from pictures, when asked for: each cue's picture as a PNG file, in the order
    /// of ``cues`` (for a person to check the text against; ``PictureReview``).
    public var crops: [[UInt8]]? = nil
    /// Cues read from pictures: whether each cue's picture is flagged forced (VobSub's forced
    /// start, PGS's forced object: shown even with subtitles off), in the order of ``cues``.
    public var forced: [Bool]? = nil

    /// The same subtitles on another clock: each cue time divided by `rate`, then `offset` added
    /// (the descriptor keys `rate=` and `offset=`); cues that end before 0 are dropped, with a
    /// warning.
    public func retimed(rate: ClockRate, offset: MediaTime) -> IngestedSubtitles {
        let (moved, notes) = SubtitleIngest.applyDelay(offset, rate: rate, to: cues)
        var copy = IngestedSubtitles(
            ingestFormat: ingestFormat, cues: moved, headerBlocks: headerBlocks, regions: regions, encoding: encoding, warnings: warnings + notes,
            declaredLanguage: declaredLanguage)
        copy.encodingConfidence = encodingConfidence
        // Confidences stay with their cues while none was dropped.
        if moved.count == cues.count {
            copy.recognition = recognition
            copy.forced = forced
        }
        return copy
    }

    /// The same subtitles with `warning` first among their warnings.
    package func adding(_ warning: IngestWarning) -> IngestedSubtitles {
        var copy = IngestedSubtitles(
            ingestFormat: ingestFormat, cues: cues, headerBlocks: headerBlocks, regions: regions, encoding: encoding, warnings: [warning] + warnings,
            declaredLanguage: declaredLanguage)
        copy.encodingConfidence = encodingConfidence
        copy.recognition = recognition
        copy.forced = forced
        return copy
    }
}
