import Captions
import Containers
import Foundation
import Timebase
import TimedText

/// What the bounded scan found in a media file.
public struct CaptionDetection: Sendable, Equatable, Codable {
    /// Whether caption text was found.
    public let captions: Bool
    /// The service the first character belongs to.
    public let service: String?
    /// Seconds from the first video frame to the first character.
    public let time: Double?
    /// Access units scanned.
    public let accessUnits: Int
    /// The language the stream declares (BCP 47), if any.
    public let language: String?

    enum CodingKeys: String, CodingKey { case captions, service, time, accessUnits = "access_units", language }
}

/// CEA-608 captions in one MPEG-TS file (what `subweave captions FILE` reads), read in chunks on
/// a Dispatch thread so memory stays flat and the cooperative pool is never blocked.
public enum CaptionFile {
    /// The scan the packager runs first: at most ``CaptionScanner/detectionAccessUnits`` video
    /// access units, stopping at the first printable character.
    public static func detect(_ path: String) async throws(SubweaveError) -> CaptionDetection {
        try await onDispatch { () throws(SubweaveError) in
            let chunks = try open(path, chunk: 1 << 16)
            var reader = TransportStreamCaptionReader(accessUnitLimit: CaptionScanner.detectionAccessUnits, timeOf: { MediaTime(ticks: $0) })
            while let chunk = chunks.next(), reader.feed(chunk) {}
            guard reader.videoStreamType != nil else { throw notTransportStream(path) }
            let first = reader.decoder?.firstText
            let origin = MediaTime(ticks: reader.origin ?? 0)
            return CaptionDetection(
                captions: first != nil, service: first?.service.rawValue, time: first.map { ($0.time - origin).seconds },
                accessUnits: reader.decoder?.accessUnits ?? 0,
                language: reader.videoLanguage.flatMap(LanguageTag.init(parsing:))?.description)
        }
    }

    /// Every caption of the file, per service, timed from its first video frame: an MPEG-TS
    /// file (read in chunks), or a fragmented MP4 file (its `moov` and fragments, read whole).
    public static func decode(_ path: String) async throws(SubweaveError) -> ProgrammeCaptions {
        try await onDispatch { () throws(SubweaveError) in
            if try isFragmentedMP4(path) { return try decodeFragmented(path) }
            let result = TransportStreamCaptions.decode(try open(path))
            guard result.videoStreamType != nil else { throw notTransportStream(path) }
            return ProgrammeCaptions(
                services: result.services.map { ProgrammeCaptions.Service(service: $0.service, cues: $0.cues, firstSeen: $0.cues.first?.start, segment: path) },
                languages: CaptionLanguages(announced: result.announced, video: result.language), detected: !result.services.isEmpty)
        }
    }

    static func isFragmentedMP4(_ path: String) throws(SubweaveError) -> Bool {
        let chunks = try open(path, chunk: 64)
        guard let head = chunks.next() else { return false }
        return ISOBMFF.looksLikeISOBMFF(Array(head))
    }

    /// A fragmented MP4 file: captions from its video track, timed from its first presented frame.
    static func decodeFragmented(_ path: String) throws(SubweaveError) -> ProgrammeCaptions {
        let bytes: [UInt8]
        do { bytes = try ResourceLoader.readFile(path, limit: ReadLimits().segment, kind: .segment) } catch { throw .io(path: path, reason: error.explanation) }
        var reader: FragmentedCaptionReader
        do {
            guard let made = try FragmentedCaptionReader(initialization: bytes, timeOf: { MediaTime(ticks: $0) }) else {
                throw SubweaveError.media(file: LabelText.excerpt(path), ContainerError(.missing, offset: 0, "no H.264 or HEVC video track in the 'moov'"))
            }
            reader = made
            _ = try reader.feed(segment: bytes)
        } catch let error as SubweaveError {
            throw error
        } catch let error as ContainerError {
            throw .media(file: LabelText.excerpt(path), error)
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
        reader.finish()
        let shift = MediaTime(ticks: reader.origin ?? 0)
        let services = CaptionService.allCases.compactMap { service -> ProgrammeCaptions.Service? in
            guard let cues = reader.decoder.collector.cues[service], !cues.isEmpty else { return nil }
            let shifted = cues.map { cue -> Cue in
                var c = cue
                c.start -= shift
                c.end -= shift
                return c
            }
            return ProgrammeCaptions.Service(service: service, cues: shifted, firstSeen: shifted.first?.start, segment: path)
        }
        return ProgrammeCaptions(services: services, detected: !services.isEmpty)
    }

    static func open(_ path: String, chunk: Int = 1 << 20) throws(SubweaveError) -> FileChunks {
        do { return try FileChunks(path: path, chunkSize: chunk) } catch { throw .io(path: path, reason: error.explanation) }
    }

    static func notTransportStream(_ path: String) -> SubweaveError {
        .media(
            file: LabelText.excerpt(path),
            ContainerError(.unknownFormat, offset: 0, "no MPEG-TS video stream found (no transport stream with a PAT and a PMT listing video)"))
    }
}

/// Runs blocking work (file reads and writes, a lock wait) on a Dispatch thread and awaits its
/// result, so the cooperative thread pool is never blocked: the one place Subweave hops off it.
func onDispatch<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
    let outcome: Result<T, E> = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: Result { () throws(E) in try work() }) }
    }
    return try outcome.get()
}
