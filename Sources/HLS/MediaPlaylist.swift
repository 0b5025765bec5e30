import Timebase

/// A media playlist read for its timeline: segments, durations, discontinuities and the tags a
/// subtitle rendition must mirror (RFC 8216bis §4.4.3-4.4.4).
public struct MediaPlaylist: Sendable, Equatable {
    public var version: Int?
    public var targetDuration: Int
    public var mediaSequence: Int
    public var discontinuitySequence: Int
    /// `VOD`, `EVENT`, or nil.
    public var playlistType: String?
    public var hasEndList: Bool
    public var segments: [MediaSegment]

    /// Parses a media playlist. `source` names it in errors; `imports` are the master's variables,
    /// for `EXT-X-DEFINE:IMPORT` (RFC 8216bis §4.4.2.3). Segment and map URIs are given with
    /// variables substituted.
    public init(parsing bytes: [UInt8], source: String, imports: [String: String] = [:]) throws(HLSError) {
        let playlist = try Playlist(parsing: bytes, source: source)
        var version: Int?
        var targetDuration: Int?
        var mediaSequence = 0
        var discontinuitySequence = 0
        var playlistType: String?
        var hasEndList = false
        var segments: [MediaSegment] = []

        var pendingDuration: (MediaTime, String, Int?)?
        var pendingDiscontinuity = false
        var pendingDateTime: String?
        var pendingByteRange: ByteRange?
        var pendingGap = false
        var currentMap: MediaSegment.Initialization?
        var currentKeyMethod: String?
        var lastRangeEnd: [String: Int] = [:]
        var discontinuities = 0
        var start = MediaTime.zero
        var definitions: [String: String] = [:]

        func integer(_ value: Substring?, _ line: PlaylistLine, _ name: String) throws(HLSError) -> Int {
            guard let value, let n = Int(value.trimmingTrailingWhitespace), n >= 0 else {
                throw HLSError(.malformedTag, source: source, line: line.number,
                               "\(name) needs a decimal-integer, found \"\(value ?? "")\"")
            }
            return n
        }
        func substitute(_ text: String, _ line: PlaylistLine) throws(HLSError) -> String {
            do { return try VariableSubstitution.apply(definitions, to: text) } catch {
                throw HLSError(.malformedTag, source: source, line: line.number,
                               "the variable reference {$\(error.name)} names no variable defined by EXT-X-DEFINE (RFC 8216bis §4.3 requires the playlist to define it)")
            }
        }
        func attributes(_ value: Substring?, _ line: PlaylistLine) throws(HLSError) -> AttributeList {
            do { return try AttributeList(parsing: value ?? "") } catch {
                throw HLSError(.malformedAttributeList, source: source, line: line.number,
                               "\(line.tagName ?? "tag"): \(error.reason)")
            }
        }

        for line in playlist.lines {
            switch line.kind {
            case .blank, .comment:
                continue
            case .tag(let name, let value):
                switch name {
                case "#EXT-X-STREAM-INF", "#EXT-X-MEDIA":
                    throw HLSError(.wrongPlaylistKind, source: source, line: line.number,
                                   "\(name) makes this a master playlist; a media playlist (with #EXTINF segments) was expected")
                case "#EXT-X-VERSION": version = try integer(value, line, name)
                case "#EXT-X-TARGETDURATION": targetDuration = try integer(value, line, name)
                case "#EXT-X-MEDIA-SEQUENCE", "#EXT-X-DISCONTINUITY-SEQUENCE":
                    guard segments.isEmpty && pendingDuration == nil else {
                        throw HLSError(.malformedTag, source: source, line: line.number,
                                       "\(name) comes after the first media segment; RFC 8216bis §4.4.3 requires it to appear before the first one")
                    }
                    if name == "#EXT-X-MEDIA-SEQUENCE" { mediaSequence = try integer(value, line, name) } else {
                        discontinuitySequence = try integer(value, line, name)
                    }
                case "#EXT-X-PLAYLIST-TYPE": playlistType = value.map { String($0.trimmingTrailingWhitespace) }
                case "#EXT-X-ENDLIST": hasEndList = true
                case "#EXT-X-DISCONTINUITY": pendingDiscontinuity = true
                case "#EXT-X-GAP": pendingGap = true
                case "#EXT-X-PROGRAM-DATE-TIME": pendingDateTime = value.map { String($0.trimmingTrailingWhitespace) }
                case "#EXTINF":
                    let text = value ?? ""
                    let durationText = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    guard let duration = MediaTime(decimalSeconds: durationText.trimmingTrailingWhitespace) else {
                        throw HLSError(.malformedTag, source: source, line: line.number,
                                       "#EXTINF needs a duration in decimal seconds (RFC 8216bis §4.4.4.1), found \"\(durationText)\"")
                    }
                    pendingDuration = (duration, String(durationText.trimmingTrailingWhitespace), line.number)
                case "#EXT-X-BYTERANGE":
                    guard let range = ByteRange(parsing: value ?? "") else {
                        throw HLSError(.malformedTag, source: source, line: line.number,
                                       "#EXT-X-BYTERANGE needs <length>[@<offset>] (RFC 8216bis §4.4.4.2), found \"\(value ?? "")\"")
                    }
                    pendingByteRange = range
                case "#EXT-X-MAP":
                    let list = try attributes(value, line)
                    guard let uri = list["URI"]?.unquoted else {
                        throw HLSError(.missingRequired, source: source, line: line.number, "#EXT-X-MAP requires a URI attribute (RFC 8216bis §4.4.4.5)")
                    }
                    var range: ByteRange?
                    if let text = list["BYTERANGE"]?.unquoted {
                        guard let parsed = ByteRange(parsing: Substring(text)), parsed.offset != nil else {
                            throw HLSError(.malformedTag, source: source, line: line.number,
                                           "#EXT-X-MAP BYTERANGE needs \"<length>@<offset>\", found \"\(text)\"")
                        }
                        range = parsed
                    }
                    currentMap = MediaSegment.Initialization(uri: try substitute(uri, line), byteRange: range)
                case "#EXT-X-DEFINE":
                    let list = try attributes(value, line)
                    if let name = list["NAME"]?.unquoted, let defined = list["VALUE"]?.unquoted { definitions[name] = defined }
                    if let name = list["IMPORT"]?.unquoted, let imported = imports[name] { definitions[name] = imported }
                case "#EXT-X-KEY":
                    let method = try attributes(value, line)["METHOD"]?.rawValue
                    currentKeyMethod = method == "NONE" ? nil : method
                default:
                    continue
                }
            case .uri(let uri):
                guard let (duration, durationText, extinfLine) = pendingDuration else {
                    throw HLSError(.missingRequired, source: source, line: line.number,
                                   "the segment URI \"\(uri)\" has no #EXTINF before it (RFC 8216bis §4.4.4.1)")
                }
                let uriString = try substitute(String(uri), line)
                var range = pendingByteRange
                if let r = range, r.offset == nil {
                    range = ByteRange(length: r.length, offset: lastRangeEnd[uriString] ?? 0)
                }
                if let r = range, let offset = r.offset {
                    let (end, overflow) = offset.addingReportingOverflow(r.length)
                    guard !overflow else {
                        throw HLSError(.malformedTag, source: source, line: line.number, "#EXT-X-BYTERANGE \(r.length)@\(offset) ends beyond any file size")
                    }
                    lastRangeEnd[uriString] = end
                }
                if pendingDiscontinuity && !segments.isEmpty { discontinuities += 1 }
                guard discontinuitySequence <= Int.max - discontinuities, let end = MediaTime.checkedSum(start, duration) else {
                    throw HLSError(.malformedTag, source: source, line: line.number,
                                   "the playlist's sequence numbers or total duration leave the range Subweave can represent (\(MediaTime.limit / 90_000) s)")
                }
                segments.append(MediaSegment(
                    uri: uriString, duration: duration, durationText: durationText, start: start,
                    discontinuity: pendingDiscontinuity, discontinuitySequence: discontinuitySequence + discontinuities,
                    programDateTime: pendingDateTime, byteRange: range, map: currentMap,
                    keyMethod: currentKeyMethod, isGap: pendingGap, line: extinfLine))
                start = end
                pendingDuration = nil
                pendingDiscontinuity = false
                pendingDateTime = nil
                pendingByteRange = nil
                pendingGap = false
            }
        }
        guard let targetDuration else {
            throw HLSError(.missingRequired, source: source, line: nil,
                           "no #EXT-X-TARGETDURATION: RFC 8216bis §4.4.3.1 requires it in every media playlist")
        }
        guard !segments.isEmpty else {
            throw HLSError(.missingRequired, source: source, line: nil, "the media playlist lists no segments")
        }
        self.version = version
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.playlistType = playlistType
        self.hasEndList = hasEndList
        self.segments = segments
    }

    /// The total duration: the sum of the segments' EXTINF durations.
    public var duration: MediaTime {
        guard let last = segments.last else { return .zero }
        return last.start + last.duration
    }
}

/// One media segment and the tags that apply to it.
public struct MediaSegment: Sendable, Equatable {
    /// The URI as written (relative to the playlist).
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
    /// The `EXT-X-KEY` METHOD in force, or nil when the segment is not encrypted.
    public let keyMethod: String?
    public let isGap: Bool
    /// The line of the segment's `EXTINF`.
    public let line: Int?

    /// The `EXT-X-MAP` of a segment.
    public struct Initialization: Sendable, Equatable, Hashable {
        public let uri: String
        public let byteRange: ByteRange?
    }
}

/// A byte range, `<length>[@<offset>]` (RFC 8216bis §4.4.4.2).
public struct ByteRange: Sendable, Equatable, Hashable {
    public let length: Int
    public let offset: Int?

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
