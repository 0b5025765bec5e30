import Foundation
import TestSupport
import Testing

/// Roll-up captions as viewers see them: when each spoken word shows on screen.
///
/// A WGBH-style stream with every caption mode is built: espeak-ng speaks a script (each word's
/// onset and end known to the sample), a live captioner (LiveCaptioner) captions it in roll-up as
/// the words are spoken — CC1 word by word in RU2, RU3 then RU4, between a pop-on title and a
/// paint-on line; CC3 a line at once in RU3; SERVICE1 (708) word by word in a 3-row window;
/// SERVICE2 a line at once in a 2-row window — and x264 carries it. The built binary decodes it
/// (`captions --json`) and ffmpeg's 608 decoder does too. Per word: the lag from its spoken onset
/// to the first cue that shows it, and from the frame that carried its last character (what a
/// television shows then) to that cue. The table printed is the one in the README.
@Suite(
    .enabled(
        if: BuiltTool.subweave != nil && Tools.ffmpeg != nil && Tools.ffprobe != nil && SpokenText.espeak != nil,
        "the subweave binary, ffmpeg or espeak-ng is missing"))
struct RollUpLagTests {
    static let script = [
        "Good evening and welcome to the late news from the river valley.",
        "Heavy rain moved across the northern counties this afternoon.",
        "Several roads near the old mill were closed before the evening commute.",
        "Crews expect to reopen most of them by tomorrow morning.",
        "In the city council chamber members voted on the new transit plan.",
        "The plan adds three bus lines and a night service on weekends.",
        "Supporters say it will help workers who start before dawn.",
        "Critics worry about the cost and the timing of the first phase.",
        "At the harbour a fishing boat returned with a record catch of cod.",
        "The captain said the crew had never seen the nets so full.",
        "Now here is a look at the weather for the rest of the week.",
        "Expect clear skies on Thursday and a warm breeze by the weekend.",
    ]

    struct Row: CustomStringConvertible {
        let label: String
        let words: Int
        let shown: Int
        let spoken: (median: Double, p95: Double)
        let arrival: (median: Double, p95: Double)
        let early: Int
        var description: String {
            func f(_ x: Double) -> String { String(format: "%.2f", (x * 100).rounded() / 100 + 0) }  // + 0: no "-0.00"
            return "| \(label) | \(shown)/\(words) | \(f(spoken.median)) | \(f(spoken.p95)) | \(f(arrival.median)) | \(f(arrival.p95)) | \(early) |"
        }
    }

    /// The stream: the script spoken, captioned on CC1 (pop-on title, RU2, RU3, RU4 word by word,
    /// paint-on line), CC3 (RU3 a line at once), SERVICE1 (3 rows word by word) and SERVICE2 (2
    /// rows a line at once); what each captioner sent, and the frame the title shows.
    struct Stream {
        let ts: String
        let spoken: SpokenText
        let sent: [(label: String, service: String, sent: LiveCaptioner.Sent)]
        let titleShown: Int
    }

    static func stream() throws -> Stream {
        let spoken = try SpokenText.speak(script, start: 3)
        let words = spoken.words
        let sentenceStarts = (0...script.count).map { s in words.firstIndex { $0.sentence >= s } ?? words.count }
        func sentences(_ r: Range<Int>) -> Range<Int> { sentenceStarts[r.lowerBound]..<sentenceStarts[r.upperBound] }
        var captions = CaptionScript()
        let titleShown = captions.popOn(["Opening titles"], at: 10) - 2
        captions.send([CC608.command(0x2C)], at: 70)
        var sent: [(label: String, service: String, sent: LiveCaptioner.Sent)] = []
        for (label, range, depth) in [("CC1 RU2", 0..<4, 2), ("CC1 RU3", 4..<8, 3), ("CC1 RU4", 8..<12, 4)] {
            let run = LiveCaptioner.rollUp608(
                spoken, range: sentences(range), depth: depth, pace: .wordByWord, field: 1, continuing: range.lowerBound > 0, into: &captions)
            sent.append((label + ", word by word", "CC1", run))
        }
        let paint = LiveCaptioner.frame(at: words.last!.end) + 60
        captions.send([CC608.command(0x2C), CC608.command(0x29), CC608.pac(row: 14)] + CC608.text("Paint-on caf\u{5C}"), at: paint)
        captions.send([CC608.command(0x2C)], at: paint + 90)
        let all = 0..<words.count
        sent.append(("CC3 RU3, a line at once", "CC3", LiveCaptioner.rollUp608(spoken, range: all, depth: 3, pace: .lineAtOnce, field: 2, into: &captions)))
        sent.append(
            ("SERVICE1 3 rows, word by word", "SERVICE1", LiveCaptioner.rollUp708(spoken, range: all, rows: 3, pace: .wordByWord, service: 1, into: &captions)))
        sent.append(
            (
                "SERVICE2 2 rows, a line at once", "SERVICE2",
                LiveCaptioner.rollUp708(spoken, range: all, rows: 2, pace: .lineAtOnce, service: 2, into: &captions)
            ))
        let ts = try CaptionedStream.make(script: captions, frames: paint + 150, folder: try Scratch.make().path)
        return Stream(ts: ts, spoken: spoken, sent: sent, titleShown: titleShown)
    }

    @Test func rollUpLagAgainstTheSpokenWord() throws {
        let stream = try Self.stream()
        let ts = stream.ts, words = stream.spoken.words, titleShown = stream.titleShown
        let listed = try BuiltTool.run(["captions", ts, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        var decoded: [String: [(start: Double, text: String)]] = [:]
        for service in object["services"] as? [[String: Any]] ?? [] {
            decoded[service["service"] as? String ?? "?"] = ((service["cues"] as? [[String: Any]]) ?? []).map {
                ($0["startTime"] as? Double ?? -1, $0["text"] as? String ?? "")
            }
        }
        #expect(decoded.keys.sorted() == ["CC1", "CC3", "SERVICE1", "SERVICE2"], "\(decoded.keys)")
        let frame = LiveCaptioner.frameDuration
        let title = decoded["CC1"]?.first
        #expect(title?.text == "Opening titles" && abs((title?.start ?? 0) - Double(titleShown) * frame) < 0.001, "\(String(describing: title))")
        #expect(decoded["CC1"]?.contains { $0.text == "Paint-on café" } == true, "\(decoded["CC1"]?.suffix(3) ?? [])")

        let cases = stream.sent
        let peer = try ["CC1": FFmpegCaptions.decode(ts, dataField: 0), "CC3": FFmpegCaptions.decode(ts, dataField: 1)].mapValues { cues in
            cues.map { (start: $0.start, text: $0.text) }
        }
        var rows: [Row] = []
        for (label, service, sent) in cases {
            let ours = WordVisibility.firstShown(cues: decoded[service] ?? [], lines: sent.lines, words: words)
            let indices = sent.lines.flatMap { $0 }
            #expect(ours.count == indices.count, "\(label): \(indices.count - ours.count) words never shown")
            for index in indices {
                guard let shown = ours[index], let arrived = sent.arrival[index].map({ Double($0) * frame }) else { continue }
                // Never before its characters arrive; at most the documented 1 s gathering after.
                #expect(shown >= arrived - 0.001 && shown <= arrived + 1 + frame, "\(label): '\(words[index].text)' shown at \(shown), sent at \(arrived)")
            }
            rows.append(Self.row("Subweave " + label, ours, sent: sent, words: words))
            if let peerCues = peer[service] {
                let theirs = WordVisibility.firstShown(cues: peerCues, lines: sent.lines, words: words)
                rows.append(Self.row("ffmpeg " + label, theirs, sent: sent, words: words))
            }
        }
        print("roll-up lag, seconds (\(words.count) words spoken by espeak-ng):")
        print(
            "| decoder, service | words shown | spoken onset → shown: median | p95 | last character sent → shown: median | p95 | words shown before they were sent |"
        )
        for row in rows { print(row) }
    }

    static func row(_ label: String, _ shown: [Int: Double], sent: LiveCaptioner.Sent, words: [SpokenText.Word]) -> Row {
        let indices = sent.lines.flatMap { $0 }.filter { shown[$0] != nil }
        let frame = LiveCaptioner.frameDuration
        let fromArrival = indices.map { shown[$0]! - Double(sent.arrival[$0]!) * frame }
        return Row(
            label: label, words: sent.lines.flatMap { $0 }.count, shown: indices.count,
            spoken: WordVisibility.summary(indices.map { shown[$0]! - words[$0].onset }), arrival: WordVisibility.summary(fromArrival),
            early: fromArrival.filter { $0 < -0.001 }.count)
    }
}
