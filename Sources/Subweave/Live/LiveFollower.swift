import Captions
import Foundation
import HLS
import Timebase
import TimedText

/// What one pass over a live playlist did.
public struct LiveUpdate: Sendable, Equatable {
    /// Media sequence numbers of the video segments that appeared.
    public let newSegments: [Int]
    /// Subtitle segments written (all renditions).
    public let segmentsWritten: Int
    /// Subtitle parts written (all renditions; low-latency HLS).
    public var partsWritten = 0
    /// Whether the video playlist has ended (`EXT-X-ENDLIST`).
    public let ended: Bool
    /// The window the subtitle playlists now mirror: the video playlist's media sequence number
    /// and segment count as this pass read them.
    public let mediaSequence: Int
    public let segmentCount: Int
    /// Each rendition (its identity) with the subtitle segments this pass wrote, in the
    /// master's order.
    public var writtenByRendition: [RenditionCount] = []
    /// Cues that arrived after their segment was published, every rendition, so far.
    public var lateCues = 0
    /// Why the pass wrote nothing although the playlist changed (it went back: a stale copy).
    public var skipped: String?

    /// A rendition's identity and a count.
    public struct RenditionCount: Sendable, Equatable {
        public let identity: String
        public let count: Int
    }
}

/// How a follow ended.
public struct LiveReport: Sendable, Equatable {
    /// `ended` (the video playlist has EXT-X-ENDLIST) or `idle` (it stopped changing).
    public let reason: String
    /// Subtitle segments written by this run, all renditions.
    public let segmentsWritten: Int
    /// Subtitle parts written by this run, all renditions (low-latency HLS).
    public var partsWritten = 0
    /// Cues published in a later segment than the one they start in, per rendition identity.
    public let lateCues: [String: Int]
    /// Cues that became known after every segment they show in was published, per rendition
    /// identity: left out of this event's segments (a refresh once it has ended publishes them).
    public var missedCues: [String: Int] = [:]
    public let notes: [String]
}

/// Follows a live (EVENT or sliding-window) presentation: as the video playlist grows, writes the
/// new subtitle segments of every rendition and appends them to the subtitle playlists, which
/// mirror the video's window (MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE, EXTINF, ENDLIST).
///
/// A published segment is never written again; subtitle playlists are replaced whole (temporary
/// file, rename), after the segments they add; the master is written once, after the first
/// playlists. Sources are read again on every pass (a captioner's growing file: a cue counts once
/// the blank line after it is written), and in-band CEA-608 is decoded segment by segment with
/// the decoder's state carried over. What is on disk, and the timeline kept beside the master
/// (`.<master>.subweave-live.json`), let a restarted follow go on with no gap and no duplicate.
public struct LiveFollower: Sendable {
    public var loader: ResourceLoader
    /// Seconds between passes; nil: half the target duration (as players reload), or on a
    /// low-latency video half the part target (a part is written soon after the video's).
    public var pollInterval: TimeInterval?
    /// Stop when the video playlist has not changed for this many seconds; nil: 30 target durations.
    public var idleTimeout: TimeInterval?
    /// Consecutive failed reads or writes (``SubweaveError/io(path:reason:)``) the follow retries,
    /// a poll interval apart, before it gives up.
    ///
    /// In a sliding window the publisher deletes a segment once it leaves the window, so one the
    /// playlist listed can be gone by the time it is read; the next pass reads the playlist again.
    public var readRetries = 3
    /// Told after every pass that wrote something, and after a pass skipped for a reason not
    /// told the pass before (a playlist that went back).
    public var onUpdate: @Sendable (LiveUpdate) -> Void = { _ in }
    /// Told when a pass failed and will be tried again (what failed, and when it is retried).
    public var onRetry: @Sendable (String) -> Void = { _ in }
    /// The longest wait between retries of a failed pass, in seconds.
    public var longestRetryWait: TimeInterval = 10
    /// How long writing the master waits for another run on the same folder, in seconds.
    public var lockTimeout: TimeInterval = OutputWriter.defaultLockTimeout

    /// A follower reading through `loader`.
    public init(loader: ResourceLoader = ResourceLoader()) { self.loader = loader }

    /// Follows `master` with `request`'s tracks (and in-band captions found at the start) until
    /// the video playlist ends or stops changing.
    public func follow(master: URL, _ request: PackageRequest) async throws(SubweaveError) -> LiveReport {
        var failures = 0
        var session: LiveSession
        while true {
            do {
                session = try await LiveSession.start(master: master, request: request, loader: loader, lockTimeout: lockTimeout)
                break
            } catch {
                // A master that cannot be read is not a window that slid.
                failures += 1
                guard case .unreadable(let path, _, _) = error, path != MediaReader.display(master), failures <= readRetries else { throw error }
                try? await Task.sleep(nanoseconds: UInt64((pollInterval ?? 1) * 1_000_000_000))
            }
        }
        let interval = pollInterval ?? max(session.partTarget == nil ? 0.2 : 0.05, (session.partTarget ?? Double(session.targetDuration)) / 2)
        let idle = idleTimeout ?? Double(session.targetDuration) * 30
        var lastChange = Date()
        var total = 0
        var parts = 0
        var lastSkipped: String?
        failures = 0
        while true {
            let update: LiveUpdate
            do {
                update = try await session.pass()
                failures = 0
            } catch {
                // A reload that fails (the server or the publisher between two writes) is tried
                // again with a growing wait, as players do, for as long as the idle timeout allows.
                failures += 1
                let wait = min(interval * Double(1 << min(failures - 1, 16)), max(interval, longestRetryWait))
                guard Self.mayRetry(error), failures <= readRetries || Date().addingTimeInterval(wait).timeIntervalSince(lastChange) <= idle else {
                    throw error
                }
                let message = "a pass failed (\(error.description)); retrying in \(wait.decimalSeconds) s (attempt \(failures + 1))"
                session.note("a pass was retried after: \(error.description)")
                onRetry(message)
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
                continue
            }
            total += update.segmentsWritten
            parts += update.partsWritten
            if !update.newSegments.isEmpty || update.segmentsWritten > 0 || update.partsWritten > 0 {
                lastChange = Date()
                onUpdate(update)
            } else if let skipped = update.skipped, skipped != lastSkipped {
                onUpdate(update)
            }
            lastSkipped = update.skipped
            if update.ended { return session.report(reason: "ended", written: total, parts: parts) }
            if Date().timeIntervalSince(lastChange) > idle { return session.report(reason: "idle", written: total, parts: parts) }
            try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
        }
    }

    /// Whether a failed pass may succeed later: reading (a file or server that is not there
    /// yet), a playlist or segment caught half-written.
    static func mayRetry(_ error: SubweaveError) -> Bool {
        switch error {
        case .unreadable, .fileSystem, .playlist, .media: return true
        default: return false
        }
    }
}
