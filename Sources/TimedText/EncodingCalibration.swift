/// The measured chance that ``EncodingDetector``'s guess is right, by its margin over the best
/// rival reading and the amount of evidence it rests on.
///
/// Fitted by `Scripts/calibrate-encodings.py` on the training half of the real-text corpus
/// (Fixtures/subtitles/encodings/corpus.tar.xz: translated sentences of 34 languages, each file
/// encoded in every legacy encoding of its language and cut to 256 bytes … 4 KiB), as the share
/// of right guesses in each cell; EncodingCorpusTests measures the same on the held-out half.
package enum EncodingCalibration {
    /// Upper bounds of the margin bins.
    static let margins: [Double] = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1.01]
    /// Upper bounds of the evidence bins (non-ASCII characters).
    static let evidence: [Int] = [10, 40, 150, Int.max]
    /// P(right), `table[evidence bin][margin bin]`.
    static let table: [[Double]] = [
        [0.941, 0.977, 0.977, 0.981, 0.996, 0.997, 0.999],
        [0.877, 0.987, 0.996, 0.998, 0.998, 0.999, 0.999],
        [0.804, 0.983, 0.983, 0.983, 0.988, 0.988, 0.999],
        [0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999],
    ]

    /// The chance a guess with `margin` over its best rival, resting on `evidence` non-ASCII
    /// characters, is right.
    static func probability(margin: Double, evidence count: Int) -> Double {
        let row = evidence.firstIndex { count < $0 } ?? evidence.count - 1
        let column = margins.firstIndex { margin < $0 } ?? margins.count - 1
        return table[row][column]
    }

    /// Below this a guess is said to be unsure (a warning, which a strict run fails on): fewer than
    /// nine in ten such guesses were right.
    package static let warningThreshold = 0.9
}
