import Captions
import Foundation
import HLS
import Timebase
import TimedText

/// What the caller asks for `CLOSED-CAPTIONS` on the variants (`--closed-captions`).
public enum ClosedCaptionsRequest: String, Sendable, Equatable, CaseIterable {
    /// `CLOSED-CAPTIONS=NONE` everywhere, unless the master already declares caption groups its
    /// variants use, which are kept (with a warning).
    case automatic = "auto"
    /// Remove caption groups; `NONE` everywhere.
    case none
    /// Declare the CEA-608 services the video carries (found by scanning it); `NONE` without any.
    case inBand = "in-band"
}

/// What to package into a presentation.
public struct PackageRequest: Sendable {
    /// The side-loaded tracks.
    public var tracks: [SubtitleTrack]
    /// The language whose rendition becomes the group's only DEFAULT=YES.
    public var preferredLanguage: LanguageTag?
    /// Where to write the new master (a file URL); nil rewrites the master in place.
    ///
    /// Renditions
    /// go beside it.
    public var output: URL?
    /// What to declare in `CLOSED-CAPTIONS`.
    public var closedCaptions: ClosedCaptionsRequest
    /// Whether in-band CEA-608 captions become subtitle renditions.
    public var captions: CaptionMode

    /// A request for `tracks` and how to declare them; see each property.
    public init(
        tracks: [SubtitleTrack], preferredLanguage: LanguageTag? = nil, output: URL? = nil,
        closedCaptions: ClosedCaptionsRequest = .automatic, captions: CaptionMode = .auto
    ) {
        self.tracks = tracks
        self.preferredLanguage = preferredLanguage
        self.output = output
        self.closedCaptions = closedCaptions
        self.captions = captions
    }
}

/// Everything a run will write, decided and not yet written: a value to inspect (a dry run is a
/// plan not applied) and to hand to ``Packager/apply(_:)``.
public struct PackagePlan: Sendable {
    /// The master the plan was made from, and its bytes then.
    public let masterURL: URL
    let masterBytes: [UInt8]
    /// Where the new master goes.
    public let output: URL
    /// The new master's text.
    public let masterText: String
    /// The renditions, each with its files (made when written).
    package let renditions: [SubtitleRendition]
    /// The report of the run.
    public let report: PackageReport
    /// Folders of renditions Subweave manages in this presentation (old and new), relative to the
    /// output folder.
    let managedFolders: Set<String>
    /// For each managed folder, the generation the new master names.
    let named: [String: String]
    /// For each managed folder, the generation the old master named ("" for the layout before generations).
    let previous: [String: String]

    /// Every path the plan writes, relative to the output folder.
    public var files: [String] {
        renditions.flatMap(\.paths) + [output.lastPathComponent]
    }
}

extension Presentation {
    /// Decides everything a run writes, reading (subtitle sources, the video for captions) but
    /// writing nothing.
    public func plan(_ request: PackageRequest) async throws(SubweaveError) -> PackagePlan {
        let reader = MediaReader(loader: loader)
        let output = request.output ?? masterURL
        guard output.isFileURL else {
            throw .io(
                path: MediaReader.display(output), reason: "the master is not a local file; give an output path (--output FILE) to write the new master to")
        }
        // In-band captions: a bounded scan, and a full decode only when it finds text.
        var captions = ProgrammeCaptions.none
        if request.captions == .auto || request.closedCaptions == .inBand {
            captions = try await CaptionScanner(reader: reader).scan(timeline, playlistURL: reference.url)
        }
        let loaded = try await TrackLoader(loader: loader).load(request.tracks)

        var planner = RenditionPlanner(timeline: timeline)
        for (track, ingested) in zip(request.tracks, loaded) { planner.add(track, ingested) }
        if request.captions == .auto { planner.add(captions) }
        guard !planner.renditions.isEmpty else {
            throw .nothingToPackage(
                "nothing to package: no subtitle track was given and no CEA-608 captions were found in \(MediaReader.display(reference.url))")
        }
        let policy: ClosedCaptionsPolicy
        switch request.closedCaptions {
        case .automatic: policy = .automatic
        case .none: policy = .none
        case .inBand:
            policy = .declare(
                captions.services.map {
                    CaptionServiceDeclaration(instreamID: $0.service.rawValue, name: captions.name(for: $0.service), language: captions.language)
                })
        }
        let rewritten = try MasterRewriter(preferredLanguage: request.preferredLanguage, closedCaptions: policy)
            .rewrite(master, renditions: planner.declarations)

        var warnings = self.warnings + rewritten.warnings + RenditionRules.forcedCoverageWarnings(request.tracks, loaded)
        let outputFolder = output.deletingLastPathComponent().path
        if outputFolder != masterURL.deletingLastPathComponent().path {
            warnings.append(
                PackageWarning(
                    .outputElsewhere,
                    "the new master is in another folder than the original; its variant URIs are relative, so they must resolve from \(outputFolder)"))
        }
        let report = self.report(output: output, rewritten: rewritten, tracks: planner.reports, captions: captions, warnings: warnings)
        let previous = Self.managedGenerations(master, includingLegacy: true)
        let named = Self.managedGenerations(rewritten.master, includingLegacy: false)
        return PackagePlan(
            masterURL: masterURL, masterBytes: masterBytes, output: output, masterText: rewritten.master.playlist.text,
            renditions: planner.renditions, report: report,
            managedFolders: Set(previous.keys).union(named.keys), named: named, previous: previous)
    }

    /// The report of a run that writes `output`.
    func report(
        output: URL, rewritten: MasterRewriter.Result, tracks: [PackageReport.Track], captions: ProgrammeCaptions,
        warnings: [PackageWarning]
    ) -> PackageReport {
        PackageReport(
            master: MediaReader.display(masterURL), output: output.path, dryRun: false,
            referencePlaylist: MediaReader.display(reference.url), referenceReason: reference.reason,
            segmentCount: timeline.playlist.segments.count, duration: timeline.duration.seconds,
            timeline: timeline.sequences.map(PackageReport.Sequence.init),
            groups: rewritten.groups, tracks: tracks,
            captions: captions.services.map {
                PackageReport.CaptionService(
                    service: $0.service.rawValue, language: captions.language?.description,
                    firstSeen: $0.firstSeen?.seconds, segment: $0.segment)
            }, warnings: warnings)
    }

    /// The renditions Subweave manages in `master`: folder → the generation it names ("" for the
    /// layout before generations, with `includingLegacy`).
    static func managedGenerations(_ master: MasterPlaylist, includingLegacy: Bool) -> [String: String] {
        var result: [String: String] = [:]
        for rendition in master.renditions {
            guard let uri = rendition.uri, let place = RenditionLayout.recognise(uri) else { continue }
            if let generation = place.generation { result[place.folder] = generation } else if includingLegacy { result[place.folder] = "" }
        }
        return result
    }
}

/// Turns loaded tracks and decoded captions into renditions, their master declarations and their
/// reports, in order.
struct RenditionPlanner {
    let timeline: ProgrammeTimeline
    var renditions: [SubtitleRendition] = []
    var declarations: [NewSubtitleRendition] = []
    var reports: [PackageReport.Track] = []

    init(timeline: ProgrammeTimeline) { self.timeline = timeline }

    mutating func add(_ track: SubtitleTrack, _ ingested: IngestedSubtitles) {
        var (cues, delayWarnings) = SubtitleIngest.applyDelay(track.offset + track.delay, to: ingested.cues)
        let timelineWarnings = SubtitleIngest.timelineWarnings(cues, duration: timeline.duration, complete: timeline.playlist.hasEndList)
        cues.removeAll { $0.start >= timeline.duration }
        let record = RenditionRecord(
            identity: track.identity.description, sourceID: track.sourceID, language: track.language.description,
            name: track.label, forced: track.isForced, sdh: track.isSDH, prefersDefault: track.isDefault,
            ingestFormat: ingested.ingestFormat, source: track.source.description, cueCount: SegmentCues.writable(cues).count)
        let rendition = SubtitleRendition(
            folder: RenditionLayout.folder(for: track.identity), cues: cues,
            headerBlocks: ingested.headerBlocks, timeline: timeline, record: record)
        renditions.append(rendition)
        declarations.append(
            NewSubtitleRendition(
                identity: track.identity.description, name: track.label, language: track.language,
                forced: track.isForced, sdh: track.isSDH, prefersDefault: track.isDefault,
                uri: rendition.playlistPath, origin: "track \"\(track.sourceID)\""))
        let warnings = track.notes + (ingested.warnings + delayWarnings + timelineWarnings).map(\.description)
        reports.append(
            PackageReport.Track(
                sourceID: track.sourceID, identity: track.identity.description, language: track.language.description, name: track.label,
                ingestFormat: ingested.ingestFormat, encoding: ingested.encoding.rawValue, cueCount: rendition.cues.count,
                firstCueStart: rendition.cues.first?.start.seconds, playlist: rendition.playlistPath,
                filesWritten: rendition.paths, warnings: warnings))
    }

    mutating func add(_ captions: ProgrammeCaptions) {
        for service in captions.services {
            let language = captions.language ?? .undetermined
            let identity = RenditionIdentity.cea608(service.service)
            var cues = service.cues
            SubtitleIngest.assignIdentifiers(&cues, taken: [])
            let name = captions.name(for: service.service)
            let record = RenditionRecord(
                identity: identity.description, sourceID: service.service.rawValue, language: language.description,
                name: name, forced: false, sdh: true, prefersDefault: false, ingestFormat: "cea608",
                source: "the video's \(service.service.rawValue)", cueCount: SegmentCues.writable(cues).count)
            let rendition = SubtitleRendition(folder: RenditionLayout.folder(for: identity), cues: cues, headerBlocks: [], timeline: timeline, record: record)
            renditions.append(rendition)
            declarations.append(
                NewSubtitleRendition(
                    identity: identity.description, name: name, language: language,
                    forced: false, sdh: true, prefersDefault: false,
                    uri: rendition.playlistPath, origin: "in-band \(service.service.rawValue)"))
            reports.append(
                PackageReport.Track(
                    sourceID: service.service.rawValue, identity: identity.description, language: language.description, name: name,
                    ingestFormat: "cea608", encoding: nil, cueCount: rendition.cues.count, firstCueStart: rendition.cues.first?.start.seconds,
                    playlist: rendition.playlistPath,
                    filesWritten: rendition.paths, warnings: []))
        }
    }
}
