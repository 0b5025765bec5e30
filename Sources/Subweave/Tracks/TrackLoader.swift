import Foundation

/// Loads side-loaded tracks: a bounded number of sources at a time, each read, ingested and
/// handed to the caller's processing while the next ones load.
struct TrackLoader: Sendable {
    let loader: ResourceLoader

    /// What `process` makes of each track once it is ingested, in track order.
    ///
    /// At most ``ResourceLoader/concurrency`` tracks are in hand at a time: what `process`
    /// returns is all that is kept of a track, so a caller that keeps little holds little however
    /// many tracks there are. After a failure no further track is started; the first failure in
    /// track order is thrown.
    func load<T: Sendable>(
        _ tracks: [SubtitleTrack], process: @escaping @Sendable (Int, SubtitleTrack, IngestedSubtitles) async throws(SubweaveError) -> T
    ) async throws(SubweaveError) -> [T] {
        let loader = self.loader
        let outcomes: [Int: Result<T, SubweaveError>] = await withTaskGroup(of: (Int, Result<T, SubweaveError>).self) { group in
            var results: [Int: Result<T, SubweaveError>] = [:]
            var next = 0
            var failed = false
            func start(_ index: Int) {
                let track = tracks[index]
                group.addTask {
                    switch await Self.load(track, loader: loader) {
                    case .failure(let failure): return (index, .failure(.load(failure)))
                    case .success(let ingested):
                        do throws(SubweaveError) { return (index, .success(try await process(index, track, ingested))) } catch {
                            return (index, .failure(error))
                        }
                    }
                }
            }
            while next < min(tracks.count, loader.concurrency) { start(next); next += 1 }
            while let (index, outcome) = await group.next() {
                if case .failure = outcome { failed = true }
                results[index] = outcome
                if next < tracks.count && !failed { start(next); next += 1 }
            }
            return results
        }
        var processed: [T] = []
        processed.reserveCapacity(tracks.count)
        for index in tracks.indices {
            switch outcomes[index] {
            case .success(let value)?: processed.append(value)
            case .failure(let error)?: throw error
            case nil: throw .load(LoadFailure(.unreachable, sourceID: tracks[index].sourceID, location: tracks[index].source.description, "not loaded"))
            }
        }
        return processed
    }

    /// Reads and ingests one track.
    static func load(_ track: SubtitleTrack, loader: ResourceLoader) async -> Result<IngestedSubtitles, LoadFailure> {
        func unreachable(_ error: ResourceLoader.Failure) -> Result<IngestedSubtitles, LoadFailure> {
            .failure(LoadFailure(.unreachable, sourceID: track.sourceID, location: track.source.description, "\(error.explanation)"))
        }
        let pictures = track.declaredFormat ?? track.format
        if pictures.isPictures {
            do {
                let ingested = try await PictureSubtitles.read(
                    track.source.url, format: pictures, language: track.language, loader: loader, sourceID: track.sourceID,
                    location: track.source.description, forcedTrack: track.isForced)
                return checked(ingested, track, empty: false)
            } catch {
                if case .load(let failure) = error { return .failure(failure) }
                return .failure(LoadFailure(.notSubtitles, sourceID: track.sourceID, location: track.source.description, error.message))
            }
        }
        do {
            // A local SubRip or WebVTT file in UTF-8 is read a piece at a time, never whole.
            // Under a root, read whole through the loader, which checks where the file is.
            if loader.confinement == nil,
                let (ingested, size) = try await SubtitleIngest.readLocalInPieces(
                    track.source.url, format: track.declaredFormat, fallback: track.format, encoding: track.encoding, limit: loader.limits.subtitle,
                    sourceID: track.sourceID, location: track.source.description, purpose: .packaging)
            {
                return checked(ingested, track, empty: size == 0)
            }
        } catch {
            switch error {
            case .unreadable(let failure): return unreachable(failure)
            case .load(let failure): return .failure(failure)
            }
        }
        let bytes: [UInt8]
        do {
            bytes = try await loader.read(track.source.url, kind: .subtitle)
        } catch {
            return unreachable(error)
        }
        let empty = bytes.isEmpty
        let (format, note) = SubtitleFormat.resolve(
            declared: track.declaredFormat, head: Array(bytes.prefix(4096)), encoding: track.encoding, fromExtension: track.format)
        do {
            let ingested = try SubtitleIngest.read(
                consume bytes, format: format ?? track.format, encoding: track.encoding, captionFile: track.captionFile,
                sourceID: track.sourceID, location: track.source.description)
            return checked(note.map(ingested.adding) ?? ingested, track, empty: empty)
        } catch {
            return .failure(error)
        }
    }

    /// `ingested`, unless it has no cue.
    static func checked(_ ingested: IngestedSubtitles, _ track: SubtitleTrack, empty: Bool) -> Result<IngestedSubtitles, LoadFailure> {
        // A track without a cue is the wrong file or a wrong format: the packager refuses it.
        guard !ingested.cues.isEmpty else {
            return .failure(
                SubtitleIngest.noCues(ingested, format: track.format, sourceID: track.sourceID, location: track.source.description, empty: empty))
        }
        return .success(ingested)
    }
}
