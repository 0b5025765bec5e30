import Captions
import Foundation
import Platform
import Timebase
import TimedText

/// One cue as a source gives it: which track or caption service, when, what, and where on screen.
public struct TappedCue: Sendable, Equatable {
    /// The track: a caption service (`CC1`) or the subtitle file's name.
    public let track: String
    public let start: MediaTime
    public let end: MediaTime
    /// WebVTT cue text (markup as WebVTT writes it).
    public let text: String
    /// Placement (line, position, alignment), as WebVTT cue settings.
    public let placement: CueSettings
}

/// The cues of any source as an `AsyncSequence`: a subtitle file (any format the packager reads,
/// pictures read by OCR included) or an MPEG-TS file whose video carries CEA-608/708 captions or
/// teletext pages, or beside which DVB subtitle streams travel (read by OCR).
///
/// Pull-based and bounded: a transport stream is read one chunk at a time, on a Dispatch thread,
/// only when the consumer asks for more cues, and its decoder hands over the cues it has finished
/// and forgets them, so memory stays that of one chunk whatever the file's length (a DVB
/// subtitle picture keeps its pixels only until it has been read).
///
/// ```swift
/// for try await cue in CueTap.transportStream(path: "programme.ts") {
///     print(cue.track, cue.start.decimalSeconds, cue.text)
/// }
/// ```
public struct CueTap: AsyncSequence, Sendable {
    public typealias Element = TappedCue

    enum Source: Sendable {
        case subtitles(SubtitleInput, SubtitleFormat?, TextEncoding?, CaptionFileReading, ResourceLoader)
        case transportStream(String, pictureLanguage: LanguageTag?)
    }

    let source: Source

    /// The cues of a subtitle file, read as the packager reads it (`captionFile`: how an SCC or
    /// MCC file is read).
    public static func subtitles(
        _ input: SubtitleInput, format: SubtitleFormat? = nil, encoding: TextEncoding? = nil, captionFile: CaptionFileReading = CaptionFileReading(),
        loader: ResourceLoader = ResourceLoader()
    ) -> CueTap {
        CueTap(source: .subtitles(input, format, encoding, captionFile, loader))
    }

    /// The captions of an MPEG-TS file, timed from its first video frame: its CEA-608/708
    /// services and teletext pages, and the text of its DVB subtitle streams read by Tesseract
    /// in `pictureLanguage` (nil: each stream's descriptor's, else English), each cue handed out
    /// once its picture has ended.
    public static func transportStream(path: String, pictureLanguage: LanguageTag? = nil) -> CueTap {
        CueTap(source: .transportStream(path, pictureLanguage: pictureLanguage))
    }

    /// An iterator that reads the source as cues are asked for.
    public func makeAsyncIterator() -> Iterator { Iterator(source: source) }

    /// Hands out cues as the source yields them.
    public struct Iterator: AsyncIteratorProtocol {
        let source: Source
        private var buffered: [TappedCue] = []
        private var next = 0
        private var stream: StreamState?
        private var done = false

        init(source: Source) { self.source = source }

        /// The next cue, or nil at the end of the source; reads more of it only when needed.
        public mutating func next() async throws(SubweaveError) -> TappedCue? {
            while next == buffered.count {
                if done { return nil }
                buffered = try await refill()
                next = 0
            }
            defer { next += 1 }
            return buffered[next]
        }

        private mutating func refill() async throws(SubweaveError) -> [TappedCue] {
            switch source {
            case .subtitles(let input, let format, let encoding, let captionFile, let loader):
                done = true
                let ingested = try await SubtitleReader(loader: loader).read(input, format: format, encoding: encoding, captionFile: captionFile)
                return ingested.cues.map { TappedCue(track: input.description, start: $0.start, end: $0.end, text: $0.text, placement: $0.settings) }
            case .transportStream(let path, let language):
                let state: StreamState
                if let existing = stream { state = existing } else { state = try StreamState(path: path, pictureLanguage: language) }
                stream = state
                let (cues, finished) = try await onDispatch { () throws(SubweaveError) in try state.step() }
                done = finished
                return cues
            }
        }
    }

    /// A transport stream being decoded, one chunk per step.
    final class StreamState: @unchecked Sendable {
        // Used by one iterator, one step at a time.
        private let chunks: FileChunks
        private var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        private let pictureLanguage: LanguageTag?
        /// How many of each DVB subtitle stream's pictures have been read and handed out.
        private var picturesRead: [CaptionService: Int] = [:]
        /// The DVB packets decoded when the pictures were last looked at.
        private var packetsSeen = 0

        init(path: String, pictureLanguage: LanguageTag?) throws(SubweaveError) {
            chunks = try CaptionFile.chunks(path)
            self.pictureLanguage = pictureLanguage
        }

        /// Decodes the next chunk; returns the cues it finished, and whether the file has ended.
        func step() throws(SubweaveError) -> ([TappedCue], Bool) {
            var finished = false
            if let chunk = chunks.next(), reader.feed(chunk) {
                finished = false
            } else {
                reader.finish()
                finished = true
            }
            let origin = MediaTime(ticks: reader.origin ?? 0)
            var cues = reader.takeCues().map { item in
                TappedCue(
                    track: item.service.rawValue, start: item.cue.start - origin, end: item.cue.end - origin,
                    text: item.cue.text, placement: item.cue.settings)
            }
            cues += try pictureCues(finished: finished).map { item in
                TappedCue(
                    track: item.service.rawValue, start: item.cue.start - origin, end: item.cue.end - origin,
                    text: item.cue.text, placement: item.cue.settings)
            }
            return (cues, finished)
        }

        /// The DVB subtitle pictures that have ended (before the last time read, so a page that
        /// repeats one can still join it; all of them at the end) read by OCR, in order; their
        /// pixels are then freed.
        private func pictureCues(finished: Bool) throws(SubweaveError) -> [(service: CaptionService, cue: Cue)] {
            // A chunk without a DVB packet changes no picture: the pictures are not gone over
            // again for it (a long recording is read in thousands of chunks).
            guard finished || reader.dvbSubtitles.packetsDecoded != packetsSeen else { return [] }
            packetsSeen = reader.dvbSubtitles.packetsDecoded
            let latest = reader.dvbSubtitles.lastTime ?? .zero
            var cues: [(service: CaptionService, cue: Cue)] = []
            for (service, pictures) in reader.dvbSubtitles.pictures.sorted(by: { $0.key < $1.key }) {
                let first = picturesRead[service] ?? 0
                var ready = first
                while ready < pictures.count, let end = pictures[ready].end, finished || end < latest { ready += 1 }
                guard ready > first else { continue }
                let language =
                    pictureLanguage
                    ?? reader.dvbSubtitles.languages.first { $0.service == service }.flatMap { LanguageTag(parsing: $0.language) } ?? .english
                let read = try PictureSubtitles.recogniseNow(Array(pictures[first..<ready]), in: language)
                cues += read.cues.map { (service, $0) }
                picturesRead[service] = ready
            }
            // Every picture that ended before `latest` was read above.
            reader.releasePixels(endedBefore: latest)
            return cues
        }
    }
}
