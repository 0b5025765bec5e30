import Containers
import HLS
import Timebase
import TimedText

/// The reference variant's timeline: its segments on the playlist timeline and, per
/// discontinuity sequence, the media timestamp of the sequence's first presented frame.
///
/// A subtitle file's time 0 is the first video frame of the programme, and programme time is
/// playlist time (the sum of the EXTINF durations before a point). Within discontinuity sequence
/// `d`, whose first segment starts at playlist time `S_d` with first presented frame `B_d` (90 kHz),
/// programme time `T` is media time `B_d + (T − S_d)`.
///
/// Segments carry cue times **on the media timeline** and an identity `X-TIMESTAMP-MAP`
/// (`LOCAL` and `MPEGTS` name the same instant, RFC 8216bis §3.1.4): every client that honours the
/// map shows a cue at `cue − LOCAL + (MPEGTS − first PTS)`, which is exact, and clients that ignore
/// the map (ffmpeg's HLS demuxer, some TV players) take cue times as media times, which is exact
/// too. Every segment of a sequence carries the same map, so a player computes a repeated cue's
/// time with the same arithmetic in every segment and recognises the repeat (hls.js compares
/// start, end and text). Media time is unwrapped within a sequence: after a 2^33 PTS wrap cue times
/// simply go on past 26.5 h. Where a cue repeated from the previous sequence would need a time
/// before 0 on this sequence's media timeline (a new encode whose PTS starts near 0), the
/// sequence's cue times and `LOCAL` move later together by the same whole milliseconds, which
/// keeps map-honouring clients exact.
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

    /// How one sequence's cues are written: `written = programme time + offset`, under `map`.
    public struct Mapping: Sendable, Equatable {
        public let offset: MediaTime
        public let map: TimestampMap
    }

    /// Differences up to this are "the same frame" (one frame at 25 fps).
    public static let frameTolerance = MediaTime(milliseconds: 40)

    public let playlist: MediaPlaylist
    public let sequences: [SequenceStart]
    /// What reading the media assumed or skipped, each naming its file (for warnings).
    public var notes: [String] = []

    /// Combines the playlist with one probe per discontinuity sequence, in order.
    public init(playlist: MediaPlaylist, probes: [Int: SegmentTimeline]) {
        self.playlist = playlist
        var sequences: [SequenceStart] = []
        for index in Self.segmentsToProbe(playlist) {
            guard let probe = probes[index] else { continue }
            let segment = playlist.segments[index]
            sequences.append(
                SequenceStart(
                    discontinuitySequence: segment.discontinuitySequence, firstSegment: index,
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

    /// The index in ``sequences`` of the sequence segment `index` belongs to.
    public func sequenceIndex(forSegment index: Int) -> Int {
        var result = 0
        for (k, sequence) in sequences.enumerated() where sequence.firstSegment <= index { result = k }
        return result
    }

    /// How sequence `sequenceIndex` writes cues, given the earliest programme time of a cue its
    /// segments carry (nil when they carry none).
    public func mapping(forSequence sequenceIndex: Int, earliestCue: MediaTime?) -> Mapping {
        let sequence = sequences[sequenceIndex]
        let base = sequence.media.start
        // The map's instant: the first frame rounded up to a whole millisecond (LOCAL is in ms).
        let anchor = (base + 89) / 90 * 90
        // A cue before the anchor's media time 0 cannot be written: shift the sequence later.
        var shift: Int64 = 0
        if let earliest = earliestCue {
            let written = base + (earliest - sequence.playlistStart).ticks
            if written < 0 { shift = (-written + 89) / 90 * 90 }
        }
        return Mapping(
            offset: MediaTime(ticks: base - sequence.playlistStart.ticks + shift),
            map: TimestampMap(mpegts: anchor, local: MediaTime(ticks: anchor + shift)))
    }

    /// The video's language from the PMT of the first segment, if it declares one.
    public var videoLanguage: String? { sequences.first?.media.videoLanguage }
}
