import Foundation
import FuzzTargets
import TestSupport
import Testing

/// Replays every input under `Fixtures/fuzz/<target>/` (crash inputs the fuzzers found, named
/// after the bug, and hand-made hostile files) through the same entries the libFuzzer binaries
/// run, and the fixtures of each kind as seeds: no trap, and no broken invariant.
struct FuzzRegressionTests {
    /// (target, input file) for every committed regression input and every seed fixture.
    static let inputs: [Input] = {
        var result: [Input] = []
        let fm = FileManager.default
        for target in FuzzEntry.targets.keys.sorted() {
            let folder = Fixtures.path("fuzz/\(target)")
            for name in ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).sorted() where !name.hasPrefix(".") {
                result.append(Input(target: target, path: folder + "/" + name))
            }
        }
        for (target, pattern) in Self.seeds {
            for path in Self.files(under: Fixtures.path(""), suffix: pattern) { result.append(Input(target: target, path: path)) }
        }
        return result
    }()

    /// Fixtures of each kind replayed as seeds (the fuzz script seeds its corpus from the same).
    static let seeds: [(String, String)] = [("m3u8", ".m3u8"), ("webvtt", ".vtt"), ("subrip", ".srt"), ("scc", ".scc"), ("mcc", ".mcc"), ("stl", ".stl")]

    static func files(under root: String, suffix: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(suffix) && !relative.hasPrefix("fuzz/") { paths.append(root + "/" + relative) }
        }
        return paths.sorted()
    }

    struct Input: Sendable, CustomTestStringConvertible {
        let target: String
        let path: String
        var testDescription: String { "\(target): \(URL(fileURLWithPath: path).lastPathComponent)" }
    }

    @Test func everyTargetHasRegressionInputs() {
        for target in FuzzEntry.targets.keys {
            #expect(Self.inputs.contains { $0.target == target && $0.path.contains("/fuzz/") }, "no committed input for \(target)")
        }
    }

    @Test(arguments: inputs)
    func replays(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
        let entry = try #require(FuzzEntry.targets[input.target])
        let violations = entry(bytes)
        #expect(violations.isEmpty, "\(input.path): \(violations)")
    }
}
