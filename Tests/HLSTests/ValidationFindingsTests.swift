import Foundation
import HLS
import TestSupport
import Testing

/// The compact findings store gives back exactly the findings put in, sorted as a stable sort of
/// an array would sort them, and encodes as that array does.
struct ValidationFindingsTests {
    static func random(_ rng: inout SeededGenerator) -> [ValidationFinding] {
        let files = ["b.m3u8", "a.m3u8", "subs/0.vtt"]
        let lines: [Int?] = [nil, 0, 1, 2, 7, 7, 4_294_967_295, 4_294_967_296, Int.max]
        return (0..<Int.random(in: 0...60, using: &rng)).map { n in
            ValidationFinding(
                [.error, .warning, .info].randomElement(using: &rng) ?? .error, file: files.randomElement(using: &rng) ?? "",
                line: lines.randomElement(using: &rng) ?? nil, rule: "rule \(n % 3)", requirement: "requirement", "message \(n % 4)",
                id: n % 2 == 0 ? "" : "id")
        }
    }

    @Test func keepsWhatWasPutInAndSortsStably() throws {
        var rng = SeededGenerator(seed: 1801)
        for _ in 0..<500 {
            let array = Self.random(&rng)
            var store = ValidationFindings(array)
            #expect(Array(store) == array)
            // The model: Swift's sort on (file, line) with the original position breaking ties.
            let sorted = array.enumerated().sorted { a, b in
                let ka = (a.element.file, a.element.line ?? 0)
                let kb = (b.element.file, b.element.line ?? 0)
                return ka != kb ? ka < kb : a.offset < b.offset
            }.map(\.element)
            store.sortByPlace()
            #expect(Array(store) == sorted)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(try encoder.encode(store) == (try encoder.encode(sorted)))
            #expect(try JSONDecoder().decode(ValidationFindings.self, from: encoder.encode(store)) == store)
        }
    }
}
