import Containers
import Pictures
import Timebase
import TimedText

/// Reads captions from an MPEG-TS byte stream fed in chunks: the video's CEA-608/708 services,
/// the subtitle pages of a DVB teletext stream and the pictures of DVB subtitle streams beside
/// it, on one timeline.
package struct TransportStreamCaptionReader {
    private var demuxer = TransportStreamDemuxer(pictureData: NALUnits.Codec.pictureData(streamType:))
    package private(set) var decoder: CaptionDecoder?
    /// The teletext stream's subtitle pages (nothing is read past the PMT when there is none).
    package private(set) var teletext: TeletextStreamReader
    /// The DVB subtitle streams' pictures (nothing is read past the PMT when there is none).
    package private(set) var dvbSubtitles: DVBSubtitleStreamReader
    /// Maps an (unwrapped) PES PTS to a time on the output timeline; change it at a discontinuity.
    package var timeOf: @Sendable (Int64) -> MediaTime {
        didSet {
            teletext.timeOf = timeOf
            dvbSubtitles.timeOf = timeOf
        }
    }
    /// The video cannot carry SEI captions (its codec is not H.264, HEVC or MPEG-2 video).
    package private(set) var videoCannotCarryCaptions = false
    private var lastPTS: Int64?
    /// The stream type of the video, once known; nil codec means no SEI captions are possible.
    package private(set) var videoStreamType: UInt8?
    package private(set) var videoLanguage: String?
    /// The caption services the PMT's caption_service_descriptor announces (ATSC A/65).
    package private(set) var announcedServices: [TransportStream.CaptionServiceEntry] = []
    /// Stop after this many access units (detection); nil for no limit.
    package let accessUnitLimit: Int?
    package private(set) var finished = false
    /// The lowest PTS (unwrapped) among the first access units: the first frame shown.
    package private(set) var origin: Int64?
    private var unitsSeen = 0

    /// `timeOf` converts an (unwrapped) PTS to output time.
    package init(accessUnitLimit: Int? = nil, timeOf: @escaping @Sendable (Int64) -> MediaTime) {
        self.accessUnitLimit = accessUnitLimit
        self.timeOf = timeOf
        teletext = TeletextStreamReader(timeOf: timeOf)
        dvbSubtitles = DVBSubtitleStreamReader(timeOf: timeOf)
    }

    private var readNotes: [String] = []
    /// Notes past ``noteLimit``: not kept, but counted and said.
    private var notesLeftOut = 0
    /// What was read although malformed or skipped, each naming its file and byte offset (the
    /// first ``noteLimit``, then how many more there were), and what the teletext and DVB
    /// subtitle readers have had to skip or could not decode so far.
    package var notes: [String] {
        let more = notesLeftOut > 0 ? ["\(notesLeftOut) more note(s) of damage in the MPEG-TS stream were left out (the first \(Self.noteLimit) are kept)"] : []
        return readNotes + more + teletext.notes + dvbSubtitles.notes
    }

    /// Keeps `fresh` notes while fewer than ``noteLimit`` are kept; counts the rest.
    private mutating func keep(_ fresh: [String]) {
        let room = max(0, Self.noteLimit - readNotes.count)
        readNotes += fresh.prefix(room)
        notesLeftOut += max(0, fresh.count - room)
    }

    /// Whether no stream beside the video carries subtitles (teletext or DVB).
    private var nothingBeside: Bool { teletext.absent && dvbSubtitles.absent }

    /// Feeds bytes (of the file `label`, when they are a file of their own, of which
    /// `offsetInFile` bytes were fed before: a file may come in chunks); returns false once
    /// nothing more is wanted (no SEI codec and no subtitle stream beside it, or a bounded look
    /// is over).
    package mutating func feed(_ bytes: ArraySlice<UInt8>, label: String? = nil, offsetInFile: Int = 0) -> Bool {
        guard !finished else { return false }
        teletext.feed(bytes)
        dvbSubtitles.feed(bytes, label: label, offsetInFile: offsetInFile)
        if accessUnitLimit != nil && (teletext.firstText != nil || dvbSubtitles.firstPicture != nil) {
            finished = true
            return false
        }
        if videoCannotCarryCaptions {
            finished = nothingBeside
            return !finished
        }
        var units: [(Int64, ArraySlice<UInt8>)] = []
        let base = label == nil ? 0 : demuxer.position - offsetInFile
        var withoutPTS = 0
        demuxer.feed(bytes) { packet in
            if let pts = packet.pts { units.append((pts, packet.payload)) } else { withoutPTS += 1 }
        }
        var fresh = demuxer.takeNotes(since: base)
        if withoutPTS > 0 { fresh.append("\(withoutPTS) video PES packet(s) carry no PTS; their caption data was skipped") }
        let prefix = label.map { "\($0): " } ?? ""
        keep(fresh.map { prefix + $0 })
        if decoder == nil, let video = demuxer.video {
            videoStreamType = video.streamType
            videoLanguage = video.language
            announcedServices = video.captionServices
            guard let codec = NALUnits.Codec(streamType: video.streamType) else {
                videoCannotCarryCaptions = true
                finished = nothingBeside
                return !finished
            }
            decoder = CaptionDecoder(codec: codec)
        }
        guard var decoder else { return true }
        self.decoder = nil  // keep the decoder's storage uniquely referenced while it works
        defer { self.decoder = decoder }
        for (pts, payload) in units {
            add(payload, pts: pts, to: &decoder)
            if decoder.scanIsOver(limit: accessUnitLimit) {
                finished = true
                return false
            }
        }
        return true
    }

    /// The cues decoded so far, emptying the reader's collector.
    package mutating func takeCues() -> [(service: CaptionService, cue: Cue)] {
        decoder?.collector.take() ?? []
    }

    /// At most this many notes are kept (the first ones); how many more there were is said.
    static let noteLimit = 20

    /// The end of an HLS segment: its caption data is decoded now, not when the next one comes.
    ///
    /// The access unit being assembled is complete, and every picture of the segment is shown
    /// before the next segment's (a segment starts a group of pictures in decode order). Open
    /// captions stay open; the input goes on.
    package mutating func endOfSegment() {
        var last: [(Int64, ArraySlice<UInt8>)] = []
        let base = demuxer.position
        demuxer.finish { packet in
            if let pts = packet.pts { last.append((pts, packet.payload)) }
        }
        keep(demuxer.takeNotes(since: base))
        teletext.endOfSegment()
        dvbSubtitles.endOfSegment()
        guard var decoder else { return }
        self.decoder = nil
        for (pts, payload) in last { add(payload, pts: pts, to: &decoder) }
        decoder.drainReorderBuffer()
        self.decoder = decoder
    }

    /// Ends the input.
    package mutating func finish(at end: MediaTime? = nil) {
        var last: [(Int64, ArraySlice<UInt8>)] = []
        let base = demuxer.position
        demuxer.finish { packet in
            if let pts = packet.pts { last.append((pts, packet.payload)) }
        }
        keep(demuxer.takeNotes(since: base))
        if var decoder {
            self.decoder = nil
            for (pts, payload) in last { add(payload, pts: pts, to: &decoder) }
            decoder.finish(at: end)
            readNotes += decoder.dtvccLosses
            self.decoder = decoder
        }
        teletext.finish(at: end ?? decoder?.lastFrameEnd ?? .zero)
        dvbSubtitles.finish(at: end ?? decoder?.lastFrameEnd ?? .zero)
        finished = true
    }

    /// Unwraps the PTS against the previous one, notes the origin, and decodes the access unit.
    private mutating func add(_ payload: ArraySlice<UInt8>, pts: Int64, to decoder: inout CaptionDecoder) {
        decoder.add(accessUnit: payload, time: timeOf(unwrap(pts)))
    }

    /// An access unit's PTS unwrapped against the previous one; the origin noted.
    private mutating func unwrap(_ pts: Int64) -> Int64 {
        let unwrapped = lastPTS.map { PresentationTimestamp.unwrapped(pts, near: $0) } ?? pts
        lastPTS = unwrapped
        unitsSeen += 1
        if unitsSeen <= ReorderBuffer.depth * 2 { origin = min(origin ?? unwrapped, unwrapped) }
        return unwrapped
    }

    /// What reads the HLS segments after those fed so far apart from one another (each on any
    /// core, ``SegmentCaptionExtractor``); nil unless this reader knows its video codec, nothing
    /// beside the video carries subtitles (teletext or DVB: their readers need every byte), the
    /// bytes fed so far ended at a packet's end, and the read is not a bounded look.
    package func segmentExtractor() -> SegmentCaptionExtractor? {
        guard accessUnitLimit == nil, !finished, nothingBeside, let decoder, demuxer.atPacketBoundary else { return nil }
        return SegmentCaptionExtractor(demuxer: demuxer.forSegment(), codec: decoder.codec, tablesBefore: demuxer.programMapPIDs)
    }

    /// Ends the PES packet in progress at the end of the bytes fed, before segments read apart
    /// are joined (``join(_:)``).
    ///
    /// Reading on would end it where the next segment starts a unit, as joined segments do.
    /// False when that made a note (a damaged end: read the rest on, not apart).
    package mutating func endBeforeJoining() -> Bool {
        var last: [(Int64, ArraySlice<UInt8>)] = []
        var withoutPTS = 0
        demuxer.finish { packet in
            if let pts = packet.pts { last.append((pts, packet.payload)) } else { withoutPTS += 1 }
        }
        guard demuxer.takeNotes(since: demuxer.position).isEmpty, withoutPTS == 0, var decoder else { return false }
        self.decoder = nil
        defer { self.decoder = decoder }
        for (pts, payload) in last { add(payload, pts: pts, to: &decoder) }
        return true
    }

    /// Decodes a segment read apart, after the bytes fed and the segments joined before it; the
    /// caller has checked ``SegmentCaptionExtractor/Segment/joins``.
    package mutating func join(_ segment: SegmentCaptionExtractor.Segment) {
        guard var decoder else { return }
        self.decoder = nil
        defer { self.decoder = decoder }
        // Each unit's triplets where they lie: no slice (and no reference count) per unit.
        segment.triplets.withUnsafeBufferPointer { triplets in
            for (unit, pts) in segment.pts.enumerated() {
                decoder.add(captionData: UnsafeBufferPointer(rebasing: triplets[segment.starts[unit]..<segment.starts[unit + 1]]), time: timeOf(unwrap(pts)))
            }
        }
    }

    /// Marks a discontinuity: what follows is another timeline.
    package mutating func discontinuity(at time: MediaTime) {
        decoder?.discontinuity(at: time)
        teletext.discontinuity(at: time)
        dvbSubtitles.discontinuity(at: time)
        lastPTS = nil
    }

    /// The cues decoded, per service: the video's and the teletext pages'.
    package var cues: [CaptionService: [Cue]] {
        (decoder?.collector.cues ?? [:]).merging(teletext.cues) { a, _ in a }
    }

    /// Frees the pixels of the DVB subtitle pictures that ended before `time`.
    package mutating func releasePixels(endedBefore time: MediaTime) { dvbSubtitles.releasePixels(endedBefore: time) }

    /// The first printable character decoded, of the video's services or the teletext pages, or
    /// the first DVB subtitle picture shown.
    package var firstText: (service: CaptionService, time: MediaTime)? {
        [decoder?.firstText, teletext.firstText, dvbSubtitles.firstPicture].compactMap { $0 }.min { $0.time < $1.time }
    }

    /// The services in which text was decoded (for DVB subtitles, a picture shown).
    package var servicesWithText: [CaptionService] {
        ((decoder?.services ?? []) + teletext.servicesWithText + dvbSubtitles.servicesWithPictures).sorted()
    }

    /// The captions on screen now, as cues ending at `time` (not final).
    package func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        (decoder?.openCues(at: time) ?? []) + teletext.openCues(at: time)
    }
}

/// Reads the caption data of an MPEG-TS stream's HLS segments one at a time, each apart from the
/// others (so on any core, in any order), for a ``TransportStreamCaptionReader`` that joins them
/// in order.
///
/// Joining gives what the reader would have decoded reading on when every segment
/// ``Segment/joins``: each begins and ends at a packet in sync, its first video packet starts
/// a PES packet (so no PES crosses the boundary), no PMT PID is new, and nothing in it was
/// malformed (no note, no PES without a PTS). The reader's state across the boundary is then
/// only the decoder's, which the joined caption data carries on. When one does not, the caller
/// reads on instead.
package struct SegmentCaptionExtractor: Sendable {
    let demuxer: TransportStreamDemuxer
    let codec: NALUnits.Codec
    /// The PMT PIDs known before (a segment that names another cannot be joined).
    let tablesBefore: [UInt16]

    /// One segment's caption data: the triplets of all its video access units in one array.
    package struct Segment: Sendable {
        /// Each video access unit's PTS (as written), in decode order.
        package var pts: [Int64] = []
        /// Where each access unit's triplets start in ``triplets``, and (last) where they end:
        /// one more than ``pts`` has.
        package var starts: [Int] = [0]
        /// The caption data of every access unit, one after another.
        package var triplets: [CCData] = []
        /// Whether the segment can be joined to the one before (see the type).
        package var joins = false

        /// The access units' caption data, each with its PTS.
        package var units: [(pts: Int64, data: ArraySlice<CCData>)] {
            pts.indices.map { (pts[$0], triplets[starts[$0]..<starts[$0 + 1]]) }
        }
    }

    /// Where in `bytes` (which start at a packet) a segment may begin: the first packet that
    /// starts a video PES packet (``TransportStreamDemuxer/unitStart(in:)``).
    package func unitStart(in bytes: ArraySlice<UInt8>) -> TransportStreamDemuxer.UnitStart { demuxer.unitStart(in: bytes) }

    /// The caption data of one whole segment's bytes.
    package func extract(_ bytes: ArraySlice<UInt8>) -> Segment {
        var reading = self.reading()
        reading.feed(bytes)
        return reading.finish()
    }

    /// A segment read in chunks (so that each is worked on while it is still in the core's
    /// cache): ``Reading/feed(_:)`` them in order, then ``Reading/finish()``.
    package func reading() -> Reading { Reading(extractor: self) }

    /// One segment being read, fed in chunks.
    package struct Reading: Sendable {
        private let tablesBefore: [UInt16]
        private var demuxer: TransportStreamDemuxer
        private var found: Found
        private var count = 0
        /// Whether the segment's first three packets start with the sync byte, so far as fed.
        private var startsInSync = true

        init(extractor: SegmentCaptionExtractor) {
            tablesBefore = extractor.tablesBefore
            demuxer = extractor.demuxer.forSegment()
            found = Found(codec: extractor.codec)
        }

        /// Reads the segment's next bytes.
        package mutating func feed(_ bytes: ArraySlice<UInt8>) {
            // The first three packets' sync bytes, in whichever chunks they come.
            for packet in 0..<3 {
                let at = packet * TransportStream.packetSize - count
                if (0..<bytes.count).contains(at) && bytes[bytes.startIndex + at] != TransportStream.syncByte { startsInSync = false }
            }
            count += bytes.count
            // Taken out while the demuxer works, so that the two are not both accesses to self.
            var found = self.found.takeAll()
            demuxer.feed(bytes) { found.take($0) }
            self.found = found
        }

        /// The segment's caption data, once all its bytes are fed.
        package mutating func finish() -> Segment {
            let reading = demuxer.segmentReading(count: count, startsInSync: startsInSync, tablesBefore: tablesBefore)
            var found = self.found.takeAll()
            demuxer.finish { found.take($0) }
            var segment = found.segment
            segment.joins = reading.joinsSeamlessly && found.withoutPTS == 0 && demuxer.takeNotes(since: 0).isEmpty
            return segment
        }
    }

    /// The caption data taken from a segment's video PES packets so far.
    private struct Found: Sendable {
        let codec: NALUnits.Codec
        var segment = Segment()
        var scratch: [UInt8] = []
        var withoutPTS = 0

        /// This, leaving an empty one in its place (its arrays stay uniquely referenced).
        mutating func takeAll() -> Found {
            let all = self
            self = Found(codec: codec)
            return all
        }

        mutating func take(_ packet: TransportStreamDemuxer.PESPacket) {
            guard let pts = packet.pts else {
                withoutPTS += 1
                return
            }
            CaptionDecoder.appendCaptionData(accessUnit: packet.payload, codec: codec, scratch: &scratch, to: &segment.triplets)
            segment.pts.append(pts)
            segment.starts.append(segment.triplets.count)
        }
    }
}

/// The captions of one MPEG-TS file, per service, timed from its first video frame.
package struct TransportStreamCaptions: Sendable {
    package let services: [(service: CaptionService, cues: [Cue])]
    /// The video's ISO 639 language from the PMT, if declared.
    package let language: String?
    /// The video stream type; captions are read from H.264 (0x1B), HEVC (0x24) and MPEG-2 video (0x02) only.
    package let videoStreamType: UInt8?
    /// The first video frame's PTS (90 kHz), the origin of the cue times.
    package let origin: Int64?
    /// The caption services the PMT's caption_service_descriptor announces.
    package let announced: [TransportStream.CaptionServiceEntry]
    /// Video access units read, and those that carried line-21 caption data.
    package let accessUnits: Int
    package let captionDataUnits: Int
    /// What was read although malformed, skipped or lost, each naming its byte offset.
    package var notes: [String]
    /// The languages the teletext descriptor gives its subtitle pages.
    package var teletextLanguages: [(service: CaptionService, language: String)] = []
    /// The DVB subtitle streams' pictures, timed as the cues are (text comes from them by OCR).
    package var pictures: [CaptionService: [SubtitlePicture]] = [:]
    /// The language the subtitling descriptor gives each DVB subtitle stream.
    package var dvbLanguages: [(service: CaptionService, language: String)] = []
    /// The DVB subtitle streams for the hard of hearing (by their subtitling type).
    package var forHardOfHearing: Set<CaptionService> = []

    /// Decodes `chunks` (the file's bytes, in order) fully; memory stays that of one chunk and one
    /// PES packet, however long the input.
    package static func decode<S: Sequence>(_ chunks: S) -> TransportStreamCaptions where S.Element == ArraySlice<UInt8> {
        // Times are absolute unwrapped PTS while decoding; the origin is the lowest PTS among the
        // first access units (the first frame shown is not the first decoded with B-frames).
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        for chunk in chunks where !reader.feed(chunk) { break }
        return TransportStreamCaptions(finishing: reader)
    }
}

extension TransportStreamCaptions {
    /// What `reader` decoded, once it is told the input has ended; it was made with times as
    /// absolute unwrapped PTS (``decode(_:)``).
    package init(finishing reader: consuming TransportStreamCaptionReader) {
        reader.finish()
        let origin = reader.origin
        let shift = MediaTime(ticks: origin ?? 0)
        let cues = reader.cues
        let services = cues.keys.sorted().compactMap { service -> (CaptionService, [Cue])? in
            guard let list = cues[service], !list.isEmpty else { return nil }
            return (
                service,
                list.map {
                    var c = $0; c.start -= shift; c.end -= shift; return c
                }
            )
        }
        self.init(
            services: services, language: reader.videoLanguage, videoStreamType: reader.videoStreamType, origin: origin,
            announced: reader.announcedServices, accessUnits: reader.decoder?.accessUnits ?? 0, captionDataUnits: reader.decoder?.captionDataUnits ?? 0,
            notes: reader.notes)
        teletextLanguages = reader.teletext.pageLanguages
        pictures = reader.dvbSubtitles.pictures.mapValues { list in
            list.map {
                var p = $0; p.start -= shift; p.end = p.end.map { $0 - shift }; return p
            }
        }
        dvbLanguages = reader.dvbSubtitles.languages
        forHardOfHearing = reader.dvbSubtitles.forHardOfHearing
    }
}
