import Foundation
import Subweave
import TestSupport
import Testing

/// Every presentation and segment rule of `validate`, by its identifier, through the binary.
///
/// The packaged example keeps them all (no finding), and one change to it breaks each (a finding
/// with that identifier). A rule added without a case fails `everyRuleHasACase`.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct PresentationRuleIDTests {
    /// A rule and the change to the packaged example that breaks it (the master to validate
    /// may be another path).
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        var master = "master.m3u8"
        /// Packaged as IMSC1 (`--text-format imsc1`) rather than WebVTT.
        var imsc = false
        let change: @Sendable (_ folder: String, _ generation: String) throws -> Void
        var testDescription: String { id }
    }

    static func edit(_ path: String, _ change: (Data) -> Data) throws {
        try change(try Data(contentsOf: URL(fileURLWithPath: path))).write(to: URL(fileURLWithPath: path))
    }

    static func replacing(_ path: String, _ old: String, _ new: String) throws {
        try edit(path) { data in
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains(old), "\(path) has no \(old)")
            return Data(text.replacingOccurrences(of: old, with: new).utf8)
        }
    }

    /// Segment 00001.vtt of the English rendition covers 2–4 s; its map is MPEGTS 133200 (the
    /// first frame's presentation time; its decode time is 126000).
    static let cases: [Case] = [
        Case(id: "segment.utf8") { _, g in try edit(g + "/00001.vtt") { Data($0.map { $0 == UInt8(ascii: "w") ? 0xFF : $0 }) } },
        Case(id: "segment.signature") { _, g in try replacing(g + "/00001.vtt", "WEBVTT", "WEBVTX") },
        Case(id: "segment.valid-blocks") { _, g in try edit(g + "/00001.vtt") { $0 + Data("\n3\n00:00:02.500 --> garbage\ntext\n".utf8) } },
        Case(id: "segment.valid-cue-text") { _, g in try replacing(g + "/00001.vtt", "<i>world</i>", "<zz>world</zz>") },
        Case(id: "segment.timestamp-map") { _, g in try replacing(g + "/00001.vtt", "X-TIMESTAMP-MAP=MPEGTS:133200,LOCAL:00:00:01.480\n", "") },
        Case(id: "segment.timestamp-map-syntax") { _, g in try replacing(g + "/00001.vtt", "MPEGTS:133200", "MPEGTS:abc") },
        Case(id: "segment.timestamp-map-in-header") { _, g in try replacing(g + "/00001.vtt", "WEBVTT\nX-TIMESTAMP", "WEBVTT\n\nX-TIMESTAMP") },
        Case(id: "segment.timestamp-map-presentation-time") { _, g in try replacing(g + "/00001.vtt", "MPEGTS:133200", "MPEGTS:126000") },
        Case(id: "segment.cues-in-period") { _, g in try edit(g + "/00001.vtt") { $0 + Data("\n9\n00:00:09.000 --> 00:00:09.500\nlate\n".utf8) } },
        Case(id: "segment.carries-every-cue-shown") { _, g in
            try edit(g + "/00001.vtt") { data in
                let text = String(decoding: data, as: UTF8.self)
                return Data(String(text[..<(text.range(of: "\n2\n")?.lowerBound ?? text.endIndex)]).utf8 + [0x0A])
            }
        },
        Case(id: "presentation.master-parses") { f, _ in
            try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n".write(toFile: f + "/master.m3u8", atomically: true, encoding: .utf8)
        },
        Case(id: "presentation.master-readable", master: "missing.m3u8") { _, _ in },
        Case(id: "presentation.variant-readable") { f, _ in try FileManager.default.removeItem(atPath: f + "/video/high/prog.m3u8") },
        Case(id: "presentation.timeline-readable") { f, _ in
            try Data(repeating: 0x47, count: 700).write(to: URL(fileURLWithPath: f + "/video/high/seg_000.ts"))
        },
        Case(id: "presentation.variables-defined") { f, _ in try replacing(f + "/master.m3u8", "URI=\"subtitles/", "URI=\"{$x}/subtitles/") },
        Case(id: "presentation.subtitle-playlist-readable") { _, g in try FileManager.default.removeItem(atPath: g + "/index.m3u8") },
        Case(id: "presentation.segment-readable") { _, g in try FileManager.default.removeItem(atPath: g + "/00002.vtt") },
        Case(id: "presentation.segment-encrypted") { _, g in
            try replacing(g + "/index.m3u8", "#EXTM3U\n", "#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=\"skd://k\",KEYFORMAT=\"com.apple.streamingkeydelivery\"\n")
        },
        Case(id: "presentation.subtitle-format") { _, g in
            try replacing(g + "/index.m3u8", "#EXT-X-PLAYLIST-TYPE:VOD\n", "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI=\"init.mp4\"\n")
        },
        Case(id: "imsc.sample", imsc: true) { _, g in
            try Data(try Data(contentsOf: URL(fileURLWithPath: g + "/00001.m4s")).prefix(40)).write(to: URL(fileURLWithPath: g + "/00001.m4s"))
        },
        Case(id: "imsc.base-media-decode-time", imsc: true) { _, g in
            try edit(g + "/00001.m4s") { data in
                var bytes = [UInt8](data)
                // tfdt (version 1): its 64-bit value, after the type, version and flags, moved far off.
                if let at = (0..<(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual("tfdt".utf8) }) {
                    bytes[at + 9] &+= 1
                }
                return Data(bytes)
            }
        },
    ]

    /// The example packaged with its English track; its folder and the rendition's generation.
    static func packaged(imsc: Bool = false) throws -> (folder: String, generation: String) {
        let folder = try Fixtures.copyExample()
        let run = try BuiltTool.run(
            ["package", folder + "/master.m3u8", "--subtitle", "url=\(folder)/subs/en.srt,language=en"] + (imsc ? ["--text-format", "imsc1"] : []))
        #expect(run.status == 0, "\(run.stderr)")
        let generation = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/subtitles/en-en").first)
        return (folder, folder + "/subtitles/en-en/" + generation)
    }

    static func ids(_ master: String) throws -> [String] {
        let run = try BuiltTool.run(["validate", master, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
        return (object["findings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test(arguments: [false, true])
    func thePackagedExampleKeepsEveryRule(imsc: Bool) throws {
        let (folder, _) = try Self.packaged(imsc: imsc)
        #expect(try Self.ids(folder + "/master.m3u8").isEmpty)
    }

    @Test(arguments: cases)
    func rule(_ c: Case) throws {
        let (folder, generation) = try Self.packaged(imsc: c.imsc)
        try c.change(folder, generation)
        let found = try Self.ids(folder + "/" + c.master)
        #expect(found.contains(c.id), "\(c.id) not among \(found)")
    }

    @Test func everyRuleHasACase() {
        #expect(Set(PresentationValidator.presentationRuleIdentifiers) == Set(Self.cases.map(\.id)))
    }
}
