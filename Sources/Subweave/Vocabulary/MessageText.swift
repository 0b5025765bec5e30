import Foundation

/// The words of a message, with the settings it names kept apart from its text.
///
/// The library names a setting as its API does (`PackageRequest.allowEmpty`); a front end renders
/// the same message with its own spelling (the command line's `--allow-empty`) through
/// ``rendered(_:)``. Text that came from a file (a NAME, a path, a cue) is a ``Part/text(_:)`` and
/// is never rewritten, whatever it holds.
///
/// Written as a string literal with interpolations: a ``Setting`` (or a removal) interpolated is
/// a setting; anything else is text.
/// ```swift
/// let message: MessageText = "the track \(name) is empty; written anyway (\(Setting.allowEmpty))"
/// ```
public struct MessageText: Sendable, Equatable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// A piece of a message.
    public enum Part: Sendable, Equatable, Hashable {
        /// Words, as they are.
        case text(String)
        /// A setting of the API, for the front end to spell.
        case setting(Setting)
        /// Taking out the rendition with a source ID (and a language): a removal request.
        case removal(id: String, language: String?)
    }

    public private(set) var parts: [Part]

    /// A message of `parts`.
    public init(parts: [Part]) { self.parts = parts }

    /// A message that is all text.
    public init(_ text: String) { parts = text.isEmpty ? [] : [.text(text)] }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    /// How a front end spells what a message names.
    public struct Spelling: Sendable {
        /// A setting, such as `--allow-empty`.
        public var setting: @Sendable (Setting) -> String
        /// A removal, such as `subweave remove --id fr --language de`.
        public var removal: @Sendable (_ id: String, _ language: String?) -> String

        public init(setting: @escaping @Sendable (Setting) -> String, removal: @escaping @Sendable (String, String?) -> String) {
            self.setting = setting
            self.removal = removal
        }

        /// The library's own: `` `PackageRequest.allowEmpty` ``, `` `PackageRequest.removals(id: fr)` ``.
        public static let library = Spelling(
            setting: { "`\($0.rawValue)`" },
            removal: { id, language in "`\(Setting.removals.rawValue)(id: \(id)\(language.map { ", language: \($0)" } ?? ""))`" })
    }

    /// The message with what it names spelt by `spelling`; text is copied as it is.
    public func rendered(_ spelling: Spelling) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let text): out += text
            case .setting(let setting): out += spelling.setting(setting)
            case .removal(let id, let language): out += spelling.removal(id, language)
            }
        }
        return out
    }

    /// The message as the library spells it.
    public var description: String { rendered(.library) }

    /// Whether the message has no words.
    public var isEmpty: Bool { parts.isEmpty }

    /// Whether the text (not the settings) contains `text`.
    public func contains(_ text: String) -> Bool { description.contains(text) }

    /// This message followed by `other`.
    public static func + (a: MessageText, b: MessageText) -> MessageText { MessageText(parts: a.parts + b.parts) }

    /// A message written with interpolations.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { appendText(literal) }

        /// A setting the front end spells.
        public mutating func appendInterpolation(_ setting: Setting) { parts.append(.setting(setting)) }

        /// A removal request the front end spells (`subweave remove --id fr --language de`).
        public mutating func appendInterpolation(removal id: String, language: String?) { parts.append(.removal(id: id, language: language)) }

        /// Another message, its settings kept.
        public mutating func appendInterpolation(_ message: MessageText) {
            for part in message.parts {
                if case .text(let text) = part { appendText(text) } else { parts.append(part) }
            }
        }

        /// Anything else, as text.
        public mutating func appendInterpolation<T>(_ value: T) { appendText(String(describing: value)) }

        private mutating func appendText(_ text: String) {
            guard !text.isEmpty else { return }
            if case .text(let previous)? = parts.last {
                parts[parts.count - 1] = .text(previous + text)
            } else {
                parts.append(.text(text))
            }
        }
    }
}

extension MessageText: Codable {
    /// The key of ``CodingUserInfoKey`` under which an encoder carries a ``Spelling`` (the
    /// command line spells settings as its options in every JSON output).
    public static let spellingKey: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "subweave.spelling") else { preconditionFailure("a coding key made of a literal") }
        return key
    }()

    /// Encoded as a string, spelt as the encoder's ``spellingKey`` says (the library's spelling
    /// without one).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rendered((encoder.userInfo[Self.spellingKey] as? Spelling) ?? .library))
    }

    /// Decoded as text.
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }
}

extension DefaultStringInterpolation {
    /// A setting in a plain `String` would be spelt by its case name for every front end: the
    /// compiler warns (and the build allows no warning); name it in a ``MessageText``, which a
    /// front end spells.
    @available(*, deprecated, message: "name a Setting in a MessageText, which a front end spells, not in a String")
    public mutating func appendInterpolation(_ setting: Setting) { appendLiteral(setting.rawValue) }
}
