import Captions
import Containers
import Foundation
import Pictures
import Timebase
import TimedText

/// The caption reader of one container, behind one interface.
enum CaptionSource {
    case transportStream(TransportStreamCaptionReader)
    case fragmented(FragmentedCaptionReader)
    /// Only while a reader is taken out to be changed (so its storage is not copied).
    case empty

    var timeOf: @Sendable (Int64) -> MediaTime {
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

    /// Reads one segment's bytes; `origin` is where they start in their file (a byte range: fMP4
    /// base data offsets may count from the file's start).
    mutating func feed(_ bytes: [UInt8], file: URL, origin: Int = 0) throws(SubweaveError) {
        switch self {
        case .transportStream(var r):
            self = .empty
            _ = r.feed(bytes[...], label: MediaReader.display(file))
            self = .transportStream(r)
        case .fragmented(var r):
            self = .empty
            defer { self = .fragmented(r) }
            do { _ = try r.feed(segment: bytes, origin: origin, label: MediaReader.display(file)) } catch {
                throw .media(file: MediaReader.display(file), error)
            }
        case .empty: break
        }
    }

    /// Whether it reads MPEG-TS (whose segments may come in chunks: ``feed(chunk:file:offsetInFile:)``).
    var isTransportStream: Bool {
        if case .transportStream = self { return true }
        return false
    }

    /// Reads a chunk of an MPEG-TS segment of the file `label`, `offsetInFile` bytes into it
    /// (nothing for fMP4, whose segments are read whole).
    mutating func feed(chunk: ArraySlice<UInt8>, file label: String, offsetInFile: Int) {
        guard case .transportStream(var r) = self else { return }
        self = .empty
        _ = r.feed(chunk, label: label, offsetInFile: offsetInFile)
        self = .transportStream(r)
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

    /// The end of an HLS segment (see ``TransportStreamCaptionReader/endOfSegment()``).
    mutating func endOfSegment() {
        switch self {
        case .transportStream(var r): self = .empty; r.endOfSegment(); self = .transportStream(r)
        case .fragmented(var r): self = .empty; r.endOfSegment(); self = .fragmented(r)
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

    /// The decoder behind the reader (nil before an MPEG-TS reader knows its video, or for video
    /// that cannot carry SEI captions).
    private var decoder: CaptionDecoder? {
        switch self {
        case .transportStream(let r): return r.decoder
        case .fragmented(let r): return r.decoder
        case .empty: return nil
        }
    }

    /// Whether the reader wants nothing more: a bounded look is over, or the video cannot carry captions.
    var finished: Bool {
        switch self {
        case .transportStream(let r): return r.finished
        case .fragmented(let r): return r.finished
        case .empty: return true
        }
    }

    /// Whether the reader stopped because the video cannot carry SEI captions and no teletext
    /// stream travels beside it (so reading on would find nothing).
    var cannotCarryCaptions: Bool {
        guard case .transportStream(let r) = self else { return false }
        return r.finished && r.videoCannotCarryCaptions
    }

    /// Video access units read.
    var accessUnits: Int { decoder?.accessUnits ?? 0 }
    /// The first printable character decoded, and its service (programme time).
    var firstText: (service: CaptionService, time: MediaTime)? {
        switch self {
        case .transportStream(let r): return r.firstText
        case .fragmented(let r): return r.decoder.firstText
        case .empty: return nil
        }
    }

    /// What was read although malformed, or assumed, about the media (each naming its file).
    var notes: [String] {
        switch self {
        case .transportStream(let r): return r.notes
        case .fragmented(let r): return r.notes
        case .empty: return []
        }
    }
    /// The services in which text was decoded.
    var servicesWithText: [CaptionService] {
        switch self {
        case .transportStream(let r): return r.servicesWithText
        case .fragmented(let r): return r.decoder.services
        case .empty: return []
        }
    }
    /// Access units that carried line-21 caption data.
    var captionDataUnits: Int { decoder?.captionDataUnits ?? 0 }
    /// When the last frame read stops being shown.
    var lastFrameEnd: MediaTime? { decoder?.lastFrameEnd }

    /// The captions on screen now, as cues ending at `time` (not final).
    func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        switch self {
        case .transportStream(let r): return r.openCues(at: time)
        case .fragmented(let r): return r.decoder.openCues(at: time)
        case .empty: return []
        }
    }

    /// The cues decoded, per service.
    var cues: [CaptionService: [Cue]] {
        switch self {
        case .transportStream(let r): return r.cues
        case .fragmented(let r): return r.decoder.collector.cues
        case .empty: return [:]
        }
    }

    /// The languages the stream declares for its services: the PMT's caption_service_descriptor
    /// (ATSC A/65) per line-21 field, else the video stream's ISO 639 language, and the teletext
    /// descriptor's for each subtitle page (MPEG-TS only).
    var languages: CaptionLanguages {
        guard case .transportStream(let r) = self else { return CaptionLanguages() }
        return CaptionLanguages(
            announced: r.announcedServices, video: r.videoLanguage, teletext: r.teletext.pageLanguages, pictures: r.dvbSubtitles.languages)
    }

    /// The DVB subtitle streams' pictures (MPEG-TS only), still to be read by OCR.
    var pictures: [CaptionService: [SubtitlePicture]] {
        guard case .transportStream(let r) = self else { return [:] }
        return r.dvbSubtitles.pictures
    }

    /// Frees the pixels of the DVB subtitle pictures that ended before `time` (their times stay).
    mutating func releasePixels(endedBefore time: MediaTime) {
        guard case .transportStream(var r) = self else { return }
        self = .empty
        r.releasePixels(endedBefore: time)
        self = .transportStream(r)
    }

    /// The DVB subtitle streams for the hard of hearing.
    var forHardOfHearing: Set<CaptionService> {
        guard case .transportStream(let r) = self else { return [] }
        return r.dvbSubtitles.forHardOfHearing
    }
}
