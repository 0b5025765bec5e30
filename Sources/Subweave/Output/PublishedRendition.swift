import Foundation
import HLS
import Platform
import Timebase
import TimedText

/// A rendition of an open programme (its playlist without `EXT-X-ENDLIST`) that an earlier run
/// published: a later run appends to it under the same URI, as a pass of a live follow does, up to
/// and including the end of the programme (the ENDLIST its viewers wait for).
///
/// Players never reload the master, and a live or EVENT viewer keeps reloading the media
/// playlist the master named: a new generation would leave them on a playlist that never grows.
/// So its segments are never rewritten; new segments are added, and a cue that became known
/// after the segment it starts in was published goes into the first new segment, with its own
/// times.
package struct PublishedRendition: Sendable {
    /// The generation the master names (kept).
    package let generation: String
    /// How many of its segments its playlist lists (published: never rewritten).
    package let segments: Int
    /// The cues its record keeps: those the published segments carry.
    package let cues: [Cue]

    /// The published rendition of `folder` (generation `generation`) below `root`, if it can grow.
    ///
    /// It can when its playlist is open and the programme `reference` (the video playlist now) extends what it
    /// lists: the same media and discontinuity sequence, and its segments a prefix of the video's
    /// (durations and discontinuities), in the run's format and segment names, encrypted or not as the run's
    /// segments are (`encrypted`). Nil when the rendition cannot be appended to.
    static func read(
        folder: String, generation: String, root: String, reference: MediaPlaylist, naming: SegmentNaming, encrypted: Bool
    ) -> PublishedRendition? {
        guard FileSystem.firstLink(folder + "/" + generation, below: root) == nil else { return nil }
        let path = root + "/" + folder + "/" + generation
        guard let bytes = try? ResourceLoader.readFile(path + "/" + RenditionLayout.playlistName, limit: ReadLimits().playlist, kind: .playlist),
            let playlist = try? MediaPlaylist(parsing: bytes, source: path), !playlist.hasEndList,
            playlist.mediaSequence == reference.mediaSequence, playlist.discontinuitySequence == reference.discontinuitySequence,
            playlist.segments.count <= reference.segments.count,
            playlist.segments.allSatisfy({ ($0.map != nil) == (naming.format == .imsc1) && ($0.key != nil) == encrypted }),
            playlist.segments.map(\.uri) == RenditionLayout.segmentNames(count: playlist.segments.count, naming: naming),
            zip(playlist.segments, reference.segments).allSatisfy({ $0.durationText == $1.durationText && $0.discontinuity == $1.discontinuity }),
            let kept = try? ResourceLoader.readFile(path + "/" + RenditionRecord.cuesFileName, limit: ReadLimits().subtitle, kind: .subtitle),
            let cues = try? SubtitleIngest.read(kept, format: .vtt, encoding: .utf8, sourceID: folder, location: path).cues
        else { return nil }
        return PublishedRendition(generation: generation, segments: playlist.segments.count, cues: cues)
    }

    /// The key a cue is known by across runs: its times and text.
    static func key(_ cue: Cue) -> String { "\(cue.start.ticks) \(cue.end.ticks) \(cue.text)" }
}
