import Foundation
import Subweave

/// Progress of long work on stderr, only on a terminal.
///
/// One line rewritten in place (what is being done, done / total, the rate, the time left),
/// cleared when the work ends. Nothing when stderr is a file or a pipe (logs stay clean), with
/// `--quiet`, or with `--json`.
final class ProgressLine: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastDrawn: UInt64 = 0
    private var shown = false

    init(_ context: Context, terminal: Bool = isatty(STDERR_FILENO) == 1) {
        enabled = terminal && !context.quiet && !context.json
    }

    /// A stage with no count yet (`reading master.m3u8`).
    func say(_ text: String) {
        guard enabled else { return }
        draw(text + "…", force: true)
    }

    /// `done` of `total` `unit`s.
    func count(_ done: Int, of total: Int, _ unit: String) {
        guard enabled else { return }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        draw(Self.line(done: done, total: total, unit: unit, elapsed: elapsed), force: done >= total)
    }

    /// What the library reports, as a count.
    func update(_ progress: WorkProgress) {
        count(progress.done, of: progress.total, progress.stage.rawValue)
    }

    /// Clears the line.
    func done() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        if shown { Output.toStandardError("\r\u{1B}[K") }
        shown = false
    }

    /// At most ten redraws a second, except the last.
    private func draw(_ text: String, force: Bool) {
        lock.lock()
        defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        guard force || now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        shown = true
        Output.toStandardError("\r\u{1B}[K\(text)")
    }

    /// The line's text, such as `12/40 titles · 3.1/s · 9 s left`.
    ///
    /// Bytes are counted in MiB; the rate and the time left come once a fifth of a second has
    /// passed and something is done.
    static func line(done: Int, total: Int, unit: String, elapsed: Double) -> String {
        let bytes = unit == WorkProgress.Stage.bytes.rawValue
        func amount(_ n: Int) -> String { bytes ? String(format: "%.0f", Double(n) / 1_048_576) : String(n) }
        var text = "\(amount(done))/\(amount(total)) \(bytes ? "MiB" : unit)"
        guard done > 0, elapsed >= 0.2 else { return text }
        let rate = Double(done) / elapsed
        text += bytes ? String(format: " · %.0f MiB/s", rate / 1_048_576) : " · \(rate < 10 ? String(format: "%.1f", rate) : String(format: "%.0f", rate))/s"
        if total > done { text += " · \(duration(Double(total - done) / rate)) left" }
        return text
    }

    /// `9 s`, `4 min 10 s`, `2 h 5 min`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \((s % 3600) / 60) min"
    }
}

/// `package --follow`'s status: a line per publication pass on stderr (segments written per
/// rendition, late cues, the media sequence reached), rewritten in place on a terminal and one
/// line per pass otherwise; nothing with `--quiet` or `--json`.
final class FollowStatus: @unchecked Sendable {
    let enabled: Bool
    let terminal: Bool
    private let lock = NSLock()
    private var passes = 0
    private var total = 0
    private var shown = false

    init(_ context: Context, terminal: Bool = isatty(STDERR_FILENO) == 1) {
        enabled = !context.quiet && !context.json
        self.terminal = terminal
    }

    func pass(_ update: LiveUpdate) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        passes += 1
        total += update.segmentsWritten
        let text = Self.line(update, pass: passes, total: total)
        if terminal {
            Output.toStandardError("\r\u{1B}[K\(text)")
            shown = true
        } else {
            Output.toStandardError(text + "\n")
        }
    }

    /// Ends the rewritten line, so that what follows starts on its own.
    func done() {
        lock.lock()
        defer { lock.unlock() }
        if shown { Output.toStandardError("\n") }
        shown = false
    }

    /// `pass 3: media sequence 0-11 (12 segments), written en-en +2 fr-fr +2 (48 in all), 1 late cue`.
    static func line(_ update: LiveUpdate, pass: Int, total: Int) -> String {
        let last = update.mediaSequence + max(0, update.segmentCount - 1)
        var text = "pass \(pass): media sequence \(update.mediaSequence)-\(last) (\(update.segmentCount.counted("segment"))\(update.ended ? ", ended" : ""))"
        let written = update.writtenByRendition.map { "\($0.identity) +\($0.count)" }.joined(separator: " ")
        text += ", written \(written.isEmpty ? "nothing" : written) (\(total) in all)"
        if update.partsWritten > 0 { text += ", \(update.partsWritten.counted("part")) (low-latency)" }
        if update.lateCues > 0 { text += ", \(update.lateCues.counted("late cue"))" }
        if let skipped = update.skipped { text += "; \(skipped)" }
        return text
    }
}
