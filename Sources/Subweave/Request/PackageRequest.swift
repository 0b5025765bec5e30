import Foundation
import Timebase

/// Whether the video's in-band captions become subtitle renditions.
public enum CaptionMode: String, Sendable {
    /// Scan the video for CEA-608 and package each service found as a subtitle rendition.
    case auto
    /// Leave in-band captions alone.
    case off
}

/// What the caller asks for `CLOSED-CAPTIONS` on the variants.
public enum ClosedCaptionsRequest: String, Sendable, Equatable, CaseIterable {
    /// `CLOSED-CAPTIONS=NONE` everywhere, unless the master already declares caption groups its
    /// variants use, which are kept (with a warning).
    case automatic = "auto"
    /// Remove caption groups; `NONE` everywhere.
    case none
    /// Declare the CEA-608 services the video carries (found by scanning it); `NONE` without any.
    case inBand = "in-band"
}

/// What to package into a presentation.
public struct PackageRequest: Sendable {
    /// The side-loaded tracks.
    public var tracks: [SubtitleTrack]
    /// The language whose rendition becomes the group's only DEFAULT=YES.
    ///
    /// `und` says there is none; nil leaves what was said earlier (``TitleIntent``).
    public var preferredLanguage: LanguageTag?
    /// The GROUP-ID of the SUBTITLES group to make (default `subs`, or `subs-2`… if taken).
    ///
    /// nil leaves what was said earlier (``TitleIntent``). A master whose variants already name
    /// another SUBTITLES group is refused (``GroupConflict``): Subweave never renames a group.
    public var subtitleGroup: String?
    /// The key file to encrypt subtitle segments with (AES-128 under the video's `EXT-X-KEY`).
    ///
    /// The key is read from this local file (``ContentKey``); `none` stops; nil leaves what was
    /// said earlier. The video must be AES-128 encrypted under one key.
    public var encryptSubtitles: String?
    /// The format renditions are written in; nil leaves what was said earlier (WebVTT when
    /// nothing was).
    public var textFormat: SubtitleTextFormat?
    /// How segment files are named (``SegmentNameTemplate``); nil leaves what was said earlier.
    public var segmentNames: SegmentNameTemplate?
    /// Where side-loaded tracks' rendition folders go (``RenditionFolderTemplate``); nil leaves
    /// what was said earlier.
    public var renditionFolder: RenditionFolderTemplate?
    /// Where to write the new master (a file URL); nil rewrites the master in place.
    ///
    /// Renditions go beside it; its relative URIs are rewritten to resolve from there.
    public var output: URL?
    /// What to declare in `CLOSED-CAPTIONS`; nil leaves what was said earlier (by default
    /// ``ClosedCaptionsRequest/automatic``).
    public var closedCaptions: ClosedCaptionsRequest?
    /// Whether in-band CEA-608 captions become subtitle renditions; nil leaves what was said
    /// earlier (by default ``CaptionMode/auto``).
    public var captions: CaptionMode?
    /// Whether decoded captions keep where they were put on screen.
    ///
    /// True: 608 rows and columns and 708 window anchors as WebVTT `line:`/`position:`/`align:`;
    /// false writes them without placement, where players put every cue at the bottom. Nil
    /// leaves what was said earlier (by default true).
    public var captionPlacement: Bool?
    /// What the operator says of each caption service (language, name, whether to publish):
    /// added to what was said earlier, a key at a time.
    public var captionServices = CaptionServiceSettings()
    /// Whether each side-loaded track is checked against the programme's speech before it is
    /// published (``Presentation/checkSync(_:)``), and fixed when it is off.
    public var sync = SyncMode.off
    /// The request is the whole set of side-loaded tracks: every rendition an earlier run
    /// created that this run does not write again is removed.
    public var replace = false
    /// Segment again every rendition an earlier run created that this run does not write again.
    ///
    /// Read from the cues kept beside it, against the video as it is now. On by default: after a
    /// re-encode, renditions not named again must not keep the old timeline.
    public var refreshExisting = true
    /// Renditions to take out (`subweave remove`).
    public var removals: [RemovalSelector] = []
    /// Let removals take out renditions Subweave did not create (their lines; files stay).
    public var forceRemoval = false
    /// Write other tools' subtitle renditions that have no `X-TIMESTAMP-MAP` again, with one
    /// (they then play in sync in every player).
    public var retimeExisting = false
    /// Write a track that ends with no cue instead of failing.
    public var allowEmpty = false
    /// Fail on any warning, writing nothing.
    public var strict = false
    /// Relative URIs of the master resolve against this URL in the new master.
    public var baseURL: URL?

    /// A request for `tracks` and how to declare them; see each property.
    public init(
        tracks: [SubtitleTrack], preferredLanguage: LanguageTag? = nil, output: URL? = nil,
        closedCaptions: ClosedCaptionsRequest? = nil, captions: CaptionMode? = nil
    ) {
        self.tracks = tracks
        self.preferredLanguage = preferredLanguage
        self.output = output
        self.closedCaptions = closedCaptions
        self.captions = captions
    }
}

/// What `package` does about the sync of side-loaded tracks.
public enum SyncMode: String, Sendable {
    /// Nothing: times are as the descriptors say.
    case off
    /// Each track is checked against the programme's speech; one off by more than
    /// ``SyncCheck/tolerance``, or that fits no part of it, is a warning. Times are not changed.
    case check
    /// As `check`, and a track found off is retimed as the check suggests (the report says so).
    case fix
}
