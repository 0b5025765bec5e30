import Containers
import Timebase
import TimedText

/// Reads captions from an MPEG-TS byte stream fed in chunks.
package struct TransportStreamCaptionReader {
    private var demuxer = TransportStreamDemuxer(pictureData: NALUnits.Codec.pictureData(streamType:))
    package private(set) var decoder: CaptionDecoder?
    /// Maps an (unwrapped) PES PTS to a time on the output timeline; change it at a discontinuity.
    package var timeOf: (Int64) -> MediaTime
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
    package init(accessUnitLimit: Int? = nil, timeOf: @escaping (Int64) -> MediaTime) {
        self.accessUnitLimit = accessUnitLimit
        self.timeOf = timeOf
    }

    /// What was read although malformed or skipped, each naming its file and byte offset.
    package private(set) var notes: [String] = []

    /// Feeds bytes (of the file `label`, when they are a file of their own); returns false once
    /// nothing more is wanted (no SEI codec, or the limit reached).
    package mutating func feed(_ bytes: ArraySlice<UInt8>, label: String? = nil) -> Bool {
        guard !finished else { return false }
        var units: [(Int64, [UInt8])] = []
        let base = label == nil ? 0 : demuxer.position
        var withoutPTS = 0
        demuxer.feed(bytes) { packet in
            if let pts = packet.pts { units.append((pts, packet.payload)) } else { withoutPTS += 1 }
        }
        var fresh = demuxer.takeNotes(since: base)
        if withoutPTS > 0 { fresh.append("\(withoutPTS) video PES packet(s) carry no PTS; their caption data was skipped") }
        let prefix = label.map { "\($0): " } ?? ""
        if notes.count < Self.noteLimit { notes += fresh.map { prefix + $0 } }
        if decoder == nil, let video = demuxer.video {
            videoStreamType = video.streamType
            videoLanguage = video.language
            announcedServices = video.captionServices
            guard let codec = NALUnits.Codec(streamType: video.streamType) else { finished = true; return false }
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

    /// At most this many notes are kept (the first ones).
    static let noteLimit = 20

    /// The end of an HLS segment: its caption data is decoded now, not when the next one comes.
    ///
    /// The access unit being assembled is complete, and every picture of the segment is shown
    /// before the next segment's (a segment starts a group of pictures in decode order). Open
    /// captions stay open; the input goes on.
    package mutating func endOfSegment() {
        var last: [(Int64, [UInt8])] = []
        let base = demuxer.position
        demuxer.finish { packet in
            if let pts = packet.pts { last.append((pts, packet.payload)) }
        }
        if notes.count < Self.noteLimit { notes += demuxer.takeNotes(since: base) }
        guard var decoder else { return }
        self.decoder = nil
        for (pts, payload) in last { add(payload, pts: pts, to: &decoder) }
        decoder.drainReorderBuffer()
        self.decoder = decoder
    }

    /// Ends the input.
    package mutating func finish(at end: MediaTime? = nil) {
        var last: [(Int64, [UInt8])] = []
        let base = demuxer.position
        demuxer.finish { packet in
            if let pts = packet.pts { last.append((pts, packet.payload)) }
        }
        if notes.count < Self.noteLimit { notes += demuxer.takeNotes(since: base) }
        if var decoder {
            self.decoder = nil
            for (pts, payload) in last { add(payload, pts: pts, to: &decoder) }
            decoder.finish(at: end)
            notes += decoder.dtvccLosses
            self.decoder = decoder
        }
        finished = true
    }

    /// Unwraps the PTS against the previous one, notes the origin, and decodes the access unit.
    private mutating func add(_ payload: [UInt8], pts: Int64, to decoder: inout CaptionDecoder) {
        let unwrapped = lastPTS.map { PresentationTimestamp.unwrapped(pts, near: $0) } ?? pts
        lastPTS = unwrapped
        unitsSeen += 1
        if unitsSeen <= ReorderBuffer.depth * 2 { origin = min(origin ?? unwrapped, unwrapped) }
        decoder.add(accessUnit: payload, time: timeOf(unwrapped))
    }

    /// Marks a discontinuity: what follows is another timeline.
    package mutating func discontinuity(at time: MediaTime) {
        decoder?.discontinuity(at: time)
        lastPTS = nil
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
    /// The DVB teletext subtitle pages, timed as the services are.
    package var teletext: [(page: String, language: String?, cues: [Cue])] = []

    /// Decodes `chunks` (the file's bytes, in order) fully; memory stays that of one chunk and one
    /// PES packet, however long the input.
    package static func decode<S: Sequence>(_ chunks: S) -> TransportStreamCaptions where S.Element == ArraySlice<UInt8> {
        // Times are absolute unwrapped PTS while decoding; the origin is the lowest PTS among the
        // first access units (the first frame shown is not the first decoded with B-frames).
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        var teletext = TeletextStreamReader()
        for chunk in chunks {
            teletext.feed(chunk)
            if !reader.feed(chunk) && teletext.absent { break }
        }
        reader.finish()
        teletext.finish(at: reader.decoder?.lastFrameEnd ?? .zero)
        let origin = reader.origin
        let shift = MediaTime(ticks: origin ?? 0)
        var services: [(CaptionService, [Cue])] = []
        for service in CaptionService.allCases {
            guard let cues = reader.decoder?.collector.cues[service], !cues.isEmpty else { continue }
            services.append(
                (
                    service,
                    cues.map {
                        var c = $0; c.start -= shift; c.end -= shift; return c
                    }
                ))
        }
        var result = TransportStreamCaptions(
            services: services, language: reader.videoLanguage, videoStreamType: reader.videoStreamType, origin: origin,
            announced: reader.announcedServices, accessUnits: reader.decoder?.accessUnits ?? 0, captionDataUnits: reader.decoder?.captionDataUnits ?? 0,
            notes: reader.notes)
        if teletext.decoder.damagedBytes > 0 {
            result.notes.append(
                "teletext: \(teletext.decoder.damagedBytes) byte(s) failed their parity or Hamming check (a character shown as a space, a packet or header skipped)"
            )
        }
        if teletext.decoder.undecodedCharacters > 0 {
            result.notes.append(
                "teletext: \(teletext.decoder.undecodedCharacters) character(s) of pages designated a Cyrillic, Greek, Arabic or Hebrew set, which Subweave does not decode yet: shown as U+FFFD"
            )
        }
        if teletext.untimedPackets > 0 { result.notes.append("teletext: \(teletext.untimedPackets) PES packet(s) carry no PTS; their pages were skipped") }
        result.teletext = teletext.subtitlePages.map { page in
            (
                page.page, page.language,
                page.cues.map {
                    var c = $0; c.start -= shift; c.end -= shift; return c
                }
            )
        }
        return result
    }
}
