import Containers
import Foundation
import HLS
import TimedText
import Timebase

/// The result of `subweave validate`.
public struct ValidationReport: Sendable, Codable, Equatable {
    public var findings: [ValidationFinding]
    public var errors: Int { findings.filter { $0.severity == .error }.count }
    public var warnings: Int { findings.filter { $0.severity == .warning }.count }

    enum CodingKeys: String, CodingKey { case findings, errors, warnings }

    public init(findings: [ValidationFinding]) { self.findings = findings }

    public init(from decoder: Decoder) throws {
        findings = try decoder.container(keyedBy: CodingKeys.self).decode([ValidationFinding].self, forKey: .findings)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(findings, forKey: .findings)
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
    }
}

/// Checks a presentation: the master's rules, each subtitle rendition's playlist against the
/// reference variant, and every WebVTT segment (signature, `X-TIMESTAMP-MAP` where hls.js reads
/// it, valid WebVTT, and — with the media timeline read from the video — that each segment holds
/// every cue shown during it, RFC 8216bis §3.1.4).
public struct PresentationValidator: Sendable {
    public var loader: ResourceLoader

    public init(loader: ResourceLoader = ResourceLoader()) { self.loader = loader }

    public func validate(masterPath: String) async -> ValidationReport {
        var findings: [ValidationFinding] = []
        func add(_ s: ValidationFinding.Severity, _ file: String, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
            findings.append(ValidationFinding(s, file: file, line: line, rule: rule, requirement: requirement, message))
        }
        let packager = Packager(loader: loader)
        let masterURL = URL(fileURLWithPath: masterPath)
        let master: MasterPlaylist
        do {
            master = try Packager.readMaster(masterPath)
        } catch .playlist(let error) {
            add(.error, masterPath, error.line, "RFC 8216bis §4", "the master playlist parses", error.reason)
            return ValidationReport(findings: findings)
        } catch {
            add(.error, masterPath, nil, "RFC 8216bis §4", "the master playlist can be read", Self.reason(error))
            return ValidationReport(findings: findings)
        }
        findings += MasterRules.check(master)

        // The reference variant and its media timeline.
        let referenceURL: URL
        let referencePlaylist: MediaPlaylist
        do {
            (referenceURL, referencePlaylist) = try await packager.readReference(of: master, masterURL: masterURL)
        } catch {
            let name = (try? master.variants())?.first.map { master.substitutingVariables(in: $0.uri) } ?? masterPath
            add(.error, name, nil, "RFC 8216bis §4.4.6.2", "every variant's media playlist can be read", Self.reason(error))
            return ValidationReport(findings: findings)
        }
        let referenceName = Packager.display(referenceURL)
        var timeline: ProgrammeTimeline?
        do {
            timeline = try await packager.probeTimeline(referencePlaylist, playlistURL: referenceURL)
        } catch {
            add(.info, referenceName, nil, "RFC 8216bis §3.1.4", "cue timing is checked against the media timeline",
                "the video's timeline could not be read (\(error)); segment timing was not checked")
        }

        // Each subtitle rendition, once per URI.
        var seen: Set<String> = []
        for rendition in (try? master.renditions()) ?? [] where rendition.type == "SUBTITLES" {
            guard let uri = rendition.uri, seen.insert(uri).inserted, let url = Packager.resolve(master.substitutingVariables(in: uri), against: masterURL) else { continue }
            let name = Packager.display(url)
            let playlist: MediaPlaylist
            do {
                playlist = try MediaPlaylist(parsing: try await packager.read(url, range: nil, what: "the subtitle playlist"), source: name)
            } catch {
                add(.error, name, nil, "RFC 8216bis §4.4.6.1", "the URI of a SUBTITLES rendition names a media playlist", Self.reason(error))
                continue
            }
            findings += SubtitlePlaylistRules.check(playlist, file: name, reference: referencePlaylist)
            var placed: [[(start: MediaTime, end: MediaTime, text: String)]] = []
            for segment in playlist.segments {
                guard let segmentURL = Packager.resolve(segment.uri, against: url) else { continue }
                let segmentName = Packager.display(segmentURL)
                guard let bytes = try? await packager.read(segmentURL, range: segment.byteRange, what: "the WebVTT segment") else {
                    add(.error, segmentName, nil, "RFC 8216bis §4.4.4", "every segment a playlist lists can be fetched", "the segment cannot be read")
                    placed.append([])
                    continue
                }
                let (segmentFindings, cues) = Self.checkSegment(bytes, file: segmentName, window: segment.start..<(segment.start + segment.duration),
                                                                sequence: segment.discontinuitySequence, timeline: timeline)
                findings += segmentFindings
                placed.append(cues)
            }
            // A cue shown during the next segment's period must be in that segment too (§3.1.4).
            if timeline != nil {
                for index in placed.indices.dropLast() {
                    let next = playlist.segments[index + 1]
                    let window = next.start..<(next.start + next.duration)
                    let tolerance = MediaTime(milliseconds: 1)
                    for cue in placed[index] where cue.end > window.lowerBound + tolerance && cue.start < window.upperBound - tolerance {
                        let present = placed[index + 1].contains { abs(($0.start - cue.start).ticks) <= 90 && abs(($0.end - cue.end).ticks) <= 90 && $0.text == cue.text }
                        if !present {
                            add(.error, Packager.resolve(next.uri, against: url).map(Packager.display) ?? next.uri, nil, "RFC 8216bis §3.1.4",
                                "a WebVTT segment contains every cue displayed during its EXTINF period, with its full timing",
                                "the cue \"\(cue.text.prefix(40))\" (\(cue.start.decimalSeconds)-\(cue.end.decimalSeconds) s) spans into this segment but is not in it")
                        }
                    }
                }
            }
        }
        findings.sort { ($0.file, $0.line ?? 0) < ($1.file, $1.line ?? 0) }
        return ValidationReport(findings: findings)
    }

    /// Checks one WebVTT segment; returns findings and its cues on the programme timeline.
    static func checkSegment(_ bytes: [UInt8], file: String, window: Range<MediaTime>, sequence: Int,
                             timeline: ProgrammeTimeline?) -> ([ValidationFinding], [(start: MediaTime, end: MediaTime, text: String)]) {
        var findings: [ValidationFinding] = []
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
            add(.warning, cue.sourceLine, "W3C WebVTT §4.2.2", "cue text is valid WebVTT cue text (known tags, closed, & escaped)",
                "the text of the cue at \(WebVTTTimestamp.format(cue.start)) has invalid markup")
        }
        // X-TIMESTAMP-MAP: in the header, before the first blank line (where hls.js looks).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        let headerEnd = lines.firstIndex { $0.isEmpty } ?? lines.count
        var map: (mpegts: Int64, local: MediaTime)?
        if let index = lines.firstIndex(where: { $0.hasPrefix("X-TIMESTAMP-MAP=") }) {
            if index >= headerEnd {
                add(.error, index + 1, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP is in the WebVTT header",
                    "X-TIMESTAMP-MAP comes after the first blank line; hls.js ignores it there and shows every cue early")
            }
            map = parseMap(lines[index])
            if map == nil {
                add(.error, index + 1, "RFC 8216bis §3.1.4", "X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<WebVTT time>", "\"\(lines[index])\" is malformed")
            }
        } else {
            add(.error, nil, "Apple HLS Authoring Spec 5.3", "every WebVTT segment has an X-TIMESTAMP-MAP header",
                "no X-TIMESTAMP-MAP: players take cue time 0 as media time 0, which is wrong for almost every stream (ffmpeg starts at 1.4 s, Apple at 10 s)")
        }
        var placed: [(start: MediaTime, end: MediaTime, text: String)] = []
        if let timeline, let map, let start = timeline.sequences.last(where: { $0.discontinuitySequence <= sequence }) {
            let offset = MediaTime(ticks: PresentationTimestamp.wrappedDifference(map.mpegts, start.media.start)) - map.local + start.playlistStart
            for cue in document.cues {
                let s = cue.start + offset, e = cue.end + offset
                placed.append((s, e, cue.text))
                if !(s < window.upperBound && e > window.lowerBound) {
                    add(.warning, cue.sourceLine, "RFC 8216bis §3.1.4", "a segment holds the cues displayed during its period",
                        "the cue at \(s.decimalSeconds)-\(e.decimalSeconds) s falls outside this segment's \(window.lowerBound.decimalSeconds)-\(window.upperBound.decimalSeconds) s")
                }
            }
        }
        return (findings, placed)
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

    static func parseMap(_ line: Substring) -> (Int64, MediaTime)? {
        var mpegts: Int64?
        var local: MediaTime?
        for part in line.dropFirst("X-TIMESTAMP-MAP=".count).split(separator: ",") {
            if part.hasPrefix("MPEGTS:") { mpegts = Int64(part.dropFirst(7)) }
            if part.hasPrefix("LOCAL:") { local = WebVTTTimestamp.parse(String(part.dropFirst(6))) }
        }
        guard let mpegts, let local, mpegts >= 0 else { return nil }
        return (mpegts, local)
    }
}
