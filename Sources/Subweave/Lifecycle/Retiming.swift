import Foundation
import HLS
import Timebase
import TimedText

/// Another tool's WebVTT rendition whose segments carry no `X-TIMESTAMP-MAP` (ffmpeg's HLS
/// muxer writes none), read back into cues on the programme timeline so that Subweave can write
/// it again with the map every player needs (``PackageRequest/retimeExisting``).
///
/// Without a map the segments' cue times mean different things to different players: RFC 8216bis
/// reads them as media time (cue 0 = media time 0), hls.js and ffmpeg as time from the start of
/// the stream. The cues are read both ways and the reading under which more cues fall in the
/// segment that carries them is taken; a tie (the usual case: ffmpeg's TS output starts 1.4 s
/// in, less than a segment) goes to the stream's start, what the tools that write such renditions
/// mean. That start is the first *decode* time, as ffmpeg's HLS muxer (5.1 and 8.1 alike) times
/// the cues it writes: with B-frames the first frame is shown two frames later, and a cue read
/// from it would be two frames late.
struct RetimedRendition: Sendable {
    /// The rendition's line in the master.
    let existing: ExistingRendition
    let cues: [Cue]
    let headerBlocks: [String]
    /// `programme` or `media`: how the cue times were read.
    let reading: String
    /// The playlist it was read from.
    let playlistURL: URL
    /// When its segments are not WebVTT text (fragmented MP4): what they are; nothing else was read.
    var notText: TextRenditionKind?
    /// Segments read as no cues, each saying why (empty, or not WebVTT).
    var skipped: [String] = []

    /// Reads `existing` (another tool's subtitle rendition) when none of its segments has a map;
    /// nil when some segment has one (nothing to fix).
    static func read(_ existing: ExistingRendition, presentation: Presentation) async throws(SubweaveError) -> RetimedRendition? {
        let reader = presentation.reader
        guard let uri = existing.rendition.uri, let url = MediaReader.resolve(uri, against: presentation.masterURL) else { return nil }
        let bytes = try await reader.read(url, kind: .playlist, what: "the subtitle playlist of \(existing.describe(in: presentation.master))")
        let playlist: MediaPlaylist
        do {
            playlist = try MediaPlaylist(parsing: bytes, source: MediaReader.display(url), imports: presentation.master.definitions)
        } catch {
            throw .playlist(error)
        }
        let kind = await TextRenditionKind.of(playlist, at: url, reader: reader)
        guard kind == .webVTTText else {
            var other = RetimedRendition(existing: existing, cues: [], headerBlocks: [], reading: "", playlistURL: url)
            other.notText = kind
            return other
        }
        var perSegment: [(segment: MediaSegment, cues: [Cue])] = []
        var headerBlocks: [String]?
        var skipped: [String] = []
        for segment in playlist.segments where !segment.isGap {
            if segment.encryption != nil {
                throw .encrypted(EncryptedSegment(place: "\(MediaReader.display(url)) line \(segment.line ?? 0)", method: nil, purpose: .retiming))
            }
            let segmentURL = try reader.resolve(segment.uri, against: url, in: playlist, line: segment.line)
            let data = try await reader.read(segmentURL, kind: .subtitle, range: segment.byteRange, what: "a subtitle segment")
            if data.withUnsafeBufferPointer({ TimestampMap.headerHasMapLine($0) }) { return nil }
            // One bad segment of another tool's rendition is its own problem, said by name: the
            // rest is read.
            guard !data.isEmpty else {
                skipped.append("segment \(MediaReader.display(segmentURL)) is empty (0 bytes); read as no cues")
                perSegment.append((segment, []))
                continue
            }
            let ingested: IngestedSubtitles
            do {
                ingested = try SubtitleIngest.read(
                    data, format: .vtt, encoding: .utf8, sourceID: existing.rendition.name ?? "", location: MediaReader.display(segmentURL))
            } catch {
                skipped.append("segment \(MediaReader.display(segmentURL)) is not WebVTT (\(error.reason)); read as no cues")
                perSegment.append((segment, []))
                continue
            }
            if headerBlocks == nil { headerBlocks = ingested.headerBlocks }
            perSegment.append((segment, ingested.cues))
        }
        let (cues, asMedia) = Self.combine(perSegment, timeline: presentation.timeline)
        var retimed = RetimedRendition(
            existing: existing, cues: cues, headerBlocks: headerBlocks ?? [], reading: asMedia ? "media" : "programme", playlistURL: url)
        retimed.skipped = skipped
        return retimed
    }

    /// The segments' cues on the programme timeline, read as media or as programme time
    /// (whichever puts more cues inside the segment that carries them; programme time on a tie),
    /// each boundary cue once, numbered again.
    static func combine(_ perSegment: [(segment: MediaSegment, cues: [Cue])], timeline: ProgrammeTimeline) -> (cues: [Cue], asMedia: Bool) {
        // Media-time reading: a cue time in a segment of sequence d is media time; programme time
        // is S_d + (t − B_d).
        func mediaShift(_ segment: MediaSegment) -> MediaTime {
            var chosen = timeline.sequences.first
            for sequence in timeline.sequences where sequence.playlistStart <= segment.start { chosen = sequence }
            guard let chosen else { return .zero }
            return chosen.playlistStart - MediaTime(ticks: chosen.media.start)
        }
        func score(_ shift: (MediaSegment) -> MediaTime) -> Int {
            var inside = 0
            for (segment, cues) in perSegment {
                let window = segment.start..<(segment.start + segment.duration)
                let s = shift(segment)
                for cue in cues where cue.start + s < window.upperBound && cue.end + s > window.lowerBound { inside += 1 }
            }
            return inside
        }
        // The stream's-start reading: cue 0 is the first decode time, before the first frame shown
        // by the frames of reordering (cue times are programme time less that lead).
        let lead =
            timeline.sequences.first.map { first in
                MediaTime(ticks: PresentationTimestamp.wrappedDifference(first.media.start, first.media.decodeStart ?? first.media.start))
            } ?? .zero
        let fromStart = MediaTime.zero - (lead > .zero && lead < MediaTime(seconds: 1) ? lead : .zero)
        let asMedia = score(mediaShift) > score { _ in fromStart }
        var seen: Set<String> = []
        var cues: [Cue] = []
        for (segment, segmentCues) in perSegment {
            let shift = asMedia ? mediaShift(segment) : fromStart
            for var cue in segmentCues {
                cue.start += shift
                cue.end += shift
                guard cue.end > .zero else { continue }
                if cue.start < .zero { cue.start = .zero }
                // A boundary cue is repeated in every segment it overlaps: keep it once.
                let key = "\(cue.start.ticks) \(cue.end.ticks) \(cue.text)"
                if seen.insert(key).inserted { cues.append(cue) }
            }
        }
        cues.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        // Identifiers are per segment in such files (each numbers its cues from 1): numbered again.
        for index in cues.indices { cues[index].identifier = "" }
        SubtitleIngest.assignIdentifiers(&cues, taken: [])
        return (cues, asMedia)
    }
}
