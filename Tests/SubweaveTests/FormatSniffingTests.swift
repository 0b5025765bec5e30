import Testing

@testable import Subweave

/// A subtitle file's format read from its first bytes, as the sniffer's rules say: the header
/// lines, an ASS script's opening in any case after white space, a SubRip arrow within the first
/// twelve lines that are not empty.
struct FormatSniffingTests {
    static func sniffed(_ text: String) -> SubtitleFormat? { SubtitleFormat.sniffed(Array(text.utf8)) }

    @Test func eachHeaderNamesItsFormat() {
        #expect(Self.sniffed("WEBVTT\n\n00:00.000 --> 00:01.000\na\n") == .vtt)
        #expect(Self.sniffed("\u{FEFF}WEBVTT\n") == .vtt)
        #expect(Self.sniffed("Scenarist_SCC V1.0\n") == .scc)
        #expect(Self.sniffed("File Format=MacCaption_MCC V2.0\n") == .mcc)
        #expect(Self.sniffed("# VobSub index file, v7\n") == .vobSub)
        #expect(Self.sniffed("<?xml version=\"1.0\"?>\n<tt xmlns=\"http://www.w3.org/ns/ttml\"></tt>") == .ttml)
        #expect(Self.sniffed("hello\nworld\n") == nil)
    }

    @Test func anASSScriptOpensInAnyCaseAfterWhiteSpace() {
        for opening in ["[Script Info]", "[script info]", "[SCRIPT INFO]", " \t\r\n[Script Info]"] {
            #expect(Self.sniffed(opening + "\nTitle: x\n" + String(repeating: "Comment: long\n", count: 400)) == .ass, "\(opening)")
        }
        #expect(Self.sniffed("[Script Inf]\n") == nil)
        #expect(Self.sniffed("[Script Info") == nil)
    }

    @Test func aSubRipArrowCountsWithinTheFirstTwelveLinesThatAreNotEmpty() {
        func file(linesBefore: Int, blank: Bool) -> String {
            (0..<linesBefore).map { "line \($0)\n" + (blank ? "\n\r\n" : "") }.joined() + "00:00:01,000 --> 00:00:02,000\ntext\n"
        }
        for blank in [false, true] {
            #expect(Self.sniffed(file(linesBefore: 0, blank: blank)) == .srt)
            #expect(Self.sniffed(file(linesBefore: 11, blank: blank)) == .srt, "the twelfth line (blank lines between: \(blank))")
            #expect(Self.sniffed(file(linesBefore: 12, blank: blank)) == nil, "the thirteenth line (blank lines between: \(blank))")
        }
    }
}
