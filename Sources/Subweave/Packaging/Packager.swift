import Foundation
import Platform

/// Side-loads subtitle tracks into an HLS presentation: reads, decides, then writes.
///
/// Everything is read and decided (``Presentation/plan(_:)``) before the first byte is written,
/// so bad input leaves the HLS folder untouched; ``apply(_:)`` then writes through
/// ``OutputWriter``: new generations renamed into place whole, everything made durable, the master
/// last, what it no longer names removed after. Runs on one folder are serialised by a lock.
public struct Packager: Sendable {
    public var loader: ResourceLoader
    /// How long a run waits for another run on the same folder, in seconds.
    public var lockTimeout: TimeInterval = OutputWriter.defaultLockTimeout
    /// Keep the generation each rendition's previous master named (for players mid-playback).
    public var keepPrevious = false
    /// How long a generation the master no longer names stays for players that loaded an
    /// earlier master, in seconds (default a day; 0 removes it at once): the first run that
    /// finds it unnamed marks it retired, the first run this long after removes it.
    public var retireAfter: TimeInterval = RenditionLayout.defaultRetireAfter
    /// Told when the run has to wait for another run's lock.
    public var onWait: @Sendable (String) -> Void = { _ in }
    /// Told as the run advances (``Presentation/onProgress``).
    public var onProgress: ProgressHandler = { _ in }

    /// A packager reading through `loader` (its limits, timeouts and retries).
    public init(loader: ResourceLoader = ResourceLoader()) {
        self.loader = loader
    }

    /// Reads the master, plans and applies `request` in one go, holding the output folder's lock
    /// from the first read to the last write, so that concurrent runs each see the master as the
    /// one before left it.
    ///
    /// - Parameters:
    ///   - master: the master playlist (a file URL, or `http(s)://` with `request.output` set).
    ///   - request: the tracks and options.
    /// - Returns: the plan that was applied (its report, the new master's text).
    @discardableResult
    public func run(master: URL, _ request: PackageRequest) async throws(SubweaveError) -> PackagePlan {
        let writer = makeWriter(for: request.output ?? master)
        let lock = try await writer.acquireLock()
        defer { lock.release() }
        // What a killed run left goes first, whether or not this run writes anything.
        try await onDispatch { () throws(SubweaveError) in try writer.removeLeftovers(in: []) }
        // The title's key, when its subtitles are encrypted: the video is read with it.
        let key = try ContentKey.forRun(master: master, request, loader: loader)
        var presentation = try await Presentation(master: master, loader: loader, key: key)
        presentation.onProgress = onProgress
        // Each track's rendition is staged as soon as it is made: the run holds a few tracks'
        // cues at a time however many tracks there are.
        let stager = try await onDispatch { () throws(SubweaveError) in try RenditionStager.open(in: writer.folder, within: writer.confinement) }
        defer { stager?.remove() }
        var plan = try await presentation.plan(request, stager: stager)
        let committed = try await commit(plan, writer: writer)
        if !committed.wrote { plan.report.unchanged = true }
        plan.writtenMaster = committed.master
        return plan
    }

    /// Writes `plan`: fails with ``SubweaveError/masterChanged(path:)`` if the master is no longer
    /// what the plan was made from.
    public func apply(_ plan: PackagePlan) async throws(SubweaveError) {
        let writer = makeWriter(for: plan.output)
        let lock = try await writer.acquireLock()
        defer { lock.release() }
        _ = try await commit(plan, writer: writer)
    }

    private func makeWriter(for output: URL) -> OutputWriter {
        var writer = OutputWriter(masterPath: output.path)
        writer.lockTimeout = lockTimeout
        writer.keepPrevious = keepPrevious
        writer.retireAfter = retireAfter
        writer.onWait = onWait
        writer.confinement = loader.confinement
        return writer
    }

    /// Writes `plan`: whether anything needed writing (false: the master was left alone), and the
    /// digest of the master as the run left it.
    private func commit(_ plan: PackagePlan, writer: OutputWriter) async throws(SubweaveError) -> (wrote: Bool, master: WrittenDigest) {
        if plan.masterURL.isFileURL {
            guard FileSystem.contentsEqual(plan.masterURL.path, plan.masterBytes) else { throw .masterChanged(path: plan.masterURL.path) }
        }
        let generations = plan.renditions.map(\.write)
        return try await onDispatch { () throws(SubweaveError) in
            let wrote = try writer.commit(
                generations: generations, master: plan.master, managedFolders: plan.managedFolders,
                named: plan.named, previous: plan.previous, removedFolders: plan.removedFolders, intent: plan.intent)
            // Only a run that succeeded leaves the record of what it read; a failure to keep it
            // only means the next run reads the captions again.
            if let record = plan.captionRecord, plan.output.isFileURL, let text = record.record.text {
                try? FileSystem.replaceFile(
                    at: CaptionRecord.path(master: plan.output), with: text,
                    temporaryName: FileSystem.temporaryPrefix + "captions-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
            }
            return wrote
        }
    }
}
