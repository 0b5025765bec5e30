/// Something a run noticed and worked around, typed so a caller can act on it (``code``) and
/// worded so a person can (``message``).
public struct PackageWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What kind of thing was noticed.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// No variant carries video: the subtitles follow an audio timeline.
        case audioOnlyReference = "audio_only_reference"
        /// Variants with video start more than a frame apart.
        case variantsDisagree = "variants_disagree"
        /// The master declares in-band caption groups, which were kept.
        case captionGroupsKept = "caption_groups_kept"
        /// A variant's CLOSED-CAPTIONS=NONE was removed (it cannot stand beside a caption group).
        case closedCaptionsNoneRemoved = "closed_captions_none_removed"
        /// The master's CLOSED-CAPTIONS renditions were removed.
        case captionGroupsRemoved = "caption_groups_removed"
        /// A full track lacks some of the forced cues of the same language (Apple HLS Authoring Spec 5.8).
        case forcedCuesMissing = "forced_cues_missing"
        /// The new master is in another folder than the original.
        case outputElsewhere = "output_elsewhere"
        /// Something about one track (its ingest warnings are in the track's report).
        case track = "track"
        /// The preferred language matches no rendition of the group.
        case preferredLanguageUnmatched = "preferred_language_unmatched"
        /// A managed rendition could not be segmented again (no cues kept beside it).
        case notRefreshed = "not_refreshed"
        /// Another tool's rendition has no X-TIMESTAMP-MAP (``PackageRequest/retimeExisting`` writes it again with one).
        case noTimestampMap = "no_timestamp_map"
        /// A track was written with no cue (`allowEmpty`).
        case emptyTrack = "empty_track"
        /// A URI that could not be rewritten for the new master's folder.
        case uriNotRebased = "uri_not_rebased"
        /// The video carries line-21 caption data but no character was decoded from it.
        case captionDataWithoutText = "caption_data_without_text"
        /// A 708 service was not published: a published 608 channel carries its language.
        case captionServiceLeftOut = "caption_service_left_out"
        /// A caption rendition has no language (Apple's validator requires one).
        case captionLanguageUnknown = "caption_language_unknown"
        /// Cues of a track's source fall outside the programme and are not shown (kept for a later refresh).
        case cuesOutsideProgramme = "cues_outside_programme"
        /// Subweave skipped or assumed something about the media.
        case media = "media"
        /// A track's cues are off the programme's speech by more than the sync tolerance.
        case outOfSync = "out_of_sync"
        /// A track's cues fit no part of the programme's speech (a file for another programme?).
        case syncNoMatch = "sync_no_match"
        /// A sync check cannot tell how a track is off: several alignments fit about as well, or
        /// one fits part of the file only; nothing was changed.
        case syncUndecided = "sync_undecided"
        /// A track was retimed to fit the programme's speech.
        case syncFixed = "sync_fixed"
        /// Another tool's subtitle rendition is in a format HLS does not define for subtitles
        /// (WebVTT in fragmented MP4); it was left alone.
        case notHLSText = "not_hls_text"
        /// Something an earlier run said of the title is dropped by this one without being named
        /// (a track left out of a replacing run).
        case intentDropped = "intent_dropped"
        /// A caption rendition an earlier run published was taken out (its service is no longer
        /// published, or no longer in the video).
        case captionRenditionRemoved = "caption_rendition_removed"
        /// The variants carry different in-band captions: the reference was read in full.
        case captionVariantsDisagree = "caption_variants_disagree"
    }

    public let code: Code
    /// The words, with the settings they name kept apart (a front end spells them).
    public let message: MessageText

    /// A warning of `code` worded as `message`.
    public init(_ code: Code, _ message: MessageText) {
        self.code = code
        self.message = message
    }

    public var description: String { message.description }
}
