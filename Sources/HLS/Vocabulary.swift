/// The tag names Subweave reads or writes (RFC 8216bis §4.4), in one place.
public enum TagName {
    public static let header = "#EXTM3U"
    public static let version = "#EXT-X-VERSION"
    public static let define = "#EXT-X-DEFINE"
    public static let media = "#EXT-X-MEDIA"
    public static let streamInf = "#EXT-X-STREAM-INF"
    public static let iFrameStreamInf = "#EXT-X-I-FRAME-STREAM-INF"
    public static let targetDuration = "#EXT-X-TARGETDURATION"
    public static let mediaSequence = "#EXT-X-MEDIA-SEQUENCE"
    public static let discontinuitySequence = "#EXT-X-DISCONTINUITY-SEQUENCE"
    public static let playlistType = "#EXT-X-PLAYLIST-TYPE"
    public static let endList = "#EXT-X-ENDLIST"
    public static let discontinuity = "#EXT-X-DISCONTINUITY"
    public static let gap = "#EXT-X-GAP"
    public static let programDateTime = "#EXT-X-PROGRAM-DATE-TIME"
    public static let inf = "#EXTINF"
    public static let byteRange = "#EXT-X-BYTERANGE"
    public static let map = "#EXT-X-MAP"
    public static let key = "#EXT-X-KEY"
    public static let partInf = "#EXT-X-PART-INF"
    public static let part = "#EXT-X-PART"
    public static let preloadHint = "#EXT-X-PRELOAD-HINT"
    public static let serverControl = "#EXT-X-SERVER-CONTROL"
}

/// `EXT-X-MEDIA` TYPE (§4.4.6.1), an enumerated-string.
public enum MediaType: String, Sendable, CaseIterable {
    case audio = "AUDIO"
    case video = "VIDEO"
    case subtitles = "SUBTITLES"
    case closedCaptions = "CLOSED-CAPTIONS"

    /// The attribute of `EXT-X-STREAM-INF` that names a group of this type.
    public var streamInfAttribute: String { rawValue }
}

/// `EXT-X-PLAYLIST-TYPE` (§4.4.3.5).
public enum PlaylistType: String, Sendable, CaseIterable {
    case vod = "VOD"
    case event = "EVENT"
}

/// `EXT-X-KEY` METHOD (§4.4.4.4).
public enum EncryptionMethod: Sendable, Equatable {
    case aes128
    case sampleAES
    case sampleAESCTR
    /// A method this version does not know, as written.
    case other(String)

    /// The method `METHOD=text` names; nil for `NONE`.
    public init?(_ text: String) {
        switch text {
        case "NONE": return nil
        case "AES-128": self = .aes128
        case "SAMPLE-AES": self = .sampleAES
        case "SAMPLE-AES-CTR": self = .sampleAESCTR
        default: self = .other(text)
        }
    }

    /// True when whole segments are encrypted, so their timestamps cannot be read without the key.
    public var hidesTimestamps: Bool {
        switch self {
        case .sampleAES, .sampleAESCTR: return false
        case .aes128, .other: return true
        }
    }

    public var text: String {
        switch self {
        case .aes128: return "AES-128"
        case .sampleAES: return "SAMPLE-AES"
        case .sampleAESCTR: return "SAMPLE-AES-CTR"
        case .other(let text): return text
        }
    }
}

/// The enumerated-string `YES` / `NO` of DEFAULT, AUTOSELECT and FORCED (§4.4.6.1).
public enum YesNo: String, Sendable {
    case yes = "YES"
    case no = "NO"

    /// `YES` for true, `NO` for false.
    public init(_ flag: Bool) { self = flag ? .yes : .no }

    /// As an attribute value.
    public var value: AttributeValue { .enumerated(rawValue) }
}
