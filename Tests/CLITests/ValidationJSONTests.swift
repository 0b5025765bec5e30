import Foundation
import HLS
import Subweave
import TestSupport
import Testing

@testable import SubweaveCLI

/// `validate --json` writes its document a finding at a time; `JSONEncoder` on the report, as
/// `Output.json` writes every other document, must give the same bytes: findings with and without
/// a line, every severity, strings with quotes, control characters and non-ASCII text, no findings.
struct ValidationJSONTests {
    @Test func handWrittenJSONMatchesJSONEncoder() throws {
        var rng = SeededGenerator(seed: 8259)
        for trial in 0..<400 {
            var findings = (0..<(trial == 0 ? 0 : Int.random(in: 1...30, using: &rng))).map { _ in
                ValidationFinding(
                    [.error, .warning, .info].randomElement(using: &rng) ?? .info, file: CueJSONWriterTests.text(&rng),
                    line: Bool.random(using: &rng) ? Int.random(in: 0...Int.max, using: &rng) : nil, rule: CueJSONWriterTests.text(&rng),
                    requirement: CueJSONWriterTests.text(&rng), CueJSONWriterTests.text(&rng), id: CueJSONWriterTests.text(&rng))
            }
            if trial == 1 {  // long enough to be flushed in pieces
                findings += (0..<20_000).map { ValidationFinding(.warning, file: "m.m3u8", line: $0, rule: "r", requirement: "q", "no CLOSED-CAPTIONS \"x\"") }
            }
            let report = ValidationReport(findings: findings)
            var written: [UInt8] = []
            let rest = ValidationJSON.document(report, flushing: { written += $0 })
            written += rest
            let expected = PrettyJSON.escapingInvisible(try Output.jsonData(report, schema: "subweave.validate/1")) + [0x0A]
            #expect(written == expected, "trial \(trial)")
        }
    }
}
