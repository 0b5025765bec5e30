import Captions
import Containers
import Foundation
import HLS
import Platform
import Timebase
import TimedText

/// What a follow keeps on disk beside the master, so a restarted follow goes on where it stopped.
struct LiveState: Codable {
    var schema = "subweave.live/1"
    var timeline = LiveTimeline()
    var renditions: [LiveRendition] = []
    /// Which rendition each track feeds (by track identity), and each caption service.
    var trackRenditions: [String: Int] = [:]
    var captionRenditions: [String: Int] = [:]
    var masterWritten = false
    /// The caption services found so far (text decoded), as the master declares them; nil in a
    /// state written before services were kept.
    var captionServices: [String]?
    /// The video playlist's window at the last pass: its media sequence number and the number
    /// after its last segment (nil in a state written before windows were kept).
    var window: Window?

    struct Window: Codable, Equatable {
        let mediaSequence: Int
        let end: Int
    }
}

/// One live follow: the presentation, what has been written, and the caption decoder carried
/// from segment to segment.
struct LiveSession {
    let presentation: Presentation
    let request: PackageRequest
    /// What the operator has said of the title, this follow's options taken in.
    var intent = TitleIntent()
    var settings: EffectiveSettings { intent.settings }
    let output: URL
    let reader: MediaReader
    var state: LiveState
    var captions: CaptionSource?
    /// The last segment whose captions were decoded, and the discontinuity sequence it was in.
    var captionsThrough: (number: Int, sequence: Int)?
    var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
    /// Each track's source bytes (hashed) at the last pass, to tell a file still being written.
    var sourceHashes: [String: String] = [:]
    /// The languages the stream declares for its caption services.
    var captionLanguages = CaptionLanguages()
    /// What OCR read in each DVB subtitle picture so far, by stream and picture (its start and
    /// byte offset): each picture is read once, its cue's end following the picture's.
    var pictureText: [CaptionService: [PictureKey: PictureText]] = [:]
    /// DVB subtitle streams that could not be read (Tesseract or its language missing): said once.
    var unreadPictureStreams: Set<CaptionService> = []
    /// A caption service appeared since the master was written: it is written again.
    var captionServicesChanged = false
    /// How long a master write waits for another run's lock.
    var lockTimeout = OutputWriter.defaultLockTimeout
    /// The output master's bytes as this follow last read or wrote them (nil: no file yet); a
    /// master that differs when it is written again was changed by someone else.
    var masterOnDisk: [UInt8]?

    var targetDuration: Int { presentation.reference.playlist.targetDuration }
    /// The video's PART-TARGET in seconds (nil: not a low-latency playlist).
    var partTarget: Double? { presentation.reference.playlist.partTarget.flatMap { MediaTime(decimalSeconds: Substring($0))?.seconds } }
    var folder: String { output.deletingLastPathComponent().path }
    var statePath: String { output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).subweave-live.json").path }

    /// Reads the master, resumes from the state on disk when the master still names its
    /// renditions, else plans new renditions for the tracks (and the captions found now).
    static func start(
        master: URL, request: PackageRequest, loader: ResourceLoader, lockTimeout: TimeInterval = OutputWriter.defaultLockTimeout
    ) async throws(SubweaveError) -> LiveSession {
        // Following does not encrypt: a title whose subtitles are to be encrypted is refused
        // rather than given clear segments.
        if let key = try ContentKey.forRun(master: master, request, loader: loader) { throw .key(path: key.path, .notFollowed) }
        var format = request.textFormat
        if format == nil {
            format = try TitleIntent.read(output: request.output ?? master, master: master, loader: loader)?.textFormat.flatMap(SubtitleTextFormat.init(label:))
        }
        if format == .imsc1 {
            throw .unsupported(
                MessageText("\(Setting.follow) writes WebVTT; the title's renditions are IMSC1 (\(Setting.textFormat) imsc1), so it is not followed"))
        }
        let presentation = try await Presentation(master: master, loader: loader)
        let output = request.output ?? master
        guard output.isFileURL else {
            throw .outputNeeded(master: MediaReader.display(output), following: true)
        }
        var session = LiveSession(
            presentation: presentation, request: request, output: output, reader: MediaReader(loader: loader), state: LiveState(), captions: nil)
        session.lockTimeout = lockTimeout
        session.masterOnDisk = output == master ? presentation.masterBytes : FileSystem.contents(output.path)
        let recorded = try TitleIntent.read(output: output, master: master, loader: loader)
        let templates = (recorded?.folderTemplates ?? [.standard]) + [request.renditionFolder].compactMap { $0 }
        session.intent = presentation.startingIntent(recorded: recorded, existing: await ExistingRendition.read(presentation, templates: templates))
        _ = session.intent.applySettings(of: request)
        if let kept = session.readState(), kept.renditions.allSatisfy({ presentation.master.playlist.text.contains($0.playlistPath) }), kept.masterWritten {
            session.state = kept
            session.state.timeline.notes.append("resumed from \(session.statePath)")
            // What the killed run left half-written goes first, as a later package run would remove it.
            let folders = Set(kept.renditions.flatMap { [$0.folder, $0.generationFolder] })
            try await OutputWriter(masterPath: output.path).cleanLeftovers(in: folders)
        } else {
            try await session.planRenditions()
        }
        // Captions are decoded whatever the request: a service may appear at any point of the
        // event, and what the master declares must never hide it.
        session.captions = try await session.captionSource()
        return session
    }

    func readState() -> LiveState? {
        guard let bytes = try? ResourceLoader.readFile(statePath, limit: 64 << 20, kind: .playlist) else { return nil }
        guard let state = try? JSONDecoder().decode(LiveState.self, from: Data(bytes)), state.timeline.isWithinLimits else { return nil }
        return state
    }

    /// A rendition per track; caption renditions are added by the first pass that finds text.
    mutating func planRenditions() async throws(SubweaveError) {
        let stamp = "\(Date().timeIntervalSince1970) \(getpid())"
        for track in request.tracks {
            let (ingested, _) = try await LiveSources.read(track, loader: reader.loader)
            let identity = track.identity.description
            var hash = ContentHash()
            hash.add("live")
            hash.add(identity)
            hash.add(stamp)
            let record = RenditionRecord(
                identity: identity, sourceID: track.sourceID, language: track.language.description, name: track.label, forced: track.isForced,
                characteristics: track.characteristics, prefersDefault: track.isDefault, ingestFormat: ingested.ingestFormat, source: track.source.description,
                cueCount: 0)
            state.trackRenditions[identity] = state.renditions.count
            state.renditions.append(
                LiveRendition(
                    folder: RenditionLayout.folder(for: track.identity, template: settings.renditionFolder), generation: hash.hex(12), record: record,
                    headerBlocks: ingested.headerBlocks))
        }
    }

    /// Why `playlist` is skipped, when it goes back from the last pass's window: a server only
    /// adds segments at the end and removes them from the start (RFC 8216bis §6.2.1), so a lower
    /// media sequence number, or a last segment before the last one seen, is an older copy (a
    /// stale cache, a restarted packager); following it would write segments again.
    func wentBack(_ playlist: MediaPlaylist) -> String? {
        guard let last = state.window else { return nil }
        let end = playlist.mediaSequence + playlist.segments.count
        guard playlist.mediaSequence < last.mediaSequence || end < last.end else { return nil }
        let what = playlist.mediaSequence < last.mediaSequence ? "its media sequence went back" : "it lost segments at its end"
        return
            "the video playlist went back (\(what)): segments \(playlist.mediaSequence)-\(end - 1) after \(last.mediaSequence)-\(last.end - 1); a server only adds segments at the end and removes them from the start (RFC 8216bis §6.2.1), so this copy is older (a stale cache?) and was skipped"
    }

    /// The caption reader for the reference variant's segments, if its first segment can carry captions.
    mutating func captionSource() async throws(SubweaveError) -> CaptionSource? {
        let playlist = presentation.reference.playlist
        guard let first = playlist.segments.first, let url = MediaReader.resolve(first.uri, against: presentation.reference.url) else { return nil }
        let initialization = try await reader.initializationSection(first, of: presentation.reference.url, cache: &initializations)
        return try CaptionScanner.source(initialization, file: url, accessUnitLimit: nil) { _ in .zero }
    }

    /// One pass: reads the video playlist, adds what is new, writes it.
    mutating func pass() async throws(SubweaveError) -> LiveUpdate {
        let url = presentation.reference.url
        let bytes = try await reader.read(url, kind: .playlist, what: "the video playlist")
        let playlist: MediaPlaylist
        do {
            playlist = try MediaPlaylist(parsing: bytes, source: MediaReader.display(url), imports: presentation.master.definitions)
        } catch {
            throw .playlist(error)
        }
        if let skipped = wentBack(playlist) {
            if state.timeline.notes.last != skipped { state.timeline.notes.append(skipped) }
            var update = LiveUpdate(
                newSegments: [], segmentsWritten: 0, ended: false, mediaSequence: playlist.mediaSequence, segmentCount: playlist.segments.count)
            update.skipped = skipped
            return update
        }
        state.window = LiveState.Window(mediaSequence: playlist.mediaSequence, end: playlist.mediaSequence + playlist.segments.count)
        let reader = self.reader
        var cache = initializations
        let added = try await state.timeline.extend(with: playlist) { index throws(SubweaveError) in
            let segment = playlist.segments[index]
            let segmentURL = try reader.resolve(segment.uri, against: url, in: playlist, line: segment.line)
            let data = try await reader.read(
                segmentURL, kind: .segment, range: segment.byteRange,
                what: "the video segment of media sequence \(LiveTimeline.number(playlist, index)), new in the live playlist,")
            let initialization = try await reader.initializationSection(segment, of: url, cache: &cache)
            do throws(ContainerError) { return try TimelineProbe.probe(segment: data, initialization: initialization) } catch {
                throw .media(file: MediaReader.display(segmentURL), error)
            }
        }
        initializations = cache
        let captionCues = try await decodeCaptions(playlist)
        var written = 0
        var partsWritten = 0
        var byRendition: [LiveUpdate.RenditionCount] = []
        for index in state.renditions.indices {
            let cues = try await cues(forRendition: index, captions: captionCues)
            let (count, parts) = try writeSegments(index, playlist: playlist, cues: cues)
            written += count
            partsWritten += parts
            byRendition.append(LiveUpdate.RenditionCount(identity: state.renditions[index].record.identity, count: count))
            try writePlaylist(index, playlist: playlist)
        }
        if !state.masterWritten || captionServicesChanged { try await writeMaster() }
        if playlist.hasEndList { try await keepRecords(captions: captionCues) }
        prune(playlist)
        try saveState()
        var update = LiveUpdate(
            newSegments: added, segmentsWritten: written, ended: playlist.hasEndList, mediaSequence: playlist.mediaSequence,
            segmentCount: playlist.segments.count)
        update.writtenByRendition = byRendition
        update.partsWritten = partsWritten
        update.lateCues = state.renditions.reduce(0) { $0 + $1.lateCues }
        return update
    }
}
