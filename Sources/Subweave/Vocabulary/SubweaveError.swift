import Containers
import HLS
import Timebase

/// Why packaging stopped.
///
/// Every case names the file (or descriptor), where in it, and what is
/// wrong; nothing in the HLS directory has changed when one is thrown.
public enum SubweaveError: ExplainedError {
    /// Descriptor problems, all of them, found before any file was read.
    case registration([RegistrationError])
    /// A playlist could not be read or parsed.
    case playlist(HLSError)
    /// A media segment's timeline could not be read.
    case media(file: String, ContainerError)
    /// A subtitle source could not be fetched or yielded nothing usable.
    case load(LoadFailure)
    /// A file could not be read or written.
    case io(path: String, reason: MessageText)
    /// The media is encrypted, so what Subweave needs of it cannot be read.
    case encrypted(EncryptedSegment)
    /// Two renditions of a group would have the same NAME (RFC 8216bis §4.4.6.1).
    case nameClash(NameClash)
    /// No track was given, the video's reference variant (named) carries no captions, and no
    /// earlier rendition was to be refreshed or removed.
    case nothingToPackage(reference: String, unpublishedCaptions: [String])
    /// The master changed between reading it and writing the new one.
    case masterChanged(path: String)
    /// What to remove matches nothing, or matches what only force may remove.
    case removal(RemovalProblem)
    /// A track would be written with no cue (allowed with `allowEmpty`).
    case emptyTrack(EmptyTrack)
    /// A strict run had warnings; nothing was written.
    case strict([PackageWarning])
    /// A program Subweave runs for part of the work (ffmpeg, to decode sound) was not found.
    case missingTool(name: String, purpose: String)

    /// A stable, machine-readable name for the case (`registration`, `playlist`, …).
    public var code: String {
        switch self {
        case .registration: return "registration"
        case .playlist: return "playlist"
        case .media: return "media"
        case .load(let failure): return failure.code.rawValue
        case .io: return "io"
        case .encrypted: return "encrypted"
        case .nameClash: return "name_clash"
        case .nothingToPackage: return "nothing_to_package"
        case .masterChanged: return "master_changed"
        case .removal: return "removal"
        case .emptyTrack: return "empty_track"
        case .strict: return "strict"
        case .missingTool: return "missing_tool"
        }
    }

    public var codeName: String { code }

    /// Where: the file or path the case names; empty for problems of the whole request (the
    /// description says them in full).
    public var context: String {
        switch self {
        case .io(let path, _), .masterChanged(let path): return path
        case .media(let file, _): return file
        default: return ""
        }
    }

    /// What is wrong: the description without ``context``.
    public var explanation: String {
        switch self {
        case .io(_, let reason): return reason.description
        case .media(_, let error): return error.description
        case .masterChanged:
            return "the master changed after it was read (another tool wrote it); nothing was written. Plan again from the master as it now stands"
        default: return description
        }
    }

    public var description: String { message.description }

    /// The description as words and the settings it names, for a front end to spell
    /// (``MessageText/rendered(_:)``); text from files is never rewritten.
    public var message: MessageText {
        switch self {
        case .io(let path, let reason): return "\(path): \(reason)"
        case .load(let failure): return failure.message
        case .removal(let problem): return problem.message
        case .emptyTrack(let track): return track.message
        case .strict(let warnings):
            var message: MessageText = "\(Setting.strict): \(warnings.count) warning\(warnings.count == 1 ? "" : "s"), so nothing was written:"
            for warning in warnings { message = message + "\n  - \(warning.message)" }
            return message
        default: return MessageText(plainDescription)
        }
    }

    /// The description of the cases that name no setting.
    private var plainDescription: String {
        switch self {
        case .registration(let errors):
            let lines = errors.map { "  - \($0)" }.joined(separator: "\n")
            return "\(errors.count) problem\(errors.count == 1 ? "" : "s") with the subtitle tracks (nothing was read or written):\n\(lines)"
        case .playlist(let error): return error.description
        case .media, .io, .masterChanged: return explainedDescription
        case .load(let failure): return failure.description
        case .encrypted(let segment): return segment.message
        case .nameClash(let clash): return clash.message
        case .nothingToPackage(let reference, let unpublished):
            let captions =
                unpublished.isEmpty
                ? "no CEA-608 or CEA-708 captions were found in \(reference)"
                : "the captions \(reference) carries (\(unpublished.joined(separator: ", "))) are not to be published (captions off, or publish=no)"
            return "nothing to package: no subtitle track was given, \(captions), and no earlier rendition was to be refreshed or removed"
        case .removal(let problem): return problem.message.description
        case .emptyTrack(let track): return track.message.description
        case .strict: return message.description
        case .missingTool(let name, let purpose):
            return "\(name) is needed to \(purpose), and none was found: install it (apt-get install \(name)) or name it in SUBWEAVE_FFMPEG"
        }
    }
}

/// A descriptor problem, decided from the descriptor alone.
public struct RegistrationError: ExplainedError, Equatable {
    public enum Code: String, Sendable {
        case emptySourceID = "empty_source_id"
        case duplicateSourceID = "duplicate_source_id"
        case emptyLabel = "empty_label"
        case malformedURL = "malformed_url"
        case unsupportedScheme = "unsupported_scheme"
        case indeterminateFormat = "indeterminate_format"
        case invalidLanguage = "invalid_language"
        case invalidValue = "invalid_value"
        case unknownKey = "unknown_key"
        case unsafeText = "unsafe_text"
    }

    public let code: Code
    /// Which descriptor, as its origin names it (`#2`, `tracks.json[1]`).
    public let descriptor: String
    /// What is wrong and how to fix it.
    public let explanation: String

    /// A problem of `code` with the descriptor `descriptor`, explained.
    public init(_ code: Code, descriptor: String, _ explanation: String) {
        self.code = code
        self.descriptor = descriptor
        self.explanation = explanation
    }

    public var codeName: String { code.rawValue }
    public var context: String { descriptor }
    public var description: String { explainedDescription }
}

/// A subtitle source that could not be used.
public struct LoadFailure: ExplainedError, Equatable {
    public enum Code: String, Sendable {
        case unreachable
        case noCues = "no_cues"
        case notSubtitles = "not_subtitles"
    }

    public let code: Code
    public let sourceID: String
    public let location: String
    /// What is wrong, and the settings it names.
    public let reason: MessageText

    /// A failure of `code` for track `sourceID` read from `location`, explained.
    public init(_ code: Code, sourceID: String, location: String, _ reason: MessageText) {
        self.code = code
        self.sourceID = sourceID
        self.location = location
        self.reason = reason
    }

    public var codeName: String { code.rawValue }
    public var context: String { "\(location) (track \"\(sourceID)\")" }
    public var explanation: String { reason.description }
    public var description: String { explainedDescription }
    /// The description with the settings it names, for a front end to spell.
    public var message: MessageText { "\(context): \(reason)" }
}
