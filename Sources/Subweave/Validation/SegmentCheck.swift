import Containers
import HLS
import Timebase
import TimedText

/// The rules a presentation's reading is checked by: what must be readable for the other rules
/// to be checked.
enum PresentationRules {
    static let masterParses = RuleRow("presentation.master-parses", .error, "RFC 8216bis §4", "the master playlist parses")
    static let masterReadable = RuleRow("presentation.master-readable", .error, "RFC 8216bis §4", "the master playlist can be read")
    static let variantReadable = RuleRow(
        "presentation.variant-readable", .error, "RFC 8216bis §4.4.6.2", "every variant's media playlist can be read")
    static let timelineReadable = RuleRow(
        "presentation.timeline-readable", .info, "RFC 8216bis §3.1.4", "cue timing is checked against the media timeline")
    static let variablesDefined = RuleRow(
        "presentation.variables-defined", .error, "RFC 8216bis §4.3", "every variable reference names a defined variable")
    static let subtitlePlaylistReadable = RuleRow(
        "presentation.subtitle-playlist-readable", .error, "RFC 8216bis §4.4.6.1", "the URI of a SUBTITLES rendition names a media playlist")
    static let segmentReadable = RuleRow(
        "presentation.segment-readable", .error, "RFC 8216bis §4.4.4", "every segment a playlist lists can be fetched")
    static let segmentEncrypted = RuleRow(
        "presentation.segment-encrypted", .info, "RFC 8216bis §5.2", "an encrypted segment is checked when its key (EXT-X-KEY URI) can be fetched")
    static let subtitleFormat = RuleRow(
        "presentation.subtitle-format", .error, "RFC 8216bis §3.1.4, Apple HLS Authoring Spec 5.3",
        "subtitle segments are WebVTT text files or IMSC1 in fragmented MP4 (WebVTT in fragmented MP4 is not an HLS format)")

    static let rows: [RuleRow] = [
        masterParses, masterReadable, variantReadable, timelineReadable, variablesDefined, subtitlePlaylistReadable, segmentReadable,
        segmentEncrypted, subtitleFormat,
    ]
}

/// The rules of one WebVTT segment, on its own and against the media timeline.
enum SegmentRules {
    static let utf8 = RuleRow("segment.utf8", .error, "RFC 8216bis §3.1.4", "WebVTT segments are UTF-8")
    static let signature = RuleRow("segment.signature", .error, "W3C WebVTT §6.1", "a WebVTT file begins with the WEBVTT signature")
    static let validBlocks = RuleRow("segment.valid-blocks", .warning, "W3C WebVTT §4", "every block of a WebVTT file is valid")
    static let validCueText = RuleRow(
        "segment.valid-cue-text", .warning, "W3C WebVTT §4.2.2", "cue text is valid WebVTT cue text (known tags, closed, & escaped)")
    static let hasTimestampMap = RuleRow(
        "segment.timestamp-map", .error, "Apple HLS Authoring Spec 5.3", "every WebVTT segment has an X-TIMESTAMP-MAP header")
    static let timestampMapSyntax = RuleRow(
        "segment.timestamp-map-syntax", .error, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<WebVTT time>")
    static let timestampMapInHeader = RuleRow(
        "segment.timestamp-map-in-header", .error, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP is in the WebVTT header")
    static let timestampMapOnPresentation = RuleRow(
        "segment.timestamp-map-presentation-time", .error, "RFC 8216bis §3.1.4",
        "X-TIMESTAMP-MAP maps to the media's presentation timeline (players show a frame at its presentation time)")
    static let cuesInPeriod = RuleRow(
        "segment.cues-in-period", .warning, "RFC 8216bis §3.1.4", "a segment holds the cues displayed during its period")
    static let carriesEveryCueShown = RuleRow(
        "segment.carries-every-cue-shown", .error, "RFC 8216bis §3.1.4",
        "a WebVTT segment contains every cue displayed during its EXTINF period, with its full timing")

    static let rows: [RuleRow] = [
        utf8, signature, validBlocks, validCueText, hasTimestampMap, timestampMapSyntax, timestampMapInHeader, timestampMapOnPresentation,
        cuesInPeriod, carriesEveryCueShown,
    ]
}

/// The checks of one WebVTT segment, on its own and against the media timeline.
struct SegmentCheck {
    let file: String
    let window: Range<MediaTime>
    let sequence: Int
    let timeline: ProgrammeTimeline?

    /// The findings for the segment's bytes, and its cues on the programme timeline.
    func check(_ bytes: [UInt8]) -> (ValidationFindings, [PresentationValidator.PlacedCue]) {
        var findings = ValidationFindings()
        func add(_ row: RuleRow, _ line: Int?, _ message: String) { self.add(&findings, row, line, message) }
        if let offset = UTF8Check.firstInvalidOffset(bytes) {
            add(SegmentRules.utf8, nil, "byte offset \(offset) is not UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let document: WebVTTDocument
        do {
            document = try WebVTTParser.parse(text)
        } catch {
            add(SegmentRules.signature, 1, error.description)
            return (findings, [])
        }
        for warning in document.warnings {
            add(SegmentRules.validBlocks, warning.line, warning.message)
        }
        for cue in document.cues where CueText.repaired(cue.text).changed {
            add(SegmentRules.validCueText, cue.sourceLine, "the text of the cue at \(WebVTTTimestamp.format(cue.start)) has invalid markup")
        }
        let map = timestampMap(in: text, into: &findings)
        let placed = map.map { place(document.cues, by: $0, into: &findings) } ?? []
        return (findings, placed)
    }

    /// The segment's X-TIMESTAMP-MAP (HLS §3.5): in the header, before the first blank line,
    /// where hls.js looks, and on the first frame's presentation time.
    private func timestampMap(in text: String, into findings: inout ValidationFindings) -> TimestampMap? {
        let header = TimestampMap.find(in: text)
        var map: TimestampMap?
        switch header {
        case .none:
            add(
                &findings,
                SegmentRules.hasTimestampMap, nil,
                "no X-TIMESTAMP-MAP: players take cue time 0 as media time 0, which is wrong for almost every stream (ffmpeg starts at 1.4 s, Apple at 10 s)")
        case .malformed(let line):
            add(&findings, SegmentRules.timestampMapSyntax, line, "the X-TIMESTAMP-MAP line is malformed")
        case .found(let found, let line, let inHeader):
            map = found
            if !inHeader {
                add(
                    &findings,
                    SegmentRules.timestampMapInHeader, line,
                    "X-TIMESTAMP-MAP comes after the first blank line; hls.js ignores it there and shows every cue early")
            }
            if let start = sequenceStart, let decode = start.media.decodeStart, decode != start.media.start,
                PresentationTimestamp.wrappedDifference(found.mpegts, decode) == 0
            {
                let early = MediaTime(ticks: PresentationTimestamp.wrappedDifference(start.media.start, decode))
                add(
                    &findings,
                    SegmentRules.timestampMapOnPresentation, line,
                    "MPEGTS \(found.mpegts) is the first frame's decode time; it is presented at \(start.media.start), so every cue shows \(early.decimalSeconds) s early"
                )
            }
        }
        return map
    }

    /// The cues on the programme timeline, each checked to fall in the segment's period.
    private func place(
        _ cues: [Cue], by map: TimestampMap, into findings: inout ValidationFindings
    ) -> [PresentationValidator.PlacedCue] {
        var placed: [PresentationValidator.PlacedCue] = []
        guard let start = sequenceStart else { return [] }
        let offset = MediaTime(ticks: PresentationTimestamp.wrappedDifference(map.mpegts, start.media.start)) - map.local + start.playlistStart
        for cue in cues {
            let s = cue.start + offset, e = cue.end + offset
            placed.append(PresentationValidator.PlacedCue(start: s, end: e, text: cue.text))
            if !(s < window.upperBound && e > window.lowerBound) {
                add(
                    &findings,
                    SegmentRules.cuesInPeriod, cue.sourceLine,
                    "the cue at \(s.decimalSeconds)-\(e.decimalSeconds) s falls outside this segment's \(window.lowerBound.decimalSeconds)-\(window.upperBound.decimalSeconds) s"
                )
            }
        }
        return placed
    }

    private func add(_ findings: inout ValidationFindings, _ row: RuleRow, _ line: Int?, _ message: String) {
        findings.append(ValidationFinding(row, file: file, line: line, message))
    }

    private var sequenceStart: ProgrammeTimeline.SequenceStart? {
        timeline?.sequences.last { $0.discontinuitySequence <= sequence }
    }
}
