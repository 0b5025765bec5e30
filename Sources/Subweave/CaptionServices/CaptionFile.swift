import Captions
import Containers
import Foundation
import Pictures
import Platform
import Timebase
import TimedText

/// What a bounded look found in a media file or a master's video.
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
    /// Seconds of video read, from its first frame: finding nothing says nothing of what comes after.
    public let secondsRead: Double?
    /// Whether the whole input was read (it ended before the bound).
    public let wholeInput: Bool

    enum CodingKeys: String, CodingKey {
        case captions, service, time, accessUnits = "access_units", language, secondsRead = "seconds_read", wholeInput = "whole_input"
    }
}

/// CEA-608 captions in one MPEG-TS or fragmented MP4 file (what `subweave captions FILE` reads),
/// read in chunks on a Dispatch thread so memory stays flat and the cooperative pool is never blocked.
public enum CaptionFile {
    /// A bounded look: at most ``CaptionScanner/detectionAccessUnits`` video access units,
    /// stopping at the first printable character; it says how far it read.
    public static func detect(_ path: String) async throws(SubweaveError) -> CaptionDetection {
        try await onDispatch { () throws(SubweaveError) in
            let limit = CaptionScanner.detectionAccessUnits
            if try isFragmentedMP4(path) {
                let reader = try decodeFragmented(path, accessUnitLimit: limit)
                let origin = MediaTime(ticks: reader.origin ?? 0)
                return detection(reader.decoder, origin: origin, limit: limit, language: nil)
            }
            let chunks = try chunks(path, chunk: 188 * 348)
            var reader = TransportStreamCaptionReader(accessUnitLimit: limit, timeOf: { MediaTime(ticks: $0) })
            while let chunk = chunks.next(), reader.feed(chunk) {}
            guard reader.videoStreamType != nil else { throw notTransportStream(path) }
            return detection(
                reader.decoder, origin: MediaTime(ticks: reader.origin ?? 0), limit: limit,
                language: reader.videoLanguage.flatMap(LanguageTag.init(parsing:))?.description)
        }
    }

    static func detection(_ decoder: CaptionDecoder?, origin: MediaTime, limit: Int, language: String?) -> CaptionDetection {
        let first = decoder?.firstText
        let units = decoder?.accessUnits ?? 0
        return CaptionDetection(
            captions: first != nil, service: first?.service.rawValue, time: first.map { ($0.time - origin).seconds }, accessUnits: units,
            language: language, secondsRead: decoder?.lastFrameEnd.map { ($0 - origin).seconds }, wholeInput: first == nil && units < limit)
    }

    /// A bounded look at a master's video (``Presentation/detectCaptions()``), in the same form.
    public static func detection(_ captions: ProgrammeCaptions) -> CaptionDetection {
        let first = captions.services.compactMap { s in s.firstSeen.map { (s.service, $0) } }.min { $0.1 < $1.1 }
        return CaptionDetection(
            captions: first != nil, service: first?.0.rawValue, time: first?.1.seconds, accessUnits: captions.coverage.accessUnits,
            language: first.flatMap { captions.language(for: $0.0)?.description }, secondsRead: captions.coverage.through?.seconds,
            wholeInput: captions.coverage.complete)
    }

    /// Every caption of the file, per service, timed from its first video frame: an MPEG-TS
    /// file (read in chunks), or a fragmented MP4 file (its `moov` and fragments, read whole).
    ///
    /// `onProgress` is told the bytes of an MPEG-TS file decoded so far.
    /// DVB subtitle streams are read by OCR in the language `settings` give them, else the one
    /// their descriptor names, else English (said in the notes).
    public static func decode(_ path: String, settings: CaptionServiceSettings = CaptionServiceSettings(), onProgress: ProgressHandler? = nil)
        async throws(SubweaveError) -> ProgrammeCaptions
    {
        let (decoded, pictures, forHardOfHearing) = try await onDispatch {
            () throws(SubweaveError) -> (ProgrammeCaptions, [CaptionService: [SubtitlePicture]], Set<CaptionService>) in
            if try isMCC(path) { return (try decodeMCC(path), [:], []) }
            if try isFragmentedMP4(path) { return (Self.captions(try decodeFragmented(path), path: path), [:], []) }
            let result = try TransportStreamPieces.decode(path, onRead: onProgress.map { report in { report(WorkProgress(.bytes, done: $0, total: $1)) } })
                .captions
            guard result.videoStreamType != nil else { throw notTransportStream(path) }
            var captions = ProgrammeCaptions(
                services: result.services.map { ProgrammeCaptions.Service(service: $0.service, cues: $0.cues, firstSeen: $0.cues.first?.start, segment: path) },
                languages: CaptionLanguages(
                    announced: result.announced, video: result.language, teletext: result.teletextLanguages, pictures: result.dvbLanguages),
                coverage: ProgrammeCaptions.Coverage(accessUnits: result.accessUnits, captionDataUnits: result.captionDataUnits))
            captions.notes = result.notes
            return (captions, result.pictures, result.forHardOfHearing)
        }
        guard !pictures.isEmpty else { return decoded }
        let read = await CaptionScanner.recognise(pictures, declared: decoded.languages, settings: settings)
        var services = decoded.services
        for (service, cues) in read.cues where !cues.isEmpty {
            var found = ProgrammeCaptions.Service(service: service, cues: cues, firstSeen: cues.first?.start, segment: path)
            found.forHardOfHearing = forHardOfHearing.contains(service)
            found.confidences = read.confidences[service]
            services.append(found)
        }
        var merged = ProgrammeCaptions(services: services.sorted { $0.service < $1.service }, languages: decoded.languages, coverage: decoded.coverage)
        merged.notes = decoded.notes + read.notes
        return merged
    }

    /// Whether the file is a MacCaption file (its first line says so).
    static func isMCC(_ path: String) throws(SubweaveError) -> Bool {
        let chunks = try chunks(path, chunk: 64)
        guard var head = chunks.next().map(Array.init) else { return false }
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        return head.starts(with: Array("File Format=MacCaption_MCC".utf8))
    }

    /// An MCC file's services, on its timecode clock (00:00:00:00 is time zero), read whole (at
    /// most the subtitle read limit).
    static func decodeMCC(_ path: String) throws(SubweaveError) -> ProgrammeCaptions {
        let bytes: [UInt8]
        do { bytes = try ResourceLoader.readFile(path) } catch { throw .unreadable(path: path, what: "", error) }
        let read: MCCReader.Read
        do { read = try MCCReader.read(String(decoding: bytes, as: UTF8.self)) } catch {
            throw .load(LoadFailure(.notSubtitles, sourceID: path, location: path, MessageText(error.description)))
        }
        var captions = ProgrammeCaptions(
            services: read.services.map { ProgrammeCaptions.Service(service: $0.service, cues: $0.cues, firstSeen: $0.cues.first?.start, segment: path) },
            coverage: ProgrammeCaptions.Coverage(accessUnits: read.packets, captionDataUnits: read.packets))
        captions.notes = ["read as MCC at \(read.rate) fps"] + read.warnings.map { "\(path): \($0)" }
        return captions
    }

    static func isFragmentedMP4(_ path: String) throws(SubweaveError) -> Bool {
        let chunks = try chunks(path, chunk: 64)
        guard let head = chunks.next() else { return false }
        return ISOBMFF.looksLikeISOBMFF(Array(head))
    }

    /// A fragmented MP4 file: captions from its video track, timed from its first presented
    /// frame, read one fragment (`moof` and its `mdat`) at a time so memory stays flat.
    static func decodeFragmented(_ path: String, accessUnitLimit: Int? = nil) throws(SubweaveError) -> FragmentedCaptionReader {
        let file: TopLevelBoxes
        do { file = try TopLevelBoxes(path: path, limit: ReadLimits().segment) } catch { throw .unreadable(path: path, what: "", error) }
        var reader: FragmentedCaptionReader?
        var fragmentWithoutInit: Int?
        do throws(ContainerError) {
            var pendingFragment: (offset: Int, end: Int)?
            func flush() throws(ContainerError) -> Bool {
                guard let fragment = pendingFragment, var current = reader else { return true }
                pendingFragment = nil
                reader = nil
                defer { reader = current }
                return try current.feed(segment: try file.read(fragment.offset..<fragment.end), origin: fragment.offset)
            }
            while let box = try file.next() {
                switch box.type {
                case "moov":
                    reader = try FragmentedCaptionReader(initialization: try file.read(box.range), accessUnitLimit: accessUnitLimit) { MediaTime(ticks: $0) }
                    if reader == nil {
                        throw ContainerError(.missing, offset: box.range.lowerBound, "no H.264 or HEVC video track in the 'moov'")
                    }
                case "moof":
                    if reader == nil, fragmentWithoutInit == nil { fragmentWithoutInit = box.range.lowerBound }
                    guard try flush() else { break }
                    pendingFragment = (box.range.lowerBound, box.range.upperBound)
                case "mdat" where pendingFragment != nil:
                    pendingFragment?.end = box.range.upperBound
                default:
                    continue
                }
                if reader?.finished == true { break }
            }
            _ = try flush()
        } catch {
            throw .media(file: LabelText.excerpt(path), error)
        }
        guard var reader else {
            if let offset = fragmentWithoutInit {
                throw .media(
                    file: LabelText.excerpt(path),
                    ContainerError(
                        .missing, offset: offset,
                        "a media fragment ('moof') without its initialisation segment ('moov'): the init segment is needed to read its samples; give it first (cat init.mp4 segment.m4s > whole.mp4) or give the master playlist, which names it (EXT-X-MAP)"
                    ))
            }
            throw .media(file: LabelText.excerpt(path), ContainerError(.missing, offset: 0, "no 'moov' box before the fragments: not a fragmented MP4 file"))
        }
        if accessUnitLimit == nil { reader.finish() }
        return reader
    }

    /// The decoded captions of an fMP4 reader, shifted to start at its first presented frame.
    static func captions(_ reader: FragmentedCaptionReader, path: String) -> ProgrammeCaptions {
        let shift = MediaTime(ticks: reader.origin ?? 0)
        let services = reader.decoder.collector.cues.keys.sorted().compactMap { service -> ProgrammeCaptions.Service? in
            guard let cues = reader.decoder.collector.cues[service], !cues.isEmpty else { return nil }
            let shifted = cues.map { cue -> Cue in
                var c = cue
                c.start -= shift
                c.end -= shift
                return c
            }
            return ProgrammeCaptions.Service(service: service, cues: shifted, firstSeen: shifted.first?.start, segment: path)
        }
        var captions = ProgrammeCaptions(
            services: services,
            coverage: ProgrammeCaptions.Coverage(accessUnits: reader.decoder.accessUnits, captionDataUnits: reader.decoder.captionDataUnits))
        captions.notes = reader.notes
        return captions
    }

    /// Chunks of a whole number of 188-byte transport packets (about 1 MiB), so that the
    /// demuxer rarely carries a packet over from one chunk to the next.
    static let transportChunk = 188 * 5_578

    /// Chunks of `path`, read ahead while the caller decodes (not for a look at the first bytes).
    static func chunks(_ path: String, chunk: Int = transportChunk) throws(SubweaveError) -> FileChunks {
        do { return try FileChunks(path: path, chunkSize: chunk, readAhead: chunk >= 1 << 15) } catch { throw .unreadable(path: path, what: "", error) }
    }

    static func notTransportStream(_ path: String) -> SubweaveError {
        .media(
            file: LabelText.excerpt(path),
            ContainerError(.unknownFormat, offset: 0, "no MPEG-TS video stream found (no transport stream with a PAT and a PMT listing video)"))
    }
}

/// The top-level boxes of an ISO BMFF file, read by header (`pread`), and any box's bytes on
/// demand: each box is bounded by the file and by `limit`.
final class TopLevelBoxes {
    private let file: OpenFile
    private let size: Int
    private let limit: Int
    private var offset = 0

    init(path: String, limit: Int) throws(ResourceLoader.Failure) {
        do { file = try OpenFile(regular: path) } catch { throw ResourceLoader.Failure(error) }
        size = file.size
        self.limit = limit
    }

    /// The next box: its type and byte range; nil at the end of the file.
    func next() throws(ContainerError) -> (type: String, range: Range<Int>)? {
        guard offset + 8 <= size else { return nil }
        let header = try read(offset..<min(size, offset + 16))
        let size32 = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: header[4..<8], as: UTF8.self)
        var length = size32
        if size32 == 1 {
            guard header.count >= 16 else { throw ContainerError(.malformed, offset: offset, "box '\(type)' has a 64-bit size but the file ends") }
            let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large <= UInt64(size - offset) else {
                throw ContainerError(.malformed, offset: offset, "box '\(type)' declares \(large) bytes; \(size - offset) remain in the file")
            }
            length = Int(large)
        } else if size32 == 0 {
            length = size - offset
        }
        guard length >= 8, length <= size - offset else {
            throw ContainerError(.malformed, offset: offset, "box '\(type)' declares \(length) bytes; \(size - offset) remain in the file")
        }
        let range = offset..<(offset + length)
        offset += length
        return (type, range)
    }

    /// The bytes of `range` of the file.
    func read(_ range: Range<Int>) throws(ContainerError) -> [UInt8] {
        guard range.count <= limit else {
            throw ContainerError(.malformed, offset: range.lowerBound, "a box of \(range.count) bytes is over the segment read limit of \(limit) bytes")
        }
        let bytes: [UInt8]
        do { bytes = try file.read(count: range.count, at: range.lowerBound) } catch {
            throw ContainerError(.malformed, offset: range.lowerBound, "the file could not be read there (\(error.explanation))")
        }
        guard bytes.count == range.count else {
            throw ContainerError(.malformed, offset: range.lowerBound + bytes.count, "the file ends inside the box")
        }
        return bytes
    }
}
