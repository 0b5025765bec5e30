import Captions
import Foundation
import HLS
import Platform
import Timebase
import TimedText

/// Turns loaded tracks and decoded captions into renditions, their master declarations and their
/// reports, in order.
package struct RenditionPlanner {
    let timeline: ProgrammeTimeline
    /// A rendition the run writes, with its line in the master and its report.
    struct PlannedTrack: Sendable {
        let rendition: PlannedRendition
        var declaration: NewSubtitleRendition
        var report: PackageReport.Track
    }

    /// Every rendition planned, in order.
    private(set) var tracks: [PlannedTrack] = []
    var renditions: [PlannedRendition] { tracks.map(\.rendition) }
    var declarations: [NewSubtitleRendition] { tracks.map(\.declaration) }
    var reports: [PackageReport.Track] { tracks.map(\.report) }

    /// Renditions of an open programme an earlier run published, by folder: appended to.
    let published: [String: PublishedRendition]
    /// How every rendition's segments are encrypted (nil: clear).
    var encryption: SubtitleEncryption?
    /// The format every rendition is written in, and its segments' names.
    var naming = SegmentNaming.standard
    /// Where side-loaded tracks' folders go.
    var folders = RenditionFolderTemplate.standard

    init(timeline: ProgrammeTimeline, published: [String: PublishedRendition] = [:]) {
        self.timeline = timeline
        self.published = published
    }

    /// A side-loaded track's rendition, its declaration and its report, made from its cues.
    struct TrackRendition: Sendable {
        let rendition: SubtitleRendition
        let declaration: NewSubtitleRendition
        let report: PackageReport.Track
    }

    /// Segments `track`'s cues along `timeline` (a function of its arguments alone, so tracks
    /// are made in parallel).
    static func rendition(
        for track: SubtitleTrack, _ ingested: IngestedSubtitles, timeline: ProgrammeTimeline, appending: PublishedRendition? = nil,
        encryption: SubtitleEncryption? = nil, naming: SegmentNaming = .standard, folders: RenditionFolderTemplate = .standard
    ) -> TrackRendition {
        var (cues, delayWarnings) = SubtitleIngest.applyDelay(track.timing.shift, rate: track.timing.rate, to: ingested.cues)
        let timelineWarnings = SubtitleIngest.timelineWarnings(cues, duration: timeline.duration, complete: timeline.playlist.hasEndList)
        // Nothing shows after the programme: a cue running past its end (an SCC caption never
        // erased, say) ends with it, once the video playlist has ended. The source's cues are
        // kept whole beside the rendition when that leaves some out.
        let clamp = timeline.playlist.hasEndList
        let kept = Self.needsFitting(cues, to: timeline.duration, clampingEnds: clamp) ? SegmentCues.writable(cues, sanitizing: false) : nil
        cues = Self.fitted(cues, to: timeline.duration, clampingEnds: clamp)
        let writable = SegmentCues.writable(cues, sanitizing: false)
        var record = RenditionRecord(
            identity: track.identity.description, sourceID: track.sourceID, language: track.language.description,
            name: track.label, forced: track.isForced, characteristics: track.characteristics, prefersDefault: track.isDefault,
            ingestFormat: ingested.ingestFormat, source: track.source.description, cueCount: writable.count)
        record.encrypted = encryption != nil
        let rendition = SubtitleRendition(
            folder: RenditionLayout.folder(for: track.identity, template: folders), cues: writable,
            headerBlocks: ingested.headerBlocks, timeline: timeline, record: record, writable: true, keptCues: kept, appending: appending,
            encryption: encryption, naming: naming)
        let declaration = NewSubtitleRendition(
            identity: track.identity.description, name: track.label, language: track.language,
            forced: track.isForced, characteristics: track.characteristics, prefersDefault: track.isDefault,
            uri: rendition.playlistPath, origin: "track \"\(track.sourceID)\"")
        let warnings =
            track.notes + (ingested.warnings + delayWarnings + timelineWarnings).map(\.description) + Self.appendNotes(rendition)
            + Self.formatNotes(rendition)
        var report = PackageReport.Track(
            sourceID: track.sourceID, identity: track.identity.description, language: track.language.description, name: track.label,
            ingestFormat: ingested.ingestFormat, encoding: ingested.encoding.rawValue, cueCount: rendition.cues.count,
            firstCueStart: rendition.cues.first?.start.seconds, playlist: rendition.playlistPath,
            written: rendition.written, warnings: warnings)
        report.notes = track.information + Self.webVTTNotes(rendition)
        if appending != nil && !rendition.appendsNothing { report.action = "appended" }
        report.encodingConfidence = ingested.encodingConfidence
        return TrackRendition(rendition: rendition, declaration: declaration, report: report)
    }

    /// What writing in a format that cannot hold all the cues said drops (IMSC1: ruby text, …).
    static func formatNotes(_ rendition: SubtitleRendition) -> [String] {
        guard rendition.format == .imsc1 else { return [] }
        let dropped = rendition.formatDropped
        guard !dropped.isEmpty else { return [] }
        return ["IMSC1 segments do not carry what the cues say with \(dropped.sorted().joined(separator: ", ")); the text is kept without it"]
    }

    /// What writing WebVTT leaves out of a source that says more (a TTML delivery's colours,
    /// fonts, outlines): information, not a warning, since the words and times are all there.
    static func webVTTNotes(_ rendition: SubtitleRendition) -> [String] {
        guard rendition.format == .webVTT else { return [] }
        let dropped = rendition.formatDropped
        guard !dropped.isEmpty else { return [] }
        return [
            "WebVTT segments do not carry the source's \(dropped.sorted().joined(separator: ", ")); the text is kept without it (IMSC1 segments, --text-format imsc1, keep it)"
        ]
    }

    /// What appending to a published rendition says: the cues that came too late for their segment.
    static func appendNotes(_ rendition: SubtitleRendition) -> [String] {
        guard rendition.lateCues > 0 else { return [] }
        return [
            "\(rendition.lateCues.counted("cue")) \(rendition.lateCues == 1 ? "starts" : "start") in segments already published (never written again): written into the first new segment, with their own times"
        ]
    }

    /// `cues` without those that start at or after `duration`, and with `clampingEnds`, ending by
    /// `duration`: the same array when nothing changes (the common case, and no copy of the cues
    /// the track's ingest still holds), else one new array made in one pass.
    package static func fitted(_ cues: [Cue], to duration: MediaTime, clampingEnds: Bool) -> [Cue] {
        guard needsFitting(cues, to: duration, clampingEnds: clampingEnds) else { return cues }
        var result: [Cue] = []
        // Sized for the cues kept: a file may be mostly past the end.
        result.reserveCapacity(cues.reduce(0) { $0 + ($1.start < duration ? 1 : 0) })
        for var cue in cues where cue.start < duration {
            if (clampingEnds || cue.end == .indefinite) && cue.end > duration { cue.end = duration }
            result.append(cue)
        }
        return result
    }

    /// Whether ``fitted(_:to:clampingEnds:)`` changes `cues`.
    ///
    /// A cue with no resolvable end (``MediaTime/indefinite``) ends with the programme whether or
    /// not the playlist has ended.
    static func needsFitting(_ cues: [Cue], to duration: MediaTime, clampingEnds: Bool) -> Bool {
        cues.contains { $0.start >= duration || ((clampingEnds || $0.end == .indefinite) && $0.end > duration) }
    }

    /// Adds a track's rendition (made by ``rendition(for:_:timeline:)``), as the plan keeps it.
    mutating func add(_ rendition: PlannedRendition, _ declaration: NewSubtitleRendition, _ report: PackageReport.Track) {
        tracks.append(PlannedTrack(rendition: rendition, declaration: declaration, report: report))
    }

    /// Whether a rendition planned for `identity` is in another folder than the earlier
    /// rendition on master line `line` (the folder template changed), which it then replaces.
    mutating func moves(_ identity: String, replacing line: Int) -> Bool {
        guard let index = tracks.firstIndex(where: { $0.declaration.identity == identity }) else { return false }
        if tracks[index].declaration.replacesLine == nil { tracks[index].declaration.replacesLine = line }
        return true
    }

    /// An earlier run's rendition, segmented again from the cues kept beside it: a side-loaded
    /// track's in the folder the template gives now (replacing master line `line` when that
    /// moves it).
    ///
    /// Every kept cue stays kept; those that start after the programme's end are not shown (and
    /// the report says so), so a later refresh on a longer programme brings them back.
    mutating func refresh(_ old: RenditionRecord, _ kept: IngestedSubtitles, folder earlier: String, replacing line: Int) {
        var folder = earlier
        if RenditionIdentity.inBandService(old.identity) == nil, let language = LanguageTag(parsing: old.language) {
            folder = RenditionLayout.folder(for: .external(sourceID: old.sourceID, language: language), template: folders)
        }
        let clamp = timeline.playlist.hasEndList
        let outside = Self.needsFitting(kept.cues, to: timeline.duration, clampingEnds: clamp)
        let writable = SegmentCues.writable(Self.fitted(kept.cues, to: timeline.duration, clampingEnds: clamp), sanitizing: false)
        var record = RenditionRecord(
            identity: old.identity, sourceID: old.sourceID, language: old.language, name: old.name, forced: old.forced,
            characteristics: old.characteristics,
            prefersDefault: old.prefersDefault, ingestFormat: old.ingestFormat, source: old.source, cueCount: writable.count)
        record.encrypted = encryption != nil
        let rendition = SubtitleRendition(
            folder: folder, cues: writable, headerBlocks: kept.headerBlocks, timeline: timeline, record: record, writable: true,
            keptCues: outside ? kept.cues : nil, appending: published[folder], encryption: encryption, naming: naming)
        var warnings: [String] = Self.appendNotes(rendition)
        if let first = kept.cues.first(where: { $0.start >= timeline.duration }) {
            let count = kept.cues.count - writable.count
            warnings.append(
                "\(count) of its \(kept.cues.count.counted("cue")) start after the programme's end (\(timeline.duration.decimalSeconds) s), the first at \(first.start.decimalSeconds) s: they are not shown now; they are kept beside the rendition and come back when a refresh finds a longer programme"
            )
        }
        append(
            rendition, record: record, encoding: nil, action: rendition.appending != nil && !rendition.appendsNothing ? "appended" : "refreshed",
            origin: "the earlier rendition \(old.identity)", replacesLine: folder == earlier ? nil : line, warnings: warnings)
    }

    /// Another tool's rendition without a map, written again in Subweave's layout in its place.
    mutating func retime(_ retimed: RetimedRendition) {
        let r = retimed.existing.rendition
        let language = r.language.flatMap(LanguageTag.init(parsing:)) ?? .undetermined
        let sourceID = "retimed-" + RenditionLayout.slug(r.name ?? "track")
        let identity = RenditionIdentity.external(sourceID: sourceID, language: language)
        let writable = SegmentCues.writable(Self.fitted(retimed.cues, to: timeline.duration, clampingEnds: false), sanitizing: false)
        var record = RenditionRecord(
            identity: identity.description, sourceID: sourceID, language: language.description, name: r.name ?? sourceID, forced: r.isForced,
            characteristics: MediaCharacteristics(attribute: r.characteristics), prefersDefault: r.isDefault,
            ingestFormat: "vtt_retimed", source: MediaReader.display(retimed.playlistURL), cueCount: writable.count)
        record.encrypted = encryption != nil
        let rendition = SubtitleRendition(
            folder: RenditionLayout.folder(for: identity, template: folders), cues: writable, headerBlocks: retimed.headerBlocks, timeline: timeline,
            record: record,
            writable: true, encryption: encryption, naming: naming)
        append(
            rendition, record: record, encoding: nil, action: "retimed", origin: "the rendition \"\(r.name ?? "")\"", replacesLine: r.lineIndex,
            warnings: ["cue times read as \(retimed.reading) time (the segments had no X-TIMESTAMP-MAP); the original files were left in place"])
    }

    private mutating func append(
        _ rendition: SubtitleRendition, record: RenditionRecord, encoding: String?, action: String, origin: String, replacesLine: Int?,
        warnings: [String]
    ) {
        var declaration = NewSubtitleRendition(
            identity: record.identity, name: record.name, language: LanguageTag(parsing: record.language) ?? .undetermined,
            forced: record.forced, characteristics: record.characteristics, prefersDefault: record.prefersDefault, uri: rendition.playlistPath,
            origin: origin)
        declaration.replacesLine = replacesLine
        var report = PackageReport.Track(
            sourceID: record.sourceID, identity: record.identity, language: record.language, name: record.name,
            ingestFormat: record.ingestFormat, encoding: encoding, cueCount: rendition.cues.count, firstCueStart: rendition.cues.first?.start.seconds,
            playlist: rendition.playlistPath, written: rendition.written, warnings: warnings + Self.formatNotes(rendition))
        report.action = action
        add(PlannedRendition(rendition), declaration, report)
    }

    /// The reports, with a refreshed rendition whose generation is the one the master already
    /// names (nothing changed) marked `unchanged`.
    func reportsMarkingUnchanged(previous: [String: String]) -> [PackageReport.Track] {
        tracks.map { track in
            var report = track.report
            if report.action == "refreshed" && previous[track.rendition.folder] == track.rendition.generation { report.action = "unchanged" }
            return report
        }
    }

    /// Where a caption rendition's cues come from, as its record says: "the video's CC1", "the
    /// video's teletext page 888".
    static func source(_ service: CaptionService) -> String { "the video's \(service.label)\(service.isDVBSubtitles ? " (read by OCR)" : "")" }

    /// What a caption service's rendition is said to come from in the report.
    static func origin(_ service: CaptionService) -> String { service.isDeclarable ? "in-band \(service.rawValue)" : service.label }

    /// What a caption rendition without a language says (Apple's HLS Authoring Specification
    /// wants a real LANGUAGE on every rendition; its validator makes it a must-fix).
    static func unknownCaptionLanguage(_ service: CaptionService) -> String {
        "neither the stream nor the operator names the language of \(service.rawValue): it is declared LANGUAGE=\"und\", which Apple's validator refuses; name it with caption service setting \(service.rawValue):language=TAG or a default caption language"
    }

    /// Adds a subtitle rendition for each published caption service that `makesRendition`
    /// takes; without `placement`, its cues carry no position settings.
    mutating func add(_ captions: ProgrammeCaptions, placement: Bool = true, makesRendition: (CaptionService) -> Bool = { _ in true }) {
        let services = captions.published.filter { makesRendition($0.service) }
        let (timeline, published, encryption, naming) = (self.timeline, self.published, self.encryption, self.naming)
        // Each service's rendition (its segments cut and hashed) on a core of its own; added in order.
        let made = onEveryCore(services.count) { index -> (SubtitleRendition, RenditionRecord, LanguageTag) in
            let service = services[index]
            let language = captions.language(for: service.service) ?? .undetermined
            let identity = RenditionIdentity.inBand(service.service)
            var cues = service.cues
            if !placement { for i in cues.indices { cues[i].settings = CueSettings() } }
            SubtitleIngest.assignIdentifiers(&cues, taken: [])
            let name = captions.name(for: service.service)
            let writable = SegmentCues.writable(cues, sanitizing: false)
            var record = RenditionRecord(
                identity: identity.description, sourceID: service.service.rawValue, language: language.description,
                name: name, forced: false, characteristics: service.forHardOfHearing ? .sdh : .none, prefersDefault: false,
                ingestFormat: service.service.family,
                source: Self.source(service.service), cueCount: writable.count)
            record.encrypted = encryption != nil
            let folder = RenditionLayout.folder(for: identity)
            let rendition = SubtitleRendition(
                folder: folder, cues: writable, headerBlocks: [], timeline: timeline, record: record, writable: true, appending: published[folder],
                encryption: encryption, naming: naming)
            return (rendition, record, language)
        }
        for (service, (rendition, record, language)) in zip(services, made ?? []) {
            append(
                rendition, record: record, encoding: nil, action: "added",
                origin: Self.origin(service.service), replacesLine: nil,
                warnings: language.isUndetermined ? [Self.unknownCaptionLanguage(service.service)] : [])
        }
    }
}
