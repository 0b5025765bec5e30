import Foundation
import Timebase

/// What to take out of a presentation: a source ID, and a language when given.
public struct RemovalSelector: Sendable, Equatable, CustomStringConvertible {
    /// The source ID the rendition was added with (`CC1` for decoded captions).
    ///
    /// For a rendition Subweave did not create (removed only with force), its NAME. Nil: every
    /// source (then a language must be given, and only Subweave's renditions match).
    public var sourceID: String?
    /// Only the rendition in this language (nil: every language of the source).
    public var language: LanguageTag?

    /// Selects the renditions of `sourceID`, in `language` when given.
    public init(sourceID: String, language: LanguageTag? = nil) {
        self.sourceID = sourceID
        self.language = language
    }

    /// Selects every rendition Subweave added in `language`, whatever its source.
    public init(language: LanguageTag) {
        self.sourceID = nil
        self.language = language
    }

    public var description: String {
        guard let sourceID else { return "every source in \(language.map(\.description) ?? "any language")" }
        return "source ID \"\(sourceID)\"" + (language.map { " in \($0)" } ?? "")
    }

    func matchesLanguage(_ text: String?) -> Bool {
        guard let language else { return true }
        guard let text, let tag = LanguageTag(parsing: text) else { return false }
        return tag.description.lowercased() == language.description.lowercased()
    }
}
