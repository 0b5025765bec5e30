import Captions
import Timebase

/// What a rendition Subweave manages is: a side-loaded track, or a caption service of the video.
public enum RenditionIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A side-loaded subtitle file: `external:<sourceID>:<language>`.
    case external(sourceID: String, language: LanguageTag)
    /// A caption service decoded from the video: `cea608:CC1` … `cea608:CC4`, a CEA-708 service,
    /// `cea708:SERVICE1` … `cea708:SERVICE63`, a DVB teletext page, `teletext:888`, or a DVB
    /// subtitle stream read by OCR, `dvbsub_ocr:DVB0104`.
    case inBand(CaptionService)

    public var description: String {
        switch self {
        case .external(let id, let language): return "external:\(id):\(language)"
        case .inBand(let service): return "\(service.family):\(service.rawValue)"
        }
    }

    /// The caption service an identity written `cea608:CC1`, `cea708:SERVICE1`, `teletext:888`
    /// or `dvbsub_ocr:DVB0104` names (its family and its service agree); nil for a side-loaded
    /// track's.
    public static func inBandService(_ identity: String) -> CaptionService? {
        guard let colon = identity.firstIndex(of: ":"), let service = CaptionService(rawValue: String(identity[identity.index(after: colon)...])),
            service.family == identity[..<colon]
        else { return nil }
        return service
    }
}
