import Foundation
import Timebase

/// How a subtitle file's clock relates to the programme's, found by lining its cues up with the
/// speech: sidecar time = `rate` × programme time + `offset`.
package struct ClockFit: Sendable, Equatable {
    /// Seconds: positive when the subtitles come late.
    package var offset: Double
    /// 1 when the file runs at the programme's speed; 25/23.976 when its clock runs 4.27 % long.
    package var rate: Double
    /// The correlation of speech and cue activity at the fit (−1…1).
    package var score: Double
    /// How far the peak stands above the correlation at every other shift, in standard deviations.
    package var peakProminence: Double
    /// The correlation at the peak over the best one more than 2 s from it, at the same rate (on
    /// 50 ms frames): about 2 for a file of this programme, about 1 for a file of another, which
    /// fits about as well somewhere else.
    package var distinctness: Double = 0
}

/// Lines cue activity up with speech activity: cross-correlation over every shift (through the
/// FFT, on 50 ms frames), for each candidate rate, then a fine search on 10 ms frames around the
/// best peaks.
///
/// Both signals are centred (their mean taken off), so the score at a shift is a correlation: it
/// grows where cues cover speech and the gaps between cues cover its pauses, and does not grow
/// merely because a cue file is long.
package enum CueAlignment {
    /// None, and the standard film and TV speed changes each way (``ClockRate/standardChanges``).
    package static let standardRates: [Double] = [1] + ClockRate.standardChanges.map(\.value)

    static let coarseFactor = 5

    /// The fit of `cues` (start and end seconds, in the file's clock) to `speech`, trying `rates`.
    ///
    /// Returns nil when there is nothing to line up (no cues, or no speech).
    package static func fit(_ cues: [(start: Double, end: Double)], to speech: SpeechActivity, rates: [Double] = standardRates) -> ClockFit? {
        let frameRate = Double(SpeechDetector.frameRate)
        guard !cues.isEmpty, speech.frames.contains(true) else { return nil }
        // No standard rate stretches a programme by more than 5 %: cues beyond 1.2 times its
        // length (and ten minutes) after the first cannot line up, and would only cost memory.
        let first = cues.map(\.start).min() ?? 0
        let reach = 1.2 * Double(speech.frames.count) / frameRate + 600
        let cues = cues.filter { $0.start < first + reach }.map { (start: $0.start, end: min($0.end, first + reach)) }
        let fine = centred(speech.frames.map { $0 ? 1 : 0 })
        let coarse = centred(decimate(speech.frames, by: coarseFactor))
        // Coarse: every shift, every rate.
        var candidates: [(rate: Double, base: Double, lag: Int, score: Double, prominence: Double, distinctness: Double)] = []
        for rate in rates {
            let (base, signal) = activity(cues, rate: rate, frameRate: frameRate / Double(coarseFactor))
            let cueSignal = centred(signal)
            let norm = sqrt(energy(coarse) * energy(cueSignal))
            guard norm > 0 else { continue }
            let (lags, values) = FFT.crossCorrelation(coarse, cueSignal)
            var best = 0
            for i in values.indices where values[i] > values[best] { best = i }
            let exclusion = 2 * SpeechDetector.frameRate / coarseFactor
            let prominence = Self.prominence(values, peak: best, exclusion: exclusion)
            var second: Float = 0
            for i in values.indices where abs(i - best) > exclusion && values[i] > second { second = values[i] }
            candidates.append((rate, base, lags.lowerBound + best, Double(values[best]) / norm, prominence, second > 0 ? Double(values[best] / second) : 10))
        }
        // Fine: the three best rates, ±(two coarse frames) around their peaks, on 10 ms frames.
        var fits: [ClockFit] = []
        for candidate in candidates.sorted(by: { $0.score > $1.score }).prefix(3) {
            if let fit = fineFit(cues, speech: fine, rate: candidate.rate, around: candidate.base - Double(candidate.lag) / (frameRate / Double(coarseFactor)))
            {
                fits.append(
                    ClockFit(offset: fit.offset, rate: fit.rate, score: fit.score, peakProminence: candidate.prominence, distinctness: candidate.distinctness))
            }
        }
        guard let top = fits.max(by: { $0.score < $1.score }) else { return nil }
        // The speed change is found in two steps. The family, by how well it fits: none, 24 ↔ 25
        // or 25 ↔ 24. Then within it, the 0.1 % of 24000/1001 against 24, from the drift left
        // over at the family's plain rate: a 0.1 % change moves cues by only 100 ms in 100 s, too
        // little for the fit's score to tell apart from the noise of speech detection.
        let plain = [1.0, 25.0 / 24, 24.0 / 25].min { abs($0 / top.rate - 1) < abs($1 / top.rate - 1) } ?? 1
        guard let base = fineFit(cues, speech: fine, rate: plain, around: shift(top, at: plain, cues: cues)) else { return top }
        var best = ClockFit(offset: base.offset, rate: plain, score: base.score, peakProminence: top.peakProminence, distinctness: top.distinctness)
        if let implied = drift(cues, speech: fine, fit: best),
            let nearest = rates.filter({ abs($0 / plain - 1) < 0.002 }).min(by: { abs($0 / implied - 1) < abs($1 / implied - 1) }), nearest != plain,
            let refit = fineFit(cues, speech: fine, rate: nearest, around: shift(best, at: nearest, cues: cues))
        {
            best = ClockFit(offset: refit.offset, rate: nearest, score: refit.score, peakProminence: best.peakProminence, distinctness: best.distinctness)
        }
        return best
    }

    /// Every alignment worth a closer look: for each of `rates`, the `perRate` highest peaks of
    /// the coarse correlation (at least a second apart), each refined on 10 ms frames.
    ///
    /// Evenly spaced speech correlates about as well at several shifts, and a file of another
    /// programme about as well anywhere: which of these is right (if any) is for the cue-by-cue
    /// check (``SyncAnalysis``) to tell, not the correlation's single highest peak.
    package static func candidates(
        _ cues: [(start: Double, end: Double)], to speech: SpeechActivity, rates: [Double] = standardRates, perRate: Int = 3
    ) -> [ClockFit] {
        let frameRate = Double(SpeechDetector.frameRate)
        guard !cues.isEmpty, speech.frames.contains(true) else { return [] }
        let first = cues.map(\.start).min() ?? 0
        let reach = 1.2 * Double(speech.frames.count) / frameRate + 600
        let cues = cues.filter { $0.start < first + reach }.map { (start: $0.start, end: min($0.end, first + reach)) }
        let fine = centred(speech.frames.map { $0 ? 1 : 0 })
        let coarse = centred(decimate(speech.frames, by: coarseFactor))
        let coarseRate = frameRate / Double(coarseFactor)
        let exclusion = SpeechDetector.frameRate / coarseFactor  // a second
        var fits: [ClockFit] = []
        for rate in rates {
            let (base, signal) = activity(cues, rate: rate, frameRate: coarseRate)
            let cueSignal = centred(signal)
            let norm = sqrt(energy(coarse) * energy(cueSignal))
            guard norm > 0 else { continue }
            let (lags, values) = FFT.crossCorrelation(coarse, cueSignal)
            // The local maxima, highest first, each at least `exclusion` from a higher one taken.
            var peaks: [Int] = []
            for i in values.indices where values[i] > 0 && (i == 0 || values[i] >= values[i - 1]) && (i + 1 == values.count || values[i] >= values[i + 1]) {
                peaks.append(i)
            }
            peaks.sort { values[$0] > values[$1] }
            var taken: [Int] = []
            for peak in peaks where taken.count < perRate && !taken.contains(where: { abs($0 - peak) <= exclusion }) { taken.append(peak) }
            let prominence = taken.first.map { Self.prominence(values, peak: $0, exclusion: 2 * exclusion) } ?? 0
            for peak in taken {
                let shift = base - Double(lags.lowerBound + peak) / coarseRate
                guard var fit = fineFit(cues, speech: fine, rate: rate, around: shift) else { continue }
                fit.peakProminence = prominence
                fits.append(fit)
            }
        }
        return fits
    }

    /// The shift that lines the middle of the cues up as `fit` does, at `rate` instead: cue time
    /// t shows at t/rate − shift (a different rate moves a 10:00:00 timecode by seconds).
    package static func shift(_ fit: ClockFit, at rate: Double, cues: [(start: Double, end: Double)]) -> Double {
        let middle = ((cues.map(\.start).min() ?? 0) + (cues.map(\.end).max() ?? 0)) / 2
        let programme = (middle - fit.offset) / fit.rate
        return middle / rate - programme
    }

    /// The rate `fit`'s cues really run at, from how the best shift moves across the programme:
    /// the shift is found in each stretch of about 8 s (at least eight, ±300 ms around the fit's)
    /// and a line is fitted through them, weighted by how well each stretch lines up.
    static func drift(_ cues: [(start: Double, end: Double)], speech: [Float], fit: ClockFit) -> Double? {
        let frameRate = Double(SpeechDetector.frameRate)
        let (base, signal) = activity(cues, rate: fit.rate, frameRate: frameRate)
        let cueSignal = centred(signal)
        let shift = fit.offset / fit.rate
        let centre = Int(((base - shift) * frameRate).rounded())
        // The programme stretch the cues cover.
        let first = max(0, centre), last = min(speech.count, centre + cueSignal.count)
        guard last - first > 8 * 10 * SpeechDetector.frameRate else { return nil }  // at least 80 s
        var points: [(time: Double, shift: Double, weight: Double)] = []
        let windows = max(8, min(64, (last - first) / (8 * SpeechDetector.frameRate)))
        let step = (last - first) / windows
        for window in 0..<windows {
            let from = first + window * step, to = from + step
            var bestLag = centre, bestScore = -Double.infinity
            for lag in centre - 30...centre + 30 {
                let score = dot(speech, cueSignal, lag: lag, within: from..<to)
                if score > bestScore { (bestLag, bestScore) = (lag, score) }
            }
            if bestScore > 0 { points.append((Double(from + to) / 2 / frameRate, base - Double(bestLag) / frameRate, bestScore)) }
        }
        guard points.count >= 4 else { return nil }
        let w = points.reduce(0) { $0 + $1.weight }
        let mt = points.reduce(0) { $0 + $1.weight * $1.time } / w, ms = points.reduce(0) { $0 + $1.weight * $1.shift } / w
        let stt = points.reduce(0) { $0 + $1.weight * ($1.time - mt) * ($1.time - mt) }
        guard stt > 0 else { return nil }
        let slope = points.reduce(0) { $0 + $1.weight * ($1.time - mt) * ($1.shift - ms) } / stt
        // Only a drift that moves the shift clearly (more than 100 ms, the sync tolerance, and
        // three standard errors across the programme) counts: on a short programme a 0.1 % speed
        // change is within the tolerance, and not there to see.
        let residuals = points.reduce(0) { sum, p in
            let r = p.shift - (ms + slope * (p.time - mt))
            return sum + p.weight * r * r
        }
        let standardError = sqrt(residuals / Double(points.count - 2) / stt)
        let times = points.map(\.time)
        let span = (times.max() ?? 0) - (times.min() ?? 0)
        guard abs(slope) * span > max(0.1, 3 * standardError * span) else { return nil }
        return fit.rate * (1 + slope)
    }

    /// The best shift for `rate` within two coarse frames of `shift` seconds, on 10 ms frames,
    /// placed between frames by a parabola through the peak and its neighbours.
    static func fineFit(_ cues: [(start: Double, end: Double)], speech: [Float], rate: Double, around shift: Double) -> ClockFit? {
        let frameRate = Double(SpeechDetector.frameRate)
        let (base, signal) = activity(cues, rate: rate, frameRate: frameRate)
        let cueSignal = centred(signal)
        let norm = sqrt(energy(speech) * energy(cueSignal))
        guard norm > 0 else { return nil }
        // Speech frame (n + lag) lines up with cue frame n (from `base`) when shift = base − lag/frameRate.
        let centre = Int(((base - shift) * frameRate).rounded())
        let scores = (centre - 2 * coarseFactor...centre + 2 * coarseFactor).map { (lag: $0, score: dot(speech, cueSignal, lag: $0) / norm) }
        guard let top = scores.indices.max(by: { scores[$0].score < scores[$1].score }) else { return nil }
        var lag = Double(scores[top].lag)
        if top > 0, top + 1 < scores.count {
            let (l, c, r) = (scores[top - 1].score, scores[top].score, scores[top + 1].score)
            let denominator = l - 2 * c + r
            if denominator < 0 { lag += max(-0.5, min(0.5, 0.5 * (l - r) / denominator)) }
        }
        // Cue time t/rate − shift lines up with speech; the file's offset is rate × shift.
        return ClockFit(offset: rate * (base - lag / frameRate), rate: rate, score: scores[top].score, peakProminence: 0)
    }

    /// Cue activity on frames of `frameRate` per second, from `base` seconds (the first cue's
    /// start over `rate`, less a second): 1 inside a cue, 0 outside, cue times divided by `rate`.
    static func activity(_ cues: [(start: Double, end: Double)], rate: Double, frameRate: Double) -> (base: Double, signal: [Float]) {
        let first = cues.map(\.start).min() ?? 0, last = cues.map(\.end).max() ?? 0
        let base = (first / rate - 1).rounded(.down)
        let count = Int(((last / rate - base) * frameRate).rounded(.up)) + 1
        var signal = [Float](repeating: 0, count: max(1, min(count, 50_000_000)))
        // Starts and ends marked, then summed in one pass: linear in frames and cues however
        // much the cues overlap.
        var edges = [Int32](repeating: 0, count: signal.count + 1)
        for cue in cues where cue.end > cue.start {
            let from = max(0, min(signal.count, Int(((cue.start / rate - base) * frameRate).rounded())))
            let to = max(0, min(signal.count, Int(((cue.end / rate - base) * frameRate).rounded())))
            if from < to {
                edges[from] += 1
                edges[to] -= 1
            }
        }
        var depth: Int32 = 0
        for i in signal.indices {
            depth += edges[i]
            if depth > 0 { signal[i] = 1 }
        }
        return (base, signal)
    }

    /// Speech activity averaged over blocks of `factor` frames.
    static func decimate(_ frames: [Bool], by factor: Int) -> [Float] {
        stride(from: 0, to: frames.count, by: factor).map { start in
            let end = min(start + factor, frames.count)
            return Float(frames[start..<end].lazy.filter { $0 }.count) / Float(end - start)
        }
    }

    static func centred(_ values: [Float]) -> [Float] {
        guard !values.isEmpty else { return values }
        let mean = values.reduce(0, +) / Float(values.count)
        return values.map { $0 - mean }
    }

    static func energy(_ values: [Float]) -> Double { values.reduce(0.0) { $0 + Double($1) * Double($1) } }

    /// Σₙ a[n + lag]·b[n], over the n whose n + lag is within `window` (all of `a` by default).
    static func dot(_ a: [Float], _ b: [Float], lag: Int, within window: Range<Int>? = nil) -> Double {
        let range = window ?? 0..<a.count
        let from = max(0, range.lowerBound - lag), to = min(b.count, range.upperBound - lag)
        guard from < to else { return 0 }
        var sum: Float = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for n in from..<to { sum += a[n + lag] * b[n] }
            }
        }
        return Double(sum)
    }

    /// How many standard deviations the peak stands above the correlation at shifts more than
    /// `exclusion` away from it.
    static func prominence(_ values: [Float], peak: Int, exclusion: Int) -> Double {
        var sum = 0.0, squares = 0.0, count = 0.0
        for (i, v) in values.enumerated() where abs(i - peak) > exclusion {
            sum += Double(v)
            squares += Double(v) * Double(v)
            count += 1
        }
        guard count > 1 else { return 0 }
        let mean = sum / count, deviation = sqrt(max(0, squares / count - mean * mean))
        return deviation > 0 ? (Double(values[peak]) - mean) / deviation : 0
    }
}
