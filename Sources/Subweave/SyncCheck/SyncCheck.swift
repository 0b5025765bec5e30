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
        /// Within ``SyncCheck/tolerance`` and no speed change, cue by cue.
        case inSync = "in_sync"
        case offset
        case rate
        case rateAndOffset = "rate_and_offset"
        /// Several alignments land the cues about as well (evenly spaced speech, or two speed
        /// changes the programme is too short to tell apart): ``candidates`` lists them, and
        /// nothing is fixed.
        case ambiguous
        /// The best alignment lands too few of the cues to be a fix (a file cut or edited in a
        /// way one offset and rate cannot mend): ``offset`` and ``rate`` say where most fit, and
        /// nothing is fixed.
        case partial
        /// The cues do not line up with this programme's speech at any offset or standard rate:
        /// a file for another programme (or a programme without speech).
        case noMatch = "no_match"
    }

    /// An alignment of the file, and the share of its measured cues that land there.
    public struct Candidate: Sendable, Equatable {
        public let offset: Double
        public let rate: ClockRate
        public let landedShare: Double
    }

    /// A measured cue that does not land: its number in the file (from 1), where the fit puts
    /// it (programme seconds), and how far it is from the speech onset nearest to it.
    public struct Miss: Sendable, Equatable {
        public let cue: Int
        public let at: Double
        public let offBy: Double
    }

    /// The track's rendition identity (`external:en-sdh:en`).
    public let identity: String
    /// Where the file is.
    public let source: String
    /// Seconds; nil when there is no match or no single answer.
    public let offset: Double?
    /// nil when there is no match or no single answer.
    public let rate: ClockRate?
    /// How sure the check is, 0…1: the share of such verdicts that were right on held-out
    /// programmes (``SyncCalibration``).
    public let confidence: Double
    public let verdict: Verdict
    /// The descriptor keys that apply the fix (`rate=25/23.976,offset=-0.84`); empty when in
    /// sync, nil when there is nothing to fix by (no match, ambiguous, partial).
    public let suggested: String?
    /// The cues compared.
    public let cues: Int
    /// Cues whose start has a speech onset within half a second, at the fit.
    public let measuredCues: Int
    /// Of those, the cues that start within ``SyncCheck/tolerance`` of it.
    public let landedCues: Int
    /// The measured cues furthest from the speech at the fit (at most five), worst first.
    public let worst: [Miss]
    /// For an ambiguous verdict, the alignments that fit about as well, best first; for a
    /// partial one, the fit of the largest part and those of the other parts found.
    public let candidates: [Candidate]
    /// The share of cues that land when the best fit is moved by a few arbitrary seconds: what
    /// chance gives on this programme's speech.
    public let chanceShare: Double
    /// How many fewer cues the best alignment placing them elsewhere lands (or chance would), as
    /// a share of those the fit lands: how clearly it beats every other (0 to 1).
    public let margin: Double
    /// The track's timing once fixed (the descriptor's rate and offset, folded in).
    let fixedTiming: (rate: ClockRate, offset: MediaTime)?

    public static func == (a: SyncFinding, b: SyncFinding) -> Bool {
        a.identity == b.identity && a.offset == b.offset && a.rate == b.rate && a.confidence == b.confidence && a.verdict == b.verdict
            && a.suggested == b.suggested && a.cues == b.cues && a.measuredCues == b.measuredCues && a.landedCues == b.landedCues
            && a.worst == b.worst && a.candidates == b.candidates
    }

    /// The share of measured cues that land (nil when none was measured).
    public var landedShare: Double? { measuredCues == 0 ? nil : Double(landedCues) / Double(measuredCues) }

    /// One line for a person: the track, the verdict, the measure and the fix.
    public var summary: String { "\(identity): \(measure)" }

    /// ``summary`` without the track's name.
    public var measure: String {
        let sure = "confidence \(String(format: "%.2f", confidence))"
        let landing = measuredCues > 0 ? "\(landedCues) of \(measuredCues) cues land within 0.1 s" : "no cue measured"
        switch verdict {
        case .ambiguous:
            let list = candidates.map { c in
                String(format: "offset %+.3f s", c.offset + 0) + (c.rate.isOne ? "" : " rate \(c.rate)")
                    + String(format: " (%.0f %%)", 100 * c.landedShare)
            }
            return
                "ambiguous, \(sure): \(candidates.count) alignments land the cues about as well: \(list.joined(separator: ", ")); no fix: the programme cannot tell them apart"
        case .noMatch:
            return "no_match, no offset, no rate, \(sure); no fix: the cues fit no part of this programme's speech"
        default:
            let shift = offset.map { String(format: "offset %+.3f s", $0 + 0) } ?? "no offset"
            let speed = rate.map { $0.isOne ? "no drift" : "rate \($0) (\(String(format: "%.4f", $0.value)))" } ?? "no rate"
            let worstText =
                worst.isEmpty
                ? ""
                : "; furthest: " + worst.prefix(3).map { String(format: "cue %d at %.1f s off by %+.2f s", $0.cue, $0.at, $0.offBy) }.joined(separator: ", ")
            let fix: String
            if verdict == .partial {
                let parts = candidates.dropFirst().map { c in
                    String(format: "offset %+.3f s", c.offset + 0) + (c.rate.isOne ? "" : " rate \(c.rate)")
                }
                fix =
                    "no fix: one offset and rate fit part of the file only (was it cut or edited?)"
                    + (parts.isEmpty ? "" : "; other parts fit at \(parts.joined(separator: ", "))")
            } else {
                fix = suggested.map { $0.isEmpty ? "nothing to fix" : "fix: \($0)" } ?? "no fix"
            }
            return "\(verdict.rawValue), \(shift), \(speed), \(sure), \(landing)\(worstText); \(fix)"
        }
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
    /// The speed changes tried: none, 24000/1001 ↔ 24 (1.001), 24 ↔ 25 and 24000/1001 ↔ 25, each
    /// way.
    public static let rates: [ClockRate] = ["1", "24/23.976", "23.976/24", "25/24", "24/25", "25/23.976", "23.976/25"].compactMap(ClockRate.init(parsing:))

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
        let analysis = SyncAnalysis.analyse(times, speech: speech, rates: rates.map(\.value))
        let confidence = SyncCalibration.confidence(analysis)
        func clockRate(_ value: Double) -> ClockRate { rates.first { $0.value == value } ?? .one }
        let landing = analysis.best?.landing
        let worst = (landing?.worst(5) ?? []).map {
            SyncFinding.Miss(cue: $0.index + 1, at: ($0.time * 10).rounded() / 10, offBy: ($0.residual * 1000).rounded() / 1000)
        }
        func make(_ verdict: SyncFinding.Verdict, offset: Double?, rate: ClockRate?, suggested: String?, fixed: (ClockRate, MediaTime)?) -> SyncFinding {
            SyncFinding(
                identity: identity, source: source, offset: offset, rate: rate, confidence: confidence, verdict: verdict, suggested: suggested,
                cues: cues.count, measuredCues: landing?.measured ?? 0, landedCues: landing?.landed ?? 0, worst: verdict == .noMatch ? [] : worst,
                candidates: analysis.candidates.map {
                    SyncFinding.Candidate(
                        offset: ($0.offset * 1000).rounded() / 1000, rate: clockRate($0.rate), landedShare: ($0.share * 1000).rounded() / 1000)
                }, chanceShare: (analysis.chance * 1000).rounded() / 1000, margin: (analysis.margin * 1000).rounded() / 1000, fixedTiming: fixed)
        }
        guard let best = analysis.best, analysis.outcome != .noMatch else { return make(.noMatch, offset: nil, rate: nil, suggested: nil, fixed: nil) }
        let rate = clockRate(best.rate)
        let offset = (best.offset * 1000).rounded() / 1000
        switch analysis.outcome {
        case .noMatch: return make(.noMatch, offset: nil, rate: nil, suggested: nil, fixed: nil)
        case .ambiguous: return make(.ambiguous, offset: nil, rate: nil, suggested: nil, fixed: nil)
        case .partial: return make(.partial, offset: offset, rate: rate, suggested: nil, fixed: nil)
        case .fit: break
        }
        let shifted = abs(offset) > tolerance
        let verdict: SyncFinding.Verdict = rate.isOne ? (shifted ? .offset : .inSync) : (shifted ? .rateAndOffset : .rate)
        // Measured on t1 = t/r1 + o1 (the descriptor's timing): p = (t1 − o)/r = t/(r1·r) + (o1 − o)/r.
        let (r1, o1) = timing
        let newRate = ClockRate(numerator: r1.numerator * rate.numerator, denominator: r1.denominator * rate.denominator) ?? rate
        let newOffset = MediaTime(ticks: Int64(((o1.seconds - best.offset) / rate.value * Double(MediaTime.ticksPerSecond)).rounded()))
        var keys: [String] = []
        if verdict != .inSync {
            if !newRate.isOne { keys.append("rate=\(newRate)") }
            if newOffset.milliseconds != 0 || newRate.isOne { keys.append("offset=\(newOffset.decimalSeconds)") }
        }
        return make(verdict, offset: offset, rate: rate, suggested: keys.joined(separator: ","), fixed: verdict == .inSync ? nil : (newRate, newOffset))
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
            case .ambiguous, .partial:
                warnings.append(
                    PackageWarning(
                        .syncUndecided, "\(finding.summary); nothing was changed: check the file, or say its timing with rate= and offset="))
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
                    confidence: finding.confidence, suggested: finding.suggested, fixed: fixed, landedShare: finding.landedShare))
        }
        return (result, warnings, entries)
    }
}
