/// Where a segment's presentation starts on the 90 kHz media clock, read from the media itself.
public struct SegmentTimeline: Sendable, Equatable {
    public enum Container: String, Sendable { case mpegTS = "mpeg-ts", fragmentedMP4 = "fmp4" }
    public enum Source: String, Sendable { case video, audio }

    public let container: Container
    /// The start on the 90 kHz clock, wrapped into `0 ..< 2^33`.
    public let start: Int64
    /// Which stream gave the start.
    public let source: Source
    /// The video stream's ISO 639 language from the PMT, when the PMT has one.
    public let videoLanguage: String?
    /// When the first access unit of the stream that gave ``start`` is decoded (the first DTS, or
    /// `tfdt`), wrapped; with B-frames it is before ``start``.
    public let decodeStart: Int64?
    /// What the probe read although malformed, or assumed (an edit list ignored, a fragment
    /// without `tfdt`), for a warning.
    public var notes: [String] = []

    /// A segment whose presentation starts at `start` (90 kHz, wrapped), read from `source`.
    public init(container: Container, start: Int64, source: Source, videoLanguage: String?, decodeStart: Int64? = nil, notes: [String] = []) {
        self.container = container
        self.start = start
        self.source = source
        self.videoLanguage = videoLanguage
        self.decodeStart = decodeStart
        self.notes = notes
    }
}
