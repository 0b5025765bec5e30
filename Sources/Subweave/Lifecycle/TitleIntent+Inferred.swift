import Captions
import Foundation
import Timebase

extension TitleIntent {
    /// What an earlier Subweave said without a record: the caption services' names and
    /// languages kept in their renditions' records.
    static func inferred(from existing: [ExistingRendition]) -> TitleIntent {
        var intent = TitleIntent()
        for e in existing where e.isManaged {
            guard let record = e.record, let service = RenditionIdentity.inBandService(record.identity)?.rawValue else { continue }
            let language = LanguageTag(parsing: record.language).flatMap { $0.isUndetermined ? nil : $0 }
            // A name Subweave derived ("English (CC1)") was not said.
            let derived = language?.englishName.map { "\($0) (\(service))" } ?? service
            intent.captionServices[service] = Service(
                language: language?.description, name: record.name == derived ? nil : record.name, publish: true)
        }
        return intent
    }
}
