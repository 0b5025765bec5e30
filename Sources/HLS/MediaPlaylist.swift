import Timebase

/// A media playlist read for its timeline: segments, durations, discontinuities and the tags a
/// subtitle rendition must mirror (RFC 8216bis §4.4.3-4.4.4).
public struct MediaPlaylist: Sendable, Equatable {
    public var version: Int?
    public var targetDuration: Int
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    /// `VOD`, `EVENT`, or nil (a live playlist).
    public var playlistType: PlaylistType?
    public var hasEndList: Bool
    public var segments: [MediaSegment]
    /// Low-latency HLS (RFC 8216bis §4.4.3.7-4.4.5): `EXT-X-PART-INF`'s PART-TARGET as written
    /// (nil: the playlist has no parts).
    public var partTarget: String?
    /// `EXT-X-SERVER-CONTROL`'s attributes, as written.
    public var serverControl: AttributeList?
    /// The parts after the last complete segment: the segment being made.
    public var trailingParts: [MediaPart] = []
    /// `EXT-X-PRELOAD-HINT`'s attributes, as written.
    public var preloadHint: AttributeList?
    /// Whether `EXT-X-DISCONTINUITY` comes before the trailing parts (the segment being made
    /// begins a new discontinuity sequence).
    public var trailingDiscontinuity = false

    /// The largest media or discontinuity sequence number a playlist may reach, segments counted.
    ///
    /// 2^53, the last integer a JavaScript player (hls.js) counts exactly. The spec allows
    /// up to 2^64 - 1; at a segment a second, 2^53 takes 285 million years, so a number beyond it
    /// is an error, never a sum that wraps.
    public static let largestSequenceNumber = 1 << 53

    /// Parses a media playlist.
    ///
    /// `source` names it in errors; `imports` are the master's variables,
    /// for `EXT-X-DEFINE:IMPORT` (RFC 8216bis §4.4.2.3). Segment and map URIs are given with
    /// variables substituted. Sequence numbers, byte ranges and the total duration are checked
    /// against overflow; a sequence tag after the first segment is refused (§4.4.3).
    public init(parsing bytes: consuming [UInt8], source: String, imports: [String: String] = [:]) throws(HLSError) {
        let playlist = try Playlist(parsing: consume bytes, source: source)
        var reader = MediaPlaylistReader(source: source, imports: imports)
        for line in playlist.lines { try reader.read(line) }
        guard let targetDuration = reader.targetDuration else {
            throw HLSError(
                .missingRequired, source: source, line: nil,
                "no #EXT-X-TARGETDURATION: RFC 8216bis §4.4.3.1 requires it in every media playlist")
        }
        guard !reader.segments.isEmpty else {
            throw HLSError(.missingRequired, source: source, line: nil, "the media playlist lists no segments")
        }
        version = reader.version
        self.targetDuration = targetDuration
        mediaSequence = reader.mediaSequence
        discontinuitySequence = reader.discontinuitySequence
        playlistType = reader.playlistType
        hasEndList = reader.hasEndList
        segments = reader.segments
        partTarget = reader.partTarget
        serverControl = reader.serverControl
        trailingParts = reader.parts
        preloadHint = reader.preloadHint
        trailingDiscontinuity = reader.pendingDiscontinuity
    }

    /// Whether the playlist lists parts (a low-latency playlist).
    public var hasParts: Bool { partTarget != nil && (!trailingParts.isEmpty || segments.contains { !$0.parts.isEmpty }) }

    /// The total duration: the sum of the segments' EXTINF durations.
    public var duration: MediaTime {
        guard let last = segments.last else { return .zero }
        return last.start + last.duration
    }
}

/// Reads a media playlist line by line: the playlist-wide tags, and the tags that apply to the
/// next segment until its URI line.
private struct MediaPlaylistReader {
    let source: String
    let imports: [String: String]
    var version: Int?
    var targetDuration: Int?
    var mediaSequence = 0
    var discontinuitySequence = 0
    var playlistType: PlaylistType?
    var hasEndList = false
    var segments: [MediaSegment] = []
    var partTarget: String?
    var serverControl: AttributeList?
    var preloadHint: AttributeList?
    /// The parts listed since the last segment: the next segment's.
    var parts: [MediaPart] = []
    /// Whether `EXT-X-DISCONTINUITY` applies to the next segment.
    var pendingDiscontinuity: Bool { discontinuity }

    /// What applies to the next segment.
    private var duration: (time: MediaTime, text: String, line: Int?)?
    private var discontinuity = false
    private var dateTime: String?
    private var byteRange: ByteRange?
    private var gap = false
    private var map: MediaSegment.Initialization?
    private var key: SegmentKey?
    private var lastRangeEnd: [String: Int] = [:]
    private var discontinuities = 0
    private var start = MediaTime.zero
    private var definitions: [String: String] = [:]

    init(source: String, imports: [String: String]) {
        self.source = source
        self.imports = imports
    }

    mutating func read(_ line: PlaylistLine) throws(HLSError) {
        switch line.kind {
        case .blank, .comment: return
        case .tag(let name, let value): try tag(name, value, line)
        case .uri(let uri): try segment(String(uri), line)
        }
    }

    private func problem(_ line: PlaylistLine, _ reason: String, code: HLSError.Code = .malformedTag) -> HLSError {
        HLSError(code, source: source, line: line.number, reason)
    }

    private mutating func tag(_ name: String, _ value: Substring?, _ line: PlaylistLine) throws(HLSError) {
        switch name {
        case TagName.streamInf, TagName.media:
            throw problem(line, "\(name) makes this a master playlist; a media playlist (with #EXTINF segments) was expected", code: .wrongPlaylistKind)
        case TagName.version: version = try integer(value, line, name)
        case TagName.targetDuration: targetDuration = try integer(value, line, name)
        case TagName.mediaSequence, TagName.discontinuitySequence:
            guard segments.isEmpty && duration == nil else {
                throw problem(line, "\(name) comes after the first media segment; RFC 8216bis §4.4.3 requires it to appear before the first one")
            }
            if name == TagName.mediaSequence { mediaSequence = try integer(value, line, name) } else { discontinuitySequence = try integer(value, line, name) }
        case TagName.playlistType:
            // VOD or EVENT (§4.4.3.5); anything else is ignored, as a client ignores what it does not know.
            playlistType = value.flatMap { PlaylistType(rawValue: String($0.trimmingTrailingWhitespace)) }
        case TagName.endList: hasEndList = true
        case TagName.discontinuity: discontinuity = true
        case TagName.gap: gap = true
        case TagName.programDateTime: dateTime = value.map { String($0.trimmingTrailingWhitespace) }
        case TagName.inf: try inf(value, line)
        case TagName.byteRange:
            guard let range = ByteRange(parsing: value ?? "") else {
                throw problem(line, "#EXT-X-BYTERANGE needs <length>[@<offset>] (RFC 8216bis §4.4.4.2) within the range of a file size")
            }
            byteRange = range
        case TagName.map: try readMap(value, line)
        case TagName.partInf:
            guard let target = try attributes(value, line)["PART-TARGET"]?.rawValue, MediaTime(decimalSeconds: Substring(target)) != nil else {
                throw problem(line, "#EXT-X-PART-INF needs PART-TARGET, a decimal-floating-point number of seconds (RFC 8216bis §4.4.3.7)")
            }
            partTarget = target
        case TagName.serverControl: serverControl = try attributes(value, line)
        case TagName.preloadHint: preloadHint = try attributes(value, line)
        case TagName.part: try readPart(value, line)
        case TagName.define:
            let list = try attributes(value, line)
            if let name = list["NAME"]?.unquoted, let defined = list["VALUE"]?.unquoted { definitions[name] = defined }
            if let name = list["IMPORT"]?.unquoted, let imported = imports[name] { definitions[name] = imported }
        case TagName.key:
            let list = try attributes(value, line)
            guard let method = list["METHOD"].flatMap({ EncryptionMethod($0.rawValue) }) else {
                key = nil
                return
            }
            var iv: [UInt8]?
            if let text = list["IV"]?.rawValue {
                guard let parsed = SegmentKey.iv(parsing: text) else {
                    throw problem(line, "#EXT-X-KEY IV must be a hexadecimal-sequence of 128 bits (0x and 32 hex digits, RFC 8216bis §4.4.4.4)")
                }
                iv = parsed
            }
            var uri: String?
            if let written = list["URI"] { uri = try substitute(written.unquoted, line) }
            key = SegmentKey(method: method, uri: uri, iv: iv, keyFormat: list["KEYFORMAT"]?.unquoted, line: line.number)
        default:
            return
        }
    }

    private mutating func inf(_ value: Substring?, _ line: PlaylistLine) throws(HLSError) {
        let text = value ?? ""
        // The duration is what comes before the first comma (the title after it is not read): the
        // comma byte, as RFC 8216bis §4.4.4.1 writes it, even where a combining mark follows it
        // (the syntax is ASCII; looking for it as a character would read past it).
        let durationText = text[..<(text.utf8.firstIndex(of: 0x2C) ?? text.endIndex)].trimmingTrailingWhitespace
        guard let time = MediaTime(decimalSeconds: durationText) else {
            throw problem(line, "#EXTINF needs a duration in decimal seconds (RFC 8216bis §4.4.4.1), found \"\(LabelText.excerpt(durationText, limit: 40))\"")
        }
        duration = (time, String(durationText), line.number)
    }

    private mutating func readMap(_ value: Substring?, _ line: PlaylistLine) throws(HLSError) {
        let list = try attributes(value, line)
        guard let uri = list["URI"]?.unquoted else {
            throw problem(line, "#EXT-X-MAP requires a URI attribute (RFC 8216bis §4.4.4.5)", code: .missingRequired)
        }
        var range: ByteRange?
        if let text = list["BYTERANGE"]?.unquoted {
            guard let parsed = ByteRange(parsing: Substring(text)), parsed.offset != nil else {
                throw problem(line, "#EXT-X-MAP BYTERANGE needs \"<length>@<offset>\"")
            }
            range = parsed
        }
        map = MediaSegment.Initialization(uri: try substitute(uri, line), byteRange: range)
    }

    private mutating func readPart(_ value: Substring?, _ line: PlaylistLine) throws(HLSError) {
        let list = try attributes(value, line)
        guard let durationText = list["DURATION"]?.rawValue, let duration = MediaTime(decimalSeconds: Substring(durationText)),
            let uri = list["URI"]?.unquoted
        else {
            throw problem(line, "#EXT-X-PART needs DURATION (decimal seconds) and URI (RFC 8216bis §4.4.4.9)", code: .missingRequired)
        }
        guard parts.count < 10_000 else { throw problem(line, "more than 10,000 #EXT-X-PART tags for one segment") }
        var range: ByteRange?
        if let text = list["BYTERANGE"]?.unquoted {
            guard let parsed = ByteRange(parsing: Substring(text)) else { throw problem(line, "#EXT-X-PART BYTERANGE needs \"<length>[@<offset>]\"") }
            range = parsed
        }
        parts.append(
            MediaPart(
                uri: try substitute(uri, line), duration: duration, durationText: durationText, independent: list["INDEPENDENT"]?.rawValue == "YES",
                byteRange: range, isGap: list["GAP"]?.rawValue == "YES"))
    }

    private mutating func segment(_ uri: String, _ line: PlaylistLine) throws(HLSError) {
        guard let (time, text, extinfLine) = duration else {
            throw problem(line, "the segment URI has no #EXTINF before it (RFC 8216bis §4.4.4.1)", code: .missingRequired)
        }
        let uriString = try substitute(uri, line)
        var range = byteRange
        if let r = range, r.offset == nil { range = ByteRange(length: r.length, offset: lastRangeEnd[uriString] ?? 0) }
        if let r = range, let offset = r.offset {
            let (end, overflow) = offset.addingReportingOverflow(r.length)
            guard !overflow else { throw problem(line, "#EXT-X-BYTERANGE \(r.length)@\(offset) ends beyond any file size") }
            lastRangeEnd[uriString] = end
        }
        if discontinuity && !segments.isEmpty { discontinuities += 1 }
        let largest = MediaPlaylist.largestSequenceNumber
        guard mediaSequence <= largest - segments.count, discontinuitySequence <= largest - discontinuities else {
            throw problem(
                line,
                "EXT-X-MEDIA-SEQUENCE \(mediaSequence) or EXT-X-DISCONTINUITY-SEQUENCE \(discontinuitySequence), counted to this segment, passes 2^53 (\(largest)), the last number JavaScript players count exactly; no stream numbers its segments this far"
            )
        }
        guard let end = MediaTime.checkedSum(start, time) else {
            throw problem(line, "the playlist's total duration leaves the range Subweave can represent (\(MediaTime.limit / 90_000) s)")
        }
        segments.append(
            MediaSegment(
                uri: uriString, duration: time, durationText: text, start: start, discontinuity: discontinuity,
                discontinuitySequence: discontinuitySequence + discontinuities, programDateTime: dateTime, byteRange: range, map: map,
                key: key, isGap: gap, line: extinfLine, parts: parts))
        parts = []
        start = end
        duration = nil
        discontinuity = false
        dateTime = nil
        byteRange = nil
        gap = false
    }

    private func integer(_ value: Substring?, _ line: PlaylistLine, _ name: String) throws(HLSError) -> Int {
        guard let value, let n = Int(value.trimmingTrailingWhitespace), n >= 0 else {
            throw problem(line, "\(name) needs a decimal-integer, found \"\(LabelText.excerpt(value ?? "", limit: 40))\"")
        }
        return n
    }

    private func attributes(_ value: Substring?, _ line: PlaylistLine) throws(HLSError) -> AttributeList {
        do { return try AttributeList(parsing: value ?? "") } catch {
            throw HLSError(.malformedAttributeList, source: source, line: line.number, "\(line.tagName ?? "tag"): \(error.reason)")
        }
    }

    private func substitute(_ text: String, _ line: PlaylistLine) throws(HLSError) -> String {
        do { return try VariableSubstitution.apply(definitions, to: text) } catch {
            throw problem(
                line, "the variable reference {$\(error.name)} names no variable defined by EXT-X-DEFINE (RFC 8216bis §4.3 requires the playlist to define it)")
        }
    }
}

/// One media segment and the tags that apply to it.
public struct MediaSegment: Sendable, Equatable {
    /// The URI as written (relative to the playlist), variables substituted.
    public let uri: String
    public let duration: MediaTime
    /// The EXTINF duration exactly as written, so a mirror playlist can repeat it.
    public let durationText: String
    /// Where the segment starts on the playlist timeline (the sum of the EXTINF before it).
    public let start: MediaTime
    /// True when `EXT-X-DISCONTINUITY` precedes the segment.
    public let discontinuity: Bool
    /// The discontinuity sequence number the segment belongs to.
    public let discontinuitySequence: Int
    /// The `EXT-X-PROGRAM-DATE-TIME` value before the segment, as written.
    public let programDateTime: String?
    /// The byte range, with the offset resolved.
    public let byteRange: ByteRange?
    /// The `EXT-X-MAP` in force (fMP4 initialisation section).
    public let map: Initialization?
    /// The `EXT-X-KEY` in force, or nil when the segment is not encrypted.
    public let key: SegmentKey?
    /// The `EXT-X-KEY` METHOD in force, or nil when the segment is not encrypted.
    public var encryption: EncryptionMethod? { key?.method }
    public let isGap: Bool
    /// The line of the segment's `EXTINF`.
    public let line: Int?
    /// Its `EXT-X-PART`s (low-latency HLS), in order; empty when the playlist lists none for it.
    public var parts: [MediaPart] = []

    /// The `EXT-X-MAP` of a segment.
    public struct Initialization: Sendable, Equatable, Hashable {
        public let uri: String
        public let byteRange: ByteRange?
    }
}

/// A partial segment (`EXT-X-PART`, RFC 8216bis §4.4.4.9).
public struct MediaPart: Sendable, Equatable, Hashable {
    public let uri: String
    public let duration: MediaTime
    /// DURATION exactly as written: a mirror repeats it digit for digit.
    public let durationText: String
    /// INDEPENDENT=YES.
    public let independent: Bool
    public let byteRange: ByteRange?
    /// GAP=YES.
    public let isGap: Bool

    public init(uri: String, duration: MediaTime, durationText: String, independent: Bool, byteRange: ByteRange? = nil, isGap: Bool = false) {
        self.uri = uri
        self.duration = duration
        self.durationText = durationText
        self.independent = independent
        self.byteRange = byteRange
        self.isGap = isGap
    }
}

/// A byte range, `<length>[@<offset>]` (RFC 8216bis §4.4.4.2).
public struct ByteRange: Sendable, Equatable, Hashable {
    public let length: Int
    public let offset: Int?

    /// A range of `length` bytes from `offset` (nil: right after the previous range of the same URI).
    public init(length: Int, offset: Int?) {
        self.length = length
        self.offset = offset
    }

    init?(parsing text: Substring) {
        let parts = text.trimmingTrailingWhitespace.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let length = Int(parts[0]), length >= 0 else { return nil }
        var offset: Int?
        if parts.count == 2 {
            // The range must end within Int: an end beyond it names no byte of any file.
            guard let o = Int(parts[1]), o >= 0, !o.addingReportingOverflow(length).overflow else { return nil }
            offset = o
        }
        self.init(length: length, offset: offset)
    }
}
