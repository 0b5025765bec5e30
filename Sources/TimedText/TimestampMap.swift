import Timebase

/// `X-TIMESTAMP-MAP=MPEGTS:<90 kHz>,LOCAL:<WebVTT time>` (RFC 8216bis §3.1.4): LOCAL cue time
/// equals MPEGTS media time.
public struct TimestampMap: Sendable, Equatable {
    /// The 90 kHz media timestamp, in `0 ..< 2^33`.
    public let mpegts: Int64
    /// The cue time that corresponds to it.
    public let local: MediaTime

    /// A map saying cue time `local` is media time `mpegts` (reduced into `0 ..< 2^33`).
    public init(mpegts: Int64, local: MediaTime) {
        self.mpegts = PresentationTimestamp.wrapped(mpegts)
        self.local = local
    }

    /// The header line.
    public var line: String { "X-TIMESTAMP-MAP=MPEGTS:\(mpegts),LOCAL:\(WebVTTTimestamp.format(local))" }

    /// Parses a header line `X-TIMESTAMP-MAP=MPEGTS:<n>,LOCAL:<time>` (either order, as readers
    /// must accept); nil when it is not one.
    public init?(parsing line: Substring) {
        let prefix = "X-TIMESTAMP-MAP="
        guard line.hasPrefix(prefix) else { return nil }
        var mpegts: Int64?
        var local: MediaTime?
        for part in line.dropFirst(prefix.count).split(separator: ",", omittingEmptySubsequences: false) {
            if part.hasPrefix("MPEGTS:"), let value = Int64(part.dropFirst(7)), value >= 0, value < PresentationTimestamp.modulus {
                mpegts = value
            } else if part.hasPrefix("LOCAL:"), let value = WebVTTTimestamp.parse(String(part.dropFirst(6))) {
                local = value
            } else {
                return nil
            }
        }
        guard let mpegts, let local else { return nil }
        self.init(mpegts: mpegts, local: local)
    }

    /// What a WebVTT file says about its map.
    public enum Header: Sendable, Equatable {
        /// No `X-TIMESTAMP-MAP` line.
        case none
        /// A line starts `X-TIMESTAMP-MAP=` but is not a map (1-based line).
        case malformed(line: Int)
        /// The map, its line, and whether it is in the header (before the first blank line, the
        /// only place hls.js reads it).
        case found(TimestampMap, line: Int, inHeader: Bool)
    }

    /// The first `X-TIMESTAMP-MAP` line of `text`, wherever it is.
    public static func find(in text: String) -> Header {
        var number = 0
        var inHeader = true
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty { inHeader = false; continue }
            guard line.hasPrefix("X-TIMESTAMP-MAP=") else { continue }
            guard let map = TimestampMap(parsing: line) else { return .malformed(line: number) }
            return .found(map, line: number, inHeader: inHeader)
        }
        return .none
    }
}
