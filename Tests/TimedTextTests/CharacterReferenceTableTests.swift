import Foundation
import TestSupport
import Testing

@testable import TimedText

/// The named character references WebVTT cue text decodes (HTML's table) against Python's
/// `html.entities.html5`, the table they were generated from, read here by Python itself.
@Suite(.enabled(if: Tools.which("python3") != nil, "python3 is not installed"))
struct CharacterReferenceTableTests {
    @Test func everyNameDecodesAsHTMLSays() throws {
        let dump = try Tools.run(
            "/usr/bin/env", ["python3", "-c", "import html.entities, json; print(json.dumps(html.entities.html5))"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let html = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: String])
        #expect(html.count == CharacterReferences.named.count)
        let wrong = html.filter { CharacterReferences.named[$0.key] != $0.value }.map(\.key).sorted()
        #expect(wrong.isEmpty, "decoded otherwise than HTML: \(wrong.prefix(10))")
        #expect(CharacterReferences.longestName == html.keys.map(\.count).max())
    }
}
