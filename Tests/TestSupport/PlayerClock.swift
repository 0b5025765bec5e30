import Foundation

/// Reads subtitle segments the way hls.js does, independently of Subweave's own parser, to check
/// when a player shows each cue.
public struct PlayerClock {
    /// A cue as a player places it on the playlist timeline.
    public struct PlacedCue: Equatable, Sendable {
        public let start: Double
        public let end: Double
        public let text: String
        /// The cue block exactly as written (timing line and text), to compare repeats.
        public let block: String
        /// The identifier line above the timing line, if any.
        public let identifier: String?
    }

    /// Parses one WebVTT segment: the X-TIMESTAMP-MAP before the first blank line, then the cues.
    ///
    /// `firstPTS` is the first PTS of the segment's discontinuity sequence and `sequenceStart`
    /// where that sequence starts on the playlist timeline: cue time is
    /// `cue − LOCAL + (MPEGTS − firstPTS) / 90000 + sequenceStart`, with the 2^33 wrap normalised.
    public static func place(segment text: String, firstPTS: Int64, sequenceStart: Double) -> (map: (Int64, Double)?, cues: [PlacedCue]) {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        var mpegts: Int64?
        var local: Double = 0
        for line in lines {
            if line.isEmpty { break }
            if line.hasPrefix("X-TIMESTAMP-MAP=") {
                for part in line.dropFirst(16).split(separator: ",") {
                    if part.hasPrefix("MPEGTS:") { mpegts = Int64(part.dropFirst(7)) }
                    if part.hasPrefix("LOCAL:") { local = seconds(String(part.dropFirst(6))) ?? .nan }
                }
            }
        }
        var offset = 0.0
        if let mpegts {
            let modulus: Int64 = 1 << 33
            var delta = ((mpegts - firstPTS) % modulus + modulus) % modulus
            if delta >= modulus / 2 { delta -= modulus }
            offset = Double(delta) / 90000 - local + sequenceStart
        }
        var cues: [PlacedCue] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.contains("-->") {
                let parts = line.components(separatedBy: "-->")
                let start = seconds(parts[0].trimmingCharacters(in: .whitespaces)) ?? .nan
                let end = seconds(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? "") ?? .nan
                var body: [String] = []
                var j = i + 1
                while j < lines.count, !lines[j].isEmpty { body.append(lines[j]); j += 1 }
                let above = i > 0 ? lines[i - 1] : ""
                let identifier = above.isEmpty || above.hasPrefix("WEBVTT") || above.hasPrefix("X-TIMESTAMP-MAP") ? nil : above
                cues.append(
                    PlacedCue(
                        start: start + offset, end: end + offset, text: body.joined(separator: "\n"),
                        block: ([line] + body).joined(separator: "\n"), identifier: identifier))
                i = j
            } else {
                i += 1
            }
        }
        return (mpegts.map { ($0, local) }, cues)
    }

    /// `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds.
    public static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard (2...3).contains(parts.count) else { return nil }
        var total = 0.0
        for part in parts {
            guard let v = Double(part) else { return nil }
            total = total * 60 + v
        }
        return total
    }
}
