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

    /// Reads a report as ``encode(to:)`` writes it.
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
    /// The identifiers of the rules checked on the presentation's files and each WebVTT segment
    /// (the master and subtitle-playlist rules are in the HLS module's tables).
    package static var presentationRuleIdentifiers: [String] { (PresentationRules.rows + SegmentRules.rows + IMSCRules.rows).map(\.id) }

    public var loader: ResourceLoader

    /// A validator reading through `loader`.
    public init(loader: ResourceLoader = ResourceLoader()) { self.loader = loader }

    /// Every rule identifier a finding can carry, table by table: the master's rules, a subtitle
    /// playlist's, reading the presentation, and each WebVTT segment's.
    public static var ruleIdentifiers: [String] {
        MasterRules.identifiers + (SubtitlePlaylistRules.rows + PresentationRules.rows + SegmentRules.rows + IMSCRules.rows).map(\.id)
    }

    /// Every finding for the master at `master` (a file URL or `http(s)://`); never throws: a file
    /// that cannot be read is a finding too.
    public func validate(master masterURL: URL) async -> ValidationReport {
        var findings = ValidationFindings()
        var reader = MediaReader(loader: loader)
        // Encrypted (AES-128) segments are read as a player reads them: with the key at their URI.
        reader.fetchesKeys = true
        let masterName = MediaReader.display(masterURL)
        func add(_ row: RuleRow, _ file: String, _ line: Int?, _ message: String) {
            findings.append(ValidationFinding(row, file: file, line: line, message))
        }
        let master: MasterPlaylist
        do {
            let bytes = try await reader.read(masterURL, kind: .playlist, what: "the master playlist")
            master = try MasterPlaylist(parsing: consume bytes, source: masterName)
        } catch let error as HLSError {
            add(PresentationRules.masterParses, masterName, error.line, error.reason)
            return ValidationReport(findings: findings)
        } catch {
            add(PresentationRules.masterReadable, masterName, nil, Self.reason(error))
            return ValidationReport(findings: findings)
        }
        // The reference variant and its media timeline.
        let selection = ReferenceSelection(master: master, masterURL: masterURL, reader: reader)
        var reference: (url: URL, playlist: MediaPlaylist)
        var timeline: ProgrammeTimeline?
        do {
            let (chosen, chosenTimeline, _, _) = try await selection.choose()
            reference = (chosen.url, chosen.playlist)
            timeline = chosenTimeline
        } catch {
            // The media could not be probed: check the playlists against the first variant alone.
            guard let first = master.variants.first, let read = try? await selection.readVariant(first, number: 0) else {
                add(PresentationRules.variantReadable, masterName, nil, Self.reason(error))
                findings += MasterRules.check(master)
                findings.sortByPlace()
                return ValidationReport(findings: findings)
            }
            reference = read
            add(
                PresentationRules.timelineReadable, MediaReader.display(read.0), nil,
                "the video's timeline could not be read (\(Self.reason(error))); segment timing was not checked")
        }
        findings += MasterRules.check(master, captionsFound: await captionsFound(master, reference: reference.url, timeline: timeline, reader: reader))

        var seen: Set<String> = []
        for rendition in master.renditions where rendition.type == .subtitles {
            guard let uri = rendition.uri, seen.insert(uri).inserted else { continue }
            let substituted: String
            do throws(HLSError) { substituted = try master.substitutingVariables(in: uri, line: rendition.lineIndex) } catch {
                add(PresentationRules.variablesDefined, masterName, error.line, error.reason)
                continue
            }
            guard let url = MediaReader.resolve(substituted, against: masterURL) else { continue }
            findings += await checkRendition(url, reference: reference.playlist, timeline: timeline, reader: reader)
        }
        findings.sortByPlace()
        return ValidationReport(findings: findings)
    }

    /// When a variant says nothing of CLOSED-CAPTIONS, the caption service a bounded look at the
    /// video finds (``CaptionScanner/detectionAccessUnits``), for the advice: nil when none was
    /// found or the video could not be read.
    func captionsFound(_ master: MasterPlaylist, reference: URL, timeline: ProgrammeTimeline?, reader: MediaReader) async -> String? {
        guard let timeline, master.variants.contains(where: { $0.attributes["CLOSED-CAPTIONS"] == nil }) else { return nil }
        guard
            let captions = try? await CaptionScanner(reader: reader).scan(
                timeline, playlistURL: reference, accessUnitLimit: CaptionScanner.detectionAccessUnits),
            let first = captions.services.compactMap({ s in s.firstSeen.map { (s.service, $0) } }).min(by: { $0.1 < $1.1 }),
            // Teletext and DVB subtitles are not what CLOSED-CAPTIONS declares: their advice is not this one.
            first.0.isDeclarable
        else { return nil }
        return "\(first.0.rawValue) (text at \(first.1.decimalSeconds) s)"
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
            return [ValidationFinding(PresentationRules.subtitlePlaylistReadable, file: name, line: nil, Self.reason(error))]
        }
        findings += SubtitlePlaylistRules.check(playlist, file: name, reference: reference)
        // Segments that are not WebVTT text are not read as such (IMSC1 is an HLS format; WebVTT in
        // fragmented MP4 is not).
        let kind = await TextRenditionKind.of(playlist, at: url, reader: reader)
        if kind == .fragmented(sampleEntry: "stpp") {
            let (imscFindings, placed, names) = await IMSCSegmentCheck(reader: reader, timeline: timeline).check(playlist, at: url)
            findings += imscFindings
            if timeline != nil { findings += Self.coverage(placed, playlist: playlist, names: names) }
            return findings
        }
        if kind != .webVTTText {
            if !kind.isHLSSubtitleFormat {
                findings.append(
                    ValidationFinding(
                        PresentationRules.subtitleFormat, file: name, line: nil,
                        "its segments are \(kind.described), which HLS does not define for subtitles; players such as hls.js show nothing of it"))
            }
            return findings
        }
        var placed: [[PlacedCue]] = []
        var segmentNames: [String] = []
        for (index, segment) in playlist.segments.enumerated() {
            guard let segmentURL = MediaReader.resolve(segment.uri, against: url) else { placed.append([]); segmentNames.append(segment.uri); continue }
            let segmentName = MediaReader.display(segmentURL)
            segmentNames.append(segmentName)
            let bytes: [UInt8]
            do throws(SubweaveError) {
                bytes = try await reader.segment(index, of: playlist, at: url, segmentURL: segmentURL, kind: .subtitle, what: "the WebVTT segment")
            } catch {
                switch error {
                case .encrypted:
                    findings.append(
                        ValidationFinding(
                            PresentationRules.segmentEncrypted, file: segmentName, line: nil, "its key cannot be used here, so its cues were not checked"))
                case .key: findings.append(ValidationFinding(PresentationRules.segmentReadable, file: segmentName, line: nil, Self.reason(error)))
                default: findings.append(ValidationFinding(PresentationRules.segmentReadable, file: segmentName, line: nil, "the segment cannot be read"))
                }
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
                            SegmentRules.carriesEveryCueShown, file: names[index], line: nil,
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
        case let error as SubweaveError where error.code == "unreadable" || error.code == "file_system": return error.explanation
        case SubweaveError.playlist(let e): return e.line.map { "line \($0): \(e.reason)" } ?? e.reason
        case let e as HLSError: return e.line.map { "line \($0): \(e.reason)" } ?? e.reason
        default: return "\(error)"
        }
    }

}
