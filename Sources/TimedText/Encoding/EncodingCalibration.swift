/// The measured chance that ``EncodingDetector``'s guess is right, by the kind of encoding it
/// names, its margin over the best rival reading and the amount of evidence it rests on.
///
/// Fitted by `Scripts/calibrate-encodings.py` on the training half of the real-text corpus
/// (Fixtures/subtitles/encodings/corpus.tar.xz: translated sentences of 34 languages, each file
/// encoded in every legacy encoding of its language and cut to 64 bytes … 4 KiB) and of the short
/// dialogue lines (Fixtures/subtitles/encodings/dialogue.tsv, one cue each: a few characters, the
/// hardest case, CJK above all), as the share of right guesses in each cell; EncodingCorpusTests
/// measures the same on the held-out halves.
package enum EncodingCalibration {
    /// The kinds of encoding guessed, each with its own table: a short CJK text read as Thai is
    /// not as often right as a short French text read as windows-1252.
    package enum Family: String, Sendable {
        /// The Latin code pages.
        case latin
        /// The single-byte code pages of other scripts: Cyrillic, Greek, Hebrew, Arabic, Thai.
        case script
        /// The double-byte CJK encodings.
        case cjk

        package init(_ encoding: TextEncoding) {
            if EncodingDetector.multiByte.contains(encoding) {
                self = .cjk
            } else if EncodingDetector.script(of: encoding) == .latin {
                self = .latin
            } else {
                self = .script
            }
        }
    }

    /// Upper bounds of the margin bins.
    static let margins: [Double] = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1.01]
    /// Upper bounds of the evidence bins (non-ASCII characters).
    static let evidence: [Int] = [4, 10, 20, 40, 150, Int.max]
    /// P(right), `table[evidence bin][margin bin]`, per family.
    static let latin: [[Double]] = [
        [0.934, 0.964, 0.982, 0.982, 0.99, 0.99, 0.998],
        [0.828, 0.963, 0.974, 0.974, 0.994, 0.996, 0.998],
        [0.946, 0.986, 0.99, 0.997, 0.998, 0.998, 0.999],
        [0.791, 0.986, 0.995, 0.997, 0.998, 0.998, 0.999],
        [0.996, 0.996, 0.998, 0.999, 0.999, 0.999, 0.999],
        [0.969, 0.969, 0.969, 0.99, 0.991, 0.991, 0.991],
    ]
    static let script: [[Double]] = [
        [0.357, 0.5, 0.5, 0.5, 0.611, 0.611, 0.611],
        [0.416, 0.513, 0.615, 0.615, 0.825, 0.825, 0.852],
        [0.737, 0.821, 0.821, 0.821, 0.911, 0.911, 0.911],
        [0.807, 0.807, 0.807, 0.922, 0.922, 0.938, 0.942],
        [0.741, 0.944, 0.944, 0.944, 0.944, 0.954, 0.978],
        [0.999, 0.999, 0.999, 0.999, 0.999, 0.999, 0.999],
    ]
    static let cjk: [[Double]] = [
        [0.648, 0.816, 0.816, 0.816, 0.934, 0.934, 0.934],
        [0.514, 0.69, 0.857, 0.922, 0.922, 0.922, 0.95],
        [0.938, 0.938, 0.938, 0.938, 0.955, 0.965, 0.976],
        [0.963, 0.963, 0.969, 0.969, 0.989, 0.989, 0.989],
        [0.986, 0.986, 0.986, 0.99, 0.998, 0.998, 0.998],
        [0.991, 0.991, 0.991, 0.991, 0.999, 0.999, 0.999],
    ]

    /// The chance a guess of `encoding` with `margin` over its best rival, resting on `evidence`
    /// non-ASCII characters, is right.
    static func probability(_ encoding: TextEncoding, margin: Double, evidence count: Int) -> Double {
        let row = evidence.firstIndex { count < $0 } ?? evidence.count - 1
        let column = margins.firstIndex { margin < $0 } ?? margins.count - 1
        let table: [[Double]]
        switch Family(encoding) {
        case .latin: table = latin
        case .script: table = script
        case .cjk: table = cjk
        }
        // A tie with another reading on fewer than ten characters is a coin the corpus's languages
        // happen to favour (right 135 times in 149 for Latin code pages, 10 in 28 for the others,
        // on the training half): never called sure (a short Polish line ties with windows-1252).
        if margin < margins[0] && count < 10 { return min(table[row][column], Family(encoding) == .latin ? 0.6 : 0.3) }
        return table[row][column]
    }

    /// Below this a guess is said to be unsure (a warning, which a strict run fails on): fewer than
    /// nine in ten such guesses were right.
    package static let warningThreshold = 0.9
}
