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
        /// Whether the service is for viewers who are deaf or hard of hearing (published with the
        /// SDH characteristics): every CEA-608/708 service and teletext page; a DVB subtitle
        /// stream when its subtitling type says so.
        public var forHardOfHearing = true
        /// For text read by OCR (DVB subtitles), each cue's confidence (percent).
        public var confidences: [Double]?

        public init(service: CaptionService, cues: [Cue], firstSeen: MediaTime?, segment: String?) {
            self.service = service
            self.cues = cues
            self.firstSeen = firstSeen
            self.segment = segment
        }
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
    /// Which variant's video was read in full, and why (nil for a single file).
    public var readFrom: ReadFrom?

    /// The variant read for captions.
    public struct ReadFrom: Sendable, Equatable, Codable {
        /// Its media playlist.
        public var playlist: String
        public var reason: String
        /// The reference variant's segments read to confirm it (empty when the reference was read).
        public var confirmedSegments: [Int]

        enum CodingKeys: String, CodingKey { case playlist, reason, confirmedSegments = "confirmed_reference_segments" }
    }

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

    /// The services to publish: those the operator turned on, and by default every 608 channel
    /// and teletext subtitle page found and every 708 service whose language no published 608
    /// channel already carries.
    ///
    /// A stream that carries a programme in 608 and 708 carries the same words twice (ATSC
    /// requires both); the 608 one is published by default, since every player and every
    /// earlier run knows it, and a 708 service of another language (a second-language or a
    /// 708-only service) is published beside it. ``duplicatedServices`` are the ones left out.
    public var published: [Service] { services.filter(isPublished) }

    /// The published services HLS can declare in-band (`CLOSED-CAPTIONS`, `INSTREAM-ID`): CEA-608
    /// and 708, never teletext or DVB subtitles, which players only get as subtitle renditions.
    public var declarable: [Service] { published.filter(\.service.isDeclarable) }

    /// 708 services left out by default because a published 608 channel carries their language.
    public var duplicatedServices: [(service: CaptionService, by: CaptionService)] {
        services.compactMap { s in
            guard settings[s.service.rawValue]?.publish == nil, let twin = twin608(of: s.service) else { return nil }
            return (s.service, twin)
        }
    }

    private func isPublished(_ service: Service) -> Bool {
        if let publish = settings[service.service.rawValue]?.publish { return publish }
        return twin608(of: service.service) == nil
    }

    /// For a 708 service, a published 608 channel of the same language (or both unnamed).
    private func twin608(of service: CaptionService) -> CaptionService? {
        guard service.isDTVCC else { return nil }
        let language = self.language(for: service)
        return services.first { other in
            !other.service.isDTVCC && (settings[other.service.rawValue]?.publish ?? true) && self.language(for: other.service) == language
        }?.service
    }

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
        /// The DVB teletext_descriptor's language for the page (EN 300 468 §6.2.43).
        case teletextDescriptor = "teletext_descriptor"
        /// The DVB subtitling_descriptor's language for the stream (EN 300 468 §6.2.41).
        case subtitlingDescriptor = "subtitling_descriptor"
    }

    /// Languages of line-21 fields 1 and 2 from the caption_service_descriptor.
    let fields: [Int: LanguageTag]
    /// Languages of 708 services, by service number, from the same descriptor.
    let digital: [Int: LanguageTag]
    /// The video stream's language.
    let video: LanguageTag?
    /// Languages of teletext subtitle pages, from the teletext_descriptor, and of DVB subtitle
    /// streams, from the subtitling_descriptor.
    let pages: [CaptionService: LanguageTag]

    /// No declared language.
    public init() {
        fields = [:]
        digital = [:]
        video = nil
        pages = [:]
    }

    /// Languages as a record kept them (``CaptionRecord``).
    init(fields: [Int: LanguageTag], digital: [Int: LanguageTag], video: LanguageTag?, pages: [CaptionService: LanguageTag]) {
        self.fields = fields
        self.digital = digital
        self.video = video
        self.pages = pages
    }

    /// The languages the ATSC descriptor (`announced`), the video stream, the teletext descriptor
    /// and the subtitling descriptors (`pictures`) declare.
    package init(
        announced: [TransportStream.CaptionServiceEntry], video: String?, teletext: [(service: CaptionService, language: String)] = [],
        pictures: [(service: CaptionService, language: String)] = []
    ) {
        var pages: [CaptionService: LanguageTag] = [:]
        for (service, language) in teletext + pictures where pages[service] == nil {
            if let tag = LanguageTag(parsing: language) { pages[service] = tag }
        }
        self.pages = pages
        var fields: [Int: LanguageTag] = [:]
        var digital: [Int: LanguageTag] = [:]
        for entry in announced {
            guard let tag = LanguageTag(parsing: entry.language) else { continue }
            if entry.digital {
                if digital[entry.number] == nil { digital[entry.number] = tag }
            } else if fields[entry.number] == nil {
                fields[entry.number] = tag
            }
        }
        self.fields = fields
        self.digital = digital
        self.video = video.flatMap(LanguageTag.init(parsing:))
    }

    /// The language the stream declares for `service` (CC1/CC2 are field 1, CC3/CC4 field 2; a
    /// 708 service by its number) and its source.
    public func language(for service: CaptionService) -> (tag: LanguageTag, source: Source)? {
        if service.isTeletext { return pages[service].map { ($0, .teletextDescriptor) } }
        // A DVB subtitle stream is not the video's: the video's language says nothing of it.
        if service.isDVBSubtitles { return pages[service].map { ($0, .subtitlingDescriptor) } }
        if let field = service.field, let tag = fields[field] { return (tag, .captionServiceDescriptor) }
        if let number = service.serviceNumber, let tag = digital[number] { return (tag, .captionServiceDescriptor) }
        if let video { return (video, .videoStream) }
        return nil
    }
}
