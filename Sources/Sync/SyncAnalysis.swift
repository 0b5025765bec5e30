import Foundation

/// What the cues of one file say about its clock against a programme's speech, and how sure that
/// is: one fit that beats every other clearly, several that fit about as well, a fit that holds
/// for part of the file only, or none.
///
/// The correlation of cue activity with speech activity proposes alignments
/// (``CueAlignment/candidates(_:to:rates:perRate:)``); each is then judged cue by cue
/// (``CueLanding``): its offset refined to the cues' mean distance from their speech onsets, the
/// share of cues whose start lands within 100 ms of an onset measured, and its drift (a rate that
/// is 0.1 % off moves cues by 100 ms in 100 s) read from the line through their residuals.
package struct SyncAnalysis: Sendable, Equatable {
    package enum Outcome: String, Sendable, Equatable {
        /// One fit lands the cues and beats every other clearly.
        case fit
        /// Several fits land the cues about as well (evenly spaced speech, or two speed changes
        /// the programme is too short to tell apart): none is picked.
        case ambiguous
        /// The best fit lands the cues clearly better than chance, but too few of them to be a
        /// fix (a file cut or edited in a way one offset and rate cannot mend).
        case partial
        /// No fit lands the cues better than chance: a file for another programme, or a
        /// programme without speech.
        case noMatch = "no_match"
    }

    /// One alignment as the cues judge it.
    package struct Candidate: Sendable, Equatable {
        package var rate: Double
        package var offset: Double
        /// The correlation at the fit.
        package var score: Double
        package var landing: CueLanding
        package var share: Double { landing.share }

        /// Whether this lands about as many cues as `other`, and about as large a share of
        /// those it measures (`within` a fraction of them).
        func isAsGood(as other: Candidate, within: Double) -> Bool {
            Double(landing.landed) >= (1 - within) * Double(other.landing.landed) && share >= other.share - within
        }
    }

    /// The order of alignments: the most cues landed, then the largest share, then the
    /// correlation.
    static func ranksAbove(_ a: Candidate, _ b: Candidate) -> Bool {
        (a.landing.landed, a.share, a.score) > (b.landing.landed, b.share, b.score)
    }

    package var outcome: Outcome
    /// The best fit (nil only when nothing could be lined up at all).
    package var best: Candidate?
    /// For an ambiguous outcome, the fits that land the cues about as well as the best, best
    /// first (the best included); for a partial one, the best and the fits of the other parts
    /// where they were found.
    package var candidates: [Candidate] = []
    /// The share of cues that land at arbitrary shifts of the best fit: what chance gives.
    package var chance: Double = 0
    /// How many fewer cues the best fit placing the cues elsewhere lands (or chance would), as
    /// a share of those the best lands: 1 when nothing else comes near, 0 when something lands as
    /// many.
    package var margin: Double = 0

    /// A fit must land at least this share of its measured cues to match at all (and ``overChance`` more than chance).
    package static let matchShare = 0.5
    /// A fit must land this much more than chance to match at all.
    package static let overChance = 0.3
    /// A fit that lands fewer than this share is partial: not a fix.
    package static let fixShare = 0.8
    /// Fits within this share of the best are as good as the best: ambiguous.
    package static let ambiguity = 0.15
    /// At least this many cues must be measured.
    package static let minimumMeasured = 3
    /// The shifts (seconds) at which chance is measured: none a multiple of another, so that
    /// evenly spaced speech does not land there by its rhythm.
    static let chanceShifts: [Double] = [-21.9, -13.3, -7.7, -3.1, 3.1, 7.7, 13.3, 21.9]

    /// The analysis of `cues` (start and end, sidecar seconds) against `speech`, trying `rates`.
    package static func analyse(_ cues: [(start: Double, end: Double)], speech: SpeechActivity, rates: [Double] = CueAlignment.standardRates)
        -> SyncAnalysis
    {
        let onsets = SpeechOnsets(speech)
        let proposed = CueAlignment.candidates(cues, to: speech, rates: rates)
        guard !proposed.isEmpty else { return SyncAnalysis(outcome: .noMatch) }
        var judged = proposed.map { refined(rate: $0.rate, offset: $0.offset, score: $0.score, cues, onsets) }
        judged = distinct(judged, cues: cues)
        judged.sort(by: ranksAbove)
        guard let first = judged.first else { return SyncAnalysis(outcome: .noMatch) }
        let (best, undecided) = rateWithinFamily(first, rates: rates, cues, onsets)
        var analysis = SyncAnalysis(outcome: .fit, best: best)
        let shifted = chanceShifts.map { CueLanding(cues, rate: best.rate, offset: best.offset + best.rate * $0, onsets: onsets).share }
        analysis.chance = shifted.reduce(0, +) / Double(shifted.count)
        // Alignments that place the cues elsewhere: not the best's, nor another rate of its
        // family at about its place (the drift has judged those).
        let elsewhere = judged.filter { !samePlacement($0, best, cues: cues) && !sameAlignment($0, best, cues: cues) }
        let second = max(Double(elsewhere.first?.landing.landed ?? 0), analysis.chance * Double(best.landing.measured))
        analysis.margin = best.landing.landed > 0 ? max(0, 1 - second / Double(best.landing.landed)) : 0
        if best.landing.measured < minimumMeasured || best.share < matchShare || best.share - analysis.chance < overChance {
            analysis.outcome = .noMatch
            return analysis
        }
        // As many cues landing by chance at one of the alignments tried: too few cues to tell
        // when most of them were measured and land, else nothing fits.
        let inside = cues.count - best.landing.outside
        if binomialTail(best.landing.measured, best.landing.landed, max(analysis.chance, 0.1)) * Double(proposed.count) > 0.001 {
            guard best.share >= fixShare, best.landing.measured * 4 >= inside * 3 else {
                analysis.outcome = .noMatch
                return analysis
            }
            analysis.outcome = .ambiguous
            analysis.candidates = [best] + elsewhere.filter { $0.isAsGood(as: best, within: ambiguity) }.prefix(5)
            return analysis
        }
        let rivals = elsewhere.filter { $0.isAsGood(as: best, within: ambiguity) && $0.share >= matchShare }
        // Rivals that land other cues than the best (a file cut in parts) against rivals that
        // land the same cues elsewhere (evenly spaced speech): parts are partial, not ambiguous.
        if undecided.isEmpty, !rivals.isEmpty, rivals.allSatisfy({ landsOtherCues($0, than: best) }) {
            analysis.outcome = .partial
            analysis.candidates = [best] + rivals.prefix(3)
            return analysis
        }
        if !undecided.isEmpty || !rivals.isEmpty {
            analysis.outcome = .ambiguous
            analysis.candidates = Array(((undecided.isEmpty ? [best] : undecided) + rivals).prefix(6))
            return analysis
        }
        // Cues the fit puts outside the programme count against it; and the cues it leaves may
        // land together somewhere else: a file cut or edited in parts.
        let covered = Double(best.landing.landed) / Double(max(1, best.landing.measured + best.landing.outside))
        let otherPart = secondPart(
            best, elsewhere + leftAlignments(best, cues, speech, onsets), cues: cues.count, chance: analysis.chance, tried: proposed.count)
        if best.share < fixShare || covered < fixShare || otherPart != nil {
            analysis.outcome = .partial
            analysis.candidates = otherPart.map { [best, $0] } ?? []
        }
        return analysis
    }

    /// The speed change within `best`'s family (24000/1001 against 24, or none against 1.001),
    /// chosen by the drift each leaves; when the drift cannot tell, the best of those about as
    /// good and all of them (`undecided`, empty when one was chosen).
    static func rateWithinFamily(_ best: Candidate, rates: [Double], _ cues: [(start: Double, end: Double)], _ onsets: SpeechOnsets)
        -> (best: Candidate, undecided: [Candidate])
    {
        let siblings = rates.filter { abs($0 / best.rate - 1) < 0.002 }
        guard siblings.count > 1 else { return (best, []) }
        let middle = ((cues.map(\.start).min() ?? 0) + (cues.map(\.end).max() ?? 0)) / 2
        let programme = (middle - best.offset) / best.rate
        let tried = siblings.map { rate in refined(rate: rate, offset: middle - rate * programme, score: best.score, cues, onsets) }
        if let chosen = chooseRate(tried, best: best) { return (chosen, []) }
        let undecided = tried.filter { $0.isAsGood(as: best, within: 0.1) }.sorted(by: ranksAbove)
        return (undecided.first ?? best, undecided)
    }

    /// Whether `other` lands mostly cues that `best` does not: at most a quarter of the fewer
    /// landed are landed by both.
    static func landsOtherCues(_ other: Candidate, than best: Candidate) -> Bool {
        let both = other.landing.landedCues.intersection(best.landing.landedCues).count
        return both * 4 <= min(other.landing.landed, best.landing.landed)
    }

    /// The alignment among `others` at which the cues `best` does not land land together: at
    /// least three and a tenth of the file, more than chance explains.
    static func secondPart(_ best: Candidate, _ others: [Candidate], cues: Int, chance: Double, tried: Int) -> Candidate? {
        let left = Set(0..<cues).subtracting(best.landing.landedCues)
        for other in others {
            let measured = other.landing.residuals.filter { left.contains($0.index) }.count
            let landed = other.landing.landedCues.intersection(left).count
            if landed >= 3, landed * 10 >= cues, binomialTail(measured, landed, max(chance, 0.1)) * Double(tried) <= 0.001 { return other }
        }
        return nil
    }

    /// Where the cues `best` does not land line up best, on their own, at its rate: a second
    /// part of a file cut in two is found whatever the first part's correlation.
    static func leftAlignments(_ best: Candidate, _ cues: [(start: Double, end: Double)], _ speech: SpeechActivity, _ onsets: SpeechOnsets) -> [Candidate] {
        let landed = best.landing.landedCues
        let left = cues.indices.filter { !landed.contains($0) }
        guard left.count >= 3 else { return [] }
        return CueAlignment.candidates(left.map { cues[$0] }, to: speech, rates: [best.rate]).map {
            refined(rate: $0.rate, offset: $0.offset, score: $0.score, cues, onsets)
        }.filter { !samePlacement($0, best, cues: cues) }
    }

    /// Whether `a` and `b` are rates of one family placing the middle of the cues within half a
    /// second of each other.
    static func sameAlignment(_ a: Candidate, _ b: Candidate, cues: [(start: Double, end: Double)]) -> Bool {
        guard abs(a.rate / b.rate - 1) < 0.002 else { return false }
        let middle = ((cues.map(\.start).min() ?? 0) + (cues.map(\.start).max() ?? 0)) / 2
        return abs((middle - a.offset) / a.rate - (middle - b.offset) / b.rate) <= 0.5
    }

    init(outcome: Outcome, best: Candidate? = nil) {
        self.outcome = outcome
        self.best = best
    }

    /// The rate among `tried` (one family's rates, each fitted) that the cues' drift allows, or
    /// nil when several do and none is 1 (the programme is too short to tell them apart).
    ///
    /// The drift is read once, from the fit whose line through the residuals is the most
    /// precise, as a slope b ± SE; rate r_k, in the frame of that fit's rate r, leaves a slope of
    /// 1 − r/r_k. A rate whose slope is more than three standard errors (and 50 µs/s) from b is
    /// ruled out. When several stay, no speed change (1) is what a file has unless its drift
    /// shows otherwise.
    static func chooseRate(_ tried: [Candidate], best: Candidate) -> Candidate? {
        let usable = tried.filter { $0.isAsGood(as: best, within: 0.1) && $0.landing.line != nil }
        let precision = { (c: Candidate) in c.landing.line?.slopeError ?? .infinity }
        guard let frame = usable.min(by: { precision($0) < precision($1) }), let line = frame.landing.line else { return best }
        let allowed = usable.filter { abs(line.slope - (1 - frame.rate / $0.rate)) <= 3 * line.slopeError + 0.00005 }
        if allowed.count == 1 { return allowed[0] }
        if allowed.isEmpty { return usable.min { abs(line.slope - (1 - frame.rate / $0.rate)) < abs(line.slope - (1 - frame.rate / $1.rate)) } }
        return allowed.first { $0.rate == 1 }
    }

    /// P(X ≥ k) for X binomial with `n` trials of probability `p`.
    static func binomialTail(_ n: Int, _ k: Int, _ p: Double) -> Double {
        guard k > 0 else { return 1 }
        guard k <= n, p < 1 else { return k <= n ? 1 : 0 }
        // Summed in logs: n is the number of measured cues, at most a few thousand.
        var logFactorial = [0.0]
        for i in 1...max(1, n) { logFactorial.append(logFactorial[i - 1] + Foundation.log(Double(i))) }
        let (logP, logQ) = (Foundation.log(p), Foundation.log(1 - p))
        var total = 0.0
        for i in k...n {
            let ways = logFactorial[n] - logFactorial[i] - logFactorial[n - i]
            total += exp(ways + Double(i) * logP + Double(n - i) * logQ)
        }
        return min(1, total)
    }

    /// The fit at `rate` and `offset` with its offset moved by the cues' mean distance from their
    /// onsets (twice: the cues near speech change as it moves), and its landing measured there.
    static func refined(rate: Double, offset: Double, score: Double, _ cues: [(start: Double, end: Double)], _ onsets: SpeechOnsets) -> Candidate {
        var candidate = Candidate(rate: rate, offset: offset, score: score, landing: CueLanding(cues, rate: rate, offset: offset, onsets: onsets))
        for _ in 0..<2 {
            guard let line = candidate.landing.line, abs(line.mean) > 0.001 else { break }
            let moved = candidate.offset + candidate.rate * line.mean
            let landing = CueLanding(cues, rate: candidate.rate, offset: moved, onsets: onsets)
            guard landing.share >= candidate.landing.share else { break }
            candidate.offset = moved
            candidate.landing = landing
        }
        return candidate
    }

    /// Whether `a` and `b` put the first and the last cue within the tolerance of each other:
    /// the same placement, whatever their rates.
    static func samePlacement(_ a: Candidate, _ b: Candidate, cues: [(start: Double, end: Double)]) -> Bool {
        guard let first = cues.map(\.start).min(), let last = cues.map(\.start).max() else { return true }
        return [first, last].allSatisfy { t in abs((t - a.offset) / a.rate - (t - b.offset) / b.rate) <= CueLanding.tolerance }
    }

    /// One candidate per placement, the best of each.
    static func distinct(_ candidates: [Candidate], cues: [(start: Double, end: Double)]) -> [Candidate] {
        var kept: [Candidate] = []
        for candidate in candidates.sorted(by: ranksAbove)
        where !kept.contains(where: { samePlacement($0, candidate, cues: cues) }) {
            kept.append(candidate)
        }
        return kept
    }
}
