import Foundation
import Sync

/// The confidence a sync verdict states: the share of verdicts like it that were right on the
/// training half of `Benchmarks/sync-calibrate.py`'s programmes (voices, languages, synthesizers
/// and a human voice; music and noise beds, some as loud as the voice; evenly and irregularly
/// spaced speech; 1 to 30 minutes; sidecars shifted, scaled, edited, cut, timed by hand, or of
/// another programme), smoothed towards the verdict's own share where a bin holds few.
///
/// A fix is judged by its margin (how many fewer cues the best other alignment lands) and its lift
/// (its landed share over chance's); a `no_match` by its best fit's lift.
public enum SyncCalibration {
    static let margins = [0.3, 0.6, 0.8, 1.01]
    static let lifts = [0.5, 0.7, 1.01]

    // Fitted by Benchmarks/sync-calibrate.py (its last lines print these).
    /// A fix, by margin (rows: below 0.3, 0.6, 0.8, above) and lift over chance (columns: below 0.5, 0.7, above).
    static let fix: [[Double]] = [
        [0.992, 0.996, 0.999],
        [0.992, 0.997, 0.999],
        [0.992, 0.999, 1.0],
        [0.992, 0.995, 1.0],
    ]
    /// no_match, by the best fit's lift over chance (below 0.2, below 0.3, above).
    static let noMatch: [Double] = [0.977, 0.895, 0.985]
    static let ambiguous = 0.825
    static let partial = 0.846

    static func bin(_ value: Double, _ edges: [Double]) -> Int { edges.firstIndex { value < $0 } ?? edges.count - 1 }

    /// The confidence of `analysis`'s verdict.
    static func confidence(_ analysis: SyncAnalysis) -> Double {
        let lift = (analysis.best?.share ?? 0) - analysis.chance
        switch analysis.outcome {
        case .fit: return fix[bin(analysis.margin, margins)][bin(lift, lifts)]
        case .noMatch: return noMatch[bin(lift, [0.2, 0.3, 1.01])]
        case .ambiguous: return ambiguous
        case .partial: return partial
        }
    }
}
