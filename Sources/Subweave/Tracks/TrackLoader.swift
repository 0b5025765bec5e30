import Foundation

/// Loads side-loaded tracks: a bounded number of sources at a time, each read and ingested.
struct TrackLoader: Sendable {
    let loader: ResourceLoader

    /// The ingested cues of each track, in order; the first failure (in track order) is thrown.
    func load(_ tracks: [SubtitleTrack]) async throws(SubweaveError) -> [IngestedSubtitles] {
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
            case nil: throw .load(LoadFailure(.unreachable, sourceID: tracks[index].sourceID, location: tracks[index].source.description, "not loaded"))
            }
        }
        return loaded
    }

    /// Reads and ingests one track.
    static func load(_ track: SubtitleTrack, loader: ResourceLoader) async -> Result<IngestedSubtitles, LoadFailure> {
        let bytes: [UInt8]
        do {
            bytes = try await loader.read(track.source.url, kind: .subtitle)
        } catch {
            return .failure(LoadFailure(.unreachable, sourceID: track.sourceID, location: track.source.description, "\(error.explanation)"))
        }
        do {
            let ingested = try SubtitleIngest.read(
                bytes, format: track.format, encoding: track.encoding,
                sourceID: track.sourceID, location: track.source.description)
            // A track without a cue is the wrong file or a wrong format: the packager refuses it.
            guard !ingested.cues.isEmpty else {
                return .failure(
                    SubtitleIngest.noCues(
                        ingested, format: track.format, sourceID: track.sourceID,
                        location: track.source.description, empty: bytes.isEmpty))
            }
            return .success(ingested)
        } catch {
            return .failure(error)
        }
    }
}
