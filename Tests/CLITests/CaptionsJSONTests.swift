import Foundation
import TestSupport
import Testing

@testable import SubweaveCLI

/// `captions --json` writes its document a cue at a time; `JSONEncoder` on the same document, as
/// `Output.json` writes every other document, must give the same bytes: no services, no notes,
/// services without cues, with and without a language and OCR confidences, strings with quotes,
/// control characters, invisible and non-ASCII characters, times from zero to ten hours.
struct CaptionsJSONTests {
    @Test func handWrittenJSONMatchesJSONEncoder() throws {
        var rng = SeededGenerator(seed: 7081)
        for trial in 0..<400 {
            let services = (0..<(trial == 0 ? 0 : Int.random(in: 0...4, using: &rng))).map { _ in
                let ocr = Bool.random(using: &rng)
                return CaptionsCommand.ServiceJSON(
                    service: CueJSONWriterTests.text(&rng), kind: ["cea608", "cea708", "teletext", "dvbsub_ocr"].randomElement(using: &rng) ?? "",
                    language: Bool.random(using: &rng) ? CueJSONWriterTests.text(&rng) : nil,
                    languageSource: Bool.random(using: &rng) ? CueJSONWriterTests.text(&rng) : nil,
                    cues: (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                        let start = Double(Int.random(in: 0...36_000_000, using: &rng)) / Double([1, 1000, 30000, 90000].randomElement(using: &rng) ?? 1)
                        return CaptionsCommand.CueJSON(
                            startTime: start, endTime: start + Double.random(in: 0...10, using: &rng), text: CueJSONWriterTests.text(&rng),
                            confidence: ocr ? (Double.random(in: 0...100, using: &rng) * 10).rounded() / 10 : nil)
                    })
            }
            var notes = (0..<Int.random(in: 0...3, using: &rng)).map { _ in CueJSONWriterTests.text(&rng) }
            var document = CaptionsCommand.DocumentJSON(services: services, notes: notes)
            if trial == 1 {  // long enough to be flushed in pieces
                let cues = (0..<30_000).map {
                    CaptionsCommand.CueJSON(startTime: Double($0) / 29.97, endTime: Double($0 + 1) / 29.97, text: "Caption \"\($0)\"\n>> é", confidence: nil)
                }
                notes.append("a note")
                document = CaptionsCommand.DocumentJSON(
                    services: [CaptionsCommand.ServiceJSON(service: "CC1", kind: "cea608", language: "en", languageSource: nil, cues: cues)], notes: notes)
            }
            var written: [UInt8] = []
            let rest = document.written(flushing: { written += $0 })
            written += rest
            let expected = PrettyJSON.escapingInvisible(try Output.jsonData(document, schema: "subweave.captions/1")) + [0x0A]
            // As text, so that a difference reads as JSON (both are UTF-8 by construction).
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "trial \(trial)")
            if trial == 1 { #expect(written.count > PrettyJSON.flushSize) }
        }
    }
}
