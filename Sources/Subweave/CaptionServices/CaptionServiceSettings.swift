import Captions
import Foundation
import Timebase

/// What the operator says of one caption service: its language, its menu name, and whether to
/// publish it.
public struct CaptionServiceSetting: Sendable, Equatable {
    public var language: LanguageTag?
    public var name: String?
    /// Whether to publish it; nil leaves it to the default (``ProgrammeCaptions/published``).
    public var publish: Bool?

    public init(language: LanguageTag? = nil, name: String? = nil, publish: Bool? = nil) {
        self.language = language
        self.name = name
        self.publish = publish
    }
}

/// The operator's settings for the caption services of a title, and the language of those the
/// stream does not name.
public struct CaptionServiceSettings: Sendable, Equatable {
    /// Settings by service name (`CC1`…`CC4`, `SERVICE1`…`SERVICE63`, a teletext page `888`).
    public var services: [String: CaptionServiceSetting] = [:]
    /// The language of a service that neither the operator nor the stream names.
    public var defaultLanguage: LanguageTag?

    public init(services: [String: CaptionServiceSetting] = [:], defaultLanguage: LanguageTag? = nil) {
        self.services = services
        self.defaultLanguage = defaultLanguage
    }

    public subscript(service: String) -> CaptionServiceSetting? { services[service] }

    /// What a setting may name, as a caption service would be listed.
    public static let serviceNamesHelp =
        "CC1…CC4 (CEA-608), SERVICE1…SERVICE63 (CEA-708), a teletext page such as 888 or a DVB subtitle stream by its PID such as DVB0104"

    /// Adds one setting written `SERVICE:key=value,…` (keys `language`, `name`, `publish=yes|no`),
    /// failing with what is wrong.
    public mutating func add(parsing text: String) throws(RegistrationError) {
        let origin = "caption service \"\(LabelText.excerpt(text))\""
        guard let colon = text.firstIndex(of: ":") else {
            throw RegistrationError(.invalidValue, descriptor: origin, "write SERVICE:key=value,…, as in CC1:language=en,name=English CC")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        guard let service = CaptionService(rawValue: name) else {
            throw RegistrationError(
                .invalidValue, descriptor: origin, "\"\(LabelText.excerpt(name))\" is not a caption service: \(Self.serviceNamesHelp)")
        }
        let descriptor = try TrackDescriptor(parsing: String(text[text.index(after: colon)...]), origin: origin)
        try set(service.rawValue, pairs: descriptor.pairs, origin: origin)
    }

    /// Sets `service` from `pairs` (from a descriptor or a catalogue line's object).
    public mutating func set(_ service: String, pairs: [(key: String, value: String)], origin: String) throws(RegistrationError) {
        var setting = services[service] ?? CaptionServiceSetting()
        for (key, value) in pairs {
            switch key.lowercased() {
            case "language", "lang":
                guard let tag = LanguageTag(parsing: value), tag.isKnownLanguage else {
                    throw RegistrationError(
                        .invalidLanguage, descriptor: origin,
                        "language=\(LabelText.excerpt(value)) is not a known BCP 47 language; write a code such as en or pt-BR, or und for unknown")
                }
                setting.language = tag
            case "name":
                let name = value.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { throw RegistrationError(.emptyLabel, descriptor: origin, "name= is empty; it is the label players show") }
                if let bad = name.unicodeScalars.first(where: { LabelText.isRefused($0) || $0 == "\"" }) {
                    throw RegistrationError(
                        .unsafeText, descriptor: origin, "name \"\(LabelText.excerpt(name))\" contains \(LabelText.describe(bad)); \(LabelText.reason(bad))")
                }
                setting.name = name
            case "publish":
                switch value.lowercased() {
                case "yes", "true": setting.publish = true
                case "no", "false": setting.publish = false
                default: throw RegistrationError(.invalidValue, descriptor: origin, "publish= takes yes or no")
                }
            default:
                throw RegistrationError(.unknownKey, descriptor: origin, "unknown key \"\(LabelText.excerpt(key))\"; the keys are language, name and publish")
            }
        }
        services[service] = setting
    }
}
