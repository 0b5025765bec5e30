import Containers
import Timebase
import TimedText

/// Collects decoded captions as cues, per service.
package struct CaptionCollector: CaptionSink {
    package private(set) var cues: [CaptionService: [Cue]] = [:]

    package init() {}

    package mutating func caption(_ text: String, service: CaptionService, from start: MediaTime, to end: MediaTime) {
        cues[service, default: []].append(Cue(start: start, end: end, text: CueText.sanitized(CueText.escaped(text)).text))
    }

    /// The cues collected so far, in service order then time, emptying the collector (a reader
    /// that streams cues out keeps memory flat).
    package mutating func take() -> [(service: CaptionService, cue: Cue)] {
        var out: [(CaptionService, Cue)] = []
        for service in CaptionService.allCases { for cue in cues[service] ?? [] { out.append((service, cue)) } }
        cues = [:]
        return out
    }
}

/// Puts caption data back in presentation order before it reaches the decoder.
///
/// A/53 caption data travels with each coded picture, in decode order; with B-frames that is not
/// the order the pictures are shown. Decoding in decode order shows the caption before last, or
/// scrambles text. The buffer holds as many access units as H.264 may reorder (a DPB of 16
/// frames) and releases the earliest-presented one as each new one arrives.
struct ReorderBuffer {
    static let depth = 16
    private var pending: [(time: MediaTime, data: [CCData], sequence: Int)] = []
    private var sequence = 0

    /// Adds an access unit's caption data; returns any that can no longer be preceded.
    mutating func add(_ data: [CCData], time: MediaTime) -> [(MediaTime, [CCData])] {
        pending.append((time, data, sequence))
        sequence += 1
        guard pending.count > Self.depth else { return [] }
        return [popEarliest()]
    }

    mutating func drain() -> [(MediaTime, [CCData])] {
        var out: [(MediaTime, [CCData])] = []
        while !pending.isEmpty { out.append(popEarliest()) }
        return out
    }

    private mutating func popEarliest() -> (MediaTime, [CCData]) {
        var best = 0
        for i in pending.indices.dropFirst() where (pending[i].time, pending[i].sequence) < (pending[best].time, pending[best].sequence) { best = i }
        let item = pending.remove(at: best)
        return (item.time, item.data)
    }
}

/// The whole caption path for one video stream: access units → NAL units → SEI → A/53
/// cc_data → presentation order → the 608 decoders of both fields → cues.
package struct CaptionDecoder {
    package let codec: NALUnits.Codec
    private var reorder = ReorderBuffer()
    private var fields = [CEA608FieldDecoder(field: 1), CEA608FieldDecoder(field: 2)]
    package var collector = CaptionCollector()
    private var lastTime: MediaTime?
    /// The shortest step seen between the presentation times of successive access units: one
    /// frame, by which the last frame is shown past its own time.
    private var frameStep: MediaTime?
    /// Access units seen so far.
    package private(set) var accessUnits = 0
    /// Access units that carried line-21 caption data (valid cc_data of field 1 or 2, padding
    /// included): captions may be present even when no character is ever decoded.
    package private(set) var captionDataUnits = 0
    /// When the first printable character was decoded, and in which service.
    package private(set) var firstText: (service: CaptionService, time: MediaTime)?

    package init(codec: NALUnits.Codec) { self.codec = codec }

    /// The caption triplets of an access unit (Annex B).
    package static func captionData(accessUnit: [UInt8], codec: NALUnits.Codec) -> [CCData] {
        var result: [CCData] = []
        if codec == .mpeg2 {
            // MPEG-2 video: user_data() (start code 00 00 01 B2) after the picture header.
            for range in NALUnits.leadingUnits(accessUnit, codec: codec) where range.count > 1 && accessUnit[range.lowerBound] == 0xB2 {
                if let data = CCData.parse(atscUserData: accessUnit[(range.lowerBound + 1)..<range.upperBound]) { result += data }
            }
            return result
        }
        for range in NALUnits.leadingUnits(accessUnit, codec: codec) where !range.isEmpty && codec.isSEI(accessUnit[range.lowerBound]) {
            result += captionData(sei: accessUnit[range], codec: codec)
        }
        return result
    }

    /// The caption triplets of one SEI NAL unit (its bytes, emulation prevention included).
    static func captionData(sei nal: ArraySlice<UInt8>, codec: NALUnits.Codec) -> [CCData] {
        var result: [CCData] = []
        for payload in SEIMessages.registeredUserData(NALUnits.rbsp(nal), headerLength: codec.headerLength) {
            if let data = CCData.parse(t35: payload) { result += data }
        }
        return result
    }

    /// Adds one access unit shown at `time`.
    package mutating func add(accessUnit: [UInt8], time: MediaTime) {
        add(captionData: Self.captionData(accessUnit: accessUnit, codec: codec), time: time)
    }

    /// Adds the caption data of one access unit (picture) shown at `time`, in decode order.
    package mutating func add(captionData data: [CCData], time: MediaTime) {
        accessUnits += 1
        for (t, items) in reorder.add(data, time: time) { decode(items, at: t) }
    }

    /// Adds caption byte pairs directly (SCC files): field 1 or 2, in presentation order.
    package mutating func add(pairs: [(UInt8, UInt8)], field: Int, time: MediaTime) {
        let data = pairs.map { CCData(type: UInt8(field - 1), valid: true, byte1: $0.0, byte2: $0.1) }
        decode(data, at: time)
    }

    private mutating func decode(_ data: [CCData], at time: MediaTime) {
        if let last = lastTime, time > last { frameStep = min(frameStep ?? (time - last), time - last) }
        lastTime = max(lastTime ?? time, time)
        if data.contains(where: { $0.valid && $0.type < 2 }) { captionDataUnits += 1 }
        for item in data where item.valid && item.type < 2 {
            let index = Int(item.type)
            fields[index].decode(item.byte1, item.byte2, at: time, into: &collector)
            if firstText == nil, let service = fields[index].servicesWithText.min() { firstText = (service, time) }
        }
    }

    /// Decodes what the reorder buffer holds (the end of a bounded scan, or of the input).
    package mutating func drainReorderBuffer() {
        for (t, items) in reorder.drain() { decode(items, at: t) }
    }

    /// Flushes the reorder buffer and ends open captions at `end`, or else when the last frame
    /// seen stops being shown (one frame after its time: what its caption data set is shown for
    /// that frame too).
    package mutating func finish(at end: MediaTime? = nil) {
        drainReorderBuffer()
        let time = end ?? lastFrameEnd ?? .zero
        for i in fields.indices { fields[i].finish(at: time, into: &collector) }
    }

    /// At a discontinuity: decodes what is buffered, ends open captions at `time`, resets.
    package mutating func discontinuity(at time: MediaTime) {
        drainReorderBuffer()
        for i in fields.indices { fields[i].reset(at: time, into: &collector) }
    }

    /// The captions on screen now, per service, as cues ending at `time` (CaptionCollector's
    /// form); they are not final: a later one with the same start and text may end later.
    package func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        fields.flatMap { field in
            field.openCaptions(at: time).map {
                (
                    $0.service,
                    Cue(start: $0.start, end: min(time, $0.start + Channel608.maximumDuration), text: CueText.sanitized(CueText.escaped($0.text)).text)
                )
            }
        }
    }

    /// For a bounded scan (`limit` access units): whether it is over — text found, or the limit
    /// reached (then the access units still waiting to be put in order are decoded).
    package mutating func scanIsOver(limit: Int?) -> Bool {
        guard let limit else { return false }
        if firstText != nil { return true }
        guard accessUnits >= limit else { return false }
        drainReorderBuffer()
        return true
    }

    /// When the last frame seen stops being shown: its time plus one frame (the shortest step
    /// between frames, else 1001/30000 s); nil before any frame.
    package var lastFrameEnd: MediaTime? {
        lastTime.map { $0 + (frameStep ?? MediaTime(ticks: 3003)) }
    }

    /// The services in which text was decoded.
    package var services: [CaptionService] {
        (fields[0].servicesWithText.union(fields[1].servicesWithText)).sorted()
    }
}

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

    /// Decodes `chunks` (the file's bytes, in order) fully; memory stays that of one chunk and one
    /// PES packet, however long the input.
    package static func decode<S: Sequence>(_ chunks: S) -> TransportStreamCaptions where S.Element == ArraySlice<UInt8> {
        // Times are absolute unwrapped PTS while decoding; the origin is the lowest PTS among the
        // first access units (the first frame shown is not the first decoded with B-frames).
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        for chunk in chunks where !reader.feed(chunk) { break }
        reader.finish()
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
        return TransportStreamCaptions(
            services: services, language: reader.videoLanguage, videoStreamType: reader.videoStreamType, origin: origin,
            announced: reader.announcedServices, accessUnits: reader.decoder?.accessUnits ?? 0, captionDataUnits: reader.decoder?.captionDataUnits ?? 0)
    }
}
