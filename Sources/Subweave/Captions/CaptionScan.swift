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
    /// The video's language from the PMT (canonical BCP 47), if declared.
    public let language: LanguageTag?
    /// Whether the bounded scan found caption text (a full decode follows only if it did).
    public let detected: Bool

    /// Captions of `services`, in `language`, `detected` by the bounded scan or not.
    public init(services: [Service], language: LanguageTag?, detected: Bool) {
        self.services = services
        self.language = language
        self.detected = detected
    }

    public static let none = ProgrammeCaptions(services: [], language: nil, detected: false)

    /// The rendition name for a service: "English (CC1)" when the language is known, else "CC1".
    public func name(for service: CaptionService) -> String {
        if let autonym = language?.englishName { return "\(autonym) (\(service.rawValue))" }
        return service.rawValue
    }
}

/// Finds and decodes in-band captions in the reference variant.
///
/// Detection is bounded: at most ``detectionAccessUnits`` video access units of the first
/// segment, stopping at the first printable character, and nothing at all for video without SEI
/// (anything but H.264 or HEVC) or for fMP4 segments, so a source without captions pays almost
/// nothing. Only when text is found are all segments decoded, in order, each discontinuity
/// sequence on its own timeline.
package struct CaptionScanner {
    /// The bounded scan's length, in video access units.
    package static let detectionAccessUnits = 28
    let reader: MediaReader

    /// With `alwaysDecode`, every segment is decoded even when the bounded scan finds nothing.
    func scan(_ timeline: ProgrammeTimeline, playlistURL: URL, alwaysDecode: Bool = false) async throws(SubweaveError) -> ProgrammeCaptions {
        let playlist = timeline.playlist
        guard let first = playlist.segments.first, first.map == nil, first.encryption == nil,
            let firstURL = MediaReader.resolve(first.uri, against: playlistURL)
        else { return .none }
        let head = try await reader.read(firstURL, kind: .segment, range: first.byteRange, what: "the first media segment")
        var detector = TransportStreamCaptionReader(accessUnitLimit: Self.detectionAccessUnits, timeOf: { MediaTime(ticks: $0) })
        _ = detector.feed(head[...])
        let language = detector.videoLanguage.flatMap(LanguageTag.init(parsing:))
        let detected = detector.decoder?.firstText != nil
        guard detected || (alwaysDecode && detector.decoder != nil) else { return ProgrammeCaptions(services: [], language: language, detected: false) }

        var reader = TransportStreamCaptionReader(timeOf: { _ in .zero })
        for (index, segment) in playlist.segments.enumerated() {
            guard !timeline.sequences.isEmpty, let url = MediaReader.resolve(segment.uri, against: playlistURL) else { continue }
            let sequence = timeline.sequences[timeline.sequenceIndex(forSegment: index)]
            if index > 0 && segment.discontinuitySequence != playlist.segments[index - 1].discontinuitySequence {
                reader.discontinuity(at: segment.start)
            }
            let base = sequence.media.start, start = sequence.playlistStart
            reader.timeOf = { pts in start + MediaTime(ticks: PresentationTimestamp.wrappedDifference(pts, base)) }
            let bytes = index == 0 ? head : try await self.reader.read(url, kind: .segment, range: segment.byteRange, what: "media segment \(index)")
            _ = reader.feed(bytes[...])
        }
        reader.finish(at: timeline.duration)
        let cues = reader.decoder?.collector.cues ?? [:]
        let services = CaptionService.allCases.compactMap { service -> ProgrammeCaptions.Service? in
            guard let list = cues[service], let first = list.first else { return nil }
            let segment = playlist.segments.last { $0.start <= first.start }
            return ProgrammeCaptions.Service(
                service: service, cues: list, firstSeen: first.start,
                segment: segment.flatMap { MediaReader.resolve($0.uri, against: playlistURL) }.map(MediaReader.display))
        }
        return ProgrammeCaptions(services: services, language: language, detected: detected)
    }
}

extension Presentation {
    /// Decodes every segment of the reference variant: its CEA-608 services on the programme
    /// timeline (what `subweave captions` prints for a master).
    public func captions() async throws(SubweaveError) -> ProgrammeCaptions {
        try await CaptionScanner(reader: MediaReader(loader: loader)).scan(timeline, playlistURL: reference.url, alwaysDecode: true)
    }
}
