import Captions
import Containers
import Foundation
import HLS
import Platform
import Timebase
import TimedText

extension LiveSession {
    /// Decodes the captions of the segments not decoded yet; returns every service's cues so far.
    ///
    /// Segments are decoded in order, each on its discontinuity sequence's timeline; a caption
    /// still on screen is included up to the end of the last segment decoded. On the first pass,
    /// the services found become renditions.
    mutating func decodeCaptions(_ playlist: MediaPlaylist) async throws(SubweaveError) -> [CaptionService: [Cue]] {
        guard var source = captions else { return [:] }
        var decodedEnd: MediaTime?
        for (index, segment) in playlist.segments.enumerated() {
            let number = LiveTimeline.number(playlist, index)
            if let through = captionsThrough, number <= through.number { continue }
            guard let entry = state.timeline.segments[number], let sequence = state.timeline.sequences[entry.discontinuitySequence],
                let url = MediaReader.resolve(segment.uri, against: presentation.reference.url)
            else { continue }
            if let through = captionsThrough, through.sequence != entry.discontinuitySequence {
                source.discontinuity(at: MediaTime(ticks: entry.start))
                try source.use(try await reader.initializationSection(segment, of: presentation.reference.url, cache: &initializations), file: url)
            }
            let start = MediaTime(ticks: sequence.start), base = sequence.media
            source.timeOf = { pts in start + MediaTime(ticks: PresentationTimestamp.wrappedDifference(pts, base)) }
            let bytes = try await reader.read(
                url, kind: .segment, range: segment.byteRange,
                what: "the video segment of media sequence \(number), listed in the live playlist and read for its captions,")
            try source.feed(bytes, file: url, origin: segment.byteRange?.offset ?? 0)
            // Decoded to its last picture now: a caption that begins in the segment's last frames
            // is in the segment published with it, not the next one.
            source.endOfSegment()
            captionsThrough = (number, entry.discontinuitySequence)
            decodedEnd = MediaTime(ticks: entry.end)
        }
        captionLanguages = source.languages
        var cues = source.cues
        if let decodedEnd {
            for (service, cue) in source.openCues(at: decodedEnd) { cues[service, default: []].append(cue) }
        }
        for (service, pictures) in source.pictures.sorted(by: { $0.key < $1.key }) {
            cues[service] = await pictureCues(service, pictures, openUntil: decodedEnd)
        }
        // A picture read and ended a minute ago keeps its times, not its pixels.
        if let decodedEnd { source.releasePixels(endedBefore: decodedEnd - MediaTime(milliseconds: 60_000)) }
        captions = source
        // A service that appears mid-event gets its rendition (every segment of the window) and
        // its declaration: the master is written again after this pass's playlists.
        let found = foundCaptions(cues)
        for service in found.published.map(\.service) where settings.makesRendition(of: service) && state.captionRenditions[service.rawValue] == nil {
            addCaptionRendition(service, captions: found)
        }
        let names = found.services.map(\.service.rawValue)
        if state.masterWritten && names != (state.captionServices ?? []) { captionServicesChanged = true }
        state.captionServices = names
        return cues
    }

    /// The services with text so far, in the stream's languages and with the operator's settings.
    func foundCaptions(_ cues: [CaptionService: [Cue]]) -> ProgrammeCaptions {
        foundCaptions(named: cues.keys.sorted().filter { cues[$0]?.isEmpty == false }.map(\.rawValue))
    }

    /// The services `names`, in the stream's languages and with the operator's settings.
    func foundCaptions(named names: [String]) -> ProgrammeCaptions {
        let services = names.compactMap(CaptionService.init(rawValue:)).map {
            ProgrammeCaptions.Service(service: $0, cues: [], firstSeen: nil, segment: nil)
        }
        return ProgrammeCaptions(services: services, languages: captionLanguages).with(settings.captionServices)
    }

    mutating func addCaptionRendition(_ service: CaptionService, captions: ProgrammeCaptions) {
        let identity = RenditionIdentity.inBand(service)
        var hash = ContentHash()
        hash.add("live")
        hash.add(identity.description)
        hash.add("\(Date().timeIntervalSince1970) \(getpid())")
        let language = captions.language(for: service) ?? .undetermined
        if language.isUndetermined { note(RenditionPlanner.unknownCaptionLanguage(service)) }
        // A DVB subtitle stream is for the hard of hearing only when its subtitling type says so.
        let forHardOfHearing = !service.isDVBSubtitles || self.captions?.forHardOfHearing.contains(service) == true
        let record = RenditionRecord(
            identity: identity.description, sourceID: service.rawValue, language: language.description, name: captions.name(for: service),
            forced: false, characteristics: forHardOfHearing ? .sdh : .none, prefersDefault: false, ingestFormat: service.family,
            source: RenditionPlanner.source(service),
            cueCount: 0)
        state.captionRenditions[service.rawValue] = state.renditions.count
        state.renditions.append(
            LiveRendition(
                folder: RenditionLayout.folder(for: identity, template: settings.renditionFolder), generation: hash.hex(12), record: record, headerBlocks: []))
    }

    /// The cues of rendition `index` now: its track's source read again, or its caption service.
    mutating func cues(forRendition index: Int, captions: [CaptionService: [Cue]]) async throws(SubweaveError) -> [Cue] {
        if let service = state.captionRenditions.first(where: { $0.value == index }).flatMap({ CaptionService(rawValue: $0.key) }) {
            var cues = captions[service] ?? []
            if !settings.captionPlacement { for i in cues.indices { cues[i].settings = CueSettings() } }
            return cues
        }
        guard let track = request.tracks.first(where: { state.trackRenditions[$0.identity.description] == index }) else { return [] }
        let (ingested, bytes) = try await LiveSources.read(track, loader: reader.loader)
        var cues = ingested.cues
        // The last cue of a file that changed since the last pass may be half-written: it counts
        // once a blank line follows it, or once the file has stayed the same for a pass.
        let hash = ContentHash.of(bytes)
        if let previous = sourceHashes[track.identity.description], previous != hash, !LiveSources.endsWithBlankLine(bytes), track.format != .scc,
            !cues.isEmpty
        {
            cues.removeLast()
        }
        sourceHashes[track.identity.description] = hash
        return SubtitleIngest.applyDelay(track.timing.shift, rate: track.timing.rate, to: cues).0
    }

    /// Keeps each rendition's record and cues beside it (`rendition.json`, `cues.vtt`), as a
    /// package run does: once the event has ended, it is a title like any other, which
    /// `refresh`, `remove` and `list` read.
    mutating func keepRecords(captions: [CaptionService: [Cue]]) async throws(SubweaveError) {
        for index in state.renditions.indices {
            let cues = try await cues(forRendition: index, captions: captions)
            let rendition = state.renditions[index], record = rendition.record
            let kept = RenditionRecord(
                identity: record.identity, sourceID: record.sourceID, language: record.language, name: record.name, forced: record.forced,
                characteristics: record.characteristics, prefersDefault: record.prefersDefault, ingestFormat: record.ingestFormat, source: record.source,
                cueCount: cues.count)
            let generation = try generationFolder(index)
            let text = WebVTTWriter.file(map: nil, headerBlocks: rendition.headerBlocks, cueBlocks: cues.map(WebVTTWriter.block))
            try onDisk(
                FileSystem.replaceFile(
                    at: generation + "/" + RenditionRecord.cuesFileName, with: text, temporaryName: FileSystem.temporaryPrefix + "live-cues.tmp"))
            try onDisk(
                FileSystem.replaceFile(
                    at: generation + "/" + RenditionRecord.fileName, with: kept.json, temporaryName: FileSystem.temporaryPrefix + "live-record.tmp"))
        }
    }

    /// Writes the window's segments rendition `index` has not written, and on a low-latency
    /// video the parts it has not written (those of the segment being made too); returns how
    /// many segments and parts.
    ///
    /// A part covers its video part's window on the programme timeline (the segment's start
    /// plus the durations of the parts before it) and is written once, when the video lists it;
    /// a segment whose parts were written is exactly what they published. The parts of a
    /// segment being made after a discontinuity are not written (its timeline is known only
    /// once the whole segment can be probed): its segment is, when it is complete.
    mutating func writeSegments(_ index: Int, playlist: MediaPlaylist, cues: [Cue]) throws(SubweaveError) -> (segments: Int, parts: Int) {
        let generation = try generationFolder(index)
        var count = 0
        var partCount = 0
        let lowLatency = playlist.partTarget != nil
        for position in playlist.segments.indices {
            let number = LiveTimeline.number(playlist, position)
            guard !state.renditions[index].written.contains(number), let entry = state.timeline.segments[number],
                let mapping = state.timeline.mapping(forSegment: number)
            else { continue }
            let segment = playlist.segments[position]
            if lowLatency && !segment.parts.isEmpty {
                partCount += try writeParts(index, of: number, segment.parts, start: entry.start, mapping: mapping, cues: cues, in: generation)
            }
            let text: String
            if lowLatency && !segment.parts.isEmpty && state.renditions[index].parts?[number]?.count == segment.parts.count {
                text = state.renditions[index].segmentFromParts(number, mapping: mapping)
            } else {
                let window = MediaTime(ticks: entry.start)..<MediaTime(ticks: entry.end)
                text = state.renditions[index].segment(number, window: window, mapping: mapping, cues: cues)
            }
            let name = RenditionLayout.segmentName(number, naming: settings.naming)
            try onDisk(FileSystem.replaceFile(at: generation + "/" + name, with: text, temporaryName: FileSystem.temporaryPrefix + "live-" + name))
            count += 1
        }
        if lowLatency, !playlist.trailingParts.isEmpty, !playlist.trailingDiscontinuity, let last = playlist.segments.indices.last {
            let number = LiveTimeline.number(playlist, last)
            if let entry = state.timeline.segments[number], let mapping = state.timeline.mapping(forSegment: number) {
                partCount += try writeParts(index, of: number + 1, playlist.trailingParts, start: entry.end, mapping: mapping, cues: cues, in: generation)
            }
        }
        return (count, partCount)
    }

    /// Writes the parts of segment `number` (starting at programme time `start`, in ticks)
    /// rendition `index` has not written; returns how many.
    private mutating func writeParts(
        _ index: Int, of number: Int, _ parts: [MediaPart], start: Int64, mapping: ProgrammeTimeline.Mapping, cues: [Cue], in generation: String
    ) throws(SubweaveError) -> Int {
        let done = state.renditions[index].parts?[number]?.count ?? 0
        var offset = start
        var count = 0
        for (k, part) in parts.enumerated() {
            // Parts that claim more than the range of media time end the list, never a sum that wraps.
            guard let sum = MediaTime.checkedSum(MediaTime(ticks: offset), part.duration) else { break }
            let end = sum.ticks
            defer { offset = end }
            guard k >= done else { continue }
            let window = MediaTime(ticks: offset)..<MediaTime(ticks: end)
            let text = state.renditions[index].part(k, of: number, window: window, mapping: mapping, cues: cues)
            let name = RenditionLayout.partName(number, part: k, naming: settings.naming)
            try onDisk(FileSystem.replaceFile(at: generation + "/" + name, with: text, temporaryName: FileSystem.temporaryPrefix + "live-" + name))
            count += 1
        }
        return count
    }

    /// The rendition's playlist, mirroring the video playlist's window (and its parts, those
    /// written).
    func writePlaylist(_ index: Int, playlist: MediaPlaylist) throws(SubweaveError) {
        let generation = try generationFolder(index)
        let names = playlist.segments.indices.map { RenditionLayout.segmentName(LiveTimeline.number(playlist, $0), naming: settings.naming) }
        try onDisk(
            FileSystem.replaceFile(
                at: generation + "/" + RenditionLayout.playlistName,
                with: SubtitlePlaylistWriter.text(mirroring: playlist, segmentURIs: names, parts: partURIs(index, playlist: playlist)),
                temporaryName: FileSystem.temporaryPrefix + "live-index.tmp"))
    }

    /// The URIs of the parts rendition `index` has written that `playlist` lists, and the one
    /// its preload hint names; nil when the video has no parts.
    func partURIs(_ index: Int, playlist: MediaPlaylist) -> SubtitlePlaylistWriter.PartURIs? {
        guard playlist.partTarget != nil else { return nil }
        let written = state.renditions[index].parts ?? [:]
        let naming = settings.naming
        func names(_ number: Int, _ count: Int) -> [String] { (0..<count).map { RenditionLayout.partName(number, part: $0, naming: naming) } }
        let segments = playlist.segments.indices.map { position -> [String]? in
            let number = LiveTimeline.number(playlist, position), listed = playlist.segments[position].parts.count
            return listed > 0 && written[number]?.count == listed ? names(number, listed) : nil
        }
        let next = LiveTimeline.number(playlist, playlist.segments.count)
        let trailing = names(next, min(written[next]?.count ?? 0, playlist.trailingParts.count))
        let hint = trailing.count == playlist.trailingParts.count ? RenditionLayout.partName(next, part: trailing.count, naming: naming) : nil
        return SubtitlePlaylistWriter.PartURIs(segments: segments, trailing: trailing, hint: hint)
    }

    /// The rendition's generation folder (made if needed), absolute.
    func generationFolder(_ index: Int) throws(SubweaveError) -> String {
        var path = folder
        for component in state.renditions[index].generationFolder.split(separator: "/") {
            path += "/" + component
            _ = try onDisk(FileSystem.makeRealFolder(path, within: folder))
        }
        return path
    }

    /// Declares the renditions in the master after their first playlists are on disk: once, and
    /// again when a caption service appears.
    ///
    /// The master is rewritten, rebased and committed as `package` does it (the same rewriter, the
    /// same rebase with its warnings kept as notes, the same writer under the same lock timeout),
    /// and only over the master this follow last read or wrote: one changed by another writer
    /// meanwhile is an error, not overwritten.
    mutating func writeMaster() async throws(SubweaveError) {
        let declarations = state.renditions.map { r in
            NewSubtitleRendition(
                identity: r.record.identity, name: r.record.name, language: LanguageTag(parsing: r.record.language) ?? .undetermined,
                forced: r.record.forced, characteristics: r.record.characteristics, prefersDefault: r.record.prefersDefault, uri: r.playlistPath,
                origin: r.record.identity)
        }
        var warnings: [PackageWarning] = []
        var rewritten = try presentation.rewriteMaster(
            declarations, settings: settings, captions: foundCaptions(named: state.captionServices ?? []), ownCaptionGroup: intent.declaredCaptionGroup,
            templates: intent.folderTemplates)
        warnings += rewritten.warnings
        rewritten = try presentation.rebase(
            rewritten, output: output, baseURL: request.baseURL, written: Set(declarations.map(\.uri)), &warnings)
        for warning in warnings where !state.timeline.notes.contains(warning.message.description) { note(warning.message.description) }
        var writer = OutputWriter(masterPath: output.path)
        writer.lockTimeout = lockTimeout
        let lock = try await writer.acquireLock()
        defer { lock.release() }
        if let expected = masterOnDisk, !FileSystem.contentsEqual(output.path, expected) { throw .masterChanged(path: output.path) }
        intent.declaredCaptionGroup = rewritten.captionGroup
        if !state.masterWritten {
            let identities = Set(state.renditions.map(\.record.identity))
            _ = intent.applyTracks(request.tracks.filter { identities.contains($0.identity.description) }, removed: [], replacing: false)
        }
        try writer.commit(generations: [], master: rewritten.master.playlist, managedFolders: [], named: [:], previous: [:], intent: intent)
        masterOnDisk = Array(rewritten.master.playlist.text.utf8)
        state.masterWritten = true
        captionServicesChanged = false
    }

    /// Removes segment files a window behind the video's (players that loaded the previous
    /// playlist may still fetch the newest of them).
    mutating func prune(_ playlist: MediaPlaylist) {
        let keepFrom = playlist.mediaSequence - playlist.segments.count
        for index in state.renditions.indices {
            let old = state.renditions[index].written.filter { $0 < keepFrom }
            guard !old.isEmpty, let generation = try? generationFolder(index) else { continue }
            for number in old {
                _ = FileSystem.removeFile(generation + "/" + RenditionLayout.segmentName(number, naming: settings.naming))
                for part in 0..<(state.renditions[index].parts?[number]?.count ?? 0) {
                    _ = FileSystem.removeFile(generation + "/" + RenditionLayout.partName(number, part: part, naming: settings.naming))
                }
                state.renditions[index].parts?[number] = nil
            }
            state.renditions[index].written.subtract(old)
        }
    }

    func saveState() throws(SubweaveError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state) else { return }
        try onDisk(
            FileSystem.replaceFile(
                at: statePath, with: String(decoding: data, as: UTF8.self), temporaryName: FileSystem.temporaryPrefix + "live-state.tmp"))
    }

    /// Adds `text` to the notes the report carries.
    mutating func note(_ text: String) { state.timeline.notes.append(text) }

    func report(reason: String, written: Int, parts: Int = 0) -> LiveReport {
        var late: [String: Int] = [:]
        for r in state.renditions where r.lateCues > 0 { late[r.record.identity] = r.lateCues }
        // What reading the video's captions skipped or could not decode (damaged bytes, a set not
        // decoded) is said once, as it stands at the end: its counts grow through the event.
        let captionNotes = (captions?.notes ?? []).map { "while reading captions: \($0)" }
        var report = LiveReport(reason: reason, segmentsWritten: written, lateCues: late, notes: state.timeline.notes + captionNotes)
        report.partsWritten = parts
        for r in state.renditions { if let missed = r.missed, !missed.isEmpty { report.missedCues[r.record.identity] = missed.count } }
        return report
    }
}

/// A live subtitle source read again on every pass.
enum LiveSources {
    /// The cues of `track`'s file as it is now (an empty file is no cue yet), and its bytes.
    static func read(_ track: SubtitleTrack, loader: ResourceLoader) async throws(SubweaveError) -> (IngestedSubtitles, [UInt8]) {
        let bytes: [UInt8]
        do { bytes = try await loader.read(track.source.url, kind: .subtitle) } catch {
            throw .load(LoadFailure(.unreachable, sourceID: track.sourceID, location: track.source.description, error.message))
        }
        do {
            return (
                try SubtitleIngest.read(
                    bytes, format: track.format, encoding: track.encoding, captionFile: track.captionFile, sourceID: track.sourceID,
                    location: track.source.description),
                bytes
            )
        } catch {
            throw .load(error)
        }
    }

    /// Whether the text ends with a blank line (LF or CRLF): the last cue block is complete.
    static func endsWithBlankLine(_ bytes: [UInt8]) -> Bool {
        let tail = bytes.suffix(4).filter { $0 != 0x0D }
        return tail.count >= 2 && tail.suffix(2).allSatisfy { $0 == 0x0A }
    }
}
