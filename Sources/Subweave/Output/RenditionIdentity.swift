import Captions
import Timebase

/// What a rendition Subweave manages is: a side-loaded track, or a CEA-608 service of the video.
public enum RenditionIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A side-loaded subtitle file: `external:<sourceID>:<language>`.
    case external(sourceID: String, language: LanguageTag)
    /// A caption service decoded from the video: `cea608:CC1` … `cea608:CC4`, or a CEA-708
    /// service, `cea708:SERVICE1` … `cea708:SERVICE63`.
    case cea608(CaptionService)

    public var description: String {
        switch self {
        case .external(let id, let language): return "external:\(id):\(language)"
        case .cea608(let service): return "\(service.isDTVCC ? "cea708" : "cea608"):\(service.rawValue)"
        }
    }
}
