import Foundation

/// A live captioner at work, for tests.
///
/// It captions `SpokenText` in roll-up, sending each word's characters once the word has been spoken (a stenographer writes what it has heard), or each
/// line once its last word has been spoken (a respeaker or speech recogniser that sends phrases),
/// as a caption encoder carries them: 608 two characters a frame on its field, 708 a DTVCC packet
/// a frame. It says which frame each word's last character is carried in, and how the words fall
/// into the 32-column lines.
public struct LiveCaptioner {
    public enum Pace: String, Sendable { case wordByWord = "word by word", lineAtOnce = "a line at once" }

    /// What was sent: the lines (indices into the spoken words) and, per word, the frame that
    /// carries its last character.
    public struct Sent: Sendable {
        public var lines: [[Int]] = []
        public var arrival: [Int: Int] = [:]
    }

    public static let frameDuration = 1001.0 / 30000

    /// The words `range` broken into lines of at most `columns` characters.
    public static func lines(_ words: [SpokenText.Word], range: Range<Int>, columns: Int = 32) -> [[Int]] {
        var lines: [[Int]] = [], line: [Int] = [], width = 0
        for index in range {
            let length = words[index].text.count
            if !line.isEmpty && width + 1 + length > columns {
                lines.append(line)
                line = []
                width = 0
            }
            width += (line.isEmpty ? 0 : 1) + length
            line.append(index)
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The first frame at or after `seconds`.
    public static func frame(at seconds: Double) -> Int { Int((seconds / frameDuration).rounded(.up)) }

    /// Roll-up 608 on `field` (CC1 on field 1, CC3 on field 2): RU`depth` and a PAC for row 15,
    /// then the words, a carriage return before each line but the first (and before the first
    /// too when `continuing` an earlier roll-up on the channel).
    public static func rollUp608(
        _ spoken: SpokenText, range: Range<Int>, depth: Int, pace: Pace, field: Int, continuing: Bool = false, into script: inout CaptionScript
    ) -> Sent {
        var sent = Sent(lines: lines(spoken.words, range: range))
        let words = spoken.words
        let rollUpCode: UInt8 = [2: 0x25, 3: 0x26, 4: 0x27][depth]!
        var cursor = max(0, frame(at: words[range.lowerBound].onset) - 8)
        cursor = script.send([CC608.command(rollUpCode, field: field), CC608.pac(row: 15)], at: cursor, field: field)
        for (number, line) in sent.lines.enumerated() {
            for (position, index) in line.enumerated() where pace == .wordByWord || position == line.count - 1 {
                var pairs: [(UInt8, UInt8)] = []
                if number > 0 || continuing, pace == .lineAtOnce || position == 0 { pairs.append(CC608.command(0x2D, field: field)) }  // CR
                let text =
                    pace == .wordByWord
                    ? words[index].text + (position < line.count - 1 ? " " : "")
                    : line.map { words[$0].text }.joined(separator: " ")
                pairs += CC608.text(text)
                let first = max(cursor, frame(at: words[index].end)), textStart = first + (pairs.count - CC608.text(text).count) * 2
                cursor = script.send(pairs, at: first, field: field)
                // A word's last character is in pair (offset of that character) / 2 of the text.
                var offset = 0
                for sentIndex in pace == .wordByWord ? [index] : line {
                    offset += words[sentIndex].text.count
                    sent.arrival[sentIndex] = textStart + (offset - 1) / 2
                    offset += 1
                }
            }
        }
        return sent
    }

    /// Roll-up 708 on `service`.
    ///
    /// A visible window of `rows` rows by 32 columns at the bottom of the
    /// screen (DefineWindow, anchor point bottom-left), then the words as G0 text, a carriage return
    /// (which scrolls the window once it is full) before each line but the first. One DTVCC packet
    /// a frame, shared by every service.
    public static func rollUp708(_ spoken: SpokenText, range: Range<Int>, rows: Int, pace: Pace, service: Int, into script: inout CaptionScript) -> Sent {
        var sent = Sent(lines: lines(spoken.words, range: range))
        let words = spoken.words
        func free(_ from: Int) -> Int {
            var f = from
            while script.dtvcc[f] != nil { f += 1 }
            return f
        }
        let start = free(max(0, frame(at: words[range.lowerBound].onset) - 8))
        let window = DTVCC.defineWindow(0, visible: true, anchorVertical: 74, anchorHorizontal: 0, rows: rows, columns: 32, anchorPoint: 6)
        script.send708(window, service: service, at: start)
        var cursor = start + 1
        for (number, line) in sent.lines.enumerated() {
            for (position, index) in line.enumerated() where pace == .wordByWord || position == line.count - 1 {
                var data: [UInt8] = []
                if number > 0 && (pace == .lineAtOnce || position == 0) { data += DTVCC.carriageReturn }
                let text =
                    pace == .wordByWord
                    ? words[index].text + (position < line.count - 1 ? " " : "")
                    : line.map { words[$0].text }.joined(separator: " ")
                data += DTVCC.text(text)
                cursor = free(max(cursor, frame(at: words[index].end)))
                script.send708(data, service: service, at: cursor)
                for sentIndex in pace == .wordByWord ? [index] : line { sent.arrival[sentIndex] = cursor }
                cursor += 1
            }
        }
        return sent
    }
}

/// When each word of a roll-up first shows on screen, from the cues a decoder made of it.
public enum WordVisibility {
    /// Per word index of `lines`, the earliest cue start at which a row of the cue shows the word.
    ///
    /// `cues` as (start seconds, text), rows split at line breaks, tags removed. Lines show in
    /// order, so a row counts for the first line not yet wholly shown when it is that line's
    /// start (whole words).
    public static func firstShown(cues: [(start: Double, text: String)], lines: [[Int]], words: [SpokenText.Word]) -> [Int: Double] {
        let texts = lines.map { line in line.map { words[$0].text } }
        var shown: [Int: Double] = [:]
        var frontier = 0
        for cue in cues.sorted(by: { $0.start < $1.start }) {
            let plain = cue.text.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            for row in plain.split(separator: "\n") where frontier < lines.count {
                let rowWords = row.split(separator: " ").map(String.init)
                let line = texts[frontier]
                guard !rowWords.isEmpty, line.count >= rowWords.count, Array(line.prefix(rowWords.count)) == rowWords else { continue }
                for index in lines[frontier].prefix(rowWords.count) where shown[index] == nil { shown[index] = cue.start }
                if rowWords.count == line.count { frontier += 1 }
            }
        }
        return shown
    }

    /// The median and the 95th percentile (nearest rank) of `values`.
    public static func summary(_ values: [Double]) -> (median: Double, p95: Double) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return (.nan, .nan) }
        func rank(_ p: Double) -> Double { sorted[max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
        return (rank(0.5), rank(0.95))
    }
}
