/// The format subtitle renditions are written in.
public enum SubtitleTextFormat: String, Sendable, CaseIterable, Codable {
    /// Segmented WebVTT text files (RFC 8216bis §3.1.4): every player's.
    case webVTT = "webvtt"
    /// IMSC1 (TTML, Text Profile) in fragmented MP4 (`stpp.ttml.im1t`, Apple HLS Authoring
    /// Specification 5.4, 5.10): keeps styling and placement WebVTT cannot, and serves DASH too.
    case imsc1

    /// The format a label names (`webvtt`, `vtt`, `imsc1`, `imsc`, `ttml`), or nil.
    public init?(label: String) {
        switch label.lowercased() {
        case "webvtt", "vtt": self = .webVTT
        case "imsc1", "imsc", "ttml", "stpp": self = .imsc1
        default: return nil
        }
    }

    /// The CODECS entry a variant names it by, or nil (WebVTT is named by none: adding `wvtt`
    /// breaks players).
    public var codec: String? { self == .imsc1 ? "stpp.ttml.im1t" : nil }
}
