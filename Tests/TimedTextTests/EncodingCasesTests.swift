import Foundation
import TestSupport
import Testing

@testable import TimedText

/// The encodings vendors send that were misread, each rebuilt from text: Windows code pages with
/// their extension characters, UTF-16/32 without a byte order mark, ISO-8859-2 against 1250, and
/// the 7-bit ISO-2022 encodings.
struct EncodingCasesTests {
    static func srt(_ lines: [String]) -> String {
        lines.enumerated().map { i, line in "\(i + 1)\n00:00:0\(i + 1),000 --> 00:00:0\(i + 2),000\n\(line)\n" }.joined(separator: "\n")
    }

    static let korean = [
        "안녕하세요, 오늘 날씨가 정말 좋네요.", "어제 시장에 가서 사과를 샀어요.", "저는 그 책이 어디 있는지 모르겠어요.", "잠깐만 기다려 주세요, 곧 돌아올게요.",
        "우리는 내일 아침 일찍 떠날 거예요.",
    ]
    static let japanese = [
        "こんにちは、今日はいい天気ですね。", "昨日、市場でりんごを買いました。", "その本がどこにあるのか分かりません。", "少々お待ちください、すぐに戻ります。",
        "私たちは明日の朝早く出発します。",
    ]

    /// A byte order mark written twice (or more) is not text: the decoded text starts with none,
    /// so decoding its UTF-8 gives it back, in every Unicode encoding, guessed or forced.
    @Test func aByteOrderMarkWrittenAgainIsNotText() {
        let text = "\u{FEFF}\u{FEFF}ab\u{FEFF}c"
        let encodings: [(TextEncoding, [UInt8])] = [
            (.utf8, Array(text.utf8)),
            (.utf16BE, text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            (.utf16LE, text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            (.utf32LE, text.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) } }),
        ]
        for (encoding, bytes) in encodings {
            for decoded in [TextDecoder.decode(bytes), TextDecoder.decode(bytes, forced: encoding)] {
                #expect(decoded.text == "ab\u{FEFF}c", "\(encoding): \(decoded.text.unicodeScalars.map(\.value))")
                #expect(TextDecoder.decode(Array(decoded.text.utf8), forced: .utf8).text == decoded.text, "\(encoding)")
            }
        }
        // The fuzz input that found it: a UTF-16BE mark, the mark again, a noncharacter, a lone byte.
        let found = TextDecoder.decode([0xFE, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0x96])
        #expect(TextDecoder.decode(Array(found.text.utf8), forced: .utf8).text == found.text)
        var marked = Array("\u{FEFF}\u{FEFF}\u{FEFF}x".utf8)
        #expect(TextDecoder.isUTF8(&marked, forced: nil) && marked == Array("x".utf8))
    }

    /// A Korean file with UHC syllables outside KS X 1001 (똠, 뷁) is CP949, not GB18030.
    @Test func cp949ExtensionSyllables() throws {
        let text = Self.srt(Self.korean + ["똠방각하 뷁"])
        let bytes = try #require(Iconv.encode(text, to: "CP949"))
        let decoded = TextDecoder.decode(bytes)
        #expect(decoded.encoding == .eucKR && decoded.text == text, "\(decoded.encoding.rawValue): \(decoded.text.suffix(40))")
        #expect(TextDecoder.decode(bytes, forced: TextEncoding(label: "cp949")).text == text, "cp949 declared reads the extension")
        #expect(TextDecoder.decode(bytes, forced: .eucKR).text == text, "EUC-KR is read as CP949")
    }

    /// A Japanese file with NEC/IBM extension characters (①, Ⅲ, №, ～) is CP932, and its `~` and
    /// `\` are ASCII.
    @Test func cp932ExtensionCharacters() throws {
        let text = Self.srt(Self.japanese + ["① 第Ⅲ章 №5 ～ ~ \\ 終わり"])
        let bytes = try #require(Iconv.encode(text, to: "CP932"))
        let decoded = TextDecoder.decode(bytes)
        #expect(decoded.encoding == .shiftJIS && decoded.text == text, "\(decoded.encoding.rawValue): \(decoded.text.suffix(40))")
        #expect(TextDecoder.decode(bytes, forced: TextEncoding(label: "cp932")).text == text)
        // Plain Shift_JIS read as CP932: `~` and `\` stay ASCII (strict Shift_JIS reads ‾ and ¥).
        let plain = Self.srt(Self.japanese + ["a~b\\c"])
        let sjis = try #require(Iconv.encode(plain, to: "SHIFT_JIS"))
        #expect(TextDecoder.decode(sjis).text == plain)
    }

    /// UTF-16 and UTF-32 without a byte order mark, ASCII and Cyrillic (ASCII in them is valid
    /// UTF-8, NULs and all): found by their NUL bytes.
    @Test(arguments: ["UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"])
    func bomlessUnicode(_ encoding: String) throws {
        for lines in [["Hello there", "Second line"], ["Добрый день, как дела?", "Я не знаю, что случилось."]] {
            let text = Self.srt(lines)
            let bytes = try #require(Iconv.encode(text, to: encoding))
            let decoded = TextDecoder.decode(bytes)
            #expect(decoded.text == text && decoded.sniffed != nil, "\(encoding): \(decoded.encoding.rawValue)")
        }
    }

    /// Czech in ISO-8859-2 is not windows-1250 (š, ž, ť sit on other bytes there).
    @Test func iso88592IsNotWindows1250() throws {
        let text = Self.srt(["Příliš žluťoučký kůň úpěl ďábelské ódy.", "Šťastný nový rok, řekl Tomáš.", "Žádná škola není tak těžká."])
        let bytes = try #require(Iconv.encode(text, to: "ISO-8859-2"))
        let decoded = TextDecoder.decode(bytes)
        #expect(decoded.encoding == .iso88592 && decoded.text == text, "\(decoded.encoding.rawValue): \(decoded.text)")
    }

    /// ISO-2022-JP and ISO-2022-KR are 7-bit: their escapes are not shown as text.
    @Test func iso2022() throws {
        for (lines, name, want) in [(Self.japanese, "ISO-2022-JP", TextEncoding.iso2022JP), (Self.korean, "ISO-2022-KR", .iso2022KR)] {
            let text = Self.srt(lines)
            let bytes = try #require(Iconv.encode(text, to: name))
            #expect(!bytes.contains { $0 >= 0x80 })
            let decoded = TextDecoder.decode(bytes)
            #expect(decoded.encoding == want && decoded.text == text, "\(name): \(decoded.encoding.rawValue)")
        }
    }

    /// Labels are read as the WHATWG Encoding Standard reads them, as a browser reads a
    /// `charset`: a file said to be `latin1` or `iso-8859-1` is windows-1252, whose 0x80-0x9F are
    /// ’ € Œ and the rest, not C1 controls.
    @Test func labelsAreReadAsBrowsersReadThem() {
        let labels: [(String, TextEncoding)] = [
            ("latin1", .windows1252), ("ISO-8859-1", .windows1252), ("US-ASCII", .windows1252), ("iso_8859-1:1987", .windows1252),
            ("ISO-8859-9", .windows1254), ("GB2312", .gb18030), ("GBK", .gb18030), ("utf-16", .utf16LE), ("Shift_JIS", .shiftJIS),
            ("ks_c_5601-1987", .eucKR), ("KOI8-R", .koi8R), ("windows-874", .tis620), ("UTF8", .utf8),
        ]
        for (label, encoding) in labels { #expect(TextEncoding(label: label) == encoding, "\(label)") }
        #expect(TextEncoding(label: "klingon") == nil)
        let bytes: [UInt8] = Array("It".utf8) + [0x92] + Array("s 5".utf8) + [0x80] + Array(", ".utf8) + [0x8C] + Array("uvre".utf8)
        for label in ["latin1", "iso-8859-1"] {
            #expect(TextDecoder.decode(bytes, forced: TextEncoding(label: label)).text == "It’s 5€, Œuvre", "\(label)")
        }
    }

    /// A short line in a CJK encoding is read right, or the reading says it is unsure: never a
    /// confident wrong guess.
    @Test func shortCJKLinesAreRightOrUnsure() throws {
        let lines: [(String, String)] = [
            ("欢迎光临", "GB18030"), ("谢谢你", "GB18030"), ("歡迎光臨", "BIG5"), ("謝謝你", "BIG5"), ("ありがとう", "SHIFT_JIS"),
            ("ようこそ", "EUC-JP"), ("감사합니다", "EUC-KR"), ("어서 오세요", "CP949"),
        ]
        for (line, codec) in lines {
            let text = "1\n00:00:01,000 --> 00:00:02,000\n\(line)\n"
            let bytes = try #require(Iconv.encode(text, to: codec))
            let decoded = TextDecoder.decode(bytes)
            #expect(
                decoded.text == text || (decoded.confidence ?? 1) < EncodingCalibration.warningThreshold,
                "\(line) in \(codec): \(decoded.encoding.rawValue) at \(decoded.confidence ?? 1)")
        }
    }
}
