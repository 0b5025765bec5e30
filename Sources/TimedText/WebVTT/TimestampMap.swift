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
        var text = text
        return text.withUTF8 { scan($0).header }
    }

    /// The one scanner for the map, on a WebVTT file's bytes.
    ///
    /// Gives the first line (LF, CRLF or CR ends one) that starts `X-TIMESTAMP-MAP=`, and the
    /// 1-based line of the first empty line before it, which ends the header (nil: none before
    /// it). Every reader of the map (the parser, `validate`, the retiming of other tools'
    /// renditions) asks this.
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (header: Header, headerEnd: Int?) {
        let prefix = Array("X-TIMESTAMP-MAP=".utf8)
        var number = 0
        var headerEnd: Int?
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            number += 1
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if line.isEmpty && headerEnd == nil && end < bytes.count { headerEnd = number }
            if line.starts(with: prefix) {
                let header: Header
                if let map = TimestampMap(parsing: Substring(String(decoding: line, as: UTF8.self))) {
                    header = .found(map, line: number, inHeader: headerEnd == nil)
                } else {
                    header = .malformed(line: number)
                }
                return (header, headerEnd)
            }
            guard end < bytes.count else { break }
            start = end + (bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1)
        }
        return (.none, headerEnd)
    }

    /// Whether the header (the lines before the first empty one, where players read it) has a line
    /// that starts `X-TIMESTAMP-MAP=`, valid or not.
    package static func headerHasMapLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch scan(bytes) {
        case (.found(_, _, let inHeader), _): return inHeader
        case (.malformed(let line), let headerEnd): return headerEnd.map { line < $0 } ?? true
        case (.none, _): return false
        }
    }
}
