import Foundation
import Testing
import Timebase
import TimedText

@testable import SubweaveCLI

/// `cues --json` writes its JSON by hand (a file has millions of cues); Foundation's
/// `JSONEncoder`, with the options the document used to be made with, must write the same bytes
/// for every cue: strings with every control character, quotes, backslashes and non-ASCII text,
/// numbers from tiny to the largest double, regions and settings of every kind.
struct CueJSONWriterTests {
    static let numbers = [
        "0", "1", "-1", "2.5", "33.3333", "0.1", "100", "1e21", "1e-7", "0.000001", "123456789012345678", "-0", "3.0000000000000004",
        "1797693134862315700000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
    ]

    static func text(_ rng: inout some RandomNumberGenerator) -> String {
        let pieces: [String] = [
            "plain", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}", "\u{7F}", "é", "日本", "😀", "\u{2028}",
            "\u{2029}", "\u{FEFF}", "<i>x</i>", "&amp;", " ",
        ]
        return (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test func handWrittenJSONMatchesJSONEncoder() throws {
        var rng = SystemRandomNumberGenerator()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var region = CueRegion(identifier: "r\"1")
        region.width = "40"
        region.lines = "1e400"
        region.regionAnchor = ("0.5", "100")
        region.viewportAnchor = ("10", "90.25")
        region.scrollUp = true
        let regions = [region, CueRegion(identifier: "plain")]
        for _ in 0..<3000 {
            var settings = CueSettings()
            if Bool.random(using: &rng) { settings.vertical = [.rl, .lr].randomElement(using: &rng) }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: settings.line = .number(Self.numbers.randomElement(using: &rng)!)
            case 1: settings.line = .percentage(Self.numbers.randomElement(using: &rng)!)
            default: break
            }
            if Bool.random(using: &rng) { settings.lineAlign = [.start, .center, .end].randomElement(using: &rng) }
            if Bool.random(using: &rng) { settings.position = Self.numbers.randomElement(using: &rng) }
            if Bool.random(using: &rng) { settings.positionAlign = [.lineLeft, .center, .lineRight].randomElement(using: &rng) }
            if Bool.random(using: &rng) { settings.size = Self.numbers.randomElement(using: &rng) }
            if Bool.random(using: &rng) { settings.align = [.start, .center, .end, .left, .right].randomElement(using: &rng) }
            if Bool.random(using: &rng) { settings.region = ["r\"1", "plain", "absent"].randomElement(using: &rng) }
            let start = MediaTime(ticks: Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
            let cue = Cue(
                identifier: Self.text(&rng), start: start, end: start + MediaTime(ticks: Int64.random(in: 1...10_000_000, using: &rng)),
                settings: settings, text: Self.text(&rng))
            let json = VTTCueJSON(cue, regions: regions)
            // What every JSON output writes: the encoder's text with the characters a terminal would
            // act on escaped the JSON way.
            let expected = String(decoding: PrettyJSON.escapingInvisible(try encoder.encode(json)), as: UTF8.self)
            var written = PrettyJSON()
            json.write(into: &written, indent: "")
            #expect(String(decoding: written.bytes, as: UTF8.self) == expected, "\(cue)")
        }
    }

    /// One cue whose text is megabytes long is handed out a megabyte at a time, not gathered whole.
    @Test func aLongCueTextIsWrittenInPieces() throws {
        let text = String(repeating: "word \"q\"\n", count: 400_000)
        var pieces: [[UInt8]] = []
        let rest = CuesCommand.cuesJSON([Cue(start: .zero, end: MediaTime(seconds: 1), text: text)], regions: []) { pieces.append($0) }
        #expect(pieces.count >= 4, "a 4.4 MB string in pieces")
        #expect(pieces.allSatisfy { $0.count < PrettyJSON.flushSize + 16 })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(pieces.joined() + rest)) as? [String: Any])
        #expect((document["cues"] as? [[String: Any]])?.first?["text"] as? String == text)
    }

    /// The whole document parses as JSON, holds every cue, and is handed out in pieces.
    @Test func documentIsValidJSONWrittenInPieces() throws {
        let cues = (0..<12_000).map {
            Cue(start: MediaTime(milliseconds: Int64($0) * 100), end: MediaTime(milliseconds: Int64($0) * 100 + 50), text: "cue \($0) \"q\"")
        }
        var pieces: [[UInt8]] = []
        let rest = CuesCommand.cuesJSON(cues, regions: []) { pieces.append($0) }
        #expect(pieces.count >= 2, "written as it goes, not held whole")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(pieces.joined() + rest)) as? [String: Any])
        #expect(document["schema"] as? String == "subweave.cues/1")
        let parsed = try #require(document["cues"] as? [[String: Any]])
        #expect(parsed.count == cues.count)
        #expect(parsed.last?["text"] as? String == "cue 11999 \"q\"")
        #expect(parsed.last?["startTime"] as? Double == 1199.9)
        let empty = CuesCommand.cuesJSON([], regions: []) { _ in Issue.record("nothing to flush") }
        #expect(String(decoding: empty, as: UTF8.self) == "{\n  \"schema\" : \"subweave.cues/1\",\n  \"cues\" : [\n\n  ]\n}\n")
        #expect((try JSONSerialization.jsonObject(with: Data(empty)) as? [String: Any])?["cues"] as? [Any] != nil)
    }
}

// The reference: the same values through Foundation's encoder, keyed by the W3C attribute names.

extension VTTCueJSON: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, startTime, endTime, text, vertical, snapToLines, line, lineAlign, position, positionAlign, size, align, region
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(startTime, forKey: .startTime)
        try c.encode(endTime, forKey: .endTime)
        try c.encode(text, forKey: .text)
        try c.encode(vertical, forKey: .vertical)
        try c.encode(snapToLines, forKey: .snapToLines)
        try c.encode(line, forKey: .line)
        try c.encode(lineAlign, forKey: .lineAlign)
        try c.encode(position, forKey: .position)
        try c.encode(positionAlign, forKey: .positionAlign)
        try c.encode(size, forKey: .size)
        try c.encode(align, forKey: .align)
        if let region { try c.encode(region, forKey: .region) } else { try c.encodeNil(forKey: .region) }
    }
}

extension VTTRegionJSON: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, width, lines, regionAnchorX, regionAnchorY, viewportAnchorX, viewportAnchorY, scroll
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(width, forKey: .width)
        try c.encode(lines, forKey: .lines)
        try c.encode(regionAnchorX, forKey: .regionAnchorX)
        try c.encode(regionAnchorY, forKey: .regionAnchorY)
        try c.encode(viewportAnchorX, forKey: .viewportAnchorX)
        try c.encode(viewportAnchorY, forKey: .viewportAnchorY)
        try c.encode(scroll, forKey: .scroll)
    }
}

extension NumberOrAuto: Encodable {
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .auto: try c.encode("auto")
        }
    }
}
