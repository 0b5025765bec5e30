import Containers
import HLS
import Platform
import Timebase
import TimedText

/// One subtitle rendition's files, described: cues segmented along the reference timeline into a
/// WebVTT segment per video segment, and the media playlist listing them.
///
/// The segments are made when asked for (``eachFile(_:)``), one file at a time, so a run holds
/// one segment's text per rendition being written. The generation name (a hash of everything the
/// files will hold) is computed from each cue's block; those blocks are kept as the record's cues
/// file (``cueBlocks``, up to ``heldCuesFile`` bytes), which the segments copy from.
package struct SubtitleRendition: Sendable {
    /// The rendition's folder, relative to the master (``RenditionLayout/folder(for:)``).
    package let folder: String
    /// The cues on the programme timeline, as they will be written (``SegmentCues/writable(_:)``).
    package let cues: [Cue]
    package let headerBlocks: [String]
    package let timeline: ProgrammeTimeline
    /// For each segment, the indices of the cues it carries.
    let assignment: SegmentAssignment
    /// For each discontinuity sequence, how its segments write cue times.
    let mappings: [ProgrammeTimeline.Mapping]
    /// The media playlist (`index.m3u8`), made once: hashed into the generation, then written.
    let playlistText: String
    /// The names of the generation's files (``RenditionLayout/names(segments:record:naming:)``),
    /// made once for the playlist, the files and the stager.
    package let fileNames: [String]
    /// The generation: 12 hexadecimal digits of the hash of the files' content.
    package let generation: String
    /// What is recorded beside the rendition (nil: no record, for tests of the segments alone).
    package let record: RenditionRecord?
    /// Every cue of the source, when some are not shown on this programme (past its end).
    ///
    /// Kept beside the rendition: what fits the programme is a view, the source is the record, so a
    /// later refresh on a longer programme brings them back. Nil when every cue is shown.
    package let keptCues: [Cue]?
    /// The record's cues file (``RenditionRecord/cuesFileName``), made with the hash.
    ///
    /// Made when the record holds `cues` and the file is at most ``heldCuesFile`` bytes; the
    /// segments copy their blocks from it. Nil: the file and the blocks are made when written.
    let cueBlocks: CueBlocks?
    /// The most bytes of a cues file held from the hashing to the writing.
    static let heldCuesFile = 8 << 20
    /// The earlier run's published rendition this one appends to (an open programme), if any.
    package let appending: PublishedRendition?
    /// AES-128 under the title's key, or nil for clear segments.
    package let encryption: SubtitleEncryption?
    /// WebVTT text files or IMSC1 in fragmented MP4, and the segments' names.
    package let naming: SegmentNaming
    package var format: SubtitleTextFormat { naming.format }
    /// Cues that start in segments already published and are not in them: they go into the
    /// first new segment.
    package private(set) var lateCues = 0

    /// A rendition of `cues` along `timeline`, with `record` written beside it; `writable`: the
    /// cues are already ``SegmentCues/writable(_:)`` (made so once by the caller).
    package init(
        folder: String, cues: [Cue], headerBlocks: [String], timeline: ProgrammeTimeline, record: RenditionRecord? = nil,
        writable alreadyWritable: Bool = false,
        keptCues: [Cue]? = nil, appending: PublishedRendition? = nil, encryption: SubtitleEncryption? = nil,
        naming: SegmentNaming = .standard
    ) {
        self.keptCues = keptCues
        self.encryption = encryption
        self.naming = naming
        self.appending = appending
        self.folder = folder
        let writable = alreadyWritable ? cues : SegmentCues.writable(cues)
        self.cues = writable
        self.headerBlocks = headerBlocks
        self.timeline = timeline
        var assignment = Segmenter.assign(writable, to: timeline.windows)
        if let appending, appending.segments < assignment.count {
            lateCues = Self.addLateCues(writable, published: appending, to: &assignment)
        }
        self.assignment = assignment
        // The earliest cue each sequence carries decides whether its times must move later.
        var earliest: [MediaTime?] = Array(repeating: nil, count: timeline.sequences.count)
        for (segment, indices) in assignment.enumerated() where !indices.isEmpty && !timeline.sequences.isEmpty {
            let sequence = timeline.sequenceIndex(forSegment: segment)
            var first = writable[indices[indices.startIndex]].start
            for index in indices.dropFirst() where writable[index].start < first { first = writable[index].start }
            earliest[sequence] = min(earliest[sequence] ?? first, first)
        }
        let mappings = timeline.sequences.indices.map { timeline.mapping(forSequence: $0, earliestCue: earliest[$0]) }
        self.mappings = mappings
        self.record = record
        let fileNames = RenditionLayout.names(segments: timeline.playlist.segments.count, record: record != nil, naming: naming)
        self.fileNames = fileNames
        let playlistText = SubtitlePlaylistWriter.text(
            mirroring: timeline.playlist, segmentURIs: Array(fileNames[Self.segmentRange(segments: timeline.playlist.segments.count, naming: naming)]),
            keyTag: encryption?.tag, map: naming.format == .imsc1 ? RenditionLayout.initializationName : nil)
        self.playlistText = playlistText
        // The cues file, when it holds these cues, is gathered as they are hashed.
        var cueBlocks: CueBlocks?
        if record != nil && keptCues == nil {
            var header = WebVTTBytes()
            Self.header(&header, map: nil, headerBlocks: headerBlocks)
            cueBlocks = CueBlocks(header: header.bytes)
        }
        var hash = Self.hash(
            cues: writable, headerBlocks: headerBlocks, playlistText: playlistText, assignment: assignment, mappings: mappings,
            gathering: &cueBlocks)
        self.cueBlocks = cueBlocks
        if let keptCues {
            hash.add("kept")
            WebVTTBytes.addBlocks(of: keptCues, to: &hash)
        }
        if let record { hash.add(record.json) }
        encryption?.add(to: &hash)
        // WebVTT generations hash as they always have; another format adds its name.
        if naming.format != .webVTT { hash.add("format \(naming.format.rawValue)\u{0}\(IMSCWriter.profile)") }
        if naming.template != .standard { hash.add("segment names \(naming.template.text)\u{0}") }
        self.generation = appending?.generation ?? hash.hex(12)
    }

    /// Puts the cues that start in published segments but are not in them into the first new
    /// segment; returns how many.
    static func addLateCues(_ cues: [Cue], published: PublishedRendition, to assignment: inout SegmentAssignment) -> Int {
        let known = Set(published.cues.map(PublishedRendition.key))
        let first = published.segments
        var late: [Int] = []
        for (index, cue) in cues.enumerated() where !known.contains(PublishedRendition.key(cue)) {
            // Carried by a new segment already (it overlaps one), or by none at all.
            let carried = assignment.indices.contains { $0 >= first && assignment[$0].contains(index) }
            let inPublished = assignment[..<first].contains { $0.contains(index) }
            if inPublished && !carried { late.append(index) }
        }
        if !late.isEmpty { assignment.replace(first, with: (Array(assignment[first]) + late).sorted()) }
        return late.count
    }

    /// Whether appending writes nothing new: no new segment, and the same cues.
    package var appendsNothing: Bool {
        guard let appending else { return false }
        return appending.segments == timeline.playlist.segments.count
            && (keptCues ?? cues).map(PublishedRendition.key) == appending.cues.map(PublishedRendition.key)
    }

    /// The playlist's path relative to the master (also its `URI`).
    package var playlistPath: String { RenditionLayout.playlistURI(folder: folder, generation: generation) }

    /// The generation's folder relative to the master.
    package var generationFolder: String { "\(folder)/\(generation)" }

    /// The segment file names, in order.
    package var segmentNames: ArraySlice<String> { fileNames[Self.segmentRange(segments: timeline.playlist.segments.count, naming: naming)] }

    /// Where the segments' names are among a generation's file names: after an IMSC1
    /// initialization segment.
    static func segmentRange(segments: Int, naming: SegmentNaming) -> Range<Int> {
        let first = naming.format == .imsc1 ? 1 : 0
        return first..<(first + segments)
    }

    /// Every file the generation holds, relative to the master, in the order ``eachFile(_:)`` makes them.
    package var paths: [String] { written.paths }

    /// The files the generation holds, as a report keeps them.
    var written: PackageReport.Track.FilesWritten {
        .generation(folder: folder, generation: generation, segments: timeline.playlist.segments.count, record: record != nil, naming: naming)
    }

    /// Makes every file of the rendition, one at a time, handing each (its name in the
    /// generation folder, its content) to `body`: the segments, `index.m3u8`, then the record.
    ///
    /// A segment is made in one reused buffer and handed out whole; the kept cues (as large as
    /// the source) are handed out a buffer at a time. A cue carried by several segments is
    /// formatted for each (the same bytes each time), so nothing grows with the programme.
    package func eachFile(_ body: (_ name: String, _ content: FileSystem.FileContent) throws(FileFailure) -> Void) throws(FileFailure) {
        try eachFile(part: 0, of: 1, body)
    }

    /// The files of part `part` of `parts` (``eachFile(_:)``'s, split so that a rendition can be
    /// written on every core): the first part's share of the segments, in order, after the
    /// IMSC1 initialization segment; each other part's share; the last part's share, then the
    /// playlist and the record.
    package func eachFile(part: Int, of parts: Int, _ body: (_ name: String, _ content: FileSystem.FileContent) throws(FileFailure) -> Void)
        throws(FileFailure)
    {
        let count = assignment.count
        let segments = (count * part / parts)..<(count * (part + 1) / parts)
        let names = segmentNames
        var out = WebVTTBytes(capacity: 64 << 10)
        // Each sequence's segment header (WEBVTT, its map line, the header blocks), made once.
        var headers: [Int: [UInt8]] = [:]
        if format == .imsc1, appending == nil, part == 0 {
            let language = LanguageTag(parsing: record?.language ?? "und")?.threeLetterCode ?? "und"
            let initialization = IMSCTrackWriter.initialization(language: language)
            try body(RenditionLayout.initializationName) { sink throws(FileFailure) in try Self.hand(initialization, to: sink) }
        }
        for index in segments {
            let cueIndices = assignment[index]
            // Published segments are never written again.
            if let appending, index < appending.segments { continue }
            let sequence = timeline.sequences.isEmpty ? -1 : timeline.sequenceIndex(forSegment: index)
            let mapping = sequence >= 0 ? mappings[sequence] : nil
            let offset = mapping?.offset ?? .zero
            out.bytes.removeAll(keepingCapacity: true)
            if format == .imsc1 {
                // The media timeline itself (TTML times are absolute there): without the shift a
                // WebVTT map may add for a cue before media time 0, which TTML clamps to 0 instead.
                let media = sequence >= 0 ? timeline.sequences[sequence] : nil
                let mediaOffset = media.map { MediaTime(ticks: $0.media.start) - $0.playlistStart } ?? offset
                out.bytes = imscFragment(index, cueIndices: cueIndices, offset: mediaOffset)
            } else {
                webVTTSegment(cueIndices, sequence: sequence, map: mapping?.map, offset: offset, into: &out, headers: &headers)
            }
            if let encryption {
                let iv = SegmentKey.iv(sequenceNumber: timeline.playlist.mediaSequence + index)
                let sealed = encryption.key.encrypt(out.bytes, iv: iv)
                try body(names[names.startIndex + index]) { sink throws(FileFailure) in try Self.hand(sealed, to: sink) }
                continue
            }
            try body(names[names.startIndex + index]) { sink throws(FileFailure) in try Self.hand(out.bytes, to: sink) }
        }
        guard part == parts - 1 else { return }
        let playlist = Array(playlistText.utf8)
        try body(RenditionLayout.playlistName) { sink throws(FileFailure) in try Self.hand(playlist, to: sink) }
        if let record {
            try body(RenditionRecord.cuesFileName) { sink throws(FileFailure) in
                if let file = cueBlocks?.file {
                    try Self.hand(encryption.map { $0.key.encrypt(file, iv: $0.key.keptCuesIV) } ?? file, to: sink)
                    return
                }
                out.bytes.removeAll(keepingCapacity: true)
                Self.header(&out, map: nil, headerBlocks: headerBlocks)
                for cue in keptCues ?? cues {
                    out.keptCue(cue)
                    // Encrypted as one piece: CBC runs through the whole file.
                    if out.bytes.count >= Self.pieceSize && encryption == nil {
                        try Self.hand(out.bytes, to: sink)
                        out.bytes.removeAll(keepingCapacity: true)
                    }
                }
                if let encryption { out.bytes = encryption.key.encrypt(out.bytes, iv: encryption.key.keptCuesIV) }
                try Self.hand(out.bytes, to: sink)
            }
            let json = Array(record.json.utf8)
            try body(RenditionRecord.fileName) { sink throws(FileFailure) in try Self.hand(json, to: sink) }
        }
    }

    /// Segment `index` as an IMSC1 fragment: its cues on the media timeline (programme time plus
    /// `offset`, as a WebVTT segment's map puts them), `tfdt` the segment's start there.
    ///
    /// A cue is cut to the discontinuity sequence of the segment: each sequence has its own media
    /// timeline, and a player places a TTML time on the sequence of the fragment that carries it,
    /// so a cue across a discontinuity is shown by each sequence for its own part (whole, it would
    /// show twice, or before the second sequence's media time 0, which TTML cannot write).
    func imscFragment(_ index: Int, cueIndices: ArraySlice<Int>, offset: MediaTime) -> [UInt8] {
        let segment = timeline.playlist.segments[index]
        var range = MediaTime.zero..<MediaTime.indefinite
        if !timeline.sequences.isEmpty {
            let sequence = timeline.sequenceIndex(forSegment: index)
            let next = timeline.sequences.indices.contains(sequence + 1) ? timeline.sequences[sequence + 1].playlistStart : .indefinite
            range = timeline.sequences[sequence].playlistStart..<max(next, timeline.sequences[sequence].playlistStart)
        }
        let items = cueIndices.compactMap { i -> (cue: Cue, begin: MediaTime, end: MediaTime)? in
            let begin = max(cues[i].start, range.lowerBound), end = min(cues[i].end, range.upperBound)
            return begin < end ? (cues[i], begin + offset, end + offset) : nil
        }
        let document = IMSCWriter.document(items, language: record?.language ?? "und")
        let start = segment.start + offset
        return IMSCTrackWriter.fragment(
            sequence: UInt32(truncatingIfNeeded: timeline.playlist.mediaSequence + index + 1), start: UInt64(max(0, start.ticks)),
            duration: UInt32(clamping: max(0, segment.duration.ticks)), document: document.bytes)
    }

    /// What the rendition's format cannot carry of the cues, for the report (at least nine
    /// kinds, or all): IMSC1's ``IMSCWriter/Document/dropped``; WebVTT's
    /// ``CueContent/droppedByWebVTT`` of what the cues' readers kept (a TTML delivery's colours
    /// beyond WebVTT's eight, fonts, outlines).
    var formatDropped: Set<String> {
        switch format {
        case .imsc1: return IMSCWriter.dropped(cues, beyond: 8)
        case .webVTT: return CueContent.droppedByWebVTT(cues, beyond: 8)
        }
    }

    /// How many bytes of a large file are handed out at a time.
    static let pieceSize = 256 << 10

    /// A WebVTT segment of the cues `cueIndices` after an empty `out`: the header of its
    /// `sequence` (made once, then kept in `headers`), then the cues shifted by `offset`.
    private func webVTTSegment(
        _ cueIndices: ArraySlice<Int>, sequence: Int, map: TimestampMap?, offset: MediaTime, into out: inout WebVTTBytes, headers: inout [Int: [UInt8]]
    ) {
        if let header = headers[sequence] {
            out.bytes += header
        } else {
            Self.header(&out, map: map, headerBlocks: headerBlocks)
            headers[sequence] = out.bytes
        }
        if let cueBlocks {
            // Each block copied from the cues file, its times written on the media timeline.
            for c in cueIndices {
                out.block(c, of: cueBlocks, start: cues[c].start + offset, end: cues[c].end + offset)
                out.lineBreaks()
            }
            return
        }
        for c in cueIndices {
            out.block(cues[c], offset: offset)
            out.lineBreaks()
        }
    }

    /// `WEBVTT`, the map line if any, a blank line, then the header blocks each followed by a
    /// blank line (``WebVTTWriter/file(map:headerBlocks:cueBlocks:)`` without cues).
    static func header(_ out: inout WebVTTBytes, map: TimestampMap?, headerBlocks: [String]) {
        out.append("WEBVTT\n")
        if let map {
            out.append(map.line)
            out.bytes.append(0x0A)
        }
        out.bytes.append(0x0A)
        for block in headerBlocks {
            out.append(block)
            out.lineBreaks()
        }
    }

    /// Hands `bytes` to `sink` as one piece.
    private static func hand(_ bytes: [UInt8], to sink: (_ piece: UnsafeBufferPointer<UInt8>) throws(FileFailure) -> Void) throws(FileFailure) {
        var failure: FileFailure?
        bytes.withUnsafeBufferPointer { buffer in
            do throws(FileFailure) { try sink(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The format of the files, part of every generation's hash: change it when the bytes a given
    /// input produces change, or how the name is made (3: a ``WordHash``, eight bytes a step).
    static let formatVersion = "subweave-rendition-3"

    /// A hash of everything that decides the files' bytes: the format, the playlist, the header
    /// blocks, each sequence's mapping, every cue's block (programme time) and which segments
    /// carry which cues, each followed by a separator.
    ///
    /// `blocks`, if not nil, gathers the cues' blocks as a cues file does
    /// (``WebVTTBytes/addBlocks(of:to:gathering:limit:)``), up to ``heldCuesFile`` bytes.
    static func hash(
        cues: [Cue], headerBlocks: [String], playlistText: String, assignment: SegmentAssignment,
        mappings: [ProgrammeTimeline.Mapping], gathering blocks: inout CueBlocks?
    ) -> WordHash {
        var hash = WordHash()
        hash.add(formatVersion)
        hash.add(playlistText)
        for block in headerBlocks { hash.add(block) }
        for mapping in mappings { hash.add("\(mapping.offset.ticks) \(mapping.map.line)") }
        WebVTTBytes.addBlocks(of: cues, to: &hash, gathering: &blocks, limit: heldCuesFile)
        var digits: [UInt8] = []
        for indices in assignment {
            digits.removeAll(keepingCapacity: true)
            for (n, index) in indices.enumerated() {
                if n > 0 { digits.append(0x2C) }
                Self.decimal(index, into: &digits)
            }
            digits.withUnsafeBytes { hash.add($0) }
            hash.add(byte: 0xFF)
        }
        return hash
    }

    /// `value` (not negative) in decimal digits.
    static func decimal(_ value: Int, into bytes: inout [UInt8]) {
        guard value >= 10 else {
            bytes.append(UInt8(0x30 + value))
            return
        }
        decimal(value / 10, into: &bytes)
        bytes.append(UInt8(0x30 + value % 10))
    }
}
