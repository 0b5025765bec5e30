import HLS
import Timebase
import TimedText

/// One subtitle rendition's files, described: cues segmented along the reference timeline into a
/// WebVTT segment per video segment, and the media playlist listing them.
///
/// The text is made when asked for (``eachFile(_:)``), one file at a time, so a run holds one
/// segment's text per rendition being written; the generation name (a hash of everything the
/// files will hold) is computed without making the text.
package struct SubtitleRendition: Sendable {
    /// The rendition's folder, relative to the master (``RenditionLayout/folder(for:)``).
    package let folder: String
    /// The cues on the programme timeline, as they will be written (``SegmentCues/writable(_:)``).
    package let cues: [Cue]
    package let headerBlocks: [String]
    package let timeline: ProgrammeTimeline
    /// For each segment, the indices of the cues it carries.
    let assignment: [[Int]]
    /// For each discontinuity sequence, how its segments write cue times.
    let mappings: [ProgrammeTimeline.Mapping]
    /// The generation: 12 hexadecimal digits of the hash of the files' content.
    package let generation: String
    /// What is recorded beside the rendition (nil: no record, for tests of the segments alone).
    package let record: RenditionRecord?
    /// Every cue of the source, when some are not shown on this programme (past its end).
    ///
    /// Kept beside the rendition: what fits the programme is a view, the source is the record, so a
    /// later refresh on a longer programme brings them back. Nil when every cue is shown.
    package let keptCues: [Cue]?
    /// The earlier run's published rendition this one appends to (an open programme), if any.
    package let appending: PublishedRendition?
    /// Cues that start in segments already published and are not in them: they go into the
    /// first new segment.
    package private(set) var lateCues = 0

    /// A rendition of `cues` along `timeline`, with `record` written beside it; `writable`: the
    /// cues are already ``SegmentCues/writable(_:)`` (made so once by the caller).
    package init(
        folder: String, cues: [Cue], headerBlocks: [String], timeline: ProgrammeTimeline, record: RenditionRecord? = nil,
        writable alreadyWritable: Bool = false,
        keptCues: [Cue]? = nil, appending: PublishedRendition? = nil
    ) {
        self.keptCues = keptCues
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
            let first = indices.map { writable[$0].start }.min() ?? .zero
            earliest[sequence] = min(earliest[sequence] ?? first, first)
        }
        let mappings = timeline.sequences.indices.map { timeline.mapping(forSequence: $0, earliestCue: earliest[$0]) }
        self.mappings = mappings
        self.record = record
        var hash = Self.hash(cues: writable, headerBlocks: headerBlocks, timeline: timeline, assignment: assignment, mappings: mappings)
        if let keptCues {
            hash.add("kept")
            for cue in keptCues { hash.add(WebVTTWriter.block(cue)) }
        }
        if let record { hash.add(record.json) }
        self.generation = appending?.generation ?? hash.hex(12)
    }

    /// Puts the cues that start in published segments but are not in them into the first new
    /// segment; returns how many.
    static func addLateCues(_ cues: [Cue], published: PublishedRendition, to assignment: inout [[Int]]) -> Int {
        let known = Set(published.cues.map(PublishedRendition.key))
        let first = published.segments
        var late: [Int] = []
        for (index, cue) in cues.enumerated() where !known.contains(PublishedRendition.key(cue)) {
            // Carried by a new segment already (it overlaps one), or by none at all.
            let carried = assignment.indices.contains { $0 >= first && assignment[$0].contains(index) }
            let inPublished = assignment[..<first].contains { $0.contains(index) }
            if inPublished && !carried { late.append(index) }
        }
        if !late.isEmpty { assignment[first] = (assignment[first] + late).sorted() }
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
    package var segmentNames: [String] { RenditionLayout.segmentNames(count: timeline.playlist.segments.count) }

    /// Every file the generation holds, relative to the master, in the order ``eachFile(_:)`` makes them.
    package var paths: [String] { written.paths }

    /// The files the generation holds, as a report keeps them.
    var written: PackageReport.Track.FilesWritten {
        .generation(folder: folder, generation: generation, segments: timeline.playlist.segments.count, record: record != nil)
    }

    /// Makes every file of the rendition, one at a time, handing each (its name in the
    /// generation folder, its text) to `body`: the segments, `index.m3u8`, then the record.
    ///
    /// A writer holds one segment's text at a time.
    package func eachFile<E: Error>(_ body: (_ name: String, _ text: String) throws(E) -> Void) throws(E) {
        let names = segmentNames
        // A cue in several segments is written from one block per sequence, so that its copies
        // are byte-identical; segments are consecutive, so the blocks of the segment before are
        // the only ones the next can repeat.
        var previous: [Int: String] = [:]
        var blockSequence = -1
        for (index, cueIndices) in assignment.enumerated() {
            // Published segments are never written again.
            if let appending, index < appending.segments { continue }
            let sequence = timeline.sequences.isEmpty ? -1 : timeline.sequenceIndex(forSegment: index)
            if sequence != blockSequence { previous = [:]; blockSequence = sequence }
            let mapping = sequence >= 0 ? mappings[sequence] : nil
            var blocks: [Int: String] = [:]
            var cueBlocks: [String] = []
            cueBlocks.reserveCapacity(cueIndices.count)
            for c in cueIndices {
                let block: String
                if let made = previous[c] {
                    block = made
                } else {
                    var cue = cues[c]
                    if let mapping {
                        cue.start += mapping.offset
                        cue.end += mapping.offset
                    }
                    block = WebVTTWriter.block(cue)
                }
                blocks[c] = block
                cueBlocks.append(block)
            }
            previous = blocks
            try body(names[index], WebVTTWriter.file(map: mapping?.map, headerBlocks: headerBlocks, cueBlocks: cueBlocks))
        }
        try body(RenditionLayout.playlistName, SubtitlePlaylistWriter.text(mirroring: timeline.playlist, segmentURIs: names))
        if let record {
            try body(
                RenditionRecord.cuesFileName, WebVTTWriter.file(map: nil, headerBlocks: headerBlocks, cueBlocks: (keptCues ?? cues).map(WebVTTWriter.block)))
            try body(RenditionRecord.fileName, record.json)
        }
    }

    /// The format of the files, part of every generation's hash: change it when the bytes a given
    /// input produces change.
    static let formatVersion = "subweave-rendition-2"

    /// A hash of everything that decides the files' bytes.
    static func hash(
        cues: [Cue], headerBlocks: [String], timeline: ProgrammeTimeline, assignment: [[Int]],
        mappings: [ProgrammeTimeline.Mapping]
    ) -> ContentHash {
        var hash = ContentHash()
        hash.add(formatVersion)
        hash.add(SubtitlePlaylistWriter.text(mirroring: timeline.playlist, segmentURIs: RenditionLayout.segmentNames(count: timeline.playlist.segments.count)))
        for block in headerBlocks { hash.add(block) }
        for mapping in mappings { hash.add("\(mapping.offset.ticks) \(mapping.map.line)") }
        for cue in cues { hash.add(WebVTTWriter.block(cue)) }
        for indices in assignment { hash.add(indices.map(String.init).joined(separator: ",")) }
        return hash
    }
}
