import Foundation
import Sync
import Timebase
import TimedText

/// What a sync check found for one side-loaded track: how the file's clock relates to the
/// programme's speech, and the descriptor keys that make it fit.
///
/// The model is *sidecar time = rate × programme time + offset*: ``offset`` > 0 means the
/// subtitles come late; ``rate`` 25/23.976 means the file's clock runs 4.27 % long. The fix is
/// t′ = (t − offset) / rate. Sidecar time is the file's cue time after the descriptor's own
/// `rate=`, `offset=` and `delay=`; programme time 0 is the first presented video frame.
public struct SyncFinding: Sendable, Equatable {
    public enum Verdict: String, Sendable {
        /// Within ``SyncCheck/tolerance`` and no speed change.
        case inSync = "in_sync"
        case offset
        case rate
        case rateAndOffset = "rate_and_offset"
        /// The cues do not line up with this programme's speech at any offset or standard rate:
        /// a file for another programme (or a programme without speech).
        case noMatch = "no_match"
    }

    /// The track's rendition identity (`external:en-sdh:en`).
    public let identity: String
    /// Where the file is.
    public let source: String
    /// Seconds; nil when there is no match.
    public let offset: Double?
    /// nil when there is no match.
    public let rate: ClockRate?
    /// How sure the check is, 0…1: how far the alignment stands out from every other one.
    public let confidence: Double
    public let verdict: Verdict
    /// The descriptor keys that apply the fix (`rate=25/23.976,offset=-0.84`); empty when in
    /// sync, nil when there is no match.
    public let suggested: String?
    /// The cues compared.
    public let cues: Int
    /// The track's timing once fixed (the descriptor's rate and offset, folded in).
    let fixedTiming: (rate: ClockRate, offset: MediaTime)?

    public static func == (a: SyncFinding, b: SyncFinding) -> Bool {
        a.identity == b.identity && a.offset == b.offset && a.rate == b.rate && a.confidence == b.confidence && a.verdict == b.verdict
            && a.suggested == b.suggested && a.cues == b.cues
    }

    /// One line for a person: the track, the verdict, the measure and the fix.
    public var summary: String { "\(identity): \(measure)" }

    /// ``summary`` without the track's name.
    public var measure: String {
        let shift = offset.map { String(format: "offset %+.3f s", $0 + 0) } ?? "no offset"
        let speed = rate.map { $0.isOne ? "no drift" : "rate \($0) (\(String(format: "%.4f", $0.value)))" } ?? "no rate"
        let fix = suggested.map { $0.isEmpty ? "nothing to fix" : "fix: \($0)" } ?? "no fix: the cues fit no part of this programme's speech"
        return "\(verdict.rawValue), \(shift), \(speed), confidence \(String(format: "%.2f", confidence)); \(fix)"
    }

    /// How far the cues are from the speech at programme time `time`: rate × time + offset − time.
    public func lead(at time: Double) -> Double? {
        guard let offset, let rate else { return nil }
        return rate.value * time + offset - time
    }
}

/// What `checkSync` found for every track.
public struct SyncReport: Sendable, Equatable {
    public let tracks: [SyncFinding]
    /// Which sound was listened to.
    public let audio: String
    /// The share of the programme that is speech.
    public let speechShare: Double
    /// The speech, for a picture of the programme.
    package let speech: SpeechActivity
}

/// The thresholds of a sync check.
public enum SyncCheck {
    /// An offset within this (and no speed change) is in sync: 100 ms, the limit past which
    /// viewers notice subtitles lead or lag the voice.
    public static let tolerance = 0.1
    /// Below this confidence the cues fit no part of the programme: `no_match`.
    public static let matchConfidence = 0.3
    /// The speed changes tried: none, 24000/1001 ↔ 24 (1.001), 24 ↔ 25 and 24000/1001 ↔ 25, each
    /// way.
    public static let rates: [ClockRate] = ["1", "24/23.976", "23.976/24", "25/24", "24/25", "25/23.976", "23.976/25"].compactMap(ClockRate.init(parsing:))

    /// The confidence of a fit: how much better its alignment is than the best one more than 2 s
    /// away (``ClockFit/distinctness``: 1.15 or less → 0, 1.65 or more → 1), scaled down when
    /// the correlation itself is weak (below 0.2).
    static func confidence(_ fit: ClockFit) -> Double {
        let distinct = min(1, max(0, (fit.distinctness - 1.15) / 0.5))
        let strength = min(1, max(0, fit.score / 0.2))
        return (distinct * strength * 100).rounded() / 100
    }

    /// The finding for `cues` (programme-clock times as the track would be packaged) against
    /// `speech`.
    static func finding(for track: SubtitleTrack, cues: [Cue], speech: SpeechActivity) -> SyncFinding {
        finding(identity: track.identity.description, source: track.source.description, timing: track.timing, cues: cues, speech: speech)
    }

    /// The finding for `cues` of the rendition `identity` (from `source`), whose file was read
    /// with `timing` (its descriptor's rate, and offset and delay), against `speech`.
    static func finding(
        identity: String, source: String, timing: (rate: ClockRate, shift: MediaTime) = (.one, .zero), cues: [Cue], speech: SpeechActivity
    ) -> SyncFinding {
        let times = cues.map { (start: $0.start.seconds, end: $0.end.seconds) }
        guard let fit = CueAlignment.fit(times, to: speech, rates: rates.map(\.value)), let rate = rates.first(where: { $0.value == fit.rate }) else {
            return SyncFinding(
                identity: identity, source: source, offset: nil, rate: nil, confidence: 0, verdict: .noMatch,
                suggested: nil, cues: cues.count, fixedTiming: nil)
        }
        let confidence = Self.confidence(fit)
        let offset = (fit.offset * 1000).rounded() / 1000
        guard confidence >= matchConfidence else {
            return SyncFinding(
                identity: identity, source: source, offset: nil, rate: nil, confidence: confidence,
                verdict: .noMatch, suggested: nil, cues: cues.count, fixedTiming: nil)
        }
        let shifted = abs(offset) > tolerance
        let verdict: SyncFinding.Verdict = rate.isOne ? (shifted ? .offset : .inSync) : (shifted ? .rateAndOffset : .rate)
        // Measured on t1 = t/r1 + o1 (the descriptor's timing): p = (t1 − o)/r = t/(r1·r) + (o1 − o)/r.
        let (r1, o1) = timing
        let newRate = ClockRate(numerator: r1.numerator * rate.numerator, denominator: r1.denominator * rate.denominator) ?? rate
        let newOffset = MediaTime(ticks: Int64(((o1.seconds - fit.offset) / rate.value * Double(MediaTime.ticksPerSecond)).rounded()))
        var keys: [String] = []
        if verdict != .inSync {
            if !newRate.isOne { keys.append("rate=\(newRate)") }
            if newOffset.milliseconds != 0 || newRate.isOne { keys.append("offset=\(newOffset.decimalSeconds)") }
        }
        return SyncFinding(
            identity: identity, source: source, offset: offset, rate: rate, confidence: confidence,
            verdict: verdict, suggested: keys.joined(separator: ","), cues: cues.count, fixedTiming: verdict == .inSync ? nil : (newRate, newOffset))
    }
}

extension Presentation {
    /// Checks each track's cues against the speech in the programme's sound (decoded by ffmpeg;
    /// ``SubweaveError/missingTool(name:purpose:)`` when there is none); writes nothing.
    public func checkSync(_ tracks: [SubtitleTrack]) async throws(SubweaveError) -> SyncReport {
        let (speech, audio) = try await ProgrammeSpeech(presentation: self).read()
        let findings = try await TrackLoader(loader: loader).load(tracks) { _, track, ingested throws(SubweaveError) in
            let cues = SubtitleIngest.applyDelay(track.timing.shift, rate: track.timing.rate, to: ingested.cues).0
            return SyncCheck.finding(for: track, cues: cues, speech: speech)
        }
        return SyncReport(tracks: findings, audio: audio, speechShare: speech.speechShare, speech: speech)
    }
}

extension SyncCheck {
    /// What `package` makes of a sync check: the tracks to segment (retimed when `fixing` and a
    /// track is off), a warning for each track that stays off or fits nothing, and the report's
    /// account.
    static func apply(_ report: SyncReport, to tracks: [SubtitleTrack], fixing: Bool) -> (
        tracks: [SubtitleTrack], warnings: [PackageWarning], entries: [PackageReport.Sync]
    ) {
        var result: [SubtitleTrack] = [], warnings: [PackageWarning] = [], entries: [PackageReport.Sync] = []
        for (track, finding) in zip(tracks, report.tracks) {
            var fixed = false
            var track = track
            switch finding.verdict {
            case .inSync: break
            case .noMatch:
                warnings.append(
                    PackageWarning(
                        .syncNoMatch,
                        "\(finding.identity): its cues fit no part of the programme's speech (confidence \(String(format: "%.2f", finding.confidence))): is \(finding.source) the file for this programme?"
                    ))
            case .offset, .rate, .rateAndOffset:
                if fixing, let timing = finding.fixedTiming {
                    track = track.retimed(rate: timing.rate, offset: timing.offset, note: "retimed to fit the programme's speech: \(finding.suggested ?? "")")
                    fixed = true
                } else {
                    warnings.append(
                        PackageWarning(
                            .outOfSync,
                            "\(finding.summary); nothing was changed: add the keys to its descriptor, or retime it with \(Setting.fixSync)"))
                }
            }
            result.append(track)
            entries.append(
                PackageReport.Sync(
                    identity: finding.identity, verdict: finding.verdict.rawValue, offset: finding.offset, rate: finding.rate?.value,
                    confidence: finding.confidence, suggested: finding.suggested, fixed: fixed))
        }
        return (result, warnings, entries)
    }
}
