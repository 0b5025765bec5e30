import Captions
import Containers
import Foundation
import Timebase
import TimedText

/// The caption services found in a programme, decoded on its timeline.
public struct ProgrammeCaptions: Sendable {
    public struct Service: Sendable {
        public let service: CaptionService
        public let cues: [Cue]
        /// Where the first cue starts (programme time) and the segment that carries it.
        public let firstSeen: MediaTime?
        public let segment: String?
    }

    /// How much of the video was read, and what it carried.
    public struct Coverage: Sendable, Equatable {
        /// Video access units read.
        public var accessUnits: Int
        /// Access units that carried line-21 caption data (padding included).
        public var captionDataUnits: Int
        /// Programme time up to which the video was read (the end of its last frame read).
        public var through: MediaTime?
        /// Whether the whole programme was read (not a bounded look).
        public var complete: Bool

        public init(accessUnits: Int = 0, captionDataUnits: Int = 0, through: MediaTime? = nil, complete: Bool = true) {
            self.accessUnits = accessUnits
            self.captionDataUnits = captionDataUnits
            self.through = through
            self.complete = complete
        }

        /// Whether caption data travels in the video (it may carry no character).
        public var carriesCaptionData: Bool { captionDataUnits > 0 }
    }

    /// Services with text, CC1 first.
    public let services: [Service]
    /// The languages the stream declares for its services.
    public let languages: CaptionLanguages
    /// How much of the video was read.
    public let coverage: Coverage
    /// What the operator said of each service.
    public private(set) var settings = CaptionServiceSettings()
    /// What was read although malformed, or assumed, about the video while decoding (each naming
    /// its file and byte offset).
    public var notes: [String] = []

    /// Captions of `services`, in `languages`, from reading `coverage` of the video.
    public init(services: [Service], languages: CaptionLanguages = CaptionLanguages(), coverage: Coverage = Coverage()) {
        self.services = services
        self.languages = languages
        self.coverage = coverage
    }

    public static let none = ProgrammeCaptions(services: [])

    /// Whether caption text was found.
    public var detected: Bool { !services.isEmpty }

    /// These captions with what the operator said of each service (language, name, whether to publish).
    public func with(_ settings: CaptionServiceSettings) -> ProgrammeCaptions {
        var copy = self
        copy.settings = settings
        return copy
    }

    /// The services to publish: those found that the operator did not turn off.
    public var published: [Service] { services.filter { settings[$0.service.rawValue]?.publish ?? true } }

    /// The language of `service` and where it came from: the operator's setting for the service,
    /// else the stream's declaration (caption_service_descriptor, then the video's ISO 639), else
    /// the operator's default.
    public func languageAndSource(for service: CaptionService) -> (tag: LanguageTag, source: CaptionLanguages.Source)? {
        if let tag = settings[service.rawValue]?.language { return (tag, .operatorSetting) }
        if let declared = languages.language(for: service) { return declared }
        if let tag = settings.defaultLanguage { return (tag, .operatorDefault) }
        return nil
    }

    /// The language of `service`, if the operator or the stream says it.
    public func language(for service: CaptionService) -> LanguageTag? { languageAndSource(for: service)?.tag }

    /// The rendition name for a service: the operator's, else "English (CC1)" when the language
    /// is known, else "CC1".
    public func name(for service: CaptionService) -> String {
        if let name = settings[service.rawValue]?.name { return name }
        if let autonym = language(for: service)?.englishName { return "\(autonym) (\(service.rawValue))" }
        return service.rawValue
    }
}

/// The languages a stream declares for its caption services, and where each came from.
public struct CaptionLanguages: Sendable, Equatable {
    /// Where a service's language was read.
    public enum Source: String, Sendable, Codable {
        /// The PMT's ATSC caption_service_descriptor (0x86), per line-21 field.
        case captionServiceDescriptor = "caption_service_descriptor"
        /// The video stream's ISO 639 language descriptor.
        case videoStream = "video_iso_639"
        /// The operator's setting for the service.
        case operatorSetting = "operator"
        /// The operator's default caption language.
        case operatorDefault = "operator_default"
    }

    /// Languages of line-21 fields 1 and 2 from the caption_service_descriptor.
    let fields: [Int: LanguageTag]
    /// The video stream's language.
    let video: LanguageTag?

    /// No declared language.
    public init() {
        fields = [:]
        video = nil
    }

    package init(announced: [TransportStream.CaptionServiceEntry], video: String?) {
        var fields: [Int: LanguageTag] = [:]
        for entry in announced where !entry.digital && fields[entry.number] == nil {
            if let tag = LanguageTag(parsing: entry.language) { fields[entry.number] = tag }
        }
        self.fields = fields
        self.video = video.flatMap(LanguageTag.init(parsing:))
    }

    /// The language the stream declares for `service` (CC1/CC2 are field 1, CC3/CC4 field 2)
    /// and its source.
    public func language(for service: CaptionService) -> (tag: LanguageTag, source: Source)? {
        if let tag = fields[service.field] { return (tag, .captionServiceDescriptor) }
        if let video { return (video, .videoStream) }
        return nil
    }
}
