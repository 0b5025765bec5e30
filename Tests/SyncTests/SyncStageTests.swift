import Foundation
import TestSupport
import Testing

@testable import Sync

/// The FFT against the textbook DFT and the correlation against its definition.
struct FFTTests {
    @Test(arguments: [2, 8, 64, 1024])
    func matchesTheDefinition(size: Int) {
        var random = SeededGenerator(seed: UInt64(size))
        let x = (0..<size).map { _ in Float.random(in: -1...1, using: &random) }
        let y = (0..<size).map { _ in Float.random(in: -1...1, using: &random) }
        var re = x, im = y
        FFT(size: size).forward(&re, &im)
        for k in [0, 1, size / 2, size - 1] {
            var sr = 0.0, si = 0.0
            for n in 0..<size {
                let angle = -2 * Double.pi * Double(k * n) / Double(size)
                sr += Double(x[n]) * cos(angle) - Double(y[n]) * sin(angle)
                si += Double(x[n]) * sin(angle) + Double(y[n]) * cos(angle)
            }
            #expect(abs(Double(re[k]) - sr) < 1e-3 * Double(size) && abs(Double(im[k]) - si) < 1e-3 * Double(size), "bin \(k)")
        }
        FFT(size: size).inverse(&re, &im)
        for n in 0..<size { #expect(abs(re[n] - x[n]) < 1e-4 && abs(im[n] - y[n]) < 1e-4) }
    }

    @Test func crossCorrelationIsTheSumOfProducts() {
        var random = SeededGenerator(seed: 7)
        let a = (0..<300).map { _ in Float.random(in: -1...1, using: &random) }
        let b = (0..<120).map { _ in Float.random(in: -1...1, using: &random) }
        let (lags, values) = FFT.crossCorrelation(a, b)
        #expect(lags == -119...299)
        for lag in [-119, -50, 0, 17, 180, 299] {
            var direct: Float = 0
            for n in b.indices where n + lag >= 0 && n + lag < a.count { direct += a[n + lag] * b[n] }
            #expect(abs(values[lag - lags.lowerBound] - direct) < 1e-3, "lag \(lag)")
        }
    }
}

/// Synthetic speech: 120 ms "syllables" of noise shaped by a 200 Hz buzz, in words and phrases,
/// with pauses; a known truth per 10 ms frame.
struct SyntheticSpeech {
    var samples: [Int16]
    var truth: [Bool]
    var stretches: [(start: Double, end: Double)]

    init(seconds: Double, seed: UInt64, level: Double = 0.3, bed: (inout SeededGenerator, Int) -> Double = { _, _ in 0 }) {
        var random = SeededGenerator(seed: seed)
        let rate = Double(SpeechDetector.sampleRate)
        var signal = [Double](repeating: 0, count: Int(seconds * rate))
        var truth = [Bool](repeating: false, count: signal.count / SpeechDetector.frameLength)
        var stretches: [(Double, Double)] = []
        var t = 1.0 + Double.random(in: 0...1, using: &random)
        while t < seconds - 3 {
            let length = Double.random(in: 0.6...2.5, using: &random)
            let end = min(seconds - 1, t + length)
            stretches.append((t, end))
            for i in Int(t * rate)..<Int(end * rate) {
                let time = Double(i) / rate
                let syllable = 0.5 + 0.5 * sin(2 * Double.pi * 4 * (time - t))  // 4 Hz syllable rhythm
                let buzz = sin(2 * Double.pi * 200 * time) + 0.5 * sin(2 * Double.pi * 400 * time) + 0.3 * sin(2 * Double.pi * 1200 * time)
                signal[i] = level * syllable * (0.7 * buzz + 0.3 * Double.random(in: -1...1, using: &random))
            }
            for f in Int(t * 100)..<min(truth.count, Int(end * 100)) { truth[f] = true }
            t = end + Double.random(in: 0.4...2.0, using: &random)
        }
        for i in signal.indices { signal[i] += bed(&random, i) }
        self.samples = signal.map { Int16(max(-32767, min(32767, $0 * 32767))) }
        self.truth = truth
        self.stretches = stretches
    }

    /// The share of frames the detector got right.
    func agreement(_ activity: SpeechActivity) -> Double {
        let n = min(truth.count, activity.frames.count)
        return Double((0..<n).filter { truth[$0] == activity.frames[$0] }.count) / Double(n)
    }
}

/// The detector on silence, a noise bed and a music bed (a sustained chord), without ffmpeg.
struct SpeechDetectorTests {
    static func detect(_ speech: SyntheticSpeech) -> SpeechActivity {
        var detector = SpeechDetector()
        // Pieces of odd sizes: frames straddle them.
        var i = 0
        while i < speech.samples.count {
            let end = min(speech.samples.count, i + 4093)
            detector.feed(Array(speech.samples[i..<end]))
            i = end
        }
        return detector.finish()
    }

    @Test func findsSpeechInSilence() {
        let speech = SyntheticSpeech(seconds: 60, seed: 1)
        let found = Self.detect(speech)
        #expect(found.frames.count == 6000)
        #expect(speech.agreement(found) > 0.93, "\(speech.agreement(found))")
    }

    @Test func aNoiseBedIsNotSpeech() {
        let speech = SyntheticSpeech(seconds: 60, seed: 2) { random, _ in 0.03 * Double.random(in: -1...1, using: &random) }
        #expect(speech.agreement(Self.detect(speech)) > 0.9, "\(speech.agreement(Self.detect(speech)))")
    }

    @Test func aMusicBedIsNotSpeech() {
        let rate = Double(SpeechDetector.sampleRate)
        let speech = SyntheticSpeech(seconds: 60, seed: 3) { _, i in
            let t = Double(i) / rate
            // A C major chord, with a slow swell.
            let chord = sin(2 * Double.pi * 261.6 * t) + sin(2 * Double.pi * 329.6 * t) + sin(2 * Double.pi * 392 * t)
            return 0.02 * (0.8 + 0.2 * sin(2 * Double.pi * 0.25 * t)) * chord
        }
        #expect(speech.agreement(Self.detect(speech)) > 0.9, "\(speech.agreement(Self.detect(speech)))")
    }

    @Test func bytesAcrossPiecesAreSamples() {
        var a = SpeechDetector(), b = SpeechDetector()
        let samples = SyntheticSpeech(seconds: 5, seed: 4).samples
        a.feed(samples)
        let bytes = samples.flatMap { [UInt8(UInt16(bitPattern: $0) & 0xFF), UInt8(UInt16(bitPattern: $0) >> 8)] }
        var carry: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + 1001)  // odd: a sample is split between pieces
            b.feed(bytes: Array(bytes[i..<end]), carry: &carry)
            i = end
        }
        #expect(a.energies == b.energies)
    }
}

/// The alignment and the rate search on activity signals built from known stretches.
struct CueAlignmentTests {
    static func activity(_ stretches: [(start: Double, end: Double)], seconds: Double) -> SpeechActivity {
        var frames = [Bool](repeating: false, count: Int(seconds * 100))
        for s in stretches { for f in Int(s.start * 100)..<min(frames.count, Int(s.end * 100)) { frames[f] = true } }
        return SpeechActivity(frames: frames)
    }

    /// Cues on the sidecar's clock: programme time p becomes rate·p + offset.
    static func cues(_ stretches: [(start: Double, end: Double)], rate: Double, offset: Double) -> [(start: Double, end: Double)] {
        stretches.map { (rate * $0.start + offset, rate * $0.end + offset) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let rate: Double
        let offset: Double
        var testDescription: String { "rate \(rate), offset \(offset)" }
    }

    static let cases: [Case] = CueAlignment.standardRates.flatMap { rate in [-0.8, 11, 36000].map { Case(rate: rate, offset: $0) } }

    @Test(arguments: cases)
    func findsTheOffsetAndRate(_ c: Case) throws {
        let truth = SyntheticSpeech(seconds: 300, seed: 11).stretches
        let fit = try #require(CueAlignment.fit(Self.cues(truth, rate: c.rate, offset: c.offset), to: Self.activity(truth, seconds: 300)))
        #expect(fit.rate == c.rate, "\(fit)")
        #expect(abs(fit.offset - c.offset) < 0.02, "\(fit)")
        #expect(fit.score > 0.9 && fit.peakProminence > 10, "\(fit)")
    }

    /// Editors drop cues and merge others; speech is found where no cue is (untitled chatter).
    @Test func survivesEditing() throws {
        var random = SeededGenerator(seed: 5)
        let truth = SyntheticSpeech(seconds: 400, seed: 12).stretches
        var edited: [(start: Double, end: Double)] = []
        for s in truth {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.1 { continue }  // dropped
            if roll < 0.2, let last = edited.last, s.start - last.end < 2.5 {
                edited[edited.count - 1].end = s.end  // merged with the one before
                continue
            }
            edited.append(s)
        }
        let rate = 25 / (24000.0 / 1001)
        let fit = try #require(CueAlignment.fit(Self.cues(edited, rate: rate, offset: 3.2), to: Self.activity(truth, seconds: 400)))
        #expect(fit.rate == rate && abs(fit.offset - 3.2) < 0.05, "\(fit)")
    }

    /// Cues for another programme: the peak is no better than chance.
    @Test func anotherProgrammeHasNoProminentPeak() throws {
        let speech = Self.activity(SyntheticSpeech(seconds: 300, seed: 21).stretches, seconds: 300)
        let other = SyntheticSpeech(seconds: 300, seed: 22).stretches
        let fit = try #require(CueAlignment.fit(other, to: speech))
        #expect(fit.peakProminence < 6 || fit.score < 0.3, "\(fit)")
        print(fit)
    }
}
