import Foundation
import Timebase

/// Which renditions a removal selector names.
extension RemovalSelector {
    /// True for a managed rendition added with this source ID (and language).
    func matches(managed existing: ExistingRendition) -> Bool {
        guard existing.isManaged, let id = existing.sourceID else { return false }
        let language = existing.record?.language ?? existing.rendition.language
        guard let sourceID else { return self.language != nil && matchesLanguage(language) }
        return id.caseInsensitiveCompare(sourceID) == .orderedSame && matchesLanguage(language)
    }

    /// True for another tool's rendition whose NAME is this source ID (and language).
    func matches(foreign existing: ExistingRendition) -> Bool {
        guard !existing.isManaged, let sourceID else { return false }
        return existing.rendition.name == sourceID && matchesLanguage(existing.rendition.language)
    }
}
