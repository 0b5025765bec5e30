/// A BCP 47 language tag (RFC 5646), parsed into subtags and written in canonical form.
///
/// Canonical form: the language subtag in lower case and, where ISO 639-1 has one, its two-letter
/// code (`eng`, `fre` and `fra` become `en` and `fr`; deprecated `iw`, `in`, `ji` become `he`, `id`,
/// `yi`); the script in title case (`Hant`); the region in upper case (`BR`, `419`); variants and
/// extensions in lower case. `_` is accepted as a separator and written as `-`.
///
/// ```swift
/// LanguageTag(parsing: "ENG_us")?.description   // "en-US"
/// LanguageTag(parsing: "zh-hant")?.description  // "zh-Hant"
/// ```
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// The primary language subtag (canonical), such as `en`, `yue`, `und`; empty for a private-use-only tag.
    public let language: String
    /// Extended language subtags (`zh-yue`), lower case.
    public let extendedLanguages: [String]
    /// The script subtag in title case, such as `Hant`, or nil.
    public let script: String?
    /// The region subtag in upper case, such as `BR`, `419`, or nil.
    public let region: String?
    /// Variant, extension and private-use subtags, lower case, in order.
    public let trailing: [String]

    /// The undetermined language, `und`.
    public static let undetermined = LanguageTag(language: "und", extendedLanguages: [], script: nil, region: nil, trailing: [])
    /// English (`en`).
    public static let english = LanguageTag(language: "en", extendedLanguages: [], script: nil, region: nil, trailing: [])

    private init(language: String, extendedLanguages: [String], script: String?, region: String?, trailing: [String]) {
        self.language = language
        self.extendedLanguages = extendedLanguages
        self.script = script
        self.region = region
        self.trailing = trailing
    }

    /// Parses a well-formed BCP 47 tag; nil if `text` is not one.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map { String($0) }
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(\.isASCIIAlphanumeric) }) else {
            return nil
        }
        var index = 0
        var language = ""
        var extlangs: [String] = []
        var script: String?
        var region: String?

        let first = parts[0].lowercased()
        if first == "x" {
            // A private-use-only tag such as `x-klingon`.
            guard parts.count > 1 else { return nil }
            self.init(language: "", extendedLanguages: [], script: nil, region: nil, trailing: parts.map { $0.lowercased() })
            return
        }
        guard first.allSatisfy(\.isASCIILetter), (2...3).contains(first.count) || (5...8).contains(first.count) else { return nil }
        language = LanguageTable.canonicalCode(first)
        index = 1
        if first.count <= 3 {
            while index < parts.count, extlangs.count < 3, parts[index].count == 3, parts[index].allSatisfy(\.isASCIILetter) {
                extlangs.append(parts[index].lowercased())
                index += 1
            }
        }
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy(\.isASCIILetter) {
            let s = parts[index].lowercased()
            script = s.prefix(1).uppercased() + s.dropFirst()
            index += 1
        }
        if index < parts.count {
            let p = parts[index]
            if (p.count == 2 && p.allSatisfy(\.isASCIILetter)) || (p.count == 3 && p.allSatisfy(\.isASCIIDigit)) {
                region = p.uppercased()
                index += 1
            }
        }
        guard let trailing = Self.trailingSubtags(parts, from: index) else { return nil }
        self.init(language: language, extendedLanguages: extlangs, script: script, region: region, trailing: trailing)
    }

    /// The variants, extensions and private use after the region (`parts` from `start`),
    /// lowercased; nil when they are not well formed.
    static func trailingSubtags(_ parts: [String], from start: Int) -> [String]? {
        var index = start
        var trailing: [String] = []
        // Variants: 5-8 alphanumerics, or a digit and three alphanumerics.
        while index < parts.count {
            let p = parts[index]
            let isVariant = (5...8).contains(p.count) || (p.count == 4 && p.first?.isASCIIDigit == true)
            guard isVariant else { break }
            trailing.append(p.lowercased())
            index += 1
        }
        // Extensions (`u-ca-gregory`) and private use (`x-...`): a singleton then 1+ subtags.
        while index < parts.count {
            let singleton = parts[index].lowercased()
            guard singleton.count == 1 else { return nil }
            trailing.append(singleton)
            index += 1
            let isPrivateUse = singleton == "x"
            var count = 0
            while index < parts.count {
                let p = parts[index]
                // Private use takes every remaining subtag; an extension's subtags are 2-8 long.
                if !isPrivateUse && p.count < 2 { break }
                trailing.append(p.lowercased())
                index += 1
                count += 1
            }
            guard count > 0 else { return nil }
        }
        return trailing
    }

    /// True when `text` is a well-formed BCP 47 tag as written (RFC 5646 §2.1: subtags separated
    /// by `-`, not `_`), which playlists require; ``init(parsing:)`` is lenient with user input.
    public static func isWellFormed(_ text: String) -> Bool {
        !text.contains("_") && LanguageTag(parsing: text) != nil
    }

    /// True for `und` (undetermined), which matches no other tag.
    public var isUndetermined: Bool { language == "und" }

    /// The primary language as ISO 639-2/T's three letters (`fr` → `fra`; a three-letter code as
    /// it is), or `und`: what an MP4 track's `mdhd` holds.
    public var threeLetterCode: String {
        if language.count == 3 { return language }
        return LanguageTable.row(forCanonical: language)?.alpha3 ?? "und"
    }

    /// The canonical text of the tag.
    public var description: String {
        var parts: [String] = language.isEmpty ? [] : [language]
        parts += extendedLanguages
        if let script { parts.append(script) }
        if let region { parts.append(region) }
        parts += trailing
        return parts.joined(separator: "-")
    }

    /// The script the tag writes in: its own script subtag, or the one implied for Chinese by
    /// its region (`zh-TW` → `Hant`, `zh-CN` → `Hans`), or nil.
    public var effectiveScript: String? {
        if let script { return script }
        guard language == "zh", let region else { return nil }
        switch region {
        case "TW", "HK", "MO": return "Hant"
        case "CN", "SG", "MY": return "Hans"
        default: return nil
        }
    }

    /// A human-readable name derived from the tag: the language's own name for itself (CLDR
    /// autonym, capitalised), with the region appended in parentheses; nil when the language is
    /// not in ISO 639-1 or the tag is `und`.
    ///
    /// `fr` → `Français`, `pt-BR` → `Português (BR)`, `zh-Hant` → `中文 (Hant)`.
    public var autonym: String? {
        guard !isUndetermined, let row = LanguageTable.row(forCanonical: language) else { return nil }
        let qualifiers = [script, region].compactMap { $0 }
        return qualifiers.isEmpty ? row.autonym : "\(row.autonym) (\(qualifiers.joined(separator: "-")))"
    }

    /// The language's English name (`Czech`), or nil when it is not in ISO 639-1.
    public var englishName: String? {
        LanguageTable.row(forCanonical: language)?.english
    }

    /// True when the primary language subtag is a known ISO 639 code (or `und`).
    public var isKnownLanguage: Bool {
        isUndetermined || LanguageTable.row(forCanonical: language) != nil
    }

    /// The tag for a language written as a name, in English or in the language itself
    /// (`english` → `en`, `Français` → `fr`), for "did you mean" messages; nil if none matches.
    public static func suggestion(forName name: String) -> LanguageTag? {
        let key = name.lowercased()
        guard
            let row = LanguageTable.rows.first(where: {
                $0.english.lowercased() == key || $0.autonym.lowercased() == key
                    || $0.english.lowercased().hasPrefix(key + " (")
            })
        else { return nil }
        return LanguageTag(parsing: row.alpha2)
    }
}

extension LanguageTag {
    /// How closely `other` matches this tag when this tag is the viewer's preference.
    ///
    /// `und` matches nothing. The languages must be the same (ISO 639-1, 639-2/T and 639-2/B
    /// codes are the same language; the comparison is on canonical forms, so case is ignored).
    /// Scripts, where both are known, must agree (`zh-Hant` never matches `zh-Hans`). Regions rank
    /// the match: the same region (or neither has one) is `.exact`, one side without a region is
    /// `.regionless` (`pt` and `pt-BR`), two different regions are `.otherRegion`.
    public func match(_ other: LanguageTag) -> LanguageMatch {
        guard !isUndetermined, !other.isUndetermined, !language.isEmpty, language == other.language,
            extendedLanguages == other.extendedLanguages
        else { return .none }
        if let a = effectiveScript, let b = other.effectiveScript, a != b { return .none }
        switch (region, other.region) {
        case (nil, nil): return script == other.script ? .exact : .regionless
        case let (a?, b?): return a == b ? .exact : .otherRegion
        default: return .regionless
        }
    }
}

/// The quality of a language match, best last, so `max()` finds the best.
public enum LanguageMatch: Int, Sendable, Comparable {
    case none = 0
    case otherRegion = 1
    case regionless = 2
    case exact = 3

    public static func < (a: LanguageMatch, b: LanguageMatch) -> Bool { a.rawValue < b.rawValue }
}

/// ISO 639 codes and names.
enum LanguageTable {
    struct Row: Sendable {
        let alpha2: String
        let alpha3: String
        let bibliographic: String
        let english: String
        let autonym: String
        init(_ alpha2: String, _ alpha3: String, _ bibliographic: String, _ english: String, _ autonym: String) {
            self.alpha2 = alpha2
            self.alpha3 = alpha3
            self.bibliographic = bibliographic
            self.english = english
            self.autonym = autonym
        }
    }

    /// Codes that RFC 5646's registry deprecates in favour of another.
    private static let deprecated: [String: String] = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]

    private static let byCode: [String: Row] = {
        var map: [String: Row] = [:]
        for row in rows {
            map[row.alpha2] = row
            map[row.alpha3] = row
            if !row.bibliographic.isEmpty { map[row.bibliographic] = row }
        }
        return map
    }()

    /// The canonical code for a lower-case primary language subtag.
    static func canonicalCode(_ code: String) -> String {
        if let replacement = deprecated[code] { return replacement }
        return byCode[code]?.alpha2 ?? code
    }

    static func row(forCanonical code: String) -> Row? { byCode[code] }
}
