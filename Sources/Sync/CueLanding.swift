import Foundation

/// Where speech starts: the first frame of each stretch the detector found, in seconds.
package struct SpeechOnsets: Sendable, Equatable {
    /// Sorted.
    package let times: [Double]
    /// The programme's length, seconds.
    package let duration: Double

    package init(_ speech: SpeechActivity) {
        let rate = Double(SpeechDetector.frameRate)
        self.init(times: speech.stretches.map { Double($0.lowerBound) / rate }, duration: Double(speech.frames.count) / rate)
    }

    package init(times: [Double], duration: Double) {
        self.times = times.sorted()
        self.duration = duration
    }

    /// The onset nearest to `time`, if any.
    func nearest(_ time: Double) -> Double? {
        guard !times.isEmpty else { return nil }
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        let after = low < times.count ? times[low] : nil
        let before = low > 0 ? times[low - 1] : nil
        switch (before, after) {
        case (let b?, let a?): return time - b <= a - time ? b : a
        case (let b?, nil): return b
        case (nil, let a?): return a
        default: return nil
        }
    }
}

/// How a clock fit places each cue against the speech, cue by cue.
///
/// A cue is *measured* when a speech onset lies within ``reach`` of where the fit puts its start
/// (a cue that begins inside a long stretch of speech, or in silence, says nothing of the fit),
/// and it *lands* when the onset is within ``tolerance``: the check that a fix holds for the cues
/// themselves, not only for the correlation of the whole.
package struct CueLanding: Sendable, Equatable {
    /// One measured cue: its index in the file, where the fit puts its start (programme seconds)
    /// and how far that is from the nearest onset (positive: after it).
    package struct Residual: Sendable, Equatable {
        package let index: Int
        package let time: Double
        package let residual: Double
    }

    /// A straight line through the residuals of the cues near speech.
    ///
    /// residual ≈ intercept + slope × time. A slope means the fit's rate is off: the cues drift
    /// against the speech.
    package struct Line: Sendable, Equatable {
        package let intercept: Double
        package let slope: Double
        /// The standard error of the slope.
        package let slopeError: Double
        package let count: Int
        /// The mean residual.
        package let mean: Double
    }

    /// An onset further than this from a cue's start does not measure it: 0.5 s.
    package static let reach = 0.5
    /// A cue within this of an onset lands: 100 ms, the sync tolerance.
    package static let tolerance = 0.1
    /// Cues within this of an onset count for the line (the drift) and the mean residual.
    static let nearSpeech = 0.25

    package private(set) var measured = 0
    package private(set) var landed = 0
    /// Cues the fit puts before the programme's start or after its end.
    package private(set) var outside = 0
    package private(set) var residuals: [Residual] = []
    package private(set) var line: Line?

    /// The indices of the cues that land.
    package var landedCues: Set<Int> { Set(residuals.filter { abs($0.residual) <= Self.tolerance }.map(\.index)) }

    /// The share of measured cues that land (0 when none is measured).
    package var share: Double { measured == 0 ? 0 : Double(landed) / Double(measured) }

    /// The measured cues furthest from the speech, worst first.
    package func worst(_ count: Int) -> [Residual] {
        Array(residuals.filter { abs($0.residual) > Self.tolerance }.sorted { abs($0.residual) > abs($1.residual) }.prefix(count))
    }

    /// Places `cues` (sidecar seconds) by programme time = (sidecar time − offset) / rate.
    package init(_ cues: [(start: Double, end: Double)], rate: Double, offset: Double, onsets: SpeechOnsets) {
        for (index, cue) in cues.enumerated() {
            let time = (cue.start - offset) / rate
            guard time >= 0, time <= onsets.duration else {
                outside += 1
                continue
            }
            guard let onset = onsets.nearest(time), abs(time - onset) <= Self.reach else { continue }
            let residual = time - onset
            measured += 1
            if abs(residual) <= Self.tolerance { landed += 1 }
            residuals.append(Residual(index: index, time: time, residual: residual))
        }
        line = Self.line(residuals.filter { abs($0.residual) <= Self.nearSpeech })
    }

    /// The least-squares line through `points`, fitted again without those more than 2.5
    /// standard deviations off it (a cue matched to the wrong onset), when at least three stay.
    static func line(_ points: [Residual]) -> Line? {
        guard let first = fitLine(points), first.count > 3 else { return fitLine(points) }
        let spread = sqrt(
            points.reduce(0) { sum, p in
                let e = p.residual - (first.intercept + first.slope * p.time)
                return sum + e * e
            } / Double(points.count))
        let kept = points.filter { abs($0.residual - (first.intercept + first.slope * $0.time)) <= 2.5 * spread }
        return kept.count >= 3 && kept.count < points.count ? fitLine(kept) : first
    }

    /// The least-squares line through `points` (at least three, spread over time).
    static func fitLine(_ points: [Residual]) -> Line? {
        let n = Double(points.count)
        guard points.count >= 3 else { return nil }
        let mt = points.reduce(0) { $0 + $1.time } / n
        let mr = points.reduce(0) { $0 + $1.residual } / n
        let stt = points.reduce(0) { $0 + ($1.time - mt) * ($1.time - mt) }
        guard stt > 0 else { return Line(intercept: mr, slope: 0, slopeError: .infinity, count: points.count, mean: mr) }
        let slope = points.reduce(0) { $0 + ($1.time - mt) * ($1.residual - mr) } / stt
        let intercept = mr - slope * mt
        let sse = points.reduce(0) { sum, p in
            let e = p.residual - (intercept + slope * p.time)
            return sum + e * e
        }
        let error = points.count > 2 ? sqrt(sse / (n - 2) / stt) : .infinity
        return Line(intercept: intercept, slope: slope, slopeError: error, count: points.count, mean: mr)
    }
}
