import Foundation

/// Where a programme's sound is speech, in 10 ms frames: the first stage of a sync check.
///
/// Mono 16-bit PCM at 8 kHz is fed in pieces of any size (it is never kept: memory grows with
/// the frames, 12 bytes each, not with the audio). Each frame's energy is measured in dB in three
/// bands of the voice (250–800, 800–2,000 and 2,000–3,800 Hz, each a pair of biquad filters);
/// `finish()` then marks a frame as speech when, in some band, it stands out from the sound
/// around it:
/// - more than `margin` dB above the floor of its neighbourhood in that band (a low percentile
///   of the energies within ±`floorSeconds`), so a steady music or noise bed under the voice
///   raises the floor and is not taken for speech, and a bed that fills one band (a chord, a
///   hum) leaves the others to hear the voice in;
/// - and no more than `range` dB below the band's loud speech (its 99th percentile), so
///   rustle in a silent stretch is not either;
/// - then gaps shorter than 200 ms inside speech are filled and bursts shorter than 60 ms
///   dropped (syllables and pauses between words, as a subtitle spans them).
package struct SpeechDetector: Sendable {
    package static let sampleRate = 8000
    /// Samples per frame: 10 ms.
    package static let frameLength = 80
    /// Frames per second.
    package static let frameRate = 100
    static let bands: [(low: Double, high: Double)] = [(250, 800), (800, 2000), (2000, 3800)]

    package var margin: Float = 6
    package var range: Float = 45
    package var floorSeconds: Float = 2

    private var filters: [(highPass: Biquad, lowPass: Biquad)] = bands.map {
        (Biquad.highPass(cutoff: $0.low, sampleRate: Double(sampleRate)), Biquad.lowPass(cutoff: $0.high, sampleRate: Double(sampleRate)))
    }
    private var sums = [Double](repeating: 0, count: bands.count)
    private var count = 0
    /// Each band's energy per frame, dB.
    private(set) var energies: [[Float]] = bands.map { _ in [] }

    package init() {}

    /// The number of whole frames fed so far.
    package var frames: Int { energies[0].count }

    /// Feeds samples (mono, 8 kHz, in order).
    package mutating func feed(_ samples: UnsafeBufferPointer<Int16>) {
        let n = Self.bands.count
        for sample in samples {
            let x = Double(sample) / 32768
            for b in 0..<n {
                let y = filters[b].lowPass.process(filters[b].highPass.process(x))
                sums[b] += y * y
            }
            count += 1
            if count == Self.frameLength {
                for b in 0..<n {
                    energies[b].append(Float(10 * log10(sums[b] / Double(count) + 1e-10)))
                    sums[b] = 0
                }
                count = 0
            }
        }
    }

    /// Feeds samples from an array.
    package mutating func feed(_ samples: [Int16]) {
        samples.withUnsafeBufferPointer { feed($0) }
    }

    /// Feeds little-endian 16-bit samples as bytes (an odd trailing byte is kept for the next call).
    package mutating func feed(bytes: [UInt8], carry: inout [UInt8]) {
        var data = carry + bytes
        if data.count % 2 == 1 {
            carry = [data.removeLast()]
        } else {
            carry = []
        }
        var samples = [Int16](repeating: 0, count: data.count / 2)
        for i in 0..<samples.count { samples[i] = Int16(bitPattern: UInt16(data[2 * i]) | UInt16(data[2 * i + 1]) << 8) }
        feed(samples)
    }

    /// Puts `other`'s frames after this one's from frame `start` on: frames past it are dropped,
    /// a gap before it is silence.
    package mutating func join(_ other: SpeechDetector, at start: Int) {
        for band in energies.indices {
            if energies[band].count > start { energies[band].removeLast(energies[band].count - start) }
            energies[band] += [Float](repeating: -100, count: start - energies[band].count)
            energies[band] += other.energies[band]
        }
    }

    /// The speech activity of the frames fed.
    package func finish() -> SpeechActivity {
        let n = frames
        guard n > 0 else { return SpeechActivity(frames: []) }
        var speech = [Bool](repeating: false, count: n)
        for band in energies {
            let floor = Self.localFloor(band, radius: Int(floorSeconds * Float(Self.frameRate)))
            let loud = Self.percentile(band, 0.99)
            for i in 0..<n where band[i] > floor[i] + margin && band[i] > loud - range { speech[i] = true }
        }
        Self.fillGaps(&speech, shorterThan: 20)
        Self.dropBursts(&speech, shorterThan: 6)
        return SpeechActivity(frames: speech)
    }

    /// Per frame, the floor of the energies within ±`radius` frames, computed on blocks of 25
    /// frames (each block's 10th percentile, then the 30th percentile of the blocks within
    /// reach: the quiet between words, not one odd block): linear in the frames.
    static func localFloor(_ energies: [Float], radius: Int) -> [Float] {
        let block = 25
        let blocks = stride(from: 0, to: energies.count, by: block).map { start in
            percentile(Array(energies[start..<min(start + block, energies.count)]), 0.1)
        }
        let reach = max(1, radius / block)
        var blockFloor = [Float](repeating: 0, count: blocks.count)
        for b in 0..<blocks.count {
            blockFloor[b] = percentile(Array(blocks[max(0, b - reach)...min(blocks.count - 1, b + reach)]), 0.3)
        }
        return energies.indices.map { blockFloor[$0 / block] }
    }

    static func percentile(_ values: [Float], _ p: Float) -> Float {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(p * Float(sorted.count)))]
    }

    static func fillGaps(_ speech: inout [Bool], shorterThan limit: Int) {
        var lastSpeech: Int?
        for i in speech.indices where speech[i] {
            if let last = lastSpeech, i - last > 1, i - last - 1 < limit {
                for j in last + 1..<i { speech[j] = true }
            }
            lastSpeech = i
        }
    }

    static func dropBursts(_ speech: inout [Bool], shorterThan limit: Int) {
        var i = 0
        while i < speech.count {
            guard speech[i] else {
                i += 1
                continue
            }
            var j = i
            while j < speech.count && speech[j] { j += 1 }
            if j - i < limit { for k in i..<j { speech[k] = false } }
            i = j
        }
    }
}

/// Speech or not, per 10 ms frame from programme time 0.
package struct SpeechActivity: Sendable, Equatable {
    package var frames: [Bool]

    package init(frames: [Bool]) { self.frames = frames }

    /// The share of frames that are speech.
    package var speechShare: Double { frames.isEmpty ? 0 : Double(frames.lazy.filter { $0 }.count) / Double(frames.count) }

    /// The speech stretches as frame ranges.
    package var stretches: [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        for (i, on) in frames.enumerated() {
            if on, start == nil { start = i }
            if !on, let s = start {
                result.append(s..<i)
                start = nil
            }
        }
        if let s = start { result.append(s..<frames.count) }
        return result
    }
}

/// A second-order IIR filter (RBJ's audio EQ cookbook), transposed direct form II.
struct Biquad: Sendable {
    var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    var z1 = 0.0, z2 = 0.0

    static func highPass(cutoff: Double, sampleRate: Double, q: Double = 0.7071) -> Biquad {
        let w = 2 * Double.pi * cutoff / sampleRate, alpha = sin(w) / (2 * q), c = cos(w), a0 = 1 + alpha
        return Biquad(b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    static func lowPass(cutoff: Double, sampleRate: Double, q: Double = 0.7071) -> Biquad {
        let w = 2 * Double.pi * cutoff / sampleRate, alpha = sin(w) / (2 * q), c = cos(w), a0 = 1 + alpha
        return Biquad(b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }
}
