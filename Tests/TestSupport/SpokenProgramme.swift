import Foundation

/// An HLS programme whose sound is speech at known times, for sync tests: espeak-ng speaks
/// sentences (SpokenText), a bed of music or noise may lie under them, and ffmpeg muxes the
/// sound (AAC) with a test-pattern video into 6 s MPEG-TS segments, optionally on a media
/// timeline that starts later than 0.
public struct SpokenProgramme: Sendable {
    public enum Bed: Sendable { case none, music, noise }

    /// The master playlist.
    public let master: String
    /// Per sentence: its text and when its sound starts and ends, from the first video frame.
    public let sentences: [(text: String, start: Double, end: Double)]
    public let seconds: Double

    /// Speaks `script` from `intro` seconds with `pauses` between sentences (cycled), or one
    /// sentence every `every` seconds, over `bed`, in a programme of `seconds` (at least the
    /// speech), whose media clock starts at `startPTS`.
    public static func make(
        _ script: [String], intro: Double = 2, pauses: [Double] = [0.9, 1.6, 0.6, 2.2, 1.1], every: Double? = nil, bed: Bed = .none,
        startPTS: Double = 0, voice: String = "en", seconds: Double? = nil
    ) throws -> SpokenProgramme {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let spoken = try SpokenText.speak(script, start: intro, wordGap: 0.06, sentenceGap: 0, voice: voice)
        var sentences: [(String, Double, Double)] = []
        var samples: [Int16] = []
        let rate = spoken.sampleRate
        // Lay the sentences out again with the pauses asked for.
        var t = intro
        for (index, sentence) in script.enumerated() {
            let words = spoken.words.filter { $0.sentence == index }
            guard let first = words.first, let last = words.last else { continue }
            let from = Int(first.onset * Double(rate)), to = Int(last.end * Double(rate))
            let at = Int(t * Double(rate))
            if samples.count < at { samples += [Int16](repeating: 0, count: at - samples.count) }
            let start = Double(samples.count) / Double(rate)  // later than t where a sentence outlasts `every`
            samples += spoken.samples[from..<min(to, spoken.samples.count)]
            sentences.append((sentence, start, start + Double(to - from) / Double(rate)))
            t = every.map { intro + Double(index + 1) * $0 } ?? t + Double(to - from) / Double(rate) + pauses[index % pauses.count]
        }
        let total = max(seconds ?? 0, t + 2)
        samples += [Int16](repeating: 0, count: max(0, Int(total * Double(rate)) - samples.count))
        switch bed {
        case .none: break
        case .music:
            for i in samples.indices {
                let time = Double(i) / Double(rate)
                let chord = [196.0, 246.9, 293.7, 392.0].reduce(0.0) { $0 + sin(2 * Double.pi * $1 * time) }
                samples[i] = Self.clip(Double(samples[i]) + 1500 * (0.7 + 0.3 * sin(2 * Double.pi * 0.1 * time)) * chord)
            }
        case .noise:
            var random = SeededGenerator(seed: 9)
            for i in samples.indices { samples[i] = Self.clip(Double(samples[i]) + 700 * gaussian(&random)) }
        }
        let folder = try Scratch.make().path
        try WAV.write(samples, sampleRate: rate, to: folder + "/sound.wav")
        let offset = startPTS > 0 ? ["-output_ts_offset", String(startPTS)] : []
        let outcome = try Tools.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-i", folder + "/sound.wav",
                "-t", String(total), "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-b:a", "64k",
            ] + offset + [
                "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_filename", folder + "/seg_%03d.ts", folder + "/prog.m3u8",
            ])
        guard outcome.status == 0 else { throw MissingTool(name: "a working ffmpeg (\(outcome.stderr.prefix(300)))") }
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS=\"avc1.64000d,mp4a.40.2\",RESOLUTION=160x90\nprog.m3u8\n".write(
            toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        return SpokenProgramme(master: folder + "/master.m3u8", sentences: sentences, seconds: total)
    }

    /// Thirty-two distinct sentences of a travel programme (about two and a half minutes spoken).
    public static let sampleScript = [
        "Good evening, and welcome to the programme.", "Tonight we travel along the northern coast by train.",
        "The line was built more than a century ago.", "It climbs through forests and crosses three rivers.",
        "Our guide has worked on the railway for thirty years.", "She knows every station and every tunnel by name.",
        "In winter the snow can close the line for days.", "Then the village shops run out of bread and milk.",
        "Farmers bring supplies down the valley on sledges.", "Spring arrives late, but the meadows fill with flowers.",
        "Tourists come in summer to walk the high paths.", "A small museum tells the story of the builders.",
        "Many of them came from abroad to find work.", "Their names are carved on a stone by the bridge.",
        "At the coast the train stops beside a lighthouse.", "The keeper there has a garden of roses and herbs.",
        "Fishing boats leave the harbour before sunrise.", "By noon the gulls follow them home with the catch.",
        "The market opens in the square after lunch.", "Old men play cards under the chestnut trees.",
        "Children run between the stalls with ice cream.", "A band rehearses for the festival on Saturday.",
        "The last train back leaves at half past nine.", "Most travellers sleep through the dark forest.",
        "A few stay awake to watch for owls and deer.", "The conductor brings tea in small paper cups.",
        "Just after midnight the lights of the city appear.", "Everyone gathers their bags and their coats.",
        "Next week we follow the river to the sea.", "Thank you for watching, and good night.",
    ]

    static func clip(_ x: Double) -> Int16 { Int16(max(-32767, min(32767, x))) }

    /// A SubRip file of `cues` (start, end, text) written into a scratch folder; returns its path.
    public static func subRip(_ cues: [(start: Double, end: Double, text: String)], name: String = "sidecar") throws -> String {
        let path = try Scratch.make().path + "/\(name).srt"
        try SubtitleText.srt(cues.map { ($0.start, $0.end, $0.text) }).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// A normal draw (Box–Muller) from the repeating generator, so a noise bed is the same on every run.
func gaussian(_ random: inout SeededGenerator) -> Double {
    let u = Double(random.next() >> 11) / Double(1 << 53), v = Double(random.next() >> 11) / Double(1 << 53)
    return sqrt(-2 * log(max(1e-12, u))) * cos(2 * Double.pi * v)
}

/// Packed audio (RFC 8216bis §3.4) for tests: an ADTS stream cut into segments of about
/// `seconds`, each opened by an ID3 tag whose PRIV frame carries its first sample's 90 kHz
/// timestamp, as Apple's packagers write audio-only renditions.
public enum PackedAudioWriter {
    /// Writes `audio.m3u8` and its `.aac` segments into `folder` from the ADTS bytes `adts`,
    /// whose first sample is at `start` (90 kHz).
    public static func write(adts: [UInt8], start: Int64, seconds: Double = 6, into folder: String) throws {
        var frames: [Range<Int>] = []
        var i = 0
        while i + 7 <= adts.count, adts[i] == 0xFF, adts[i + 1] & 0xF0 == 0xF0 {
            let length = Int(adts[i + 3] & 0x03) << 11 | Int(adts[i + 4]) << 3 | Int(adts[i + 5]) >> 5
            guard length > 7, i + length <= adts.count else { break }
            frames.append(i..<i + length)
            i += length
        }
        guard let first = frames.first else { throw MissingTool(name: "ADTS frames") }
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        let rate = rates[Int(adts[first.lowerBound + 2] >> 2 & 0x0F)]
        let perSegment = Int(seconds * Double(rate) / 1024)
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(seconds.rounded(.up)) + 1)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for (number, from) in stride(from: 0, to: frames.count, by: perSegment).enumerated() {
            let to = min(frames.count, from + perSegment)
            let timestamp = start + Int64(from) * 1024 * 90000 / Int64(rate)
            let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
            let priv = owner + (0..<8).reversed().map { UInt8(truncatingIfNeeded: timestamp >> (8 * $0)) }
            let frame = Array("PRIV".utf8) + [0, 0, 0, UInt8(priv.count), 0, 0] + priv  // ID3v2.4: size syncsafe (< 128)
            let tag = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
            let body = adts[frames[from].lowerBound..<frames[to - 1].upperBound]
            let name = String(format: "a%03d.aac", number)
            try Data(tag + body).write(to: URL(fileURLWithPath: folder + "/" + name))
            playlist += String(format: "#EXTINF:%.6f,\n", Double((to - from) * 1024) / Double(rate)) + name + "\n"
        }
        playlist += "#EXT-X-ENDLIST\n"
        try playlist.write(toFile: folder + "/audio.m3u8", atomically: true, encoding: .utf8)
    }
}
