import Captions
import Containers
import Foundation
import HLS
import Timebase
import TimedText

/// What `--captions` does.
public enum CaptionMode: String, Sendable {
    /// Scan the video for CEA-608 and package each service found as a subtitle rendition.
    case auto
    /// Leave in-band captions alone.
    case off
}

/// The CEA-608 services found in a programme, decoded on its timeline.
public struct ProgrammeCaptions: Sendable {
    public struct Service: Sendable {
        public let service: CaptionService
        public let cues: [Cue]
        /// Where the first cue starts (programme time) and the segment that carries it.
        public let firstSeen: MediaTime?
        public let segment: String?
    }

    /// Services with text, CC1 first.
    public let services: [Service]
    /// The languages the stream declares for its services.
    public let languages: CaptionLanguages
    /// Whether the bounded scan found caption text (a full decode follows only if it did).
    public let detected: Bool

    /// Captions of `services`, in `languages`, `detected` by the bounded scan or not.
    public init(services: [Service], languages: CaptionLanguages = CaptionLanguages(), detected: Bool) {
        self.services = services
        self.languages = languages
        self.detected = detected
    }

    public static let none = ProgrammeCaptions(services: [], detected: false)

    /// The language of `service`, if the stream declares one.
    public func language(for service: CaptionService) -> LanguageTag? { languages.language(for: service)?.tag }

    /// The rendition name for a service: "English (CC1)" when the language is known, else "CC1".
    public func name(for service: CaptionService) -> String {
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

    /// The language of `service` (CC1/CC2 are field 1, CC3/CC4 field 2) and its source.
    public func language(for service: CaptionService) -> (tag: LanguageTag, source: Source)? {
        if let tag = fields[service.field] { return (tag, .captionServiceDescriptor) }
        if let video { return (video, .videoStream) }
        return nil
    }
}

/// Finds and decodes in-band captions in the reference variant.
///
/// Detection is bounded: at most ``detectionAccessUnits`` video access units of the first
/// segment, stopping at the first printable character, and nothing at all for video without SEI
/// (anything but H.264, HEVC or MPEG-2 video), so a source without captions pays almost nothing. MPEG-TS and
/// fragmented MP4 (CMAF) segments are read alike. Only when text is found are all segments
/// decoded, in order, each discontinuity sequence on its own timeline.
package struct CaptionScanner {
    /// The bounded scan's length, in video access units.
    package static let detectionAccessUnits = 28
    let reader: MediaReader

    /// With `alwaysDecode`, every segment is decoded even when the bounded scan finds nothing.
    func scan(_ timeline: ProgrammeTimeline, playlistURL: URL, alwaysDecode: Bool = false) async throws(SubweaveError) -> ProgrammeCaptions {
        let playlist = timeline.playlist
        guard let first = playlist.segments.first, first.encryption == nil, let firstURL = MediaReader.resolve(first.uri, against: playlistURL)
        else { return .none }
        var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
        let head = try await reader.read(firstURL, kind: .segment, range: first.byteRange, what: "the first media segment")
        let firstInit = try await reader.initializationSection(first, of: playlistURL, cache: &initializations)
        let detector = try Self.source(firstInit, file: firstURL, accessUnitLimit: Self.detectionAccessUnits) { MediaTime(ticks: $0) }
        guard var detector else { return .none }
        try detector.feed(head, file: firstURL)
        let languages = detector.languages
        let detected = detector.firstText
        guard detected || alwaysDecode else { return ProgrammeCaptions(services: [], languages: languages, detected: false) }

        guard var decoding = try Self.source(firstInit, file: firstURL, accessUnitLimit: nil, timeOf: { _ in .zero }) else { return .none }
        for (index, segment) in playlist.segments.enumerated() {
            guard !timeline.sequences.isEmpty, let url = MediaReader.resolve(segment.uri, against: playlistURL) else { continue }
            let sequence = timeline.sequences[timeline.sequenceIndex(forSegment: index)]
            if index > 0 && segment.discontinuitySequence != playlist.segments[index - 1].discontinuitySequence {
                decoding.discontinuity(at: segment.start)
                let initialization = try await reader.initializationSection(segment, of: playlistURL, cache: &initializations)
                try decoding.use(initialization, file: url)
            }
            let base = sequence.media.start, start = sequence.playlistStart
            decoding.timeOf = { pts in start + MediaTime(ticks: PresentationTimestamp.wrappedDifference(pts, base)) }
            let bytes = index == 0 ? head : try await self.reader.read(url, kind: .segment, range: segment.byteRange, what: "media segment \(index)")
            try decoding.feed(bytes, file: url)
        }
        decoding.finish(at: timeline.duration)
        let cues = decoding.cues
        let services = CaptionService.allCases.compactMap { service -> ProgrammeCaptions.Service? in
            guard let list = cues[service], let first = list.first else { return nil }
            let segment = playlist.segments.last { $0.start <= first.start }
            return ProgrammeCaptions.Service(
                service: service, cues: list, firstSeen: first.start,
                segment: segment.flatMap { MediaReader.resolve($0.uri, against: playlistURL) }.map(MediaReader.display))
        }
        return ProgrammeCaptions(services: services, languages: languages, detected: detected)
    }

    /// The caption reader for segments with this initialisation section (fMP4) or none (MPEG-TS);
    /// nil when the fMP4 video cannot carry captions.
    static func source(_ initialization: [UInt8]?, file: URL, accessUnitLimit: Int?, timeOf: @escaping (Int64) -> MediaTime) throws(SubweaveError)
        -> CaptionSource?
    {
        guard let initialization else { return .transportStream(TransportStreamCaptionReader(accessUnitLimit: accessUnitLimit, timeOf: timeOf)) }
        do {
            return try FragmentedCaptionReader(initialization: initialization, accessUnitLimit: accessUnitLimit, timeOf: timeOf).map(CaptionSource.fragmented)
        } catch {
            throw .media(file: "\(MediaReader.display(file)) (its initialisation section)", error)
        }
    }
}

/// The caption reader of one container, behind one interface.
enum CaptionSource {
    case transportStream(TransportStreamCaptionReader)
    case fragmented(FragmentedCaptionReader)
    /// Only while a reader is taken out to be changed (so its storage is not copied).
    case empty

    var timeOf: (Int64) -> MediaTime {
        get {
            switch self {
            case .transportStream(let r): return r.timeOf
            case .fragmented(let r): return r.timeOf
            case .empty: return { _ in .zero }
            }
        }
        set {
            switch self {
            case .transportStream(var r): self = .empty; r.timeOf = newValue; self = .transportStream(r)
            case .fragmented(var r): self = .empty; r.timeOf = newValue; self = .fragmented(r)
            case .empty: break
            }
        }
    }

    /// Reads one segment's bytes.
    mutating func feed(_ bytes: [UInt8], file: URL) throws(SubweaveError) {
        switch self {
        case .transportStream(var r):
            self = .empty
            _ = r.feed(bytes[...])
            self = .transportStream(r)
        case .fragmented(var r):
            self = .empty
            defer { self = .fragmented(r) }
            do { _ = try r.feed(segment: bytes) } catch { throw .media(file: MediaReader.display(file), error) }
        case .empty: break
        }
    }

    /// A new initialisation section (fMP4, at a discontinuity); the decoded cues are kept.
    mutating func use(_ initialization: [UInt8]?, file: URL) throws(SubweaveError) {
        guard case .fragmented(var r) = self, let initialization else { return }
        self = .empty
        defer { self = .fragmented(r) }
        do { try r.use(initialization: initialization) } catch { throw .media(file: "\(MediaReader.display(file)) (its initialisation section)", error) }
    }

    mutating func discontinuity(at time: MediaTime) {
        switch self {
        case .transportStream(var r): self = .empty; r.discontinuity(at: time); self = .transportStream(r)
        case .fragmented(var r): self = .empty; r.discontinuity(at: time); self = .fragmented(r)
        case .empty: break
        }
    }

    mutating func finish(at time: MediaTime) {
        switch self {
        case .transportStream(var r): self = .empty; r.finish(at: time); self = .transportStream(r)
        case .fragmented(var r): self = .empty; r.finish(at: time); self = .fragmented(r)
        case .empty: break
        }
    }

    /// Whether the scan found a printable character.
    var firstText: Bool {
        switch self {
        case .transportStream(let r): return r.decoder?.firstText != nil
        case .fragmented(let r): return r.decoder.firstText != nil
        case .empty: return false
        }
    }

    /// The captions on screen now, as cues ending at `time` (not final).
    func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        switch self {
        case .transportStream(let r): return r.decoder?.openCues(at: time) ?? []
        case .fragmented(let r): return r.decoder.openCues(at: time)
        case .empty: return []
        }
    }

    /// The cues decoded, per service.
    var cues: [CaptionService: [Cue]] {
        switch self {
        case .transportStream(let r): return r.decoder?.collector.cues ?? [:]
        case .fragmented(let r): return r.decoder.collector.cues
        case .empty: return [:]
        }
    }

    /// The languages the stream declares for its services: the PMT's caption_service_descriptor
    /// (ATSC A/65) per line-21 field, else the video stream's ISO 639 language (MPEG-TS only).
    var languages: CaptionLanguages {
        guard case .transportStream(let r) = self else { return CaptionLanguages() }
        return CaptionLanguages(announced: r.announcedServices, video: r.videoLanguage)
    }
}

extension Presentation {
    /// Decodes every segment of the reference variant: its CEA-608 services on the programme
    /// timeline (what `subweave captions` prints for a master).
    public func captions() async throws(SubweaveError) -> ProgrammeCaptions {
        try await CaptionScanner(reader: MediaReader(loader: loader)).scan(timeline, playlistURL: reference.url, alwaysDecode: true)
    }
}
