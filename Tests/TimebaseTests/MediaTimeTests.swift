import TestSupport
import Testing
import Timebase

struct MediaTimeTests {
    static let decimals: [SourceRow<(String, Int64?)>] = [
        SourceRow(("6", 540_000)),
        SourceRow(("6.006000", 540_540)),
        SourceRow(("4.004", 360_360)),
        SourceRow(("0.5", 45_000)),
        SourceRow(("10.000000001", 900_000)),  // beyond the 9th decimal is ignored
        SourceRow(("3.003003", 270_270)),  // 270270.27 ticks rounds to 270270
        SourceRow((".5", 45_000)),
        SourceRow(("", nil)),
        SourceRow(("1.2.3", nil)),
        SourceRow(("-1", nil)),
        SourceRow(("1e3", nil)),
        SourceRow(("six", nil)),
    ]

    @Test func decimalSecondsAreExact() {
        for row in Self.decimals {
            let (text, ticks) = row.value
            #expect(MediaTime(decimalSeconds: Substring(text))?.ticks == ticks, "\(text) at \(row.file):\(row.line)")
        }
    }

    @Test func millisecondsAreExactAndRoundHalfAway() {
        #expect(MediaTime(milliseconds: 1500).ticks == 135_000)
        #expect(MediaTime(ticks: 135_044).milliseconds == 1500)
        #expect(MediaTime(ticks: 135_045).milliseconds == 1501)
        #expect(MediaTime(ticks: -45).milliseconds == -1)
        #expect(MediaTime(ticks: 91).roundedUpToMillisecond.ticks == 180)
        #expect(MediaTime(ticks: 180).roundedUpToMillisecond.ticks == 180)
        // Every remainder, both signs, random times within the limit: the nearest millisecond,
        // halves away from zero, as a Double works it out (exact below 2^53 ticks: a quotient
        // is a half exactly or at least 1/90 from one).
        var rng = SystemRandomNumberGenerator()
        let samples =
            (-400...400).map(Int64.init) + [MediaTime.limit, -MediaTime.limit, MediaTime.limit - 45, 45 - MediaTime.limit]
            + (0..<2_000).map { _ in Int64.random(in: -MediaTime.limit...MediaTime.limit, using: &rng) }
        for ticks in samples {
            let expected = Int64((Double(ticks) / 90).rounded(.toNearestOrAwayFromZero))
            #expect(MediaTime(ticks: ticks).milliseconds == expected, "\(ticks)")
        }
        // The extremes of the type (no overflow on the way).
        #expect(MediaTime(ticks: .max).milliseconds == Int64.max / 90)  // remainder 7
        #expect(MediaTime(ticks: .min).milliseconds == Int64.min / 90)  // remainder -8
    }

    @Test func timescaleConversion() {
        #expect(MediaTime(1001, timescale: 30000).ticks == 3003)
        #expect(MediaTime(2002, timescale: 30000).ticks == 6006)
        #expect(MediaTime(1, timescale: 48000).ticks == 2)  // 1.875 rounds to 2
        #expect(MediaTime(Int64(1) << 40, timescale: 90000).ticks == Int64(1) << 40)  // no overflow in the product
    }

    @Test func ptsWrap() {
        let m = PresentationTimestamp.modulus
        #expect(m == 8_589_934_592)
        #expect(PresentationTimestamp.wrapped(m + 5) == 5)
        #expect(PresentationTimestamp.wrapped(-1) == m - 1)
        #expect(PresentationTimestamp.unwrapped(5, near: m - 10) == m + 5)
        #expect(PresentationTimestamp.unwrapped(m - 10, near: 5) == -10)
        #expect(PresentationTimestamp.wrappedDifference(5, m - 10) == 15)
        #expect(PresentationTimestamp.wrappedDifference(m - 10, 5) == -15)
    }
}

struct LanguageTagTests {
    static let canonical: [SourceRow<(String, String?)>] = [
        SourceRow(("en", "en")), SourceRow(("EN", "en")), SourceRow(("eng", "en")), SourceRow(("fre", "fr")), SourceRow(("fra", "fr")),
        SourceRow(("cze", "cs")), SourceRow(("ces", "cs")), SourceRow(("cs-cz", "cs-CZ")), SourceRow(("pt_br", "pt-BR")),
        SourceRow(("zh-hant-tw", "zh-Hant-TW")), SourceRow(("es-419", "es-419")), SourceRow(("iw", "he")), SourceRow(("yue", "yue")),
        SourceRow(("und", "und")), SourceRow(("sr-Latn-RS", "sr-Latn-RS")), SourceRow(("de-DE-u-co-phonebk", "de-DE-u-co-phonebk")),
        SourceRow(("x-klingon", "x-klingon")), SourceRow(("en-x-sdh", "en-x-sdh")),
        SourceRow(("", nil)), SourceRow(("e", nil)), SourceRow(("english language", nil)), SourceRow(("en--US", nil)),
        SourceRow(("en\"", nil)), SourceRow(("../en", nil)), SourceRow(("toolonglanguage", nil)), SourceRow(("en-u", nil)),
    ]

    @Test func parsesAndCanonicalises() {
        for row in Self.canonical {
            let (text, expected) = row.value
            #expect(LanguageTag(parsing: text)?.description == expected, "\(text) at line \(row.line)")
        }
    }

    static let matches: [SourceRow<(String, String, LanguageMatch)>] = [
        SourceRow(("cs", "ces", .exact)), SourceRow(("cze", "cs", .exact)), SourceRow(("cs", "cs-CZ", .regionless)),
        SourceRow(("CS", "cs", .exact)), SourceRow(("pt", "pt-BR", .regionless)), SourceRow(("pt-BR", "pt", .regionless)),
        SourceRow(("pt-PT", "pt-BR", .otherRegion)), SourceRow(("zh-Hant", "zh-Hans", .none)), SourceRow(("zh-Hant", "zh-TW", .regionless)),
        SourceRow(("zh-TW", "zh-CN", .none)), SourceRow(("zh", "zh-Hant", .regionless)), SourceRow(("und", "und", .none)),
        SourceRow(("en", "und", .none)), SourceRow(("en", "fr", .none)), SourceRow(("sr-Latn", "sr-Cyrl", .none)),
    ]

    @Test func matchesTolerantly() throws {
        for row in Self.matches {
            let (a, b, expected) = row.value
            let tagA = try #require(LanguageTag(parsing: a)), tagB = try #require(LanguageTag(parsing: b))
            #expect(tagA.match(tagB) == expected, "\(a) vs \(b) at line \(row.line)")
        }
    }

    @Test func names() {
        #expect(LanguageTag(parsing: "fr")?.autonym == "Français")
        #expect(LanguageTag(parsing: "ger")?.autonym == "Deutsch")
        #expect(LanguageTag(parsing: "pt-BR")?.autonym == "Português (BR)")
        #expect(LanguageTag(parsing: "und")?.autonym == nil)
        #expect(LanguageTag(parsing: "yue")?.autonym == nil)
        #expect(LanguageTag(parsing: "cs")?.englishName == "Czech")
    }
}
