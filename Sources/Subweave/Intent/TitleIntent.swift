import Foundation
import HLS
import Timebase

/// What the operator said of a title, kept beside its master so that every later command starts
/// from it: `.<master name>.subweave.json`, schema `subweave.intent/1`.
///
/// A setting that is absent was never said (its default applies); one that is present was said
/// by some command and holds until a command says otherwise. `package` (and every pass of
/// `--follow`, and each title of `batch`), `refresh` and `remove` read it, change only what the
/// command names (``applying(_:)``), say what changed, and write it before the master (a kill
/// between the two leaves the newer intent, which the next run carries out).
///
/// ```json
/// {"schema": "subweave.intent/1", "preferred_language": "en", "closed_captions": "auto",
///  "caption_services": {"CC1": {"language": "en", "name": "English CC"}, "CC3": {"publish": false}},
///  "tracks": [{"identity": "external:en:en", "url": "/work/subs/en.srt", "language": "en"}]}
/// ```
public struct TitleIntent: Sendable, Equatable, Codable {
    public var schema = "subweave.intent/1"
    /// The side-loaded tracks, as their descriptors said them, by identity.
    public var tracks: [Track] = []
    /// The language whose rendition is DEFAULT; `und` when the operator said none.
    public var preferredLanguage: String?
    /// The GROUP-ID of the SUBTITLES group Subweave makes (nil: `subs`).
    public var subtitleGroup: String?
    /// The key file subtitle segments are encrypted with, or `none`.
    public var encryptSubtitles: String?
    /// The format renditions are written in (`webvtt`, `imsc1`).
    public var textFormat: String?
    /// The segment name template (``SegmentNameTemplate``).
    public var segmentNames: String?
    /// The rendition folder template (``RenditionFolderTemplate``).
    public var renditionFolder: String?
    /// Folder templates the title used before this one: their renditions are still recognised,
    /// replaced and retired.
    public var earlierRenditionFolders: [String]?
    /// `auto`, `none` or `in-band` (``ClosedCaptionsRequest``).
    public var closedCaptions: String?
    /// `auto` or `off` (``CaptionMode``).
    public var captions: String?
    /// Whether decoded captions keep their placement.
    public var captionPlacement: Bool?
    /// The language of caption services neither the operator nor the stream names.
    public var captionLanguage: String?
    /// What was said of each caption service.
    public var captionServices: [String: Service] = [:]
    /// What the variants' `CLOSED-CAPTIONS` attributes were before Subweave first wrote the
    /// master (an unquoted `NONE`, a group, or absent: nil), so that taking out everything it
    /// added gives them back; nil for a title first packaged before the record existed.
    public var originalClosedCaptions: [String?]?
    /// The `CLOSED-CAPTIONS` group Subweave declares in the master (its in-band services), if
    /// any: its lines are Subweave's, as `list` and `remove` say.
    public var declaredCaptionGroup: String?

    /// One side-loaded track as its descriptor said it.
    public struct Track: Sendable, Equatable, Codable {
        public var identity: String
        public var id: String
        public var url: String
        public var language: String
        public var name: String?
        public var format: String?
        public var encoding: String?
        public var rate: String?
        public var fps: String?
        public var service: String?
        public var offset: Double?
        public var delay: Double?
        public var forced: Bool?
        public var sdh: Bool?
        /// Characteristics besides the SDH pair, as said (`generated`, `translated`, …).
        public var characteristics: [String]?
        public var isDefault: Bool?

        enum CodingKeys: String, CodingKey {
            case identity, id, url, language, name, format, encoding, rate, fps, service, offset, delay, forced, sdh, characteristics
            case isDefault = "default"
        }

        /// The track as its descriptor said it (a derived name is not said).
        init(_ track: SubtitleTrack) {
            identity = track.identity.description
            id = track.sourceID
            url = track.source.url.isFileURL ? track.source.url.path : track.source.url.absoluteString
            language = track.language.description
            name = track.labelIsDerived ? nil : track.label
            format = track.declaredFormat?.rawValue
            encoding = track.encoding?.rawValue
            rate = track.rate.isOne ? nil : track.rate.description
            fps = track.fps?.description
            service = track.service?.rawValue
            offset = track.offset == .zero ? nil : track.offset.seconds
            delay = track.delay == .zero ? nil : track.delay.seconds
            forced = track.isForced ? true : nil
            sdh = track.isSDH ? true : nil
            let others = track.characteristics.values.filter { !MediaCharacteristics.sdh.contains($0) }
            characteristics = others.isEmpty ? nil : others
            isDefault = track.isDefault ? true : nil
        }
    }

    /// What was said of one caption service; an absent key was not said.
    public struct Service: Sendable, Equatable, Codable {
        public var language: String?
        public var name: String?
        public var publish: Bool?

        public init(language: String? = nil, name: String? = nil, publish: Bool? = nil) {
            self.language = language
            self.name = name
            self.publish = publish
        }
    }

    enum CodingKeys: String, CodingKey {
        case schema, tracks, preferredLanguage = "preferred_language", subtitleGroup = "subtitle_group", encryptSubtitles = "encrypt_subtitles",
            textFormat = "text_format", segmentNames = "segment_names", renditionFolder = "rendition_folder",
            earlierRenditionFolders = "earlier_rendition_folders",
            closedCaptions = "closed_captions", captions
        case captionPlacement = "caption_placement", captionLanguage = "caption_language", captionServices = "caption_services"
        case originalClosedCaptions = "original_closed_captions"
        case declaredCaptionGroup = "declared_caption_group"
    }

    /// An intent with nothing said.
    public init() {}

    /// Decoded leniently: a key this version does not know is ignored, one it knows of the wrong
    /// type fails.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decodeIfPresent(String.self, forKey: .schema) ?? "subweave.intent/1"
        tracks = try c.decodeIfPresent([Track].self, forKey: .tracks) ?? []
        preferredLanguage = try c.decodeIfPresent(String.self, forKey: .preferredLanguage)
        subtitleGroup = try c.decodeIfPresent(String.self, forKey: .subtitleGroup)
        encryptSubtitles = try c.decodeIfPresent(String.self, forKey: .encryptSubtitles)
        textFormat = try c.decodeIfPresent(String.self, forKey: .textFormat)
        segmentNames = try c.decodeIfPresent(String.self, forKey: .segmentNames)
        renditionFolder = try c.decodeIfPresent(String.self, forKey: .renditionFolder)
        earlierRenditionFolders = try c.decodeIfPresent([String].self, forKey: .earlierRenditionFolders)
        closedCaptions = try c.decodeIfPresent(String.self, forKey: .closedCaptions)
        captions = try c.decodeIfPresent(String.self, forKey: .captions)
        captionPlacement = try c.decodeIfPresent(Bool.self, forKey: .captionPlacement)
        captionLanguage = try c.decodeIfPresent(String.self, forKey: .captionLanguage)
        captionServices = try c.decodeIfPresent([String: Service].self, forKey: .captionServices) ?? [:]
        originalClosedCaptions = try c.decodeIfPresent([String?].self, forKey: .originalClosedCaptions)
        declaredCaptionGroup = try c.decodeIfPresent(String.self, forKey: .declaredCaptionGroup)
    }

    /// The record kept beside `master` (a local file), nil when there is none.
    public static func recorded(for master: URL, loader: ResourceLoader = ResourceLoader()) throws(SubweaveError) -> TitleIntent? {
        try read(output: master, master: master, loader: loader)
    }

    /// The record's file name beside a master named `masterName`.
    public static func fileName(forMaster masterName: String) -> String { ".\(masterName).subweave.json" }

    /// The record's path beside the master at `output`.
    public static func path(beside output: URL) -> String {
        output.deletingLastPathComponent().appendingPathComponent(fileName(forMaster: output.lastPathComponent)).path
    }

    /// The bytes as written: pretty, sorted keys, a final newline (the same intent, the same bytes).
    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8))
    }
}
