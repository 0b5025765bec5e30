import Timebase

/// Reads the presentation start of a media segment.
///
/// - MPEG-TS: the lowest PTS among the PES packets of the video streams the PMT lists (with
///   B-frames the first PES in the file is not the earliest frame); the lowest audio PTS when
///   there is no video. Timestamps are compared across the 2^33 wrap. The segment is read until
///   that is settled: once a stream that gives decode times (DTS) decodes a frame after its
///   lowest PTS so far, no later frame can be presented before it (a frame is presented no
///   earlier than it is decoded, and decode times rise), so the rest of the segment, most of it,
///   is not read, nor checked. A stream with PTS only is read to the end of the segment.
/// - fMP4: the earliest presentation time (`tfdt` decode time plus `trun` composition offset)
///   of the first fragment's samples of the video track (else audio), on the timescale of the
///   init segment's `mdhd`, converted to 90 kHz. Edit lists (`elst`) are ignored, as the players
///   measured ignore them.
package enum TimelineProbe {
    /// Probes `segment`; `initialization` is the `EXT-X-MAP` data for fMP4 (nil for TS, or for
    /// fMP4 whose segment carries its own `moov`).
    package static func probe(segment: [UInt8], initialization: [UInt8]?) throws(ContainerError) -> SegmentTimeline {
        var reading = Reading()
        reading.feed(segment[...])
        return try reading.finish(initialization: initialization)
    }

    /// The format error of bytes that are neither MPEG-TS nor fragmented MP4.
    static func unknownFormat(_ segment: [UInt8]) -> ContainerError {
        ContainerError(
            .unknownFormat, offset: 0,
            segment.isEmpty
                ? "the file is empty; a media segment was expected"
                : "neither MPEG-TS (no sync byte 0x47 repeating every 188 bytes) nor fragmented MP4 (no ISO BMFF box at the start) in \(segment.count) bytes")
    }

    /// A segment probed as it is read, in chunks of any size.
    ///
    /// An MPEG-TS segment is read packet by packet (memory: one chunk, however large the
    /// segment), anything else gathered and probed whole at the end. Gives what
    /// ``probe(segment:initialization:)`` gives the whole segment.
    package struct Reading: Sendable {
        /// The bytes before the format is known (enough to tell: four packets), and all of a
        /// segment that is not MPEG-TS.
        private var gathered: [UInt8] = []
        private var transportStream: TransportStreamStart?
        private var isTransportStream: Bool?

        /// Bytes enough to tell MPEG-TS (``TransportStream/firstPacketOffset(_:)`` looks at a
        /// sync byte in the first packet and the two after it).
        private static let enoughToTell = 4 * TransportStream.packetSize

        package init() {}

        /// Whether the start is known whatever the rest of the segment holds (an MPEG-TS
        /// segment's, once settled: see ``TimelineProbe``): more bytes are not read.
        package var isSettled: Bool { transportStream?.isSettled ?? false }

        /// Reads the segment's next bytes.
        package mutating func feed(_ chunk: ArraySlice<UInt8>) {
            switch isTransportStream {
            case true?: transportStream?.feed(chunk)
            case false?: gathered += chunk
            case nil:
                gathered += chunk
                if gathered.count >= Self.enoughToTell { decide() }
            }
        }

        /// Decides the format from the bytes gathered (all of them, when fewer came).
        private mutating func decide() {
            if let first = TransportStream.firstPacketOffset(gathered) {
                isTransportStream = true
                var start = TransportStreamStart(from: first)
                start.feed(gathered[...])
                transportStream = start
                gathered = []
            } else {
                isTransportStream = false
            }
        }

        /// The segment's presentation start, once all its bytes are fed; `initialization` is the
        /// `EXT-X-MAP` data for fMP4.
        package mutating func finish(initialization: [UInt8]?) throws(ContainerError) -> SegmentTimeline {
            if isTransportStream == nil { decide() }
            if let transportStream { return try transportStream.finish() }
            if ISOBMFF.looksLikeISOBMFF(gathered) { return try probeFragmentedMP4(gathered, initialization: initialization) }
            throw unknownFormat(gathered)
        }
    }

    /// An MPEG-TS segment's start read packet by packet (see ``TimelineProbe``): the lowest PTS of
    /// the video streams the PMT lists, else of the audio.
    struct TransportStreamStart: Sendable {
        private var tables = ProgramTables()
        private var firstPTS: [UInt16: Int64] = [:]
        private var firstDTS: [UInt16: Int64] = [:]
        /// Unwrapped against the stream's first PTS.
        private var lowestPTS: [UInt16: Int64] = [:]
        /// The decode time of the stream's latest PES packet (its PTS when it has no DTS),
        /// unwrapped against its first PTS.
        private var latestDTS: [UInt16: Int64] = [:]
        /// The streams that have given a DTS (only these settle).
        private var givesDecodeTimes: Set<UInt16> = []
        /// Whether every stream the start is taken from has been decoded past its lowest PTS, so
        /// that no later packet can lower it: nothing more is read.
        private(set) var isSettled = false
        /// The PIDs of the streams the start is taken from, as the tables read so far list them
        /// (nil: not worked out since a table was read).
        private var startStreams: [UInt16]?
        private var shortHeaders: [String] = []
        /// Where the first packet starts in the segment.
        private let first: Int
        /// The stream position of the next byte fed.
        private var position = 0
        /// The start of a packet cut by the end of the last chunk.
        private var pending: [UInt8] = []
        /// The first fault read; nothing after it is read.
        private var failure: ContainerError?

        init(from first: Int) { self.first = first }

        /// Reads the next bytes of the segment (from its start).
        mutating func feed(_ chunk: ArraySlice<UInt8>) {
            var rest = chunk
            // The bytes before the first packet are not read.
            if position < first {
                let skip = min(first - position, rest.count)
                position += skip
                rest = rest.dropFirst(skip)
            }
            let size = TransportStream.packetSize
            guard !isSettled else { return }
            if !pending.isEmpty {
                let take = min(size - pending.count, rest.count)
                pending += rest.prefix(take)
                rest = rest.dropFirst(take)
                position += take
                guard pending.count == size else { return }
                let packet = pending
                pending = []
                read(packet[...], at: position - size)
            }
            let base = rest.startIndex
            let whole = rest.withUnsafeBufferPointer { p in
                var offset = 0
                while offset + size <= p.count && failure == nil && !isSettled {
                    // A packet in sync that starts no PES packet and is no table's holds nothing
                    // the probe reads (most packets): skipped without being parsed.
                    let b1 = p[offset + 1]
                    if p[offset] != TransportStream.syncByte || b1 & 0x40 != 0 || tables.isTable(UInt16(b1 & 0x1F) << 8 | UInt16(p[offset + 2])) {
                        read(rest[(base + offset)..<(base + offset + size)], at: position)
                    }
                    offset += size
                    position += size
                }
                return offset
            }
            let offset = base + whole
            if failure == nil && !isSettled && offset < rest.endIndex {
                pending = Array(rest[offset...])
                position += pending.count
            }
        }

        /// Reads one packet (`bytes`, 188 of them), at `at` in the segment.
        private mutating func read(_ bytes: ArraySlice<UInt8>, at: Int) {
            guard failure == nil else { return }
            guard let packet = TransportStream.Packet(bytes, at: bytes.startIndex) else {
                failure = ContainerError(.malformed, offset: at, "lost MPEG-TS sync: expected 0x47, found 0x\(String(bytes[bytes.startIndex], radix: 16))")
                return
            }
            if tables.consume(packet, in: bytes) {
                startStreams = nil
                return
            }
            guard packet.payloadUnitStart, !packet.payload.isEmpty, let header = TransportStream.PESHeader(bytes[packet.payload]) else { return }
            guard let pts = header.pts else {
                if header.headerLength > packet.payload.count && firstPTS[packet.pid] == nil {
                    shortHeaders.append(
                        "the first PES packet of PID \(packet.pid) at byte \(at) has a header of \(header.headerLength) bytes, longer than its TS packet's \(packet.payload.count) bytes of payload: its timestamps were not read, and the stream's start was taken from a later packet"
                    )
                }
                return
            }
            if let reference = firstPTS[packet.pid] {
                let unwrapped = PresentationTimestamp.unwrapped(pts, near: reference)
                lowestPTS[packet.pid] = min(lowestPTS[packet.pid] ?? unwrapped, unwrapped)
                latestDTS[packet.pid] = PresentationTimestamp.unwrapped(header.dts ?? pts, near: reference)
            } else {
                firstPTS[packet.pid] = pts
                firstDTS[packet.pid] = header.dts ?? pts
                lowestPTS[packet.pid] = pts
                latestDTS[packet.pid] = PresentationTimestamp.unwrapped(header.dts ?? pts, near: pts)
            }
            if header.dts != nil { givesDecodeTimes.insert(packet.pid) }
            isSettled = settles()
        }

        /// Whether the streams the start is taken from (the PMT's video streams, else its audio
        /// streams) have each given decode times and been decoded past their lowest PTS (a
        /// later DTS, not equal).
        private mutating func settles() -> Bool {
            guard tables.sawPAT else { return false }
            if startStreams == nil {
                let streams = tables.streams.values
                let video = streams.filter { $0.kind == .video }
                startStreams = (video.isEmpty ? streams.filter { $0.kind == .audio } : video).map(\.pid)
            }
            guard let pids = startStreams, !pids.isEmpty else { return false }
            return pids.allSatisfy { pid in
                guard givesDecodeTimes.contains(pid), let latest = latestDTS[pid], let lowest = lowestPTS[pid] else { return false }
                return latest > lowest
            }
        }

        /// The segment's start, once all its bytes are fed (a packet cut by the end is not read).
        func finish() throws(ContainerError) -> SegmentTimeline {
            if let failure { throw failure }
            let streams = tables.streams
            guard tables.sawPAT else {
                throw ContainerError(.missing, offset: first, "no PAT (PID 0) in the segment: its streams cannot be identified")
            }
            guard !streams.isEmpty else {
                throw ContainerError(.missing, offset: first, "no PMT in the segment: its streams cannot be identified")
            }
            func lowest(_ kind: TransportStream.ElementaryStream.Kind) -> Int64? {
                let values = streams.values.filter { $0.kind == kind }.compactMap { lowestPTS[$0.pid] }
                guard let reference = values.first else { return nil }
                // Streams may sit either side of a wrap: compare each against the first.
                return values.map { PresentationTimestamp.unwrapped($0, near: reference) }.min()
            }
            let videoLanguage = streams.values.filter { $0.kind == .video }.sorted { $0.pid < $1.pid }.first?.language
            func decodeStart(_ kind: TransportStream.ElementaryStream.Kind) -> Int64? {
                streams.values.filter { $0.kind == kind }.sorted { $0.pid < $1.pid }.lazy.compactMap { firstDTS[$0.pid] }.first
            }
            if let video = lowest(.video) {
                return SegmentTimeline(
                    container: .mpegTS, start: PresentationTimestamp.wrapped(video), source: .video, videoLanguage: videoLanguage,
                    decodeStart: decodeStart(.video), notes: shortHeaders)
            }
            if let audio = lowest(.audio) {
                return SegmentTimeline(
                    container: .mpegTS, start: PresentationTimestamp.wrapped(audio), source: .audio, videoLanguage: nil,
                    decodeStart: decodeStart(.audio), notes: shortHeaders)
            }
            throw ContainerError(.missing, offset: first, "no PES packet with a PTS for any video or audio stream the PMT lists")
        }
    }

    static func probeFragmentedMP4(_ segment: [UInt8], initialization: [UInt8]?) throws(ContainerError) -> SegmentTimeline {
        let tracks = try ISOBMFF.tracks(initialization ?? segment)
        let samples = try ISOBMFF.fragmentSamples(segment, tracks: tracks, firstOnly: true)
        for handler in ["vide", "soun"] {
            for track in tracks where track.handler == handler {
                // Players show a fragment's first frame at its presentation time (tfdt plus the
                // composition offset), which B-frames put a few frames after its decode time.
                let own = samples.filter { $0.trackID == track.trackID }
                guard let earliest = own.map(\.presentationTime).min(), let firstDecode = own.map(\.decodeTime).min() else { continue }
                guard let time = MediaTime(exactly: earliest, timescale: Int64(track.timescale)) else {
                    throw ContainerError(
                        .malformed, offset: 0,
                        "track \(track.trackID): presentation time \(earliest) on timescale \(track.timescale) is out of range (timescale 0, or beyond \(MediaTime.limit / 90_000) s)"
                    )
                }
                let decode = MediaTime(exactly: firstDecode, timescale: Int64(track.timescale)).map { PresentationTimestamp.wrapped($0.ticks) }
                var notes: [String] = []
                if let ignored = track.ignoredEdits { notes.append(ignored) }
                if own.contains(where: \.decodeTimeAssumed) {
                    notes.append("its first movie fragment has no 'tfdt' (base media decode time): its decode time was taken as 0")
                }
                return SegmentTimeline(
                    container: .fragmentedMP4, start: PresentationTimestamp.wrapped(time.ticks),
                    source: handler == "vide" ? .video : .audio, videoLanguage: nil, decodeStart: decode, notes: notes)
            }
        }
        throw ContainerError(
            .missing, offset: 0,
            "the first 'moof' has no samples for a video or audio track of the init segment (tracks: \(tracks.map { "\($0.trackID) \($0.handler)" }.joined(separator: ", ")))"
        )
    }
}
