/// A setting of the API, as the library's messages name it (`PackageRequest.allowEmpty`).
///
/// The library speaks its own language; a message keeps the settings it names apart from its
/// text (``MessageText``), and a front end shows each as it spells it (the command line as its
/// option).
public enum Setting: String, CaseIterable, Sendable {
    case output = "PackageRequest.output"
    case allowEmpty = "PackageRequest.allowEmpty"
    case preferredLanguage = "PackageRequest.preferredLanguage"
    case subtitleGroup = "PackageRequest.subtitleGroup"
    case encryptSubtitles = "PackageRequest.encryptSubtitles"
    case textFormat = "PackageRequest.textFormat"
    case segmentNames = "PackageRequest.segmentNames"
    case renditionFolder = "PackageRequest.renditionFolder"
    case closedCaptionsNone = "ClosedCaptionsRequest.none"
    case closedCaptionsInBand = "ClosedCaptionsRequest.inBand"
    case strict = "PackageRequest.strict"
    case replace = "PackageRequest.replace"
    case retimeExisting = "PackageRequest.retimeExisting"
    case forceRemoval = "PackageRequest.forceRemoval"
    case removals = "PackageRequest.removals"
    case playlistLimit = "ReadLimits.playlist"
    case subtitleLimit = "ReadLimits.subtitle"
    case segmentLimit = "ReadLimits.segment"
    case follow = "LiveFollower.follow"
    case captionService = "CaptionServiceSettings.services"
    case captionLanguage = "CaptionServiceSettings.defaultLanguage"
    case checkSync = "SyncMode.check"
    case fixSync = "SyncMode.fix"

    /// The limit of `kind`'s files.
    public static func limit(_ kind: ResourceKind) -> Setting {
        switch kind {
        case .playlist: return .playlistLimit
        case .subtitle: return .subtitleLimit
        case .segment: return .segmentLimit
        }
    }
}
