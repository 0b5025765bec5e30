import Captions
import Foundation
import HLS
import Platform
import Synchronization
import Timebase
import TimedText

extension Presentation {
    /// Decides everything a run writes, reading (subtitle sources, the video for captions, the
    /// records and cues of earlier runs) but writing nothing.
    public func plan(_ request: PackageRequest) async throws(SubweaveError) -> PackagePlan {
        try await plan(request, stager: nil)
    }

    /// Decides everything a run writes; with a `stager`, each side-loaded track's rendition is
    /// written into the run's staging folder as soon as it is segmented and only its description
    /// is kept, so that the run holds a few tracks' cues at a time.
    func plan(_ request: PackageRequest, stager: RenditionStager?) async throws(SubweaveError) -> PackagePlan {
        let reader = self.reader
        let output = try writableOutput(request)
        // What earlier runs (and other tools) left, and what the operator said of the title.
        let recorded = try TitleIntent.read(output: output, master: masterURL, loader: loader)
        // Every folder template the title's renditions may be in: those said before, and this run's.
        let templates = (recorded?.folderTemplates ?? [.standard]) + [request.renditionFolder].compactMap { $0 }
        let existing = await ExistingRendition.read(self, templates: templates)
        var intent = startingIntent(recorded: recorded, existing: existing)
        // A caption rendition or in-band declaration the operator takes out is a service no
        // longer to publish: said in the record, so that no later run brings it back.
        var (request, inBandRemoved) = Self.unpublishingRemovedCaptions(
            request, existing: existing, master: master, ownCaptionGroup: intent.declaredCaptionGroup)
        let earlierFormat = intent.settings.textFormat
        var intentChanges = intent.applySettings(of: request)
        let settings = intent.settings
        // A caption file (MCC) gives a rendition per service, as in-band captions do.
        request.tracks = await CaptionFileTracks.expanding(request.tracks, services: settings.captionServices, loader: loader)
        // In-band captions: the whole programme is read, since a service may begin anywhere, and
        // what is declared must never hide captions the video carries; only a request that wants
        // neither renditions nor declarations of them (captions off, CLOSED-CAPTIONS=NONE) skips it.
        let encryption = try await subtitleEncryption(settings, output: output)
        // The captions are read while the side-loaded tracks are checked and made: neither needs
        // the other, and the tracks' work fills what the read leaves of the cores instead of
        // coming after it. The captions' failure is thrown first, as when one came after the other.
        async let readCaptions = Result.capturing { () async throws(SubweaveError) in
            try await inBandCaptions(settings, reader: reader, output: output)
        }
        let tracksMade = await Result.capturing { () async throws(SubweaveError) in
            // Each track against the programme's speech, when asked: warned of, or retimed.
            let (syncWarnings, syncEntries) = try await checkSync(&request)
            // An open programme's renditions are appended to, under the URIs players already follow.
            let published = output == masterURL ? publishedRenditions(naming: settings.naming, encrypted: encryption != nil, templates: templates) : [:]
            let made = try await makeTrackRenditions(
                request.tracks, stager: stager, published: published, encryption: encryption, naming: settings.naming, folders: settings.renditionFolder)
            return (syncWarnings, syncEntries, published, made)
        }
        let (captions, captionWarnings, captionRecord) = try await readCaptions.get()
        let (syncWarnings, syncEntries, published, made) = try tracksMade.get()
        request.tracks = made.map(\.track)
        var planner = RenditionPlanner(timeline: timeline, published: published)
        planner.encryption = encryption
        planner.naming = settings.naming
        planner.folders = settings.renditionFolder
        for track in made { planner.add(track.rendition, track.declaration, track.report) }
        planner.add(captions, placement: settings.captionPlacement, makesRendition: settings.makesRendition(of:))
        var warnings = self.warnings + captionWarnings + syncWarnings
        try checkEmpty(planner, request, &warnings)
        // What earlier runs (and other tools) left: removed, refreshed, retimed.
        let removal = try await planEarlierRuns(
            request, settings: settings, captions: captions, existing: existing, output: output, planner: &planner, warnings: &warnings)
        // Tracks a replacing run leaves out are dropped, not named: a warning.
        let namedRemovals = request.replace ? [] : Set(removal.removed.compactMap(\.identity))
        let (trackChanges, dropped) = intent.applyTracks(request.tracks, removed: namedRemovals, replacing: request.replace)
        intentChanges += trackChanges
        warnings += dropped.map { PackageWarning(.intentDropped, "\($0) was given by an earlier run and is dropped by \(Setting.replace)") }
        try checkFolders(planner, existing: existing, removal: removal, template: settings.renditionFolder)
        var rewritten = try rewriteMaster(
            planner: planner, removal: removal, settings: settings, captions: captions, intent: intent,
            withdrawing: earlierFormat != settings.textFormat ? earlierFormat.codec : nil, templates: templates)
        // Nothing to add, take out or declare: a run with nothing to do is an error, not a rewrite.
        guard !planner.renditions.isEmpty || !removal.lines.isEmpty || !inBandRemoved.isEmpty || rewritten.captionGroup != nil else {
            throw .nothingToPackage(reference: MediaReader.display(reference.url), unpublishedCaptions: captions.services.map(\.service.rawValue))
        }
        warnings += Self.rewriteWarnings(rewritten, settings: settings, captions: captions, tracks: request.tracks, coverage: made.map(\.coverageCues))
        rewritten = try rebase(rewritten, output: output, baseURL: request.baseURL, written: Set(planner.renditions.map(\.playlistPath)), &warnings)
        let previous = Self.managedGenerations(master, includingLegacy: true, templates: templates)
        let tracks = planner.reportsMarkingUnchanged(previous: previous)
        warnings += Self.languageChangeWarnings(request.tracks, existing: existing, removed: removal.lines)
        var report = self.report(output: output, rewritten: rewritten, tracks: tracks, captions: captions, warnings: warnings, sync: syncEntries)
        report.removed = removal.removed + inBandRemoved
        intent.declaredCaptionGroup = rewritten.captionGroup
        report.intent = intent
        report.intentChanges = intentChanges
        if request.strict { try Self.failOnWarnings(report) }
        let named = Self.managedGenerations(rewritten.master, includingLegacy: false, templates: templates)
        return PackagePlan(
            masterURL: masterURL, masterBytes: masterBytes, output: output, master: rewritten.master.playlist,
            renditions: planner.renditions, report: report,
            managedFolders: Set(previous.keys).union(named.keys), named: named, previous: previous,
            removedFolders: removal.folders.subtracting(named.keys), intent: intent, captionRecord: captionRecord)
    }

    /// The master to write (the request's output, else the master itself), checked before any
    /// work: a local file, and a regular file or nothing where it and its intent record go (the
    /// master is replaced by renaming a new file over it).
    func writableOutput(_ request: PackageRequest) throws(SubweaveError) -> URL {
        let output = request.output ?? masterURL
        guard output.isFileURL else { throw .outputNeeded(master: MediaReader.display(output), following: false) }
        try onDisk(FileSystem.refuseReplacing(output.path, what: "the master"))
        try onDisk(FileSystem.refuseReplacing(TitleIntent.path(beside: output), what: "the intent record"))
        return output
    }

    /// What the rewritten master and the captions read give to warn of: CLOSED-CAPTIONS against
    /// the services, what reading the captions noted, the rewrite's own, forced coverage, and a
    /// preferred language no rendition matches.
    static func rewriteWarnings(
        _ rewritten: MasterRewriter.Result, settings: EffectiveSettings, captions: ProgrammeCaptions, tracks: [SubtitleTrack], coverage: [[Cue]?]
    ) -> [PackageWarning] {
        var warnings = settings.closedCaptions.warnings(captions, mode: settings.captions)
        warnings += captions.notes.map { PackageWarning(.media, "while reading captions: \($0)") }
        warnings += rewritten.warnings + RenditionRules.forcedCoverageWarnings(tracks, coverage)
        if let preferred = settings.preferredLanguage { warnings += preferredLanguageWarnings(preferred, rewritten.master) }
        return warnings
    }

    /// The in-band captions, read unless the request wants neither renditions nor declarations
    /// of them (captions off, CLOSED-CAPTIONS=NONE), with the warnings reading them gave.
    ///
    /// A record of an earlier run's reading beside `output` answers when the media has not
    /// changed; the record to keep comes back when the captions were read.
    func inBandCaptions(_ settings: EffectiveSettings, reader: MediaReader, output: URL) async throws(SubweaveError)
        -> (captions: ProgrammeCaptions, warnings: [PackageWarning], record: CaptionRecordToKeep?)
    {
        guard settings.captions == .auto || settings.closedCaptions != .none else { return (.none, [], nil) }
        let choice = CaptionVariantChoice(presentation: self, reader: reader, settings: settings.captionServices)
        let read = try await choice.read(onProgress: onProgress, recordBeside: output)
        return (read.captions.with(settings.captionServices), read.warnings, read.record)
    }

    /// The master rewritten for the run.
    ///
    /// When everything Subweave added is taken out, the variants get back the CLOSED-CAPTIONS
    /// they had, unless the operator said what they should be (in-band with nothing left to
    /// declare says nothing).
    func rewriteMaster(
        planner: RenditionPlanner, removal: RemovalDecision, settings: EffectiveSettings, captions: ProgrammeCaptions, intent: TitleIntent,
        withdrawing: String? = nil, templates: [RenditionFolderTemplate]
    ) throws(SubweaveError) -> MasterRewriter.Result {
        var undoes = Self.removesEverything(master, planner: planner, removal: removal, templates: templates)
        if undoes, intent.closedCaptions == ClosedCaptionsRequest.inBand.rawValue {
            undoes =
                (try rewriteMaster(planner.declarations, removing: removal.lines, settings: settings, captions: captions, templates: templates))
                .captionGroup == nil
        }
        let restoring = undoes && intent.closedCaptions != ClosedCaptionsRequest.none.rawValue
        return try rewriteMaster(
            planner.declarations, removing: removal.lines, settings: settings, captions: captions, ownCaptionGroup: intent.declaredCaptionGroup,
            restoring: restoring ? intent.originalClosedCaptions : nil, withdrawing: withdrawing, templates: templates)
    }

    /// `request` with `publish=no` for each caption service one of its removals names.
    ///
    /// A removal names a service by its caption rendition, or by its in-band declaration
    /// (unless the request says otherwise of that service). A removal that names only in-band declarations is taken out of the request
    /// (they are not renditions; the master is written without them), and reported.
    static func unpublishingRemovedCaptions(
        _ request: PackageRequest, existing: [ExistingRendition], master: MasterPlaylist, ownCaptionGroup: String?
    ) -> (request: PackageRequest, inBand: [PackageReport.Removed]) {
        var request = request
        var inBand: [PackageReport.Removed] = []
        func unpublish(_ name: String) {
            var said = request.captionServices.services[name] ?? CaptionServiceSetting()
            if said.publish == nil { said.publish = false }
            request.captionServices.services[name] = said
        }
        let declared = master.renditions.filter { $0.type == .closedCaptions && ownCaptionGroup != nil && $0.groupID == ownCaptionGroup }
        var removals: [RemovalSelector] = []
        for selector in request.removals {
            var matchesRendition = false
            for e in existing where selector.matches(managed: e) {
                matchesRendition = true
                guard let service = e.record.flatMap({ RenditionIdentity.inBandService($0.identity) }) else { continue }
                unpublish(service.rawValue)
            }
            let lines = declared.filter { rendition in
                guard let service = rendition.attributes["INSTREAM-ID"]?.unquoted, selector.matchesLanguage(rendition.language) else { return false }
                return selector.sourceID.map { $0.caseInsensitiveCompare(service) == .orderedSame } ?? true
            }
            for rendition in lines {
                guard let service = rendition.attributes["INSTREAM-ID"]?.unquoted else { continue }
                unpublish(service)
                inBand.append(
                    PackageReport.Removed(
                        identity: "in-band:\(service)", managed: true, name: rendition.name ?? "", language: rendition.language,
                        line: master.playlist.lines[rendition.lineIndex].number ?? 0, folder: nil,
                        reason: "removed (\(selector)); the service is no longer declared"))
            }
            if matchesRendition || lines.isEmpty { removals.append(selector) }
        }
        request.removals = removals
        return (request, inBand)
    }

    /// The intent a run starts from: the record beside the output (or the master), else what an
    /// earlier Subweave without records left in its renditions; a title Subweave has never
    /// touched also keeps its variants' CLOSED-CAPTIONS, to give them back when everything
    /// Subweave adds is taken out again.
    func startingIntent(recorded: TitleIntent?, existing: [ExistingRendition]) -> TitleIntent {
        if let recorded { return recorded }
        var intent = TitleIntent.inferred(from: existing)
        if !existing.contains(where: \.isManaged) {
            intent.originalClosedCaptions = master.variants.map { $0.attributes["CLOSED-CAPTIONS"]?.rawValue }
        }
        return intent
    }

    /// Whether the new master keeps nothing Subweave manages: no rendition written, and every
    /// managed one taken out.
    static func removesEverything(
        _ master: MasterPlaylist, planner: RenditionPlanner, removal: RemovalDecision, templates: [RenditionFolderTemplate]
    ) -> Bool {
        guard planner.renditions.isEmpty else { return false }
        return master.renditions.allSatisfy { rendition in
            guard let uri = rendition.uri, RenditionLayout.recognise(uri, templates: templates) != nil else { return true }
            return removal.lines.contains(rendition.lineIndex)
        }
    }

    /// Every rendition the run writes has a folder of its own: none shares one with another
    /// rendition written or kept (other than itself from an earlier run), and none lies inside
    /// another's (removing one would remove the other's files).
    func checkFolders(
        _ planner: RenditionPlanner, existing: [ExistingRendition], removal: RemovalDecision, template: RenditionFolderTemplate
    ) throws(SubweaveError) {
        let written = planner.declarations.map { (folder: $0.folder, origin: $0.origin, kept: false) }
        let writing = Set(planner.declarations.map(\.identity))
        var kept: [(folder: String, origin: String, kept: Bool)] = []
        for e in existing where !removal.lines.contains(e.rendition.lineIndex) {
            guard let place = e.place, !(e.identity.map(writing.contains) ?? false) else { continue }
            kept.append((place.folder, "the rendition \(e.describe(in: master))", true))
        }
        let all = written + kept
        for (i, new) in written.enumerated() {
            for (j, other) in all.enumerated() where j > i {
                guard other.folder == new.folder || new.folder.hasPrefix(other.folder + "/") || other.folder.hasPrefix(new.folder + "/") else { continue }
                throw .folderClash(
                    FolderClash(
                        folder: new.folder, writing: new.origin, other: other.origin, otherFolder: other.folder, otherIsKept: other.kept,
                        template: template.text))
            }
        }
    }

    /// Checks the request's tracks against the programme's speech when it asks (``SyncMode``),
    /// retiming them for `.fix`; the warnings and the report's account.
    private func checkSync(_ request: inout PackageRequest) async throws(SubweaveError) -> ([PackageWarning], [PackageReport.Sync]) {
        guard request.sync != .off, !request.tracks.isEmpty else { return ([], []) }
        let checked = SyncCheck.apply(try await checkSync(request.tracks), to: request.tracks, fixing: request.sync == .fix)
        request.tracks = checked.tracks
        return (checked.warnings, checked.entries)
    }

    /// A track of the request that ends with no cue fails the run, unless empty tracks are
    /// allowed, when it is a warning.
    private func checkEmpty(_ planner: RenditionPlanner, _ request: PackageRequest, _ warnings: inout [PackageWarning]) throws(SubweaveError) {
        for (track, rendition) in zip(request.tracks, planner.renditions) where rendition.cueCount == 0 {
            let report = planner.reports.first { $0.identity == track.identity.description }
            let empty = EmptyTrack(sourceID: track.sourceID, source: track.source.description, why: report?.warnings.first)
            guard request.allowEmpty else { throw .emptyTrack(empty) }
            warnings.append(PackageWarning(.emptyTrack, "\(empty.finding); written empty (\(Setting.allowEmpty))"))
        }
    }

    /// A side-loaded track made into its rendition: the track (with the language its file
    /// declares, when it had none), the rendition, where its files are, and the cues the
    /// forced-coverage rule reads (kept only for the tracks it compares).
    struct MadeTrack: Sendable {
        let track: SubtitleTrack
        let rendition: PlannedRendition
        let declaration: NewSubtitleRendition
        let report: PackageReport.Track
        let coverageCues: [Cue]?
    }

    /// Loads, ingests and segments each track, a few at a time; with a `stager`, each rendition
    /// is written to staging at once and its cues are let go.
    private func makeTrackRenditions(
        _ tracks: [SubtitleTrack], stager: RenditionStager?, published: [String: PublishedRendition], encryption: SubtitleEncryption?,
        naming: SegmentNaming, folders: RenditionFolderTemplate
    ) async throws(SubweaveError) -> [MadeTrack] {
        let timeline = self.timeline
        let compared = RenditionRules.forcedCoverageTracks(tracks)
        let onProgress = self.onProgress
        let made = Atomic<Int>(0)
        let staging = Atomic<Int>(0)
        if !tracks.isEmpty { onProgress(WorkProgress(.tracks, done: 0, total: tracks.count)) }
        return try await TrackLoader(loader: loader).load(tracks) { index, track, ingested throws(SubweaveError) in
            defer { onProgress(WorkProgress(.tracks, done: made.add(1, ordering: .relaxed).newValue, total: tracks.count)) }
            let track = try Self.languageFromFile(track, ingested)
            let made = RenditionPlanner.rendition(
                for: track, ingested, timeline: timeline, appending: published[RenditionLayout.folder(for: track.identity, template: folders)],
                encryption: encryption, naming: naming, folders: folders)
            var files = PlannedRendition.Files.pending(made.rendition)
            if let stager {
                // The last tracks to be staged share the cores the others leave.
                let parts = RenditionStager.parts(tracksLeft: tracks.count - staging.add(1, ordering: .relaxed).newValue + 1)
                files = try await onDispatch { () throws(SubweaveError) in try stager.stage(made.rendition, parts: parts) }
            }
            // Only the description is kept: once staged, the cues are let go.
            return MadeTrack(
                track: track, rendition: PlannedRendition(made.rendition, files: files), declaration: made.declaration, report: made.report,
                coverageCues: compared.contains(index) ? ingested.cues : nil)
        }
    }

    /// A track registered without a language takes the one its file declares (TTML's
    /// `xml:lang`); one that declares none cannot be labelled.
    static func languageFromFile(_ track: SubtitleTrack, _ ingested: IngestedSubtitles) throws(SubweaveError) -> SubtitleTrack {
        guard track.language.isUndetermined, track.label.isEmpty else { return track }
        guard let tag = ingested.declaredLanguage.flatMap(LanguageTag.init(parsing:)), !tag.isUndetermined else {
            throw .registration([
                RegistrationError(
                    .emptyLabel, descriptor: "track \"\(track.sourceID)\"",
                    "name= or language= is required: the TTML document declares no xml:lang to take the language from")
            ])
        }
        return track.adopting(language: tag)
    }

    /// A strict request: every warning of the run (the run's and each track's) fails it.
    static func failOnWarnings(_ report: PackageReport) throws(SubweaveError) {
        let all = report.allWarnings
        if !all.isEmpty { throw .strict(all) }
    }

    /// A track whose source ID an earlier run added in another language gets a rendition of its
    /// own (the identity is source ID and language): say so, and how to take the old one out.
    static func languageChangeWarnings(_ tracks: [SubtitleTrack], existing: [ExistingRendition], removed: Set<Int>) -> [PackageWarning] {
        var warnings: [PackageWarning] = []
        for track in tracks {
            for e in existing where e.isManaged && !removed.contains(e.rendition.lineIndex) && e.sourceID == track.sourceID {
                let language = e.record?.language ?? e.rendition.language ?? ""
                guard language.lowercased() != track.language.description.lowercased() else { continue }
                warnings.append(
                    PackageWarning(
                        .track,
                        "track \"\(track.sourceID)\" was packaged before in \(language); that rendition stays beside the new \(track.language) one. Take it out with \(removal: track.sourceID, language: language), or package with \(Setting.replace)"
                    ))
            }
        }
        return warnings
    }

    /// A preferred language that no subtitle rendition of the new master has: a warning, with
    /// the tag meant when it is a language's name (`english` → `en`).
    static func preferredLanguageWarnings(_ preferred: LanguageTag, _ master: MasterPlaylist) -> [PackageWarning] {
        let languages = master.renditions.filter { $0.type == .subtitles }.compactMap { $0.language.flatMap(LanguageTag.init(parsing:)) }
        guard !languages.contains(where: { preferred.match($0) != .none }) else { return [] }
        var rest = languages.isEmpty ? "" : " (they are in \(Array(Set(languages.map(\.description))).sorted().joined(separator: ", ")))"
        rest += "; no rendition was made DEFAULT by it"
        if let suggestion = LanguageTag.suggestion(forName: preferred.description) { rest += ". Did you mean \(suggestion)?" }
        return [
            PackageWarning(
                .preferredLanguageUnmatched, "the preferred language \(preferred) (\(Setting.preferredLanguage)) matches no subtitle rendition\(rest)")
        ]
    }

    /// The master with `declarations` added and the lines `removing` taken out, DEFAULT by the
    /// request's preferred language and CLOSED-CAPTIONS as it asks given `captions`: what
    /// a package run and each pass of a live follow write.
    ///
    /// With `restoring`, the variants' CLOSED-CAPTIONS as they were before Subweave first wrote
    /// the master (it takes everything it added out, and nothing was said of CLOSED-CAPTIONS).
    func rewriteMaster(
        _ declarations: [NewSubtitleRendition], removing: Set<Int> = [], settings: EffectiveSettings, captions: ProgrammeCaptions,
        ownCaptionGroup: String? = nil, restoring original: [String?]? = nil, withdrawing: String? = nil, templates: [RenditionFolderTemplate]
    ) throws(SubweaveError) -> MasterRewriter.Result {
        // The caption services published as subtitle renditions: made now, or kept from earlier.
        let asRenditions = Set(declarations.compactMap { RenditionIdentity.inBandService($0.identity)?.rawValue })
        var policy = settings.closedCaptions.policy(captions, asRenditions: asRenditions)
        if let original, policy == .automatic || policy == .declare([]) { policy = .restore(original) }
        var rewriter = MasterRewriter(preferredLanguage: settings.preferredLanguage, closedCaptions: policy)
        rewriter.ownCaptionGroup = ownCaptionGroup
        rewriter.subtitleGroup = settings.subtitleGroup
        rewriter.textCodec = settings.textFormat.codec
        rewriter.withdrawnCodec = withdrawing
        rewriter.folderTemplates = templates
        return try rewriter.rewrite(master, renditions: declarations, removing: removing)
    }

    /// The rewritten master with its relative URIs rewritten for `output`'s folder.
    func rebase(
        _ rewritten: MasterRewriter.Result, output: URL, baseURL: URL?, written: Set<String>, _ warnings: inout [PackageWarning]
    ) throws(SubweaveError) -> MasterRewriter.Result {
        let rebase = URIRebase(source: masterURL, output: output, baseURL: baseURL, written: written)
        guard rebase.isNeeded else { return rewritten }
        var master = rewritten.master
        let (count, kept): (Int, [String])
        do { (count, kept) = try rebase.apply(to: &master) } catch { throw .playlist(error) }
        if count > 0 {
            let base = baseURL.map { "against \($0.absoluteString)" } ?? "to resolve from \(output.deletingLastPathComponent().path)"
            warnings.append(PackageWarning(.outputElsewhere, "the new master is written elsewhere: \(count) relative URI(s) rewritten \(base)"))
        }
        for uri in kept {
            warnings.append(
                PackageWarning(.uriNotRebased, "\(uri) uses a variable ({$…}) and was kept as written; check that it resolves from the new master"))
        }
        var result = MasterRewriter.Result(master: master, groups: rewritten.groups, warnings: rewritten.warnings)
        result.captionGroup = rewritten.captionGroup
        return result
    }

    /// The report of a run that writes `output`.
    func report(
        output: URL, rewritten: MasterRewriter.Result, tracks: [PackageReport.Track], captions: ProgrammeCaptions,
        warnings: [PackageWarning], sync: [PackageReport.Sync] = []
    ) -> PackageReport {
        var report = PackageReport(
            master: MediaReader.display(masterURL), output: output.path, dryRun: false,
            referencePlaylist: MediaReader.display(reference.url), referenceReason: reference.reason,
            segmentCount: timeline.playlist.segments.count, duration: timeline.duration.seconds,
            timeline: timeline.sequences.map(PackageReport.Sequence.init),
            groups: rewritten.groups, tracks: tracks,
            captions: captions.services.map { service in
                PackageReport.CaptionService(
                    service: service.service.rawValue, language: captions.language(for: service.service)?.description,
                    languageSource: captions.languageAndSource(for: service.service)?.source.rawValue,
                    firstSeen: service.firstSeen?.seconds, segment: service.segment,
                    published: captions.published.contains { $0.service == service.service })
            }, warnings: warnings)
        report.captionsReadFrom = captions.readFrom
        report.sync = sync
        return report
    }

    /// The renditions of an open programme an earlier run published that a run appends to (their
    /// playlists have no `EXT-X-ENDLIST`), by folder.
    func publishedRenditions(naming: SegmentNaming, encrypted: Bool, templates: [RenditionFolderTemplate]) -> [String: PublishedRendition] {
        guard masterURL.isFileURL else { return [:] }
        let root = masterURL.deletingLastPathComponent().path
        var result: [String: PublishedRendition] = [:]
        for (folder, generation) in Self.managedGenerations(master, includingLegacy: false, templates: templates) {
            if let published = PublishedRendition.read(
                folder: folder, generation: generation, root: root, reference: timeline.playlist, naming: naming, encrypted: encrypted)
            {
                result[folder] = published
            }
        }
        return result
    }

    /// The renditions Subweave manages in `master`: folder → the generation it names ("" for the
    /// layout before generations, with `includingLegacy`).
    static func managedGenerations(_ master: MasterPlaylist, includingLegacy: Bool, templates: [RenditionFolderTemplate]) -> [String: String] {
        var result: [String: String] = [:]
        for rendition in master.renditions {
            guard let uri = rendition.uri, let place = RenditionLayout.recognise(uri, templates: templates) else { continue }
            if let generation = place.generation { result[place.folder] = generation } else if includingLegacy { result[place.folder] = "" }
        }
        return result
    }
}
