import Containers
import Timebase
import TimedText

/// The whole caption path for one video stream: access units → NAL units → SEI → A/53
/// cc_data → presentation order → the 608 decoders of both fields and the 708 (DTVCC) decoder →
/// cues.
package struct CaptionDecoder {
    package let codec: NALUnits.Codec
    private var reorder = ReorderBuffer()
    /// The decoders, fed what the reorder buffer releases (apart from it, so that the two are
    /// not both accesses to self).
    private var presented = PresentedCaptionDecoder()
    /// Each SEI's RBSP in turn, its storage reused.
    private var scratch: [UInt8] = []
    package var collector = CaptionCollector()
    /// Access units seen so far.
    package private(set) var accessUnits = 0
    /// Access units that carried caption data (valid cc_data of field 1 or 2, padding included,
    /// or of DTVCC): captions may be present even when no character is ever decoded.
    package var captionDataUnits: Int { presented.captionDataUnits }
    /// When the first printable character was decoded, and in which service.
    package var firstText: (service: CaptionService, time: MediaTime)? { presented.firstText }

    package init(codec: NALUnits.Codec) { self.codec = codec }

    /// The caption triplets of an access unit (Annex B).
    package static func captionData(accessUnit: [UInt8], codec: NALUnits.Codec) -> [CCData] {
        var scratch: [UInt8] = [], result: [CCData] = []
        appendCaptionData(accessUnit: accessUnit[...], codec: codec, scratch: &scratch, to: &result)
        return result
    }

    /// Appends the caption triplets of an access unit to `result`; `scratch` holds each SEI's
    /// RBSP in turn (its storage is reused from one access unit to the next).
    static func appendCaptionData(accessUnit: ArraySlice<UInt8>, codec: NALUnits.Codec, scratch: inout [UInt8], to result: inout [CCData]) {
        accessUnit.withUnsafeBufferPointer { appendCaptionData(accessUnit: $0, codec: codec, scratch: &scratch, to: &result) }
    }

    /// ``appendCaptionData(accessUnit:codec:scratch:to:)`` of an access unit where it lies: its
    /// parts are read in place (no slice, and no reference count, per NAL unit).
    static func appendCaptionData(accessUnit p: UnsafeBufferPointer<UInt8>, codec: NALUnits.Codec, scratch: inout [UInt8], to result: inout [CCData]) {
        NALUnits.forEachLeadingUnit(p, codec: codec) { range in
            guard !range.isEmpty else { return }
            if codec == .mpeg2 {
                // MPEG-2 video: user_data() (start code 00 00 01 B2) after the picture header.
                guard range.count > 1, p[range.lowerBound] == 0xB2 else { return }
                _ = CCData.append(atscUserData: UnsafeBufferPointer(rebasing: p[(range.lowerBound + 1)..<range.upperBound]), to: &result)
            } else if codec.isSEI(p[range.lowerBound]) {
                appendCaptionData(sei: UnsafeBufferPointer(rebasing: p[range]), codec: codec, scratch: &scratch, to: &result)
            }
        }
    }

    /// The caption triplets of one SEI NAL unit (its bytes, emulation prevention included).
    static func captionData(sei nal: ArraySlice<UInt8>, codec: NALUnits.Codec) -> [CCData] {
        var scratch: [UInt8] = [], result: [CCData] = []
        nal.withUnsafeBufferPointer { appendCaptionData(sei: $0, codec: codec, scratch: &scratch, to: &result) }
        return result
    }

    /// Appends the caption triplets of one SEI NAL unit to `result`.
    static func appendCaptionData(sei nal: UnsafeBufferPointer<UInt8>, codec: NALUnits.Codec, scratch: inout [UInt8], to result: inout [CCData]) {
        // Read where it lies when nothing is escaped (the usual case), else from its RBSP.
        if NALUnits.hasEmulationPrevention(nal) {
            NALUnits.rbsp(nal, into: &scratch)
            scratch.withUnsafeBufferPointer { rbsp in
                SEIMessages.forEachRegisteredUserData(rbsp, headerLength: codec.headerLength) { _ = CCData.append(t35: $0, to: &result) }
            }
        } else {
            SEIMessages.forEachRegisteredUserData(nal, headerLength: codec.headerLength) { _ = CCData.append(t35: $0, to: &result) }
        }
    }

    /// Adds one access unit shown at `time`.
    package mutating func add(accessUnit: ArraySlice<UInt8>, time: MediaTime) {
        var data: [CCData] = []
        Self.appendCaptionData(accessUnit: accessUnit, codec: codec, scratch: &scratch, to: &data)
        add(captionData: data[...], time: time)
    }

    /// Adds the caption data of one access unit (picture) shown at `time`, in decode order.
    package mutating func add(captionData data: [CCData], time: MediaTime) { add(captionData: data[...], time: time) }

    /// Adds the caption data of one access unit (picture) shown at `time`, in decode order: a
    /// part of an array that holds many (``SegmentCaptionExtractor``).
    package mutating func add(captionData data: ArraySlice<CCData>, time: MediaTime) {
        data.withUnsafeBufferPointer { add(captionData: $0, time: time) }
    }

    /// Adds the caption data of one access unit shown at `time`, in decode order, where it lies.
    package mutating func add(captionData data: UnsafeBufferPointer<CCData>, time: MediaTime) {
        accessUnits += 1
        reorder.add(data, time: time) { t, items in presented.decode(items, at: t, into: &collector) }
    }

    /// Adds the caption data of one frame shown at `time`, already in presentation order (MCC
    /// files: one caption distribution packet a frame).
    package mutating func add(presentedCaptionData data: [CCData], time: MediaTime) {
        accessUnits += 1
        data.withUnsafeBufferPointer { presented.decode($0, at: time, into: &collector) }
    }

    /// Adds caption byte pairs directly (SCC files): field 1 or 2, in presentation order.
    package mutating func add(pairs: [(UInt8, UInt8)], field: Int, time: MediaTime) {
        let data = pairs.map { CCData(type: UInt8(field - 1), valid: true, byte1: $0.0, byte2: $0.1) }
        data.withUnsafeBufferPointer { presented.decode($0, at: time, into: &collector) }
    }

    /// Decodes what the reorder buffer holds (the end of a bounded scan, or of the input).
    package mutating func drainReorderBuffer() {
        reorder.drain { t, items in presented.decode(items, at: t, into: &collector) }
    }

    /// Flushes the reorder buffer and ends open captions at `end`, or else when the last frame
    /// seen stops being shown (one frame after its time: what its caption data set is shown for
    /// that frame too).
    package mutating func finish(at end: MediaTime? = nil) {
        drainReorderBuffer()
        presented.finish(at: end ?? lastFrameEnd ?? .zero, into: &collector)
    }

    /// At a discontinuity: decodes what is buffered, ends open captions at `time`, resets.
    package mutating func discontinuity(at time: MediaTime) {
        drainReorderBuffer()
        presented.reset(at: time, into: &collector)
    }

    /// The captions on screen now, per service, as cues ending at `time` (CaptionCollector's
    /// form); they are not final: a later one with the same start and text may end later.
    package func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        presented.openCaptions(at: time).map {
            (
                $0.service,
                Cue(start: $0.start, end: min(time, $0.start + Channel608.maximumDuration), settings: $0.placement, text: CaptionStyle.webVTT($0.text))
            )
        }
    }

    /// DTVCC packets cut short and sequence numbers skipped so far.
    package var damagedDTVCCPackets: (truncated: Int, gaps: Int) { (presented.dtvcc.truncatedPackets, presented.dtvcc.sequenceGaps) }

    /// What the CEA-708 data lost, as sentences for the report: packets cut short, commands cut
    /// off, characters dropped past a row's end (empty when nothing was lost).
    package var dtvccLosses: [String] {
        var notes: [String] = []
        let packets = damagedDTVCCPackets, services = presented.dtvcc.serviceLosses
        if packets.truncated > 0 {
            notes.append("\(packets.truncated) CEA-708 caption channel packet(s) were cut short; what they held past the cut was skipped")
        }
        if services.truncatedCommands > 0 {
            notes.append("\(services.truncatedCommands) CEA-708 command(s) were cut off by the end of their service block and skipped")
        }
        if services.droppedCharacters > 0 {
            notes.append(
                "\(services.droppedCharacters) CEA-708 character(s) were written past column \(Window708.maximumRowLength) of a window row (wider than any window can be) and dropped"
            )
        }
        return notes
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
        presented.lastTime.map { $0 + (presented.frameStep ?? MediaTime(ticks: 3003)) }
    }

    /// The services in which text was decoded.
    package var services: [CaptionService] {
        presented.services.sorted()
    }
}

/// The 608 decoders of both fields and the 708 (DTVCC) decoder, fed caption data in
/// presentation order.
private struct PresentedCaptionDecoder {
    private var fields = [CEA608FieldDecoder(field: 1), CEA608FieldDecoder(field: 2)]
    private(set) var dtvcc = DTVCCDecoder()
    private(set) var lastTime: MediaTime?
    /// The shortest step seen between the presentation times of successive access units: one
    /// frame, by which the last frame is shown past its own time.
    private(set) var frameStep: MediaTime?
    /// Frames that carried caption data (see ``CaptionDecoder/captionDataUnits``).
    private(set) var captionDataUnits = 0
    /// When the first printable character was decoded, and in which service.
    private(set) var firstText: (service: CaptionService, time: MediaTime)?

    /// Decodes the caption data of one frame shown at `time`.
    mutating func decode(_ data: UnsafeBufferPointer<CCData>, at time: MediaTime, into collector: inout CaptionCollector) {
        if let last = lastTime, time > last { frameStep = min(frameStep ?? (time - last), time - last) }
        lastTime = max(lastTime ?? time, time)
        if data.contains(where: { $0.valid }) { captionDataUnits += 1 }
        dtvcc.settle(at: time, into: &collector)
        for item in data where item.valid {
            if item.type >= 2 {
                dtvcc.decode(type: item.type, item.byte1, item.byte2, at: time, into: &collector)
                if firstText == nil, let service = dtvcc.servicesWithText.min() { firstText = (service, time) }
                continue
            }
            let index = Int(item.type)
            fields[index].decode(item.byte1, item.byte2, at: time, into: &collector)
            if firstText == nil, let service = fields[index].servicesWithText.min() { firstText = (service, time) }
        }
    }

    /// Ends open captions at `time`.
    mutating func finish(at time: MediaTime, into collector: inout CaptionCollector) {
        for i in fields.indices { fields[i].finish(at: time, into: &collector) }
        dtvcc.finish(at: time, into: &collector)
    }

    /// Ends open captions at `time` and starts afresh (a discontinuity).
    mutating func reset(at time: MediaTime, into collector: inout CaptionCollector) {
        for i in fields.indices { fields[i].reset(at: time, into: &collector) }
        dtvcc.reset(at: time, into: &collector)
    }

    /// What each service shows at `time`.
    func openCaptions(at time: MediaTime) -> [(service: CaptionService, text: String, start: MediaTime, placement: CueSettings)] {
        fields.flatMap { $0.openCaptions(at: time) } + dtvcc.openCaptions(at: time)
    }

    /// The services in which text was decoded.
    var services: Set<CaptionService> { fields[0].servicesWithText.union(fields[1].servicesWithText).union(dtvcc.servicesWithText) }
}
