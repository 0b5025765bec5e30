import Captions
import Containers
import Foundation
import HLS
import Pictures
import Platform
import Timebase
import TimedText

/// Finds and decodes in-band captions in the reference variant.
///
/// The packager reads the whole programme: a service may begin at any point (a programme whose
/// first caption comes after a minute of titles is common), and a decision taken from the first
/// frames would hide it. Segments are decoded in order, each discontinuity sequence on its own
/// timeline; MPEG-TS and fragmented MP4 (CMAF) segments are read alike. Video that cannot carry
/// SEI captions (anything but H.264, HEVC or MPEG-2 video) is not read past its first segment.
/// A bounded look (``detectionAccessUnits``) stops at the first
/// character or the bound, and says how far it read.
package struct CaptionScanner: Sendable {
    /// The bounded look's length, in video access units (about a minute at 30 frames a second).
    package static let detectionAccessUnits = 1_800
    let reader: MediaReader
    /// Told after each segment decoded.
    var onProgress: ProgressHandler = { _ in }
    /// What the operator said of the services: the language DVB subtitle pictures are read in
    /// (a service's own, else the stream's, else the default caption language, else English).
    var settings = CaptionServiceSettings()
    /// The chunks a look reads an MPEG-TS segment in (``look(at:of:playlistURL:)``).
    var lookChunkSize = TransportStreamPieces.chunkSize

    /// Decodes the reference variant's segments: all of them, or with `accessUnitLimit` until
    /// the first character or that many access units.
    ///
    /// With `clock`, media times are put on `clock`'s programme timeline (another variant of the
    /// same ladder, with as many discontinuity sequences): the cues are what reading that variant
    /// would give where both carry the captions at the same timestamps.
    func scan(_ timeline: ProgrammeTimeline, playlistURL: URL, accessUnitLimit: Int? = nil, clock: ProgrammeTimeline? = nil) async throws(SubweaveError)
        -> ProgrammeCaptions
    {
        let playlist = timeline.playlist
        let clock = clock ?? timeline
        guard let decoded = try await decode(timeline, playlistURL: playlistURL, accessUnitLimit: accessUnitLimit, clock: clock) else { return .none }
        var decoding = decoded.decoding
        let complete = decoded.complete
        let through = decoding.lastFrameEnd
        // A caption still on screen at the end of an open programme (no EXT-X-ENDLIST) is not a
        // cue yet: its end comes with later segments, and a run that appends to the published
        // renditions adds it then.
        if complete && playlist.hasEndList { decoding.finish(at: clock.duration) }
        var cues = decoding.cues
        var notes = decoding.notes
        var recognised: [CaptionService: [Double]] = [:]
        // DVB subtitle pictures become text here, when the whole programme was read (a bounded
        // look only says where the first picture shows).
        if accessUnitLimit == nil {
            let read = await Self.recognise(decoding.pictures, declared: decoding.languages, settings: settings)
            cues.merge(read.cues) { _, b in b }
            recognised = read.confidences
            notes += read.notes
        }
        // A bounded look stops at the first character decoded, on screen or not yet (a pop-on
        // caption is loaded before it shows): that service is found, from that character's time.
        let firstText = complete ? nil : decoding.firstText
        let found = Set(cues.keys).union(firstText.map { [$0.service] } ?? [])
        let services = found.sorted().compactMap { service -> ProgrammeCaptions.Service? in
            if let firstText, firstText.service == service, cues[service]?.isEmpty ?? true {
                return ProgrammeCaptions.Service(service: service, cues: [], firstSeen: firstText.time, segment: nil)
            }
            guard let list = cues[service], let first = list.first else { return nil }
            let segment = playlist.segments.last { $0.start <= first.start }
            var found = ProgrammeCaptions.Service(
                service: service, cues: list, firstSeen: first.start,
                segment: segment.flatMap { MediaReader.resolve($0.uri, against: playlistURL) }.map(MediaReader.display))
            if service.isDVBSubtitles { found.forHardOfHearing = decoding.forHardOfHearing.contains(service) }
            found.confidences = recognised[service]
            return found
        }
        let coverage = ProgrammeCaptions.Coverage(
            accessUnits: decoding.accessUnits, captionDataUnits: decoding.captionDataUnits, through: complete ? clock.duration : through,
            complete: complete)
        var captions = ProgrammeCaptions(services: services, languages: decoding.languages, coverage: coverage)
        captions.notes = notes
        return captions
    }

    /// The text of DVB subtitle streams' pictures, read by OCR, each stream in its language
    /// (``pictureLanguage(_:declared:settings:)``): the cues and their confidences per stream, and
    /// what to say (cues to check, pictures without text, a stream that could not be read at
    /// all: Tesseract missing, or its language pack).
    ///
    /// A picture still shown (no end yet: the end of an open programme) is not a cue yet.
    static func recognise(_ pictures: [CaptionService: [SubtitlePicture]], declared: CaptionLanguages, settings: CaptionServiceSettings) async
        -> (cues: [CaptionService: [Cue]], confidences: [CaptionService: [Double]], notes: [String])
    {
        var cues: [CaptionService: [Cue]] = [:]
        var confidences: [CaptionService: [Double]] = [:]
        var notes: [String] = []
        for (service, all) in pictures.sorted(by: { $0.key < $1.key }) {
            let ended = all.filter { $0.end != nil }
            guard !ended.isEmpty else { continue }
            let (language, said) = pictureLanguage(service, declared: declared, settings: settings)
            if let said { notes.append(said) }
            let (read, told) = await recognise(service, ended, in: language)
            notes += told
            guard let read else { continue }
            cues[service] = read.cues
            confidences[service] = read.confidences
        }
        return (cues, confidences, notes)
    }

    /// One DVB subtitle stream's pictures read by OCR in `language`, and what to say of it, each
    /// naming the stream; nil when the stream could not be read at all (it is not published).
    static func recognise(_ service: CaptionService, _ pictures: [SubtitlePicture], in language: LanguageTag) async
        -> (read: PictureSubtitles.Recognised?, notes: [String])
    {
        do {
            let read = try await PictureSubtitles.recognise(pictures, in: language)
            return (read, read.warnings.map { "\(service.label): \($0.message)" })
        } catch {
            return (nil, ["\(service.label) were not read, so not published: \(error.explanation)"])
        }
    }

    /// The language to read a DVB subtitle stream's pictures in, and what to say when it is a guess.
    static func pictureLanguage(_ service: CaptionService, declared: CaptionLanguages, settings: CaptionServiceSettings) -> (LanguageTag, String?) {
        let named = [settings[service.rawValue]?.language, declared.language(for: service)?.tag, settings.defaultLanguage]
        if let tag = named.compactMap({ $0 }).first(where: { !$0.isUndetermined }) { return (tag, nil) }
        return (
            LanguageTag.english,
            "\(service.label): neither the stream nor the operator names a language: the pictures were read as English (name it with caption service setting \(service.rawValue):language=TAG)"
        )
    }

    /// What segments carry read on their own (``look(at:of:playlistURL:)``).
    typealias Look = (services: Set<CaptionService>, carriesData: Bool)

    /// What the segments `indices` of `timeline` carry on their own (each run of consecutive
    /// segments decoded from its first, as a player joining there would): the services in which
    /// text is decoded, and whether any caption data travels there (padding included).
    func look(at indices: [Int], of timeline: ProgrammeTimeline, playlistURL: URL) async throws(SubweaveError) -> Look {
        guard let (decoding, _) = try await decode(timeline, playlistURL: playlistURL, accessUnitLimit: nil, clock: timeline, only: Set(indices)) else {
            return ([], false)
        }
        return (Set(decoding.servicesWithText), decoding.captionDataUnits > 0)
    }

    /// Feeds the segments of `timeline` (all, or those in `only`) to one caption reader, in order.
    ///
    /// Each discontinuity sequence (and each jump over segments left out) is on its own timeline,
    /// placed by `clock`'s sequences. Nil when the video cannot carry captions or its first
    /// segment is encrypted; `complete` is false when a bounded look stopped early.
    ///
    /// A whole MPEG-TS programme of one sequence is read `apart` when it can be: after the first
    /// segment, the segments are read and their caption data taken out on both cores, and joined
    /// in order (``SegmentCaptionExtractor``). What is decoded is what reading on gives: when a
    /// segment cannot be joined (a PES packet crossing its start, a damaged packet), the whole
    /// programme is read again on, as it always was.
    private func decode(
        _ timeline: ProgrammeTimeline, playlistURL: URL, accessUnitLimit: Int?, clock: ProgrammeTimeline, only: Set<Int>? = nil, apart: Bool = true
    )
        async throws(SubweaveError)
        -> (decoding: CaptionSource, complete: Bool)?
    {
        let playlist = timeline.playlist
        guard let firstIndex = only?.min() ?? (playlist.segments.isEmpty ? nil : 0), firstIndex < playlist.segments.count else { return nil }
        let first = playlist.segments[firstIndex]
        // An AES-128 programme is read with the title's key; without it (or under SAMPLE-AES) its
        // captions are not looked for.
        guard first.encryption == nil || (first.encryption == .aes128 && reader.key != nil), let firstURL = MediaReader.resolve(first.uri, against: playlistURL)
        else { return nil }
        var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
        let firstInit = try await reader.initializationSection(first, of: playlistURL, cache: &initializations)
        guard var decoding = try Self.source(firstInit, file: firstURL, accessUnitLimit: accessUnitLimit, timeOf: { _ in .zero }) else { return nil }
        var complete = true
        var previous: Int?
        let wanted = playlist.segments.indices.filter { only?.contains($0) ?? true }
        let readsApart =
            apart && only == nil && accessUnitLimit == nil && firstInit == nil && wanted.count > 2
            && playlist.segments.allSatisfy { $0.discontinuitySequence == first.discontinuitySequence }
        // The next segment is read while this one is decoded: reading and decoding overlap. Two
        // buffers take turns, so the segments after the first two fault no fresh memory in.
        var ahead: SegmentPrefetch?
        var spare = [ReusableBytes(), ReusableBytes()]
        defer { ahead?.task.cancel() }
        for (position, index) in wanted.enumerated() {
            let segment = playlist.segments[index]
            guard !timeline.sequences.isEmpty, let url = MediaReader.resolve(segment.uri, against: playlistURL) else { continue }
            if decoding.finished {
                complete = decoding.cannotCarryCaptions
                break
            }
            // A look no longer wanted (its task cancelled: the record answered) stops; nothing
            // reads what it found.
            if only != nil && Task.isCancelled { break }
            let sequence = timeline.sequences[timeline.sequenceIndex(forSegment: index)]
            let sequenceIndex = timeline.sequenceIndex(forSegment: index)
            let placed = clock.sequences.indices.contains(sequenceIndex) ? clock.sequences[sequenceIndex] : sequence
            if let previous, previous != index - 1 || segment.discontinuitySequence != playlist.segments[previous].discontinuitySequence {
                decoding.discontinuity(at: segment.start)
                let initialization = try await reader.initializationSection(segment, of: playlistURL, cache: &initializations)
                try decoding.use(initialization, file: url)
            }
            previous = index
            let base = placed.media.start, start = placed.playlistStart
            decoding.timeOf = { pts in start + MediaTime(ticks: PresentationTimestamp.wrappedDifference(pts, base)) }
            let buffer: ReusableBytes
            if only != nil, decoding.isTransportStream {
                // A look (a few segments, read alongside the whole programme: both cores are busy)
                // reads an MPEG-TS segment a chunk at a time into one small buffer, each chunk
                // decoded while it is in the core's cache: a reference's segment (6 MiB at 8
                // Mbit/s) is neither held whole nor faulted into fresh memory.
                buffer = spare.popLast() ?? ReusableBytes()
                let label = MediaReader.display(url)
                let source = decoding
                decoding = .empty
                let read = try await reader.segment(
                    index, of: playlist, at: playlistURL, segmentURL: url, what: "media segment \(index)", chunkSize: lookChunkSize,
                    into: buffer, state: (source: source, offset: 0)
                ) { state, chunk in
                    state.source.feed(chunk: chunk, file: label, offsetInFile: state.offset)
                    state.offset += chunk.count
                }
                decoding = read.source
            } else {
                if let prefetched = ahead, prefetched.index == index {
                    buffer = try await prefetched.task.value.get()
                } else {
                    buffer = spare.popLast() ?? ReusableBytes()
                    try await self.reader.segment(index, of: playlist, at: playlistURL, segmentURL: url, what: "media segment \(index)", into: buffer)
                }
                // The next segment is read while this one is decoded (not for a look: it reads
                // one segment after another into one buffer).
                ahead =
                    only == nil && wanted.indices.contains(position + 1) && !(readsApart && position == 0)
                    ? SegmentPrefetch(index: wanted[position + 1], of: playlist, at: playlistURL, reader: reader, into: spare.popLast() ?? ReusableBytes())
                    : nil
                try buffer.withBytes { (bytes: inout [UInt8]) throws(SubweaveError) in
                    try decoding.feed(bytes, file: url, origin: segment.byteRange?.offset ?? 0)
                }
            }
            spare.append(buffer)
            onProgress(WorkProgress(.captionSegments, done: index + 1, total: playlist.segments.count))
            if readsApart && position == 0, case .transportStream(var transportStream) = decoding, let extractor = transportStream.segmentExtractor() {
                decoding = .empty
                guard transportStream.endBeforeJoining(),
                    try await join(wanted[1...], of: playlist, at: playlistURL, extractor: extractor, into: &transportStream, buffers: spare)
                else {
                    return try await decode(timeline, playlistURL: playlistURL, accessUnitLimit: accessUnitLimit, clock: clock, only: only, apart: false)
                }
                return (.transportStream(transportStream), true)
            }
        }
        return (decoding, complete)
    }

    /// Reads the segments `indices` apart, several at once, and joins their caption data to
    /// `transportStream` in order.
    ///
    /// False as soon as one cannot be joined (see ``SegmentCaptionExtractor``). A segment that
    /// cannot be read throws where it is joined, as it would where read on.
    private func join(
        _ indices: ArraySlice<Int>, of playlist: MediaPlaylist, at playlistURL: URL, extractor: SegmentCaptionExtractor,
        into transportStream: inout TransportStreamCaptionReader, buffers: [ReusableBytes]
    ) async throws(SubweaveError) -> Bool {
        // Enough segments in flight to keep both cores busy while this one is joined.
        let inFlight = 3
        var spare = buffers
        var pending: [SegmentExtraction] = []
        defer { for extraction in pending { extraction.task.cancel() } }
        // A segment whose URI does not resolve is skipped, as reading on skips it.
        let segments = indices.compactMap { index in MediaReader.resolve(playlist.segments[index].uri, against: playlistURL).map { (index, $0) } }
        var next = segments.startIndex
        for (index, _) in segments {
            while pending.count < inFlight, next < segments.endIndex {
                let (index, url) = segments[next]
                pending.append(
                    SegmentExtraction(
                        index: index, url: url, of: playlist, at: playlistURL, reader: reader, extractor: extractor, into: spare.popLast() ?? ReusableBytes()))
                next += 1
            }
            let (segment, buffer) = try await pending.removeFirst().task.value.get()
            spare.append(buffer)
            guard segment.joins else { return false }
            transportStream.join(segment)
            onProgress(WorkProgress(.captionSegments, done: index + 1, total: playlist.segments.count))
        }
        return true
    }

    /// The caption reader for segments with this initialisation section (fMP4) or none (MPEG-TS);
    /// nil when the fMP4 video cannot carry captions.
    static func source(_ initialization: [UInt8]?, file: URL, accessUnitLimit: Int?, timeOf: @escaping @Sendable (Int64) -> MediaTime) throws(SubweaveError)
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

/// A media segment read and its caption data taken out (``SegmentCaptionExtractor``), started
/// before it is joined, so that several run at once; a failure to read is thrown where the
/// segment is joined.
private struct SegmentExtraction {
    /// The caption data, and the buffer read into (to be read into again).
    let task: Task<Result<(SegmentCaptionExtractor.Segment, ReusableBytes), SubweaveError>, Never>

    /// Starts reading segment `index` (at `url`) into `buffer`.
    init(
        index: Int, url: URL, of playlist: MediaPlaylist, at playlistURL: URL, reader: MediaReader, extractor: SegmentCaptionExtractor,
        into buffer: ReusableBytes
    ) {
        task = Task {
            await .capturing { () async throws(SubweaveError) in
                var reading = try await reader.segment(
                    index, of: playlist, at: playlistURL, segmentURL: url, what: "media segment \(index)", chunkSize: TransportStreamPieces.chunkSize,
                    into: buffer, state: extractor.reading()
                ) { reading, chunk in reading.feed(chunk) }
                return (reading.finish(), buffer)
            }
        }
    }
}

/// A media segment's read, started before the segment is needed so that reading it overlaps
/// decoding the one before; a failure is thrown where the segment is used, as if read then.
private struct SegmentPrefetch {
    let index: Int
    /// The buffer read into, once read.
    let task: Task<Result<ReusableBytes, SubweaveError>, Never>

    /// Starts reading segment `index` into `buffer`; nil when its URI does not resolve (the
    /// loop skips it).
    init?(index: Int, of playlist: MediaPlaylist, at playlistURL: URL, reader: MediaReader, into buffer: ReusableBytes) {
        let segment = playlist.segments[index]
        guard let url = MediaReader.resolve(segment.uri, against: playlistURL) else { return nil }
        self.index = index
        task = Task {
            await .capturing { () async throws(SubweaveError) in
                try await reader.segment(index, of: playlist, at: playlistURL, segmentURL: url, what: "media segment \(index)", into: buffer)
                return buffer
            }
        }
    }
}
