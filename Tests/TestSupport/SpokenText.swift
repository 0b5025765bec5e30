import Foundation

/// Speech at known times, for tests: espeak-ng speaks each word on its own and the words are laid
/// end to end with short pauses, so every word's onset and end in the programme is known to the
/// sample (a word's time is where its sound is, its leading and trailing silence cut off).
public struct SpokenText: Sendable {
    /// One spoken word: its text, and its onset and end in seconds from the programme's start.
    public struct Word: Sendable, Equatable {
        public let text: String
        public let onset: Double
        public let end: Double
        /// The index of the sentence it belongs to.
        public let sentence: Int
    }

    public let words: [Word]
    public let sampleRate: Int
    /// The programme's sound, mono 16-bit, from time 0.
    public let samples: [Int16]

    public static var espeak: String? { Tools.which("espeak-ng") }

    /// Speaks `sentences` from `start` seconds: `wordGap` of silence between words, `sentenceGap`
    /// between sentences, at `rate` words a minute, in espeak-ng's `voice`.
    public static func speak(
        _ sentences: [String], start: Double = 1, wordGap: Double = 0.06, sentenceGap: Double = 0.7, rate: Int = 170, voice: String = "en"
    ) throws -> SpokenText {
        guard let espeak else { throw MissingTool(name: "espeak-ng") }
        let folder = try Scratch.make().path
        var sounds: [String: [Int16]] = [:]
        var sampleRate = 22050
        var samples = [Int16](repeating: 0, count: Int(start * Double(sampleRate)))
        var words: [Word] = []
        for (index, sentence) in sentences.enumerated() {
            for token in sentence.split(separator: " ") {
                let text = String(token)
                if sounds[text] == nil {
                    let file = folder + "/word.wav"
                    let spoken = text.trimmingCharacters(in: .punctuationCharacters)
                    let outcome = try Tools.run(espeak, ["-v", voice, "-w", file, "-s", String(rate), spoken.isEmpty ? text : spoken])
                    guard outcome.status == 0 else { throw MissingTool(name: "a working espeak-ng (\(outcome.stderr.prefix(200)))") }
                    let wav = try WAV.read(file)
                    sampleRate = wav.sampleRate
                    sounds[text] = trimmed(wav.samples)
                }
                let sound = sounds[text]!
                let onset = Double(samples.count) / Double(sampleRate)
                samples += sound
                words.append(Word(text: text, onset: onset, end: Double(samples.count) / Double(sampleRate), sentence: index))
                samples += [Int16](repeating: 0, count: Int(wordGap * Double(sampleRate)))
            }
            samples += [Int16](repeating: 0, count: max(0, Int((sentenceGap - wordGap) * Double(sampleRate))))
        }
        return SpokenText(words: words, sampleRate: sampleRate, samples: samples)
    }

    /// `samples` without the silence before and after the sound (below 1 % of full scale).
    static func trimmed(_ samples: [Int16]) -> [Int16] {
        let loud = { (s: Int16) in abs(Int(s)) > 327 }
        guard let first = samples.firstIndex(where: loud), let last = samples.lastIndex(where: loud) else { return [] }
        return Array(samples[first...last])
    }

    /// Writes the sound as a 16-bit mono WAV file.
    public func writeWAV(to path: String) throws {
        try WAV.write(samples, sampleRate: sampleRate, to: path)
    }
}

/// 16-bit mono PCM in RIFF WAV files.
public enum WAV {
    /// The samples of a 16-bit PCM WAV file (the first channel) and its sample rate.
    public static func read(_ path: String) throws -> (samples: [Int16], sampleRate: Int) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 | Int(data[i + 2]) << 16 | Int(data[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(data[i]) | Int(data[i + 1]) << 8 }
        guard data.count >= 12, data[0..<4] == [0x52, 0x49, 0x46, 0x46] else { throw MissingTool(name: "a WAV file at \(path)") }
        var i = 12, channels = 1, rate = 22050
        while i + 8 <= data.count {
            let id = String(decoding: data[i..<i + 4], as: UTF8.self), size = u32(i + 4)
            if id == "fmt " {
                channels = u16(i + 10)
                rate = u32(i + 12)
            } else if id == "data" {
                let end = min(data.count, i + 8 + size)
                let step = 2 * max(1, channels)
                let samples = stride(from: i + 8, to: end - 1, by: step).map { Int16(bitPattern: UInt16(u16($0))) }
                return (samples, rate)
            }
            i += 8 + size + (size & 1)
        }
        throw MissingTool(name: "the data of the WAV file at \(path)")
    }

    /// Writes `samples` as a 16-bit mono WAV file.
    public static func write(_ samples: [Int16], sampleRate: Int, to path: String) throws {
        var out: [UInt8] = []
        func u32(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        out += Array("RIFF".utf8)
        u32(36 + samples.count * 2)
        out += Array("WAVEfmt ".utf8)
        u32(16)
        u16(1)  // PCM
        u16(1)  // mono
        u32(sampleRate)
        u32(sampleRate * 2)
        u16(2)
        u16(16)
        out += Array("data".utf8)
        u32(samples.count * 2)
        out.reserveCapacity(out.count + samples.count * 2)
        for s in samples { u16(Int(UInt16(bitPattern: s))) }
        try Data(out).write(to: URL(fileURLWithPath: path))
    }
}
