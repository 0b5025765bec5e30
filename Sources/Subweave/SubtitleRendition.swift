import HLS
import TimedText
import Timebase

/// One subtitle rendition's files, described: cues segmented along the reference timeline into a
/// WebVTT segment per video segment, and the media playlist listing them.
///
/// The text is made when asked for (``files()``), so a run holds the output of only the
/// renditions being written at the moment, not of all of them.
public struct SubtitleRendition: Sendable {
    /// The rendition's folder, relative to the master.
    public let folder: String
    public let cues: [Cue]
    public let headerBlocks: [String]
    public let timeline: ProgrammeTimeline

    public init(folder: String, cues: [Cue], headerBlocks: [String], timeline: ProgrammeTimeline) {
        self.folder = folder
        self.cues = cues
        self.headerBlocks = headerBlocks
        self.timeline = timeline
    }

    /// The playlist's path relative to the master (also its `URI`).
    public var playlistPath: String { "\(folder)/index.m3u8" }

    /// The segment file names, in order: `00000.vtt`, `00001.vtt`, … (at least five digits).
    public var segmentNames: [String] {
        let count = timeline.playlist.segments.count
        let digits = max(5, String(max(0, count - 1)).count)
        return (0..<count).map { index in
            let number = String(index)
            return String(repeating: "0", count: digits - number.count) + number + ".vtt"
        }
    }

    /// Every file of the rendition, `(name in the folder, text)`: the segments, then `index.m3u8`.
    public func files() -> [(name: String, text: String)] {
        let names = segmentNames
        let assignment = Segmenter.assign(cues, to: timeline.windows)
        // Each cue's block is built once, so a cue repeated across segments is byte-identical.
        var blocks: [String?] = Array(repeating: nil, count: cues.count)
        var result: [(name: String, text: String)] = []
        result.reserveCapacity(names.count + 1)
        for (index, cueIndices) in assignment.enumerated() {
            var cueBlocks: [String] = []
            cueBlocks.reserveCapacity(cueIndices.count)
            for c in cueIndices {
                if let block = blocks[c] { cueBlocks.append(block) } else {
                    let block = WebVTTWriter.block(cues[c])
                    blocks[c] = block
                    cueBlocks.append(block)
                }
            }
            let text = WebVTTWriter.file(map: timeline.timestampMap(forSegment: index), headerBlocks: headerBlocks, cueBlocks: cueBlocks)
            result.append((names[index], text))
        }
        result.append(("index.m3u8", SubtitlePlaylistWriter.text(mirroring: timeline.playlist, segmentURIs: names)))
        return result
    }
}
