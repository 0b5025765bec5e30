import Containers
import Foundation
import HLS
import Timebase
import TimedText

/// The result of `subweave validate`.
public struct ValidationReport: Sendable, Codable, Equatable {
    public var findings: ValidationFindings
    public var errors: Int { findings.count(where: { $0.severity == .error }) }
    public var warnings: Int { findings.count(where: { $0.severity == .warning }) }

    enum CodingKeys: String, CodingKey { case findings, errors, warnings }

    /// A report of `findings`.
    public init(findings: [ValidationFinding]) { self.findings = ValidationFindings(findings) }

    /// A report of `findings`.
    public init(findings: ValidationFindings) { self.findings = findings }

    /// Reads a report as `--json` writes it.
    public init(from decoder: Decoder) throws {
        findings = try decoder.container(keyedBy: CodingKeys.self).decode(ValidationFindings.self, forKey: .findings)
    }

    /// Writes the findings with their error and warning counts.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(findings, forKey: .findings)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
    }
}

/// Checks a presentation: the master's rules, each subtitle rendition's playlist against the
/// reference variant, and every WebVTT segment (signature, `X-TIMESTAMP-MAP` where hls.js reads
/// it and anchored on a presented frame, valid WebVTT, and — with the media timeline read from the
/// video — that each segment holds every cue shown during it, RFC 8216bis §3.1.4).
public struct PresentationValidator: Sendable {
    public var loader: ResourceLoader

    /// A validator reading through `loader`.
    public init(loader: ResourceLoader = ResourceLoader()) { self.loader = loader }

    /// Every finding for the master at `master` (a file URL or `http(s)://`); never throws: a file
    /// that cannot be read is a finding too.
    public func validate(master masterURL: URL) async -> ValidationReport {
        var findings = ValidationFindings()
        let reader = MediaReader(loader: loader)
        let masterName = MediaReader.display(masterURL)
        func add(_ s: ValidationFinding.Severity, _ file: String, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
            findings.append(ValidationFinding(s, file: file, line: line, rule: rule, requirement: requirement, message))
        }
        let master: MasterPlaylist
        do {
            let bytes = try await reader.read(masterURL, kind: .playlist, what: "the master playlist")
            master = try MasterPlaylist(parsing: consume bytes, source: masterName)
        } catch let error as HLSError {
            add(.error, masterName, error.line, "RFC 8216bis §4", "the master playlist parses", error.reason)
            return ValidationReport(findings: findings)
        } catch {
            add(.error, masterName, nil, "RFC 8216bis §4", "the master playlist can be read", Self.reason(error))
            return ValidationReport(findings: findings)
        }
        findings += MasterRules.check(master)

        // The reference variant and its media timeline.
        let selection = ReferenceSelection(master: master, masterURL: masterURL, reader: reader)
        var reference: (url: URL, playlist: MediaPlaylist)
        var timeline: ProgrammeTimeline?
        do {
            let (chosen, chosenTimeline, _) = try await selection.choose()
            reference = (chosen.url, chosen.playlist)
            timeline = chosenTimeline
        } catch {
            // The media could not be probed: check the playlists against the first variant alone.
            guard let first = master.variants.first, let read = try? await selection.readVariant(first, number: 0) else {
                add(.error, masterName, nil, "RFC 8216bis §4.4.6.2", "every variant's media playlist can be read", Self.reason(error))
                return ValidationReport(findings: findings)
            }
            reference = read
            add(
                .info, MediaReader.display(read.0), nil, "RFC 8216bis §3.1.4", "cue timing is checked against the media timeline",
                "the video's timeline could not be read (\(Self.reason(error))); segment timing was not checked")
        }

        var seen: Set<String> = []
        for rendition in master.renditions where rendition.type == .subtitles {
            guard let uri = rendition.uri, seen.insert(uri).inserted else { continue }
            let substituted: String
            do throws(HLSError) { substituted = try master.substitutingVariables(in: uri, line: rendition.lineIndex) } catch {
                add(.error, masterName, error.line, "RFC 8216bis §4.3", "every variable reference names a defined variable", error.reason)
                continue
            }
            guard let url = MediaReader.resolve(substituted, against: masterURL) else { continue }
            findings += await checkRendition(url, reference: reference.playlist, timeline: timeline, reader: reader)
        }
        findings.sortByPlace()
        return ValidationReport(findings: findings)
    }

    /// A cue as a player places it on the programme timeline.
    struct PlacedCue: Hashable {
        let start: MediaTime
        let end: MediaTime
        let text: String
    }

    /// Checks one subtitle rendition: its playlist against the reference, each segment, and that
    /// every cue is in every segment whose period it is shown in.
    func checkRendition(_ url: URL, reference: MediaPlaylist, timeline: ProgrammeTimeline?, reader: MediaReader) async -> ValidationFindings {
        var findings = ValidationFindings()
        let name = MediaReader.display(url)
        let playlist: MediaPlaylist
        do {
            playlist = try MediaPlaylist(parsing: try await reader.read(url, kind: .playlist, what: "the subtitle playlist"), source: name)
        } catch {
            return [
                ValidationFinding(
                    .error, file: name, line: nil, rule: "RFC 8216bis §4.4.6.1",
                    requirement: "the URI of a SUBTITLES rendition names a media playlist", Self.reason(error))
            ]
        }
        findings += SubtitlePlaylistRules.check(playlist, file: name, reference: reference)
        var placed: [[PlacedCue]] = []
        var segmentNames: [String] = []
        for segment in playlist.segments {
            guard let segmentURL = MediaReader.resolve(segment.uri, against: url) else { placed.append([]); segmentNames.append(segment.uri); continue }
            let segmentName = MediaReader.display(segmentURL)
            segmentNames.append(segmentName)
            guard let bytes = try? await reader.read(segmentURL, kind: .subtitle, range: segment.byteRange, what: "the WebVTT segment") else {
                findings.append(
                    ValidationFinding(
                        .error, file: segmentName, line: nil, rule: "RFC 8216bis §4.4.4",
                        requirement: "every segment a playlist lists can be fetched", "the segment cannot be read"))
                placed.append([])
                continue
            }
            let (segmentFindings, cues) = SegmentCheck(
                file: segmentName, window: segment.start..<(segment.start + segment.duration),
                sequence: segment.discontinuitySequence, timeline: timeline
            ).check(bytes)
            findings += segmentFindings
            placed.append(cues)
        }
        if timeline != nil {
            findings += Self.coverage(placed, playlist: playlist, names: segmentNames)
        }
        return findings
    }

    /// RFC 8216bis §3.1.4: a cue shown during a segment's period is in that segment — checked in
    /// both directions, so a cue missing from the first segment it belongs to is found as well as
    /// one that does not carry forward.
    static func coverage(_ placed: [[PlacedCue]], playlist: MediaPlaylist, names: [String]) -> ValidationFindings {
        var findings = ValidationFindings()
        let tolerance = MediaTime(milliseconds: 1)
        let windows = playlist.segments.map { $0.start..<($0.start + $0.duration) }
        let contents = placed.map {
            Set($0.map { PlacedCue(start: MediaTime(milliseconds: $0.start.milliseconds), end: MediaTime(milliseconds: $0.end.milliseconds), text: $0.text) })
        }
        var reported: Set<PlacedCue> = []
        for cues in placed {
            for cue in cues {
                let key = PlacedCue(start: MediaTime(milliseconds: cue.start.milliseconds), end: MediaTime(milliseconds: cue.end.milliseconds), text: cue.text)
                for (index, window) in windows.enumerated()
                where cue.end > window.lowerBound + tolerance && cue.start < window.upperBound - tolerance && !contents[index].contains(key) {
                    guard reported.insert(key).inserted else { break }
                    findings.append(
                        ValidationFinding(
                            .error, file: names[index], line: nil, rule: "RFC 8216bis §3.1.4",
                            requirement: "a WebVTT segment contains every cue displayed during its EXTINF period, with its full timing",
                            "the cue \"\(LabelText.excerpt(cue.text, limit: 40, lineBreaks: " / "))\" (\(cue.start.decimalSeconds)-\(cue.end.decimalSeconds) s) is shown during this segment's \(window.lowerBound.decimalSeconds)-\(window.upperBound.decimalSeconds) s but is not in it"
                        ))
                    break
                }
            }
        }
        return findings
    }

    /// The reason alone, without the file name a finding already carries.
    static func reason(_ error: any Error) -> String {
        switch error {
        case SubweaveError.io(_, let reason): return reason
        case SubweaveError.playlist(let e): return e.line.map { "line \($0): \(e.reason)" } ?? e.reason
        case let e as HLSError: return e.line.map { "line \($0): \(e.reason)" } ?? e.reason
        default: return "\(error)"
        }
    }

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
        func add(_ s: ValidationFinding.Severity, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
            findings.append(ValidationFinding(s, file: file, line: line, rule: rule, requirement: requirement, message))
        }
        if let offset = UTF8Check.firstInvalidOffset(bytes) {
            add(.error, nil, "RFC 8216bis §3.1.4", "WebVTT segments are UTF-8", "byte offset \(offset) is not UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let document: WebVTTDocument
        do {
            document = try WebVTTParser.parse(text)
        } catch {
            add(.error, 1, "W3C WebVTT §6.1", "a WebVTT file begins with the WEBVTT signature", error.description)
            return (findings, [])
        }
        for warning in document.warnings {
            add(.warning, warning.line, "W3C WebVTT §4", "every block of a WebVTT file is valid", warning.message)
        }
        for cue in document.cues where CueText.repaired(cue.text).changed {
            add(
                .warning, cue.sourceLine, "W3C WebVTT §4.2.2", "cue text is valid WebVTT cue text (known tags, closed, & escaped)",
                "the text of the cue at \(WebVTTTimestamp.format(cue.start)) has invalid markup")
        }
        // X-TIMESTAMP-MAP: in the header, before the first blank line (where hls.js looks).
        let header = TimestampMap.find(in: text)
        var map: TimestampMap?
        switch header {
        case .none:
            add(
                .error, nil, "Apple HLS Authoring Spec 5.3", "every WebVTT segment has an X-TIMESTAMP-MAP header",
                "no X-TIMESTAMP-MAP: players take cue time 0 as media time 0, which is wrong for almost every stream (ffmpeg starts at 1.4 s, Apple at 10 s)")
        case .malformed(let line):
            add(.error, line, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<WebVTT time>", "the X-TIMESTAMP-MAP line is malformed")
        case .found(let found, let line, let inHeader):
            map = found
            if !inHeader {
                add(
                    .error, line, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP is in the WebVTT header",
                    "X-TIMESTAMP-MAP comes after the first blank line; hls.js ignores it there and shows every cue early")
            }
            if let start = sequenceStart, let decode = start.media.decodeStart, decode != start.media.start,
                PresentationTimestamp.wrappedDifference(found.mpegts, decode) == 0
            {
                let early = MediaTime(ticks: PresentationTimestamp.wrappedDifference(start.media.start, decode))
                add(
                    .error, line, "RFC 8216bis §3.1.4",
                    "X-TIMESTAMP-MAP maps to the media's presentation timeline (players show a frame at its presentation time)",
                    "MPEGTS \(found.mpegts) is the first frame's decode time; it is presented at \(start.media.start), so every cue shows \(early.decimalSeconds) s early"
                )
            }
        }
        var placed: [PresentationValidator.PlacedCue] = []
        if let map, let start = sequenceStart {
            let offset = MediaTime(ticks: PresentationTimestamp.wrappedDifference(map.mpegts, start.media.start)) - map.local + start.playlistStart
            for cue in document.cues {
                let s = cue.start + offset, e = cue.end + offset
                placed.append(PresentationValidator.PlacedCue(start: s, end: e, text: cue.text))
                if !(s < window.upperBound && e > window.lowerBound) {
                    add(
                        .warning, cue.sourceLine, "RFC 8216bis §3.1.4", "a segment holds the cues displayed during its period",
                        "the cue at \(s.decimalSeconds)-\(e.decimalSeconds) s falls outside this segment's \(window.lowerBound.decimalSeconds)-\(window.upperBound.decimalSeconds) s"
                    )
                }
            }
        }
        return (findings, placed)
    }

    private var sequenceStart: ProgrammeTimeline.SequenceStart? {
        timeline?.sequences.last { $0.discontinuitySequence <= sequence }
    }
}
