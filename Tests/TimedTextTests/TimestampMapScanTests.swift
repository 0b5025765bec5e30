import Testing
import Timebase

@testable import TimedText

/// The one scanner for `X-TIMESTAMP-MAP`: every line ending a WebVTT file may use, the header
/// ending at the first empty line (RFC 8216bis §3.1.4 puts the map in the header; hls.js reads it
/// only there), a malformed map, and no map.
struct TimestampMapScanTests {
    static func scan(_ text: String) -> (header: TimestampMap.Header, headerEnd: Int?) {
        Array(text.utf8).withUnsafeBufferPointer { TimestampMap.scan($0) }
    }

    static let map = TimestampMap(mpegts: 900_000, local: .zero)

    @Test(arguments: ["\n", "\r\n", "\r"])
    func everyLineEndingCounts(_ end: String) {
        let text = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000", "", "00:00.000 --> 00:01.000", "a", ""].joined(separator: end)
        let result = Self.scan(text)
        #expect(result.header == .found(Self.map, line: 2, inHeader: true))
        #expect(result.headerEnd == nil, "no empty line before the map")
        #expect(WebVTTParser.headerTimestampMapLine(Array(text.utf8)) == 2 || end != "\n", "the parser reads preprocessed (LF) bytes")
    }

    @Test func aMapAfterTheHeaderIsFoundButNotInIt() {
        let text = "WEBVTT\n\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000\n\n00:00.000 --> 00:01.000\na\n"
        #expect(Self.scan(text).header == .found(Self.map, line: 3, inHeader: false))
        #expect(Self.scan(text).headerEnd == 2)
        #expect(WebVTTParser.headerTimestampMapLine(Array(text.utf8)) == nil)
        #expect(!Array(text.utf8).withUnsafeBufferPointer { TimestampMap.headerHasMapLine($0) })
    }

    @Test func aMalformedMapIsReportedWithItsLine() {
        let text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:abc,LOCAL:00:00:00.000\n\n"
        #expect(Self.scan(text).header == .malformed(line: 2))
        #expect(Array(text.utf8).withUnsafeBufferPointer { TimestampMap.headerHasMapLine($0) }, "a malformed map in the header is still a map line")
        #expect(TimestampMap.find(in: text) == .malformed(line: 2))
    }

    @Test func noMapAtAll() {
        #expect(Self.scan("WEBVTT\n\n00:00.000 --> 00:01.000\na\n").header == .none)
        #expect(Self.scan("").header == .none)
        #expect(Self.scan("X-TIMESTAMP-MAP=").header == .malformed(line: 1))
    }
}
