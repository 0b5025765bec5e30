import Containers
import HLS
import TimedText
import Timebase

/// The reference variant's timeline: its segments on the playlist timeline and, per
/// discontinuity sequence, the media timestamp where that sequence's presentation starts.
///
/// A subtitle file's time 0 is the first video frame of the programme, and programme time is
/// playlist time (the sum of the EXTINF durations before a point). Within discontinuity sequence
/// `d`, whose first segment starts at playlist time `S_d` with lowest video PTS `B_d`, programme
/// time `T` is media time `B_d + (T − S_d)`.
///
/// Every segment of a sequence carries the same `X-TIMESTAMP-MAP`: `LOCAL` = `S_d` (to the
/// millisecond, rounded up) and `MPEGTS` the media time it maps to. One map per sequence means a
/// player computes a repeated cue's time with the same arithmetic in every segment, so it sees
/// the same floating-point result and recognises the repeat (hls.js compares start, end and text).
/// Where the media time passes 2^33 inside a sequence, segments after the wrap get a map anchored
/// at the wrap (`LOCAL` = the programme time of the wrap, `MPEGTS` the new low PTS), so no
/// segment states a timestamp its media does not contain.
public struct ProgrammeTimeline: Sendable, Equatable {
    /// Where one discontinuity sequence starts.
    public struct SequenceStart: Sendable, Equatable {
        public let discontinuitySequence: Int
        /// Index of the sequence's first segment in the playlist.
        public let firstSegment: Int
        /// The sequence's start on the playlist timeline.
        public let playlistStart: MediaTime
        /// The media timestamp (90 kHz, wrapped) of its first presented frame.
        public let media: SegmentTimeline
    }

    public let playlist: MediaPlaylist
    public let sequences: [SequenceStart]

    /// Combines the playlist with one probe per discontinuity sequence, in order.
    public init(playlist: MediaPlaylist, probes: [Int: SegmentTimeline]) {
        self.playlist = playlist
        var sequences: [SequenceStart] = []
        for (index, segment) in playlist.segments.enumerated() where index == 0 || segment.discontinuitySequence != playlist.segments[index - 1].discontinuitySequence {
            guard let probe = probes[index] else { continue }
            sequences.append(SequenceStart(discontinuitySequence: segment.discontinuitySequence, firstSegment: index,
                                           playlistStart: segment.start, media: probe))
        }
        self.sequences = sequences
    }

    /// Indices of the segments whose media must be probed: the first of each discontinuity sequence.
    public static func segmentsToProbe(_ playlist: MediaPlaylist) -> [Int] {
        playlist.segments.indices.filter { $0 == 0 || playlist.segments[$0].discontinuitySequence != playlist.segments[$0 - 1].discontinuitySequence }
    }

    /// The programme's duration: the playlist's.
    public var duration: MediaTime { playlist.duration }

    /// Each segment's window `[start, start + duration)` on the programme timeline.
    public var windows: [Range<MediaTime>] {
        playlist.segments.map { $0.start..<($0.start + $0.duration) }
    }

    /// The `X-TIMESTAMP-MAP` of segment `index`.
    public func timestampMap(forSegment index: Int) -> TimestampMap {
        let segment = playlist.segments[index]
        let sequence = sequences.last { $0.firstSegment <= index } ?? sequences[0]
        let base = sequence.media.start
        let modulus = PresentationTimestamp.modulus
        let epoch = (base + (segment.start - sequence.playlistStart).ticks) / modulus
        // The programme time where this epoch of the 33-bit clock begins (the sequence start for epoch 0).
        let anchor = epoch == 0 ? sequence.playlistStart : sequence.playlistStart + MediaTime(ticks: epoch * modulus - base)
        let local = anchor.roundedUpToMillisecond
        return TimestampMap(mpegts: base + (local - sequence.playlistStart).ticks - epoch * modulus, local: local)
    }

    /// The video's language from the PMT of the first segment, if it declares one.
    public var videoLanguage: String? { sequences.first?.media.videoLanguage }
}
