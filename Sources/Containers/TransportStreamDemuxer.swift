/// Reassembles the PES packets of an MPEG-TS stream's video track, fed in chunks of any size.
///
/// Finds the PAT and PMT, picks the first video stream the PMT lists (or the one asked for),
/// joins its packets' payloads into whole PES packets and hands each to the caller with its PTS
/// and DTS. Continuity-counter gaps are tolerated: the PES being assembled is dropped (it would be
/// corrupt) and assembly resumes at the next unit start. Memory is one PES packet, whatever the
/// input's length.
package struct TransportStreamDemuxer {
    /// A reassembled PES packet.
    package struct PESPacket: Sendable {
        package let pts: Int64?
        package let dts: Int64?
        /// The elementary stream bytes (for video, an access unit in Annex B), where the demuxer
        /// gathered them: read them while emitted (the storage is reused when no one keeps them).
        package let payload: ArraySlice<UInt8>
        /// The byte offset of the packet that started it.
        package let offset: Int
    }

    /// Which elementary stream a demuxer follows.
    package enum Selection: Sendable {
        /// The first video stream of the first PMT that lists one.
        case video
        /// The first DVB teletext stream (private data with a teletext descriptor).
        case teletext
        /// The first DVB subtitle stream (private data with a subtitling descriptor).
        case dvbSubtitles
        /// The DVB subtitle stream on this PID.
        case dvbSubtitlesOn(pid: UInt16)
    }

    /// The stream followed.
    package private(set) var selection: Selection

    /// The stream followed (the video, or with ``Selection/teletext`` the teletext stream) once
    /// the PMT has been read.
    package private(set) var video: TransportStream.ElementaryStream? {
        didSet {
            videoPID = video?.pid
            stopAtUnit = video.flatMap { pictureData?($0.streamType) }.map(ByteSet.init(where:))
        }
    }
    /// The video stream's PID, compared with every packet's (without copying the stream).
    private var videoPID: UInt16?
    /// Continuity errors seen on the video PID.
    package private(set) var continuityErrors = 0
    /// Bytes consumed so far.
    package private(set) var bytesRead = 0

    private var pending: [UInt8] = []
    private var tables = ProgramTables()
    /// The PES packet being assembled, its header included (its payload starts at ``payloadStart``).
    private var current: [UInt8] = []
    private var currentHeader: TransportStream.PESHeader?
    /// Where the payload of ``current`` starts, once its header is read.
    private var payloadStart = 0
    /// A PES packet has started and its header is not complete yet (it may span TS packets).
    private var headerPending = false
    /// What was read although malformed, by kind: how often, and the first byte offset.
    private var anomalies: [String: (count: Int, first: Int)] = [:]
    private var currentOffset = 0
    /// The bytes the PES being assembled has carried so far, header included, collected or not:
    /// checked against its PES_packet_length.
    private var currentLength = 0
    private var lastCounter: UInt8?
    private var synced = false
    /// Whether the PES being assembled still collects payload (see ``pictureData``).
    private var collecting = true
    /// The bytes that begin picture data after a start code, from ``pictureData`` once the PMT
    /// names the video (a set, not the test itself: looked up, not called, at every start code).
    private var stopAtUnit: ByteSet?

    /// For a video stream type, whether the byte after a start code (`00 00 01`) begins picture data.
    ///
    /// A PES packet's payload is then kept only up to the first such start code (nil: whole
    /// packets): the caller reads nothing after it (captions come before the slices), so the bulk
    /// of every access unit is neither copied nor scanned.
    ///
    /// Applied from the PMT on, whatever chunk the PMT arrives in, so the packets a caller gets do
    /// not depend on how the stream is cut.
    package let pictureData: (@Sendable (_ streamType: UInt8) -> (@Sendable (UInt8) -> Bool)?)?

    /// A demuxer whose PES packets stop at picture data when `pictureData` says where it starts.
    package init(pictureData: (@Sendable (_ streamType: UInt8) -> (@Sendable (UInt8) -> Bool)?)? = nil, selecting selection: Selection = .video) {
        self.pictureData = pictureData
        self.selection = selection
    }

    /// Feeds `data`; calls `emit` for every PES packet completed by it.
    ///
    /// Sync is found (at the start, and again after it is lost) where 0x47 starts three packets in
    /// a row; a position whose third packet is still to come waits for more data. Every decision
    /// depends only on the bytes themselves, so the same stream gives the same packets however
    /// it is cut into chunks.
    package mutating func feed(_ data: ArraySlice<UInt8>, _ emit: (PESPacket) -> Void) {
        // Read where it lies (a caller's reused buffer, a chunk of it): copied only to be joined
        // to the bytes left over from the chunk before.
        let buffer: ArraySlice<UInt8>
        if pending.isEmpty {
            buffer = data
        } else {
            buffer = (pending + data)[...]
            pending = []
        }
        let size = TransportStream.packetSize
        let base = buffer.startIndex
        var offset = 0
        // One pointer for the whole chunk: the common packets are read without a bounds check or
        // a retain each (``skipQuickly(_:from:)``). Offsets count from the chunk's start; the
        // slice is indexed at `base + offset`.
        buffer.withUnsafeBufferPointer { p in
            while true {
                if !synced {
                    guard let found = Self.confirmedSync(p, from: offset) else {
                        // Positions whose third packet has not arrived yet are decided with the next chunk.
                        offset = max(offset, p.count - 2 * size)
                        break
                    }
                    offset = found
                    synced = true
                }
                offset = skipQuickly(p, from: offset)
                guard offset + size <= p.count else { break }
                guard p[offset] == TransportStream.syncByte, let packet = TransportStream.Packet(buffer, at: base + offset) else {
                    synced = false
                    note(Self.lostSync, at: bytesRead + offset)
                    offset += 1
                    continue
                }
                handle(packet, buffer, absolute: bytesRead + offset, emit)
                offset += size
            }
        }
        pending = Array(buffer[(base + offset)...])
        bytesRead += offset
    }

    /// Reads on from `start` over the packets of the two kinds most packets are; returns where
    /// the first packet of another kind (or an incomplete one) starts.
    ///
    /// The two kinds: a packet of a stream not followed (audio, data), and a packet of the video
    /// in the middle of an access unit whose caption part has been collected (only its length and
    /// continuity count are kept). Everything else (tables, unit starts, collected bytes, a
    /// continuity error, a lost sync byte) is left to ``handle(_:_:absolute:_:)``, which reads
    /// them the same way. The state the run changes is held in registers and written back once:
    /// a run is most of a chunk's packets.
    @inline(__always)
    private mutating func skipQuickly(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let video = videoPID, let base = p.baseAddress else { return start }
        let size = TransportStream.packetSize
        let skipsVideo = !collecting && !headerPending && currentHeader != nil
        var last = lastCounter
        var length = currentLength
        var offset = start
        defer {
            lastCounter = last
            currentLength = length
        }
        while offset + size <= p.count {
            let packet = base + offset
            guard packet[0] == TransportStream.syncByte else { break }
            let b1 = packet[1]
            let pid = UInt16(b1 & 0x1F) << 8 | UInt16(packet[2])
            if pid != video {
                guard !tables.isTable(pid) else { break }
                offset += size
                continue
            }
            guard skipsVideo, b1 & 0x40 == 0 else { break }
            let b3 = packet[3]
            let control = (b3 >> 4) & 0x3
            var payloadStart = 4
            var discontinuity = false
            if control & 0x2 != 0 {
                let adaptation = Int(packet[4])
                if adaptation > 0 { discontinuity = packet[5] & 0x80 != 0 }
                payloadStart += 1 + adaptation
            }
            if control & 0x1 != 0, payloadStart < size {
                let counter = b3 & 0x0F
                if let last, counter != (last &+ 1) & 0x0F, counter != last, !discontinuity { break }
                last = counter
                length += size - payloadStart
            }
            offset += size
        }
        return offset
    }

    /// The first position at or after `start` where the sync byte starts three packets in a row.
    static func confirmedSync(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let size = TransportStream.packetSize
        var p = start
        while p + 2 * size < buffer.count {
            if buffer[p] == TransportStream.syncByte && buffer[p + size] == TransportStream.syncByte && buffer[p + 2 * size] == TransportStream.syncByte {
                return p
            }
            p += 1
        }
        return nil
    }

    /// Emits the PES being assembled, at the end of the input.
    ///
    /// Packets still waiting for sync to
    /// be confirmed (a stream shorter than three packets) are read with the sync they have.
    package mutating func finish(_ emit: (PESPacket) -> Void) {
        let size = TransportStream.packetSize
        var offset = 0
        let buffer = pending
        pending = []
        while offset + size <= buffer.count {
            if !synced {
                // Relaxed at the end: the sync byte, and the next packet's if it is there.
                guard
                    let p = (offset..<(buffer.count - size + 1)).first(where: {
                        buffer[$0] == TransportStream.syncByte
                            && ($0 + size >= buffer.count || buffer[$0 + size] == TransportStream.syncByte)
                    })
                else { break }
                offset = p
                synced = true
            }
            guard let packet = TransportStream.Packet(buffer, at: offset) else {
                synced = false
                note(Self.lostSync, at: bytesRead + offset)
                offset += 1
                continue
            }
            handle(packet, buffer[...], absolute: bytesRead + offset, emit)
            offset += size
        }
        if synced && offset < buffer.count {
            note("the input ends inside a packet: the bytes after its last whole packet were not read", at: bytesRead + offset)
        }
        bytesRead += offset
        flushCurrent(emit)
    }

    /// The note made where a packet should start and no sync byte does (the bytes up to where
    /// three packets in a row start again are skipped, and what they held is lost).
    package static let lostSync =
        "lost MPEG-TS sync: no sync byte (0x47) where a packet should start; the bytes up to the next three packets in a row were skipped"

    /// Reads one packet of `data` (`packet`'s payload range is an index range of the slice),
    /// `absolute` bytes into the stream.
    private mutating func handle(_ packet: TransportStream.Packet, _ data: ArraySlice<UInt8>, absolute: Int, _ emit: (PESPacket) -> Void) {
        if tables.consume(packet, in: data) {
            if video == nil {
                switch selection {
                case .video: video = tables.firstVideo
                case .teletext: video = tables.firstTeletext
                case .dvbSubtitles: video = tables.firstDVBSubtitles
                case .dvbSubtitlesOn(let pid): video = tables.dvbSubtitles.first { $0.pid == pid }
                }
            }
            return
        }
        guard packet.pid == videoPID else { return }
        if firstVideoPacket == .none { firstVideoPacket = packet.payloadUnitStart ? .startsUnit : .continues }
        if !packet.payload.isEmpty {
            if let last = lastCounter, packet.continuityCounter != (last &+ 1) & 0x0F, packet.continuityCounter != last, !packet.discontinuity {
                continuityErrors += 1
                // A gap in the PES packet being read drops it, unless all that is wanted of it
                // (the part before the picture data) was read before the gap.
                if !packet.payloadUnitStart && (collecting || headerPending) {
                    if currentHeader != nil || headerPending {
                        note(
                            "a packet of the stream is missing (its continuity counter jumps): the PES packet being read was dropped", at: absolute)
                    }
                    current = []
                    currentHeader = nil
                    headerPending = false
                }
            }
            lastCounter = packet.continuityCounter
        }
        if packet.payloadUnitStart {
            flushCurrent(emit)
            currentOffset = absolute
            collecting = true
            if emitsInPlace(data, packet.payload, emit) { return }
            // Into the storage the last PES packet used, when its reader kept none of it.
            if !current.isEmpty { current.removeAll(keepingCapacity: true) }
            current.append(contentsOf: data[packet.payload])
            currentLength = packet.payload.count
            headerPending = true
            parseHeader()
        } else if headerPending {
            currentLength += packet.payload.count
            current.append(contentsOf: data[packet.payload])
            parseHeader()
        } else if currentHeader != nil {
            currentLength += packet.payload.count
            guard collecting else { return }
            let before = current.count
            current.append(contentsOf: data[packet.payload])
            truncateAtPictureData(from: max(payloadStart, before - 3))
        }
    }

    /// Emits a PES packet of the video from its first TS packet's `payload`, where it lies.
    ///
    /// Done when that packet holds all that is collected of it: its whole header and the start of
    /// its picture data. False (nothing done) otherwise: it is gathered packet by packet. A
    /// bounded packet's length is still checked where it ends (``flushCurrent(_:)``).
    ///
    /// What is emitted is what gathering it gives (the same bytes: the part before the picture
    /// data), only sooner and without a copy; the packets after it are skipped as gathering skips
    /// them once its picture data is found.
    ///
    /// The payload is `range` of `data`: read where it lies, and sliced once, for the packet emitted.
    private mutating func emitsInPlace(_ data: ArraySlice<UInt8>, _ range: Range<Int>, _ emit: (PESPacket) -> Void) -> Bool {
        guard let stop = stopAtUnit, range.count >= 9 else { return false }
        let start = range.lowerBound - data.startIndex
        let read: (header: TransportStream.PESHeader, end: Int)? = data.withUnsafeBufferPointer { whole in
            let p = UnsafeBufferPointer(rebasing: whole[start..<(start + range.count)])
            // A PES_packet_length shorter than the header itself is read as unbounded, with a
            // note, where the packet is gathered.
            guard p[0] == 0, p[1] == 0, p[2] == 1, !TransportStream.PESHeader.lacksOptionalHeader(p[3]), let header = TransportStream.PESHeader(p),
                header.packetLength == 0 || header.packetLength + 6 >= header.headerLength, header.headerLength <= p.count,
                let end = Self.pictureDataStart(p, from: header.headerLength, stop)
            else { return nil }
            return (header, end)
        }
        guard let (header, end) = read else { return false }
        currentLength = range.count
        headerPending = false
        collecting = false
        currentHeader = header
        emittedInPlace = true
        let s = range.lowerBound
        emit(PESPacket(pts: header.pts, dts: header.dts, payload: data[(s + header.headerLength)..<(s + end)], offset: currentOffset))
        return true
    }

    /// Whether the PES packet being read was emitted at its first TS packet (``emitsInPlace(_:_:)``).
    private var emittedInPlace = false

    /// Reads the PES header once its bytes are in (a header may span TS packets), then keeps
    /// only the payload after it.
    private mutating func parseHeader() {
        guard current.count >= 6 else { return }
        guard current[0] == 0, current[1] == 0, current[2] == 1 else {
            // Not a PES packet start: nothing of it is read.
            headerPending = false
            current = []
            note("a payload unit that does not start with a PES start code (00 00 01) was skipped", at: currentOffset)
            return
        }
        // Streams with the optional header need its first 9 bytes to know its length.
        if !TransportStream.PESHeader.lacksOptionalHeader(current[3]) && current.count < 9 { return }
        guard let header = TransportStream.PESHeader(current[...]) else { return }
        guard current.count >= header.headerLength else { return }
        headerPending = false
        var parsed = header
        if header.packetLength > 0 && header.packetLength + 6 < header.headerLength {
            // Impossible: read as unbounded (as for video), so its payload is not lost.
            note("a PES packet declares a PES_packet_length shorter than its own header; it was read as unbounded (0)", at: currentOffset)
            parsed = header.unbounded
        }
        currentHeader = parsed
        payloadStart = header.headerLength
        truncateAtPictureData(from: payloadStart)
    }

    /// Records something read although malformed.
    private mutating func note(_ kind: String, at offset: Int) {
        if let seen = anomalies[kind] { anomalies[kind] = (seen.count + 1, seen.first) } else { anomalies[kind] = (1, offset) }
    }

    /// A demuxer for one HLS segment read on its own, apart from the segments before it: this
    /// one's tables and stream, nothing of the stream's bytes (no packet or PES in progress, no
    /// continuity count, no notes, offsets from 0), and no storage shared with this one (so
    /// that readers on other cores do not contend for it).
    ///
    /// What it gives is what this demuxer would give reading on into the segment when
    /// ``SegmentReading/joinsSeamlessly`` holds for it (see there).
    package func forSegment() -> TransportStreamDemuxer { TransportStreamDemuxer(segmentOf: self) }

    /// ``forSegment()``'s demuxer; made in an initialiser so that the stream's picture-data set is
    /// copied, not made again (``video``'s observer does not run here).
    private init(segmentOf other: TransportStreamDemuxer) {
        pictureData = other.pictureData
        selection = other.selection
        tables = other.tables.detached()
        video = other.video
        videoPID = other.videoPID
        stopAtUnit = other.stopAtUnit
        firstVideoPacket = .none
    }

    /// How a segment read with a demuxer from ``forSegment()`` began and ended.
    package struct SegmentReading: Sendable, Equatable {
        /// The first packet at byte 0 (three in a row confirm it), the last ending at the
        /// segment's end (nothing left over), and no new PMT PID named.
        package var packetAligned: Bool
        /// The first packet of the stream followed started a PES packet (or none came).
        package var startsAtUnit: Bool

        /// Whether reading the segment on its own gives the PES packets that reading on from the
        /// segment before would.
        ///
        /// Sync holds at the boundary, and the PES packet in progress there ends there (the next
        /// one starts a unit), so neither reading carries anything across; the caller also checks
        /// that no note was made (a PES header half read, a damaged packet). A continuity count
        /// that does not follow on at a unit start changes nothing but a count of errors.
        package var joinsSeamlessly: Bool { packetAligned && startsAtUnit }
    }

    /// Whether the first packet of the followed stream started a unit, once one came.
    private var firstVideoPacket: FirstPacket = .notTracked
    private enum FirstPacket { case notTracked, none, startsUnit, continues }

    /// How a whole segment fed to a demuxer from ``forSegment()`` began and ended.
    ///
    /// Asked after ``feed(_:_:)`` (in one chunk or several) and before ``finish(_:)``. `count` is
    /// the bytes fed in all, `startsInSync` whether its first three packets (when it has three)
    /// start with the sync byte, `tablesBefore` the PMT PIDs of the demuxer it came from.
    package func segmentReading(count: Int, startsInSync: Bool, tablesBefore: [UInt16]) -> SegmentReading {
        let aligned = startsInSync && count >= 3 * TransportStream.packetSize && count % TransportStream.packetSize == 0
        return SegmentReading(
            packetAligned: aligned && synced && pending.isEmpty && tables.programMapPIDs == tablesBefore,
            startsAtUnit: firstVideoPacket != .continues)
    }

    /// Where in `bytes` (which start at a packet) the first packet of the stream followed that
    /// starts a PES packet is: a place to cut the stream so that no PES packet crosses the cut.
    package func unitStart(in bytes: ArraySlice<UInt8>) -> UnitStart {
        guard let video = videoPID else { return .notFound }
        let size = TransportStream.packetSize
        var offset = bytes.startIndex
        while offset + size <= bytes.endIndex {
            guard bytes[offset] == TransportStream.syncByte else { return .lostSync }
            let b1 = bytes[offset + 1]
            if b1 & 0x40 != 0 && UInt16(b1 & 0x1F) << 8 | UInt16(bytes[offset + 2]) == video { return .at(offset) }
            offset += size
        }
        return .notFound
    }

    /// What ``unitStart(in:)`` found.
    package enum UnitStart: Equatable, Sendable {
        /// The packet at this index of the bytes starts a PES packet of the stream followed.
        case at(Int)
        /// No whole packet of the bytes does, and each starts with the sync byte (or the stream
        /// is not known yet).
        case notFound
        /// A packet of the bytes lacks the sync byte before one is found.
        case lostSync
    }

    /// The PMT PIDs named so far (see ``segmentReading(count:startsInSync:tablesBefore:)``).
    package var programMapPIDs: [UInt16] { tables.programMapPIDs }

    /// Whether nothing is left over from the bytes fed: they ended at a packet's end, in sync.
    package var atPacketBoundary: Bool { synced && pending.isEmpty }

    /// Whether a PMT has been read (and so whether the stream asked for is known to be absent).
    package var tablesRead: Bool { !tables.streams.isEmpty }
    /// The DVB subtitle streams of the first PMT read (``tablesRead``), once read.
    package var dvbSubtitleStreams: [TransportStream.ElementaryStream] { tables.dvbSubtitles }

    /// Where the next byte fed will be in the stream (what was fed so far).
    package var position: Int { bytesRead + pending.count }

    /// Follows `selection` instead, its state otherwise kept (sync, tables, offsets): a copy of a
    /// demuxer that has not yet found its stream reads on as if it had followed `selection` from
    /// the start.
    package mutating func follow(_ selection: Selection) {
        precondition(video == nil, "a demuxer changes what it follows before it has found a stream")
        self.selection = selection
    }

    /// What was read although malformed (or skipped) since the last call, each with how often
    /// and where first (its offset less `base`, the stream position where its file began).
    package mutating func takeNotes(since base: Int) -> [String] {
        defer { anomalies = [:] }
        return anomalies.keys.sorted().map { kind in
            let (count, first) = anomalies[kind] ?? (0, 0)
            return "\(kind) (\(count == 1 ? "once" : "\(count) times"), first at byte \(max(0, first - base)))"
        }
    }

    /// Ends collection at the first start code of picture data at or after `from`.
    private mutating func truncateAtPictureData(from: Int) {
        guard let stop = stopAtUnit, collecting, current.count >= from + 4 else { return }
        if let found = current.withUnsafeBufferPointer({ Self.pictureDataStart($0, from: from, stop) }) {
            current.removeLast(current.count - found)
            collecting = false
        }
    }

    /// Where the first start code (`00 00 01`) at or after `from` whose next byte begins
    /// picture data (`stop`) is in `bytes`; nil when there is none (or its next byte is not
    /// there yet).
    @inline(__always)
    private static func pictureDataStart(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, _ stop: ByteSet) -> Int? {
        var i = from
        while i + 3 < bytes.count {
            // A start code needs a zero at i+2 or later.
            if bytes[i + 2] > 1 {
                i += 3
                continue
            }
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 && stop.contains(bytes[i + 3]) { return i }
            i += 1
        }
        return nil
    }

    /// Notes a bounded PES packet (the one ending) whose bytes are not as many as its
    /// PES_packet_length declares (which counts the bytes after itself).
    private mutating func noteLength(of header: TransportStream.PESHeader) {
        guard header.packetLength > 0 else { return }
        let declared = header.packetLength + 6
        if currentLength > declared {
            note(
                "a PES packet carries more bytes than its PES_packet_length declares (the container is damaged); it was cut at the declared length",
                at: currentOffset)
        } else if currentLength < declared {
            note("a PES packet ends before the length its PES_packet_length declares (the container is damaged); what it holds was read", at: currentOffset)
        }
    }

    private mutating func flushCurrent(_ emit: (PESPacket) -> Void) {
        if emittedInPlace {
            emittedInPlace = false
            if let header = currentHeader { noteLength(of: header) }
            currentHeader = nil
            return
        }
        if headerPending {
            headerPending = false
            current = []
            note("a PES packet ended before its own header was complete; it was dropped", at: currentOffset)
            return
        }
        guard let header = currentHeader else { return }
        var end = current.count
        noteLength(of: header)
        if header.packetLength > 0 && collecting {
            // A header that claims more than the packet holds leaves no payload.
            let expected = max(0, header.packetLength + 6 - header.headerLength)
            end = min(end, payloadStart + expected)
        }
        emit(PESPacket(pts: header.pts, dts: header.dts, payload: current[payloadStart..<end], offset: currentOffset))
        // Emptied in place: the next PES packet reuses the storage unless the reader kept it.
        current.removeAll(keepingCapacity: true)
        currentHeader = nil
    }
}

/// A set of byte values, looked up with a shift and a mask.
struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The bytes for which `test` holds.
    init(where test: (UInt8) -> Bool) {
        for byte in UInt8.min...UInt8.max where test(byte) {
            let bit = UInt64(1) << UInt64(byte & 63)
            switch byte >> 6 {
            case 0: words.0 |= bit
            case 1: words.1 |= bit
            case 2: words.2 |= bit
            default: words.3 |= bit
            }
        }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word >> UInt64(byte & 63) & 1 != 0
    }
}
