import Containers
import Foundation
import HLS
import TimedText
import Timebase

/// What to package.
public struct PackageRequest: Sendable {
    /// The master playlist's path.
    public var masterPath: String
    /// The tracks, already registered.
    public var tracks: [SubtitleTrack]
    public var preferredLanguage: LanguageTag?
    /// Where to write the new master; nil rewrites it in place. Renditions go beside it.
    public var outputPath: String?
    /// Compute everything, write nothing.
    public var dryRun: Bool
    /// `.inBand` declares the services the caption scan finds (whatever list it carries).
    public var closedCaptions: ClosedCaptionsPolicy
    /// Whether in-band CEA-608 captions become subtitle renditions.
    public var captions: CaptionMode

    public init(masterPath: String, tracks: [SubtitleTrack], preferredLanguage: LanguageTag? = nil, outputPath: String? = nil,
                dryRun: Bool = false, closedCaptions: ClosedCaptionsPolicy = .automatic, captions: CaptionMode = .auto) {
        self.captions = captions
        self.masterPath = masterPath
        self.tracks = tracks
        self.preferredLanguage = preferredLanguage
        self.outputPath = outputPath
        self.dryRun = dryRun
        self.closedCaptions = closedCaptions
    }
}

/// The result of a run: the report and the new master's text.
public struct PackageResult: Sendable {
    public let report: PackageReport
    public let masterText: String
}

/// Side-loads subtitle tracks into an HLS presentation: reads, decides, then writes.
///
/// Everything is read and computed before the first byte is written, so bad input leaves the
/// HLS folder untouched; then each rendition's files are written (temporary file, rename), and the
/// master last.
public struct Packager: Sendable {
    public var loader: ResourceLoader

    public init(loader: ResourceLoader = ResourceLoader()) {
        self.loader = loader
    }

    public func run(_ request: PackageRequest) async throws(SubweaveError) -> PackageResult {
        // Read: the master, the reference variant's playlist, the media timeline.
        let masterURL = URL(fileURLWithPath: request.masterPath)
        let master = try Self.readMaster(request.masterPath)
        let (referenceURL, playlist) = try await readReference(of: master, masterURL: masterURL)
        let referenceName = Self.display(referenceURL)
        let timeline = try await probeTimeline(playlist, playlistURL: referenceURL)

        // In-band captions: a bounded scan, and a full decode only when it finds text.
        var captions = ProgrammeCaptions.none
        var wantsInBand = false
        if case .inBand = request.closedCaptions { wantsInBand = true }
        if request.captions == .auto || wantsInBand {
            captions = try await CaptionScanner(packager: self).scan(timeline, playlistURL: referenceURL)
        }

        // Load the subtitle sources, a bounded number at a time.
        let loaded = try await loadTracks(request.tracks)

        // Decide: segment every track, rewrite the master.
        let outputPath = request.outputPath ?? request.masterPath
        let outputFolder = URL(fileURLWithPath: outputPath).deletingLastPathComponent().path
        var renditions: [NewSubtitleRendition] = []
        var files: [(track: SubtitleTrack?, rendition: SubtitleRendition, report: PackageReport.Track)] = []
        for (track, ingested) in zip(request.tracks, loaded) {
            var (cues, delayWarnings) = SubtitleIngest.applyDelay(track.delay, to: ingested.cues)
            let timelineWarnings = SubtitleIngest.timelineWarnings(cues, duration: timeline.duration)
            cues.removeAll { $0.start >= timeline.duration }
            let rendition = SubtitleRendition(folder: track.folder, cues: cues, headerBlocks: ingested.headerBlocks, timeline: timeline)
            renditions.append(NewSubtitleRendition(identity: track.identity, name: track.label, language: track.language,
                                                   forced: track.isForced, sdh: track.isSDH, prefersDefault: track.isDefault,
                                                   uri: rendition.playlistPath, origin: "track \"\(track.sourceID)\""))
            let warnings = track.notes + (ingested.warnings + delayWarnings + timelineWarnings).map(\.description)
            let report = PackageReport.Track(
                sourceID: track.sourceID, identity: track.identity, language: track.language.description, name: track.label,
                ingestFormat: ingested.ingestFormat, encoding: ingested.encoding.rawValue, cueCount: cues.count,
                firstCueStart: cues.first?.start.seconds, playlist: rendition.playlistPath,
                filesWritten: [], warnings: warnings)
            files.append((track, rendition, report))
        }
        if request.captions == .auto {
            for service in captions.services {
                let language = captions.language ?? .undetermined
                let folder = "subtitles/\(service.service.rawValue.lowercased())-\(language)"
                var cues = service.cues
                SubtitleIngest.assignIdentifiers(&cues, taken: [])
                let rendition = SubtitleRendition(folder: folder, cues: cues, headerBlocks: [], timeline: timeline)
                let name = captions.name(for: service.service)
                renditions.append(NewSubtitleRendition(identity: "cea608:\(service.service.rawValue)", name: name, language: language,
                                                       forced: false, sdh: true, prefersDefault: false,
                                                       uri: rendition.playlistPath, origin: "in-band \(service.service.rawValue)"))
                let report = PackageReport.Track(
                    sourceID: service.service.rawValue, identity: "cea608:\(service.service.rawValue)", language: language.description, name: name,
                    ingestFormat: "cea608", encoding: nil, cueCount: cues.count, firstCueStart: cues.first?.start.seconds,
                    playlist: rendition.playlistPath, filesWritten: [], warnings: [])
                files.append((nil, rendition, report))
            }
        }
        guard !renditions.isEmpty else {
            throw .rule("nothing to package: no subtitle track was given and no CEA-608 captions were found in \(referenceName)")
        }
        var policy = request.closedCaptions
        if wantsInBand {
            policy = .inBand(captions.services.map {
                CaptionServiceDeclaration(instreamID: $0.service.rawValue, name: captions.name(for: $0.service), language: captions.language)
            })
        }
        let rewriter = MasterRewriter(preferredLanguage: request.preferredLanguage, closedCaptions: policy)
        let rewritten = try rewriter.rewrite(master, renditions: renditions)
        let masterText = rewritten.master.playlist.text

        var warnings = rewritten.warnings
        warnings += Self.forcedCoverageWarnings(request.tracks, loaded)
        if request.outputPath != nil && outputFolder != masterURL.deletingLastPathComponent().path {
            warnings.append("the new master is in another folder than the original; its variant URIs are relative, so they must resolve from \(outputFolder)")
        }
        var report = PackageReport(
            master: request.masterPath, output: request.dryRun ? nil : outputPath, dryRun: request.dryRun,
            referencePlaylist: referenceName, segmentCount: playlist.segments.count, duration: timeline.duration.seconds,
            timeline: timeline.sequences.map {
                PackageReport.Sequence(discontinuitySequence: $0.discontinuitySequence, firstSegment: $0.firstSegment,
                                       playlistStart: $0.playlistStart.seconds, mpegts: $0.media.start,
                                       container: $0.media.container.rawValue, source: $0.media.source.rawValue)
            },
            groups: rewritten.groups, tracks: files.map(\.report),
            captions: captions.services.map {
                PackageReport.CaptionService(service: $0.service.rawValue, language: captions.language?.description,
                                             firstSeen: $0.firstSeen?.seconds, segment: $0.segment)
            }, warnings: warnings)

        // Write: renditions, then the master.
        guard !request.dryRun else { return PackageResult(report: report, masterText: masterText) }
        for index in files.indices {
            let rendition = files[index].rendition
            report.tracks[index].filesWritten = rendition.segmentNames.map { "\(rendition.folder)/\($0)" } + [rendition.playlistPath]
        }
        try AtomicWriter.writeFolders(files.map { entry in
            (folder: outputFolder + "/" + entry.rendition.folder, files: { entry.rendition.files() })
        })
        try AtomicWriter.write(masterText, to: outputPath, durable: true)
        for entry in files {
            Self.removeStaleSegments(in: outputFolder + "/" + entry.rendition.folder, keeping: Set(entry.rendition.segmentNames))
        }
        return PackageResult(report: report, masterText: masterText)
    }

    /// Reads and parses the master playlist at `path`.
    static func readMaster(_ path: String) throws(SubweaveError) -> MasterPlaylist {
        let bytes: [UInt8]
        do { bytes = try ResourceLoader.readFile(path) } catch {
            throw .io(path: path, reason: "the master playlist \(error.explanation)")
        }
        do { return try MasterPlaylist(parsing: bytes, source: path) } catch { throw .playlist(error) }
    }

    /// The reference variant (the first `EXT-X-STREAM-INF`): its URL and its media playlist.
    func readReference(of master: MasterPlaylist, masterURL: URL) async throws(SubweaveError) -> (URL, MediaPlaylist) {
        let variants: [MasterPlaylist.Variant]
        do { variants = try master.variants() } catch { throw .playlist(error) }
        let reference = variants[0]
        guard let url = Self.resolve(master.substitutingVariables(in: reference.uri), against: masterURL) else {
            throw .playlist(HLSError(.malformedTag, source: master.source, line: master.playlist.lines[reference.uriLineIndex].number,
                                     "the variant URI \"\(reference.uri)\" is not a valid URI"))
        }
        let bytes = try await read(url, range: nil, what: "the reference variant's media playlist (first #EXT-X-STREAM-INF)")
        do { return (url, try MediaPlaylist(parsing: bytes, source: Self.display(url), imports: master.definitions)) } catch { throw .playlist(error) }
    }

    /// Reads the first segment of every discontinuity sequence and finds where its presentation starts.
    func probeTimeline(_ playlist: MediaPlaylist, playlistURL: URL) async throws(SubweaveError) -> ProgrammeTimeline {
        var probes: [Int: SegmentTimeline] = [:]
        var initCache: [MediaSegment.Initialization: [UInt8]] = [:]
        for index in ProgrammeTimeline.segmentsToProbe(playlist) {
            let segment = playlist.segments[index]
            let where_ = "segment \(index) (line \(segment.line ?? 0) of \(Self.display(playlistURL)))"
            if let method = segment.keyMethod, method != "SAMPLE-AES", method != "SAMPLE-AES-CTR" {
                throw .rule("\(where_) is encrypted (EXT-X-KEY METHOD=\(method)); Subweave cannot read its timestamps. Package subtitles before encryption, or from the clear media")
            }
            guard let url = Self.resolve(segment.uri, against: playlistURL) else {
                throw .playlist(HLSError(.malformedTag, source: Self.display(playlistURL), line: segment.line, "the segment URI \"\(segment.uri)\" is not a valid URI"))
            }
            let bytes = try await read(url, range: segment.byteRange, what: "the first media segment of discontinuity sequence \(segment.discontinuitySequence)")
            var initialization: [UInt8]?
            if let map = segment.map {
                if let cached = initCache[map] { initialization = cached } else {
                    guard let mapURL = Self.resolve(map.uri, against: playlistURL) else {
                        throw .playlist(HLSError(.malformedTag, source: Self.display(playlistURL), line: nil, "the EXT-X-MAP URI \"\(map.uri)\" is not a valid URI"))
                    }
                    let data = try await read(mapURL, range: map.byteRange, what: "the initialisation segment (EXT-X-MAP)")
                    initCache[map] = data
                    initialization = data
                }
            }
            do {
                probes[index] = try TimelineProbe.probe(segment: bytes, initialization: initialization)
            } catch {
                throw .media(file: "\(Self.display(url)) (\(where_))", error)
            }
        }
        return ProgrammeTimeline(playlist: playlist, probes: probes)
    }

    func loadTracks(_ tracks: [SubtitleTrack]) async throws(SubweaveError) -> [IngestedSubtitles] {
        let loader = self.loader
        let outcomes: [Int: Result<IngestedSubtitles, LoadFailure>] = await withTaskGroup(of: (Int, Result<IngestedSubtitles, LoadFailure>).self) { group in
            var results: [Int: Result<IngestedSubtitles, LoadFailure>] = [:]
            var next = 0
            func start(_ index: Int) {
                let track = tracks[index]
                group.addTask { (index, await Self.load(track, loader: loader)) }
            }
            while next < min(tracks.count, loader.concurrency) { start(next); next += 1 }
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                if next < tracks.count { start(next); next += 1 }
            }
            return results
        }
        var loaded: [IngestedSubtitles] = []
        for index in tracks.indices {
            switch outcomes[index] {
            case .success(let value)?: loaded.append(value)
            case .failure(let failure)?: throw .load(failure)
            case nil: throw .load(LoadFailure(.unreachable, sourceID: tracks[index].sourceID, location: tracks[index].location.description, "not loaded"))
            }
        }
        return loaded
    }

    static func load(_ track: SubtitleTrack, loader: ResourceLoader) async -> Result<IngestedSubtitles, LoadFailure> {
        let bytes: [UInt8]
        do {
            switch track.location {
            case .file(let path): bytes = try ResourceLoader.readFile(path)
            case .remote(let url): bytes = try await loader.fetch(url)
            }
        } catch {
            return .failure(LoadFailure(.unreachable, sourceID: track.sourceID, location: track.location.description, "unreachable: \(error.explanation)"))
        }
        do {
            return .success(try SubtitleIngest.read(bytes, format: track.format, encoding: track.encoding,
                                                   sourceID: track.sourceID, location: track.location.description))
        } catch {
            return .failure(error)
        }
    }

    func read(_ url: URL, range: ByteRange?, what: String) async throws(SubweaveError) -> [UInt8] {
        do throws(ResourceLoader.Failure) {
            if url.isFileURL {
                if let range, let offset = range.offset {
                    let bytes = try ResourceLoader.readFile(url.path, offset: offset, length: range.length)
                    guard bytes.count == range.length else {
                        throw ResourceLoader.Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(range.length)@\(offset)")
                    }
                    return bytes
                }
                return try ResourceLoader.readFile(url.path)
            }
            let bytes = try await loader.fetch(url)
            if let range, let offset = range.offset {
                guard offset + range.length <= bytes.count else {
                    throw ResourceLoader.Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(range.length)@\(offset)")
                }
                return Array(bytes[offset..<(offset + range.length)])
            }
            return bytes
        } catch {
            throw .io(path: Self.display(url), reason: "\(what) \(error.explanation)")
        }
    }

    /// Apple HLS Authoring Spec 5.8: where a language has forced and full tracks, the full ones
    /// should also carry the forced cues.
    static func forcedCoverageWarnings(_ tracks: [SubtitleTrack], _ loaded: [IngestedSubtitles]) -> [String] {
        var warnings: [String] = []
        for (forcedIndex, forced) in tracks.enumerated() where forced.isForced && !forced.language.isUndetermined {
            for (fullIndex, full) in tracks.enumerated() where !full.isForced && full.language == forced.language {
                let missing = RenditionRules.forcedCuesMissing(forced: loaded[forcedIndex].cues, full: loaded[fullIndex].cues)
                guard let first = missing.first else { continue }
                warnings.append("Apple HLS Authoring Spec 5.8: the full \(full.language) track \"\(full.sourceID)\" lacks \(missing.count) of the \(loaded[forcedIndex].cues.count) forced cues of \"\(forced.sourceID)\" (the first at \(first.start.decimalSeconds) s); viewers who choose it will miss them")
            }
        }
        return warnings
    }

    /// Resolves a playlist URI against the playlist it appears in.
    static func resolve(_ uri: String, against base: URL) -> URL? {
        if let url = URL(string: uri, relativeTo: base) { return url.absoluteURL }
        let escaped = uri.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.union(CharacterSet(charactersIn: "?#%")))
        return escaped.flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    static func display(_ url: URL) -> String {
        url.isFileURL ? url.path : url.absoluteString
    }

    /// Removes numbered segment files a previous, longer run left in a rendition folder.
    static func removeStaleSegments(in folder: String, keeping names: Set<String>) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in entries where name.hasSuffix(".vtt") && !names.contains(name)
            && name.dropLast(4).allSatisfy(\.isNumber) && !name.dropLast(4).isEmpty {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}
