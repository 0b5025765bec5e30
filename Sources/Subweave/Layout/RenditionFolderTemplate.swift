import Foundation
import Timebase

/// Where a side-loaded track's rendition folder goes, relative to the master: a path template
/// with `{id}` (the track's source ID, made folder-safe) and `{language}` (its language tag).
///
/// The default, `subtitles/{id}-{language}`, gives `subtitles/en-en`; `text/{language}/{id}`
/// gives `text/en/en`. Each generation of the rendition is a folder inside it, as in the default
/// layout. A template is one to eight components separated by `/`, each letters, digits, `.`,
/// `_`, `-` and placeholders, none empty, none beginning with a dot, none 12 hexadecimal digits
/// (a generation's name); `captions` may not begin it (in-band captions live there). Two tracks
/// that the template gives the same folder (or one folder inside another) are refused when they
/// are planned.
public struct RenditionFolderTemplate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The template as written.
    public let text: String

    /// `subtitles/{id}-{language}`: what Subweave has always written.
    public static let standard = RenditionFolderTemplate(checked: "subtitles/{id}-{language}")

    private init(checked text: String) { self.text = text }

    /// The template `text`, or nil when ``problem(_:)`` finds one.
    public init?(_ text: String) {
        guard Self.problem(text) == nil else { return nil }
        self.text = text
    }

    static let placeholders = ["{id}", "{language}"]

    /// What is wrong with `text` as a template, or nil.
    public static func problem(_ text: String) -> String? {
        if text.utf8.count > 200 { return "it is longer than 200 bytes" }
        if text.hasPrefix("/") { return "it must be relative to the master, not begin with '/'" }
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count <= 8 else { return "it has more than 8 components" }
        for component in components {
            if component.isEmpty { return "it has an empty component (two '/' together, or one at the end)" }
            if component.hasPrefix(".") { return "the component \"\(component)\" begins with a dot (hidden, or a way out of the folder)" }
            var literal = String(component)
            for placeholder in placeholders { literal = literal.replacingOccurrences(of: placeholder, with: "") }
            if let bad = literal.unicodeScalars.first(where: { !Self.isFolderCharacter($0) }) {
                return
                    "it holds \(LabelText.describe(bad)); a folder is letters, digits, '.', '_', '-', {id} and {language}, components separated by '/'"
            }
            if literal == String(component), RenditionLayout.isGeneration(component) {
                return "the component \"\(component)\" is 12 hexadecimal digits, which names a generation"
            }
        }
        if components[0] == Substring(RenditionLayout.captionsRoot) {
            return "it may not begin with \(RenditionLayout.captionsRoot)/, where in-band captions go"
        }
        return nil
    }

    static func isFolderCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x2E || v == 0x5F || v == 0x2D
    }

    /// The folder for a track whose folder-safe source ID is `id`, in `language`.
    public func folder(id: String, language: String) -> String {
        text.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{language}", with: language)
    }

    /// Whether `folder` is one this template makes (each placeholder one or more folder
    /// characters).
    public func matches(_ folder: String) -> Bool {
        let wanted = text.split(separator: "/", omittingEmptySubsequences: false)
        let given = folder.split(separator: "/", omittingEmptySubsequences: false)
        guard wanted.count == given.count else { return false }
        return zip(wanted, given).allSatisfy { Self.matches(Array($1.unicodeScalars), pattern: Self.pieces(of: $0)) }
    }

    /// The folders this template makes that exist, found by listing one component at a time
    /// (`entries` lists a folder relative to the master, "" the master's own; names beginning
    /// with a dot are never taken).
    public func folders(listing entries: (String) -> [String]) -> [String] {
        var found = [""]
        for component in text.split(separator: "/") {
            let pattern = Self.pieces(of: component)
            found = found.flatMap { parent in
                entries(parent).filter { !$0.hasPrefix(".") && Self.matches(Array($0.unicodeScalars), pattern: pattern) }
                    .map { parent.isEmpty ? $0 : parent + "/" + $0 }
            }
        }
        return found
    }

    /// A component split into literals and placeholders.
    private enum Piece { case literal([Unicode.Scalar]), placeholder }

    private static func pieces(of component: Substring) -> [Piece] {
        var pieces: [Piece] = []
        var rest = component
        while !rest.isEmpty {
            if let placeholder = placeholders.first(where: { rest.hasPrefix($0) }) {
                pieces.append(.placeholder)
                rest = rest.dropFirst(placeholder.count)
            } else {
                let end = placeholders.compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
                pieces.append(.literal(Array(rest[..<end].unicodeScalars)))
                rest = rest[end...]
            }
        }
        return pieces
    }

    /// Matches `name` against `pattern` (a placeholder takes one or more folder characters),
    /// each (position, piece) tried once: time bounded by the name's length squared times the
    /// pieces, whatever the template.
    private static func matches(_ name: [Unicode.Scalar], pattern: [Piece]) -> Bool {
        var failed = Set<Int>()
        func match(_ at: Int, _ piece: Int) -> Bool {
            guard piece < pattern.count else { return at == name.count }
            let key = at * (pattern.count + 1) + piece
            if failed.contains(key) { return false }
            var found = false
            switch pattern[piece] {
            case .literal(let literal):
                found = at + literal.count <= name.count && Array(name[at..<at + literal.count]) == literal && match(at + literal.count, piece + 1)
            case .placeholder:
                var end = at
                while !found, end < name.count, isFolderCharacter(name[end]) {
                    end += 1
                    found = match(end, piece + 1)
                }
            }
            if !found { failed.insert(key) }
            return found
        }
        return match(0, 0)
    }

    public var description: String { text }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard Self.problem(text) == nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a rendition folder template: \(text)"))
        }
        self.text = text
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
