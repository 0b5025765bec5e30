import Foundation
import HLS
import Platform
import Timebase

/// What happened to one title of a batch (one JSON line of `subweave batch`).
public struct TitleResult: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// Packaged now.
        case ok
        /// Packaged before with the same inputs (nothing was read beyond the fingerprint).
        case skipped
        case failed
    }

    public struct Failure: Sendable, Codable, Equatable {
        public let code: String
        public let message: MessageText
    }

    public let index: Int
    public let line: Int
    public let id: String
    public let master: String?
    public let status: Status
    public let error: Failure?
    /// Subtitle renditions in the master after the run.
    public let renditions: Int?
    public let seconds: Double
    /// What the run noticed and worked around, each with its code, as `package` reports them.
    public var warnings: [PackageWarning] = []

    enum CodingKeys: String, CodingKey { case index, line, id, master, status, error, renditions, seconds, warnings }
}

/// Packages the titles of a catalogue with bounded parallelism, each as `package` would, each
/// failure its own: the batch goes on and reports it.
///
/// A title packaged before with the same inputs is skipped: after each successful run a
/// fingerprint of its inputs (the catalogue line, the master as written, the variants' media
/// playlists, the local subtitle files' bytes) is kept beside the master in
/// `.<master name>.subweave-batch.json`; a later batch that finds the same fingerprint does
/// nothing for that title. A change of any input (a re-encode changes the variant playlists) runs
/// it again. Titles with remote inputs are always run.
public struct BatchRunner: Sendable {
    /// How many titles run at once.
    public var jobs: Int
    /// Which titles this worker takes.
    public var shard: Shard
    public var loader: ResourceLoader
    /// How long a title waits for another run on its folder.
    public var lockTimeout: TimeInterval = OutputWriter.defaultLockTimeout

    /// A runner of `jobs` titles at a time, for `shard` of the catalogue.
    public init(jobs: Int = 1, shard: Shard = .all, loader: ResourceLoader = ResourceLoader()) {
        self.jobs = max(1, jobs)
        self.shard = shard
        self.loader = loader
    }

    /// Runs the shard's titles; `onResult` is told each result as it is known (in completion
    /// order); returns them all in catalogue order.
    public func run(_ titles: [Result<CatalogueTitle, CatalogueLineError>], onResult: @escaping @Sendable (TitleResult) -> Void = { _ in }) async
        -> [TitleResult]
    {
        let mine = titles.enumerated().filter { shard.takes($0.offset) }.map(\.element)
        var results: [TitleResult] = []
        await withTaskGroup(of: TitleResult.self) { group in
            var next = 0
            func startNext() {
                guard next < mine.count else { return }
                let item = mine[next]
                next += 1
                group.addTask { await self.runOne(item) }
            }
            for _ in 0..<min(jobs, mine.count) { startNext() }
            for await result in group {
                onResult(result)
                results.append(result)
                startNext()
            }
        }
        return results.sorted { $0.index < $1.index }
    }

    private func runOne(_ item: Result<CatalogueTitle, CatalogueLineError>) async -> TitleResult {
        let started = Date()
        func elapsed() -> Double { (Date().timeIntervalSince(started) * 1000).rounded() / 1000 }
        let title: CatalogueTitle
        switch item {
        case .failure(let error):
            return TitleResult(
                index: error.index, line: error.line, id: "line \(error.line)", master: nil, status: .failed,
                error: TitleResult.Failure(code: "catalogue", message: MessageText(error.description)), renditions: nil, seconds: elapsed())
        case .success(let t):
            title = t
        }
        let output = title.request.output ?? title.master
        let record = TitleFingerprint.recordPath(output: output)
        let confinement = loader.confinement
        if let kept = TitleFingerprint.read(record, within: confinement), let now = TitleFingerprint.compute(title, within: confinement), kept == now {
            return TitleResult(
                index: title.index, line: title.line, id: title.id, master: MediaReader.display(title.master), status: .skipped, error: nil,
                renditions: nil, seconds: elapsed())
        }
        var packager = Packager(loader: loader)
        packager.lockTimeout = lockTimeout
        do {
            let plan = try await packager.run(master: title.master, title.request)
            if let fingerprint = TitleFingerprint.compute(title, within: confinement) { TitleFingerprint.write(fingerprint, to: record, within: confinement) }
            var result = TitleResult(
                index: title.index, line: title.line, id: title.id, master: MediaReader.display(title.master), status: .ok, error: nil,
                renditions: plan.report.tracks.count, seconds: elapsed())
            result.warnings = plan.report.allWarnings
            return result
        } catch {
            return TitleResult(
                index: title.index, line: title.line, id: title.id, master: MediaReader.display(title.master), status: .failed,
                error: TitleResult.Failure(code: error.code, message: error.message), renditions: nil, seconds: elapsed())
        }
    }
}

/// A title's inputs, hashed: what decides whether a batch must run it again.
enum TitleFingerprint {
    /// Where the fingerprint of the title whose master is written at `output` is kept.
    static func recordPath(output: URL) -> String {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).subweave-batch.json").path
    }

    /// The hash of the title's inputs as they are now; nil when one is not a local file (a
    /// remote master or track is always fetched and run).
    static func compute(_ title: CatalogueTitle, within confinement: Confinement? = nil) -> String? {
        let output = title.request.output ?? title.master
        guard title.master.isFileURL, output.isFileURL else { return nil }
        var hash = ContentHash()
        hash.add("subweave-batch-1")
        hash.add(title.canonical)
        guard let master = try? ResourceLoader.readFile(output.path, limit: ReadLimits().playlist, kind: .playlist, within: confinement) else { return nil }
        hash.add(master)
        // The variants' media playlists: a re-encode changes them.
        if let parsed = try? MasterPlaylist(parsing: master, source: output.path) {
            for variant in parsed.variants {
                guard let url = MediaReader.resolve(variant.uri, against: output), url.isFileURL,
                    let bytes = try? ResourceLoader.readFile(url.path, limit: ReadLimits().playlist, kind: .playlist, within: confinement)
                else { return nil }
                hash.add(bytes)
            }
        }
        for track in title.request.tracks {
            guard case .file(let url) = track.source,
                let bytes = try? ResourceLoader.readFile(url.path, limit: ReadLimits().subtitle, kind: .subtitle, within: confinement)
            else { return nil }
            hash.add(bytes)
        }
        return hash.hex(16)
    }

    struct Record: Codable {
        var schema = "subweave.batch-record/1"
        let fingerprint: String
    }

    static func read(_ path: String, within confinement: Confinement? = nil) -> String? {
        guard let bytes = try? ResourceLoader.readFile(path, limit: 1 << 16, kind: .playlist, within: confinement) else { return nil }
        return (try? JSONDecoder().decode(Record.self, from: Data(bytes)))?.fingerprint
    }

    /// Written beside the master through a temporary file renamed into place; a failure only
    /// means the title runs again next time.
    static func write(_ fingerprint: String, to path: String, within confinement: Confinement? = nil) {
        guard let data = try? JSONEncoder().encode(Record(fingerprint: fingerprint)) else { return }
        try? FileSystem.replaceFile(
            at: path, with: String(decoding: data, as: UTF8.self) + "\n",
            temporaryName: FileSystem.temporaryPrefix + "batch-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp", within: confinement)
    }
}
