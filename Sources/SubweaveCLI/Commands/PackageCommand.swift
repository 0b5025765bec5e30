import Foundation
import Subweave

/// `subweave package`.
enum PackageCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        var request = PackageRequest(tracks: try registerTracks(arguments))
        try sayCaptionSettings(arguments, into: &request)
        request.sync = arguments.flag(Option.fixSync) ? .fix : arguments.flag(Option.checkSync) ? .check : .off
        request.replace = arguments.flag(Option.replace)
        request.refreshExisting = !arguments.flag(Option.noRefresh)
        request.retimeExisting = arguments.flag(Option.retimeExisting)
        request.allowEmpty = arguments.flag(Option.allowEmpty)
        if arguments.flag(Option.follow) { return try await follow(request, context) }
        return try await write(request, context, fingerprinted: true)
    }

    /// `package --follow`: a live presentation, segment by segment, until it ends.
    static func follow(_ request: PackageRequest, _ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        var request = request
        request.output = arguments.value(Option.output).map { URL(fileURLWithPath: $0) }
        request.baseURL = arguments.value(Option.baseUrl).flatMap(URL.init(string:))
        var follower = LiveFollower(loader: Commands.loader(context))
        follower.pollInterval = arguments.value(Option.poll).flatMap(Double.init)
        follower.idleTimeout = arguments.value(Option.idleTimeout).flatMap(Double.init)
        if let timeout = arguments.value(Option.lockTimeout).flatMap(Double.init) { follower.lockTimeout = timeout }
        follower.onRetry = { message in context.note("warning: \(message)") }
        let status = FollowStatus(context)
        follower.onUpdate = { update in status.pass(update) }
        let report: LiveReport
        do {
            report = try await follower.follow(master: Commands.url(arguments.positionals[0]), request)
            status.done()
        } catch {
            status.done()
            throw error
        }
        if context.json {
            try Output.json(
                LiveJSON(
                    reason: report.reason, segmentsWritten: report.segmentsWritten, partsWritten: report.partsWritten, lateCues: report.lateCues,
                    missedCues: report.missedCues, notes: report.notes),
                schema: "subweave.follow/1")
        } else {
            context.note(
                "\(report.reason == "ended" ? "the playlist ended" : "the playlist stopped changing"): \(report.segmentsWritten.counted("subtitle segment"))\(report.partsWritten > 0 ? " and \(report.partsWritten.counted("part"))" : "") written"
            )
            for (identity, count) in report.lateCues.sorted(by: { $0.key < $1.key }) {
                context.note(
                    "warning: \(identity): \(count.counted("cue")) arrived after the segment \(count == 1 ? "it starts" : "they start") in was published; \(count == 1 ? "it shows" : "they show") from the next segment's start"
                )
            }
            for (identity, count) in report.missedCues.sorted(by: { $0.key < $1.key }) {
                context.note(
                    "warning: \(identity): \(count.counted("cue")) arrived after every segment \(count == 1 ? "it shows" : "they show") in was published and \(count == 1 ? "was" : "were") left out of the live segments; refresh the title once the event has ended to publish \(count == 1 ? "it" : "them")"
                )
            }
            for note in report.notes { context.note(note) }
        }
        return 0
    }

    struct LiveJSON: Encodable {
        let reason: String
        let segmentsWritten: Int
        let partsWritten: Int
        let lateCues: [String: Int]
        let missedCues: [String: Int]
        let notes: [String]

        enum CodingKeys: String, CodingKey {
            case reason, segmentsWritten = "segments_written", partsWritten = "parts_written", lateCues = "late_cues", missedCues = "missed_cues", notes
        }
    }

    /// What the command says of the title's settings; an option not given says nothing (the
    /// title keeps what was said before: ``TitleIntent``).
    static func sayCaptionSettings(_ arguments: ParsedArguments, into request: inout PackageRequest) throws {
        if let text = arguments.value(Option.preferredLanguage) {
            request.preferredLanguage = text.lowercased() == "none" ? .undetermined : LanguageTag(parsing: text)
        }
        request.subtitleGroup = arguments.value(Option.subtitleGroup)
        request.textFormat = arguments.value(Option.textFormat).flatMap(SubtitleTextFormat.init(label:))
        request.segmentNames = arguments.value(Option.segmentNames).flatMap(SegmentNameTemplate.init)
        request.renditionFolder = arguments.value(Option.renditionFolder).flatMap(RenditionFolderTemplate.init)
        // The key file's absolute path is recorded: a later command may run from another folder.
        request.encryptSubtitles = arguments.value(Option.encryptSubtitles).map { $0 == "none" ? $0 : URL(fileURLWithPath: $0).path }
        request.closedCaptions = arguments.value(Option.closedCaptions).flatMap(ClosedCaptionsRequest.init(rawValue:))
        request.captions = arguments.value(Option.captions).flatMap(CaptionMode.init(rawValue:))
        request.captionPlacement = arguments.value(Option.captionPlacement).map { $0 != "none" }
        request.captionServices = try captionServices(arguments)
    }

    /// `subweave remove`: a run that takes renditions out and adds none.
    static func remove(_ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        var request = PackageRequest(tracks: [])
        try sayCaptionSettings(arguments, into: &request)
        let language = arguments.value(Option.language).flatMap(LanguageTag.init(parsing:))
        if let id = arguments.value(Option.id) {
            request.removals = [RemovalSelector(sourceID: id, language: language)]
        } else if let language {
            request.removals = [RemovalSelector(language: language)]
        }
        request.forceRemoval = arguments.flag(Option.force)
        return try await write(request, context)
    }

    /// `subweave refresh`: a run that adds nothing and writes every managed rendition again.
    static func refresh(_ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        var request = PackageRequest(tracks: [])
        try sayCaptionSettings(arguments, into: &request)
        request.retimeExisting = arguments.flag(Option.retimeExisting)
        do {
            return try await write(request, context)
        } catch SubweaveError.nothingToPackage {
            // A pipeline refreshes every title after a re-encode, also those whose subtitles were
            // all taken out: nothing of Subweave's to segment again is not a failure.
            let message = "nothing to refresh: \(arguments.positionals[0]) holds nothing Subweave manages, and nothing said is to be published"
            context.note(message)
            if context.json { try Output.json(NothingToDo(master: arguments.positionals[0], message: message), schema: "subweave.nothing/1") }
            return 0
        }
    }

    /// What `refresh --json` prints when the title holds nothing to refresh.
    struct NothingToDo: Encodable {
        let master: String
        let message: String
    }

    /// `--caption-service SERVICE:KEYS …` and `--caption-language TAG`.
    static func captionServices(_ arguments: ParsedArguments) throws -> CaptionServiceSettings {
        var settings = CaptionServiceSettings()
        for text in arguments.all(Option.captionService) {
            do { try settings.add(parsing: text) } catch { throw CommandError(message: "--caption-service: \(error.description)") }
        }
        if let text = arguments.value(Option.captionLanguage) {
            guard let tag = LanguageTag(parsing: text), tag.isKnownLanguage else {
                throw CommandError(message: "--caption-language \(text) is not a known BCP 47 language; write a code such as en, or und for unknown")
            }
            settings.defaultLanguage = tag
        }
        return settings
    }

    /// Plans `request` with the options every writing command shares, writes it (unless
    /// `--dry-run`), and reports.
    ///
    /// `fingerprinted` (`package` writing its master in place): a run whose inputs are those of
    /// the run that last wrote the title (``RunFingerprint``) reads nothing more and reports as an
    /// unchanged run does; a run that writes keeps its fingerprint for the next.
    static func write(_ request: PackageRequest, _ context: Context, fingerprinted: Bool = false) async throws -> Int32 {
        let arguments = context.arguments
        var request = request
        request.output = arguments.value(Option.output).map { URL(fileURLWithPath: $0) }
        request.baseURL = arguments.value(Option.baseUrl).flatMap(URL.init(string:))
        request.strict = arguments.flag(Option.strict)
        let master = Commands.url(arguments.positionals[0])
        let fingerprint = fingerprinted && request.output == nil && !arguments.flag(Option.dryRun) ? Fingerprinting(master, request, context) : nil
        if let fingerprint, let earlier = fingerprint.unchanged() {
            report(earlier, context: context)
            return 0
        }
        // What the run depends on and does not write, fingerprinted as it starts reading.
        let inputPieces = fingerprint.map { RunFingerprint.startingInputPieces(master: $0.master) }
        let loader = Commands.loader(context)
        let progress = ProgressLine(context)
        progress.say("reading \(arguments.positionals[0])")
        var plan: PackagePlan
        if arguments.flag(Option.dryRun) {
            let key = try ContentKey.forRun(master: master, request, loader: loader)
            var presentation = try await Presentation(master: master, loader: loader, key: key)
            presentation.onProgress = progress.update
            plan = try await presentation.plan(request)
        } else {
            var packager = Packager(loader: loader)
            packager.onProgress = progress.update
            packager.keepPrevious = arguments.flag(Option.keepPrevious)
            if let seconds = arguments.value(Option.retireAfter).flatMap(Double.init) { packager.retireAfter = seconds }
            if let timeout = arguments.value(Option.lockTimeout).flatMap(Double.init) { packager.lockTimeout = timeout }
            packager.onWait = { message in context.note(message) }
            plan = try await packager.run(master: master, request)
        }
        progress.done()
        fingerprint?.keep(plan, known: await inputPieces?.value ?? [:])
        report(plan, context: context)
        return 0
    }

    /// The fingerprint of a `package` run's inputs: the command as given (less what only shapes
    /// the output on the terminal), and the local subtitle sources it names.
    struct Fingerprinting {
        let master: URL
        let command: [String]
        let sources: [URL]

        init(_ master: URL, _ request: PackageRequest, _ context: Context) {
            self.master = master
            let quiet: Set<String> = ["--json", "--quiet", "-q", "--verbose", "-v", "--progress", "--no-progress"]
            command = CommandLine.arguments.dropFirst().filter { !quiet.contains($0) }
            var sources = request.tracks.map(\.source.url)
            if let file = context.arguments.value(Option.tracks) { sources.append(URL(fileURLWithPath: file)) }
            self.sources = sources
        }

        /// The report of the run that left the title as it is, as an unchanged run reports it,
        /// when nothing it depended on changed since.
        func unchanged() -> PackageReport? {
            guard let record = RunFingerprint.read(master: master), let now = RunFingerprint.compute(master: master, command: command, sources: sources),
                now == record.fingerprint
            else { return nil }
            var report = record.report
            report.unchanged = true
            report.intentChanges = []
            report.removed = []
            report.warnings.removeAll { [.intentDropped, .captionRenditionRemoved].contains($0.code) }
            return report
        }

        /// Keeps the report of `plan` with the fingerprint of the title as the run left it (the
        /// playlists it does not write as `known` says they were when it started, the renditions
        /// it staged as it wrote them); when another run has written the master since, no
        /// record (the next run reads the title).
        func keep(_ plan: PackagePlan, known: [String: String]) {
            let known = known.merging(RunFingerprint.writtenPieces(plan.renditions, master: master)) { _, written in written }
            // The master as the run wrote it (or found it), by its digest: another run that wrote
            // it since leaves other bytes.
            guard let written = plan.writtenMaster,
                let now = RunFingerprint.compute(master: master, command: command, sources: sources, expectedMaster: written, known: known)
            else {
                RunFingerprint.forget(master: master)
                return
            }
            RunFingerprint.write(RunFingerprint.Record(fingerprint: now, report: plan.report), master: master)
        }
    }

    /// The tracks of every `--subtitle` and of `--tracks`, every problem reported together.
    static func registerTracks(_ arguments: ParsedArguments) throws -> [SubtitleTrack] {
        var descriptors: [TrackDescriptor] = []
        var errors: [RegistrationError] = []
        for (index, text) in arguments.all(Option.subtitle).enumerated() {
            do { descriptors.append(try TrackDescriptor(parsing: text, origin: "--subtitle #\(index + 1)")) } catch { errors.append(error) }
        }
        if let file = arguments.value(Option.tracks) {
            do {
                let data = Data(try ResourceLoader.readFile(file, limit: ReadLimits().playlist, kind: .playlist))
                descriptors += try TrackDescriptor.parseTracksFile(data, file: file)
            } catch let failure as ResourceLoader.Failure {
                throw SubweaveError.unreadable(path: file, what: "the tracks file", failure)
            } catch let error as SubweaveError {
                guard case .registration(let more) = error else { throw error }
                errors += more
            }
        }
        var tracks: [SubtitleTrack] = []
        do { tracks = try SubtitleTrack.register(descriptors) } catch {
            guard case .registration(let more) = error else { throw error }
            errors += more
        }
        if !errors.isEmpty { throw SubweaveError.registration(errors) }
        return tracks
    }

    /// Prints the report of a run that read nothing more (its fingerprint unchanged).
    static func report(_ report: PackageReport, context: Context) {
        if context.json {
            try? streamJSON(report, plan: nil)
        } else if !context.quiet {
            let summary = report.summary(Vocabulary.spelling)
            if !summary.isEmpty { Output.error(summary) }
        }
    }

    /// Prints the report: JSON on stdout with `--json`, the master on stdout for a dry run, and a
    /// summary on stderr.
    static func report(_ plan: PackagePlan, context: Context) {
        let dryRun = context.arguments.flag(Option.dryRun)
        var report = plan.report
        if dryRun {
            report.output = nil
            report.dryRun = true
            for index in report.tracks.indices { report.tracks[index].filesWritten = [] }
        }
        if context.json {
            try? streamJSON(report, plan: dryRun ? plan : nil)
        } else if dryRun {
            plan.writeMasterText { Output.raw(Array($0)) }
        }
        if !context.json && !context.quiet {
            let summary = report.summary(Vocabulary.spelling) + (context.verbose ? "\nreference: \(report.referencePlaylist) (\(report.referenceReason))" : "")
            if !summary.isEmpty { Output.error(summary) }
        }
    }

    /// The report as JSON with, on a dry run (`plan` given), the master that would have been
    /// written as `master_text`: the report is encoded with a marker in its place, and the master
    /// streamed into it, escaped as `JSONEncoder` escapes strings, so that it is never made whole.
    static func streamJSON(_ report: PackageReport, plan: PackagePlan?) throws {
        let marker = "\u{1}subweave-master-text\u{1}"
        let data = Array(try Output.jsonData(JSONReport(report: report, masterText: plan.map { _ in marker }), schema: "subweave.package/1"))
        let escaped = Array("\"\\u0001subweave-master-text\\u0001\"".utf8)
        guard let plan, let at = data.firstRange(of: escaped) else {
            Output.jsonBytes(data + [0x0A])
            return
        }
        Output.jsonBytes(data[..<at.lowerBound])
        var out = PrettyJSON(flushing: Output.raw)
        out.openString()
        plan.writeMasterText { out.stringContent($0) }
        out.closeString()
        Output.raw(out.bytes)
        Output.jsonBytes(data[at.upperBound...] + [0x0A])
    }

    /// The report with, on a dry run, the master that would have been written.
    struct JSONReport: Encodable {
        let report: PackageReport
        let masterText: String?

        func encode(to encoder: Encoder) throws {
            try report.encode(to: encoder)
            if let masterText {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(masterText, forKey: .masterText)
            }
        }

        enum Key: String, CodingKey { case masterText = "master_text" }
    }
}
