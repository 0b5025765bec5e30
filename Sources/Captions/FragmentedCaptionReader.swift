import Containers
import Timebase
import TimedText

/// Reads CEA-608 captions from fragmented MP4 (CMAF) segments: the SEI NAL units of the video
/// track's samples.
///
/// Samples are found as a player finds them (`trun` sizes and data offsets, defaults from `tfhd`
/// and `trex`); each holds length-prefixed NAL units (`avcC`/`hvcC` give the length size). A
/// sample is shown at its presentation time, `tfdt` plus the durations before it plus its
/// composition offset; samples come in decode order and the decoder's reorder buffer puts their
/// caption data in presentation order, exactly as for MPEG-TS.
package struct FragmentedCaptionReader {
    /// The video track captions are read from.
    package private(set) var track: ISOBMFF.Track
    package private(set) var decoder: CaptionDecoder
    /// Maps a presentation time (90 kHz) to a time on the output timeline.
    package var timeOf: @Sendable (Int64) -> MediaTime
    /// Stop after this many access units (detection); nil for no limit.
    package let accessUnitLimit: Int?
    package private(set) var finished = false
    /// The earliest presentation time (90 kHz) among the first fragment's samples.
    package private(set) var origin: Int64?
    /// What was assumed about the media (a fragment without `tfdt`, an edit list ignored).
    package private(set) var notes: [String] = []

    /// A reader for the first H.264 or HEVC video track of `initialization` (its `moov`); nil
    /// when there is none (no captions are possible).
    package init?(initialization: [UInt8], accessUnitLimit: Int? = nil, timeOf: @escaping @Sendable (Int64) -> MediaTime) throws(ContainerError) {
        let tracks = try ISOBMFF.tracks(initialization)
        guard
            let track = tracks.first(where: { $0.handler == "vide" && $0.nalLengthSize != nil && Self.codec(of: $0.sampleEntry) != nil }),
            let codec = Self.codec(of: track.sampleEntry)
        else { return nil }
        self.track = track
        if let ignored = track.ignoredEdits { notes.append(ignored) }
        self.decoder = CaptionDecoder(codec: codec)
        self.accessUnitLimit = accessUnitLimit
        self.timeOf = timeOf
    }

    /// Another initialisation section (a new encode after a discontinuity): its video track is
    /// read from now on; what was decoded is kept.
    package mutating func use(initialization: [UInt8]) throws(ContainerError) {
        guard let track = try ISOBMFF.tracks(initialization).first(where: { $0.handler == "vide" && $0.nalLengthSize != nil }),
            Self.codec(of: track.sampleEntry) == decoder.codec
        else {
            throw ContainerError(
                .unknownFormat, offset: 0, "the new initialisation section has no video track of the same codec (\(decoder.codec)); captions cannot continue")
        }
        self.track = track
    }

    /// The SEI-carrying codec of a sample entry.
    static func codec(of sampleEntry: String) -> NALUnits.Codec? {
        switch sampleEntry {
        case "avc1", "avc2", "avc3", "avc4": return .h264
        case "hvc1", "hev1": return .hevc
        default: return nil
        }
    }

    /// Reads one segment (`moof` + `mdat`, one or more); returns false once nothing more is
    /// wanted (the access-unit limit reached, or text found while detecting).
    ///
    /// `fileOffset` is the file offset of `data` when it is one fragment of a longer file.
    package mutating func feed(segment data: [UInt8], origin fileOffset: Int = 0, label: String? = nil) throws(ContainerError) -> Bool {
        guard !finished else { return false }
        let samples = try ISOBMFF.fragmentSamples(data, tracks: [track], origin: fileOffset)
        guard let lengthSize = track.nalLengthSize else { return false }
        if let assumed = samples.first(where: \.decodeTimeAssumed), notes.count < 20 {
            notes.append(
                (label.map { "\($0): " } ?? "")
                    + "a movie fragment of sample data at byte \(assumed.offset) has no 'tfdt' (base media decode time): its samples were timed from where the previous fragment ended (\(assumed.decodeTime) on the track's timescale)"
            )
        }
        for sample in samples {
            guard let time = MediaTime(exactly: sample.presentationTime, timescale: Int64(track.timescale)) else {
                throw ContainerError(
                    .malformed, offset: sample.offset, "sample presentation time \(sample.presentationTime) on timescale \(track.timescale) is out of range")
            }
            if origin == nil || decoder.accessUnits < ReorderBuffer.depth * 2 { origin = min(origin ?? time.ticks, time.ticks) }
            let data = try Self.captionData(data, sample: sample, lengthSize: lengthSize, codec: decoder.codec)
            decoder.add(captionData: data, time: timeOf(time.ticks))
            if decoder.scanIsOver(limit: accessUnitLimit) {
                finished = true
                return false
            }
        }
        return true
    }

    /// The caption data of one sample: its length-prefixed NAL units, the SEI among them.
    static func captionData(_ data: [UInt8], sample: ISOBMFF.FragmentSample, lengthSize: Int, codec: NALUnits.Codec) throws(ContainerError) -> [CCData] {
        guard sample.offset >= 0, sample.size >= 0, sample.offset <= data.count, sample.size <= data.count - sample.offset else {
            throw ContainerError(
                .malformed, offset: sample.offset,
                "a video sample of \(sample.size) bytes at offset \(sample.offset) runs past the segment's \(data.count) bytes")
        }
        var result: [CCData] = []
        var i = sample.offset
        let end = sample.offset + sample.size
        while i + lengthSize <= end {
            var length = 0
            for k in 0..<lengthSize { length = length << 8 | Int(data[i + k]) }
            i += lengthSize
            guard length > 0, length <= end - i else {
                if length == 0 { continue }
                throw ContainerError(.malformed, offset: i - lengthSize, "a NAL unit length of \(length) bytes runs past its sample (\(end - i) bytes left)")
            }
            if codec.isSEI(data[i]) { result += CaptionDecoder.captionData(sei: data[i..<(i + length)], codec: codec) }
            i += length
        }
        return result
    }

    /// The cues decoded so far, emptying the collector.
    package mutating func takeCues() -> [(service: CaptionService, cue: Cue)] { decoder.collector.take() }

    /// Ends the input: open captions end at `end` (or the last frame seen).
    package mutating func finish(at end: MediaTime? = nil) {
        decoder.finish(at: end)
        notes += decoder.dtvccLosses
        finished = true
    }

    /// At a discontinuity: what follows is another timeline.
    package mutating func discontinuity(at time: MediaTime) { decoder.discontinuity(at: time) }

    /// The end of an HLS segment: its pictures are all shown before the next segment's, so their
    /// caption data is decoded now (see ``TransportStreamCaptionReader/endOfSegment()``).
    package mutating func endOfSegment() { decoder.drainReorderBuffer() }
}
