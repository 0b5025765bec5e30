import Containers
import HLS

/// Why packaging stopped.
///
/// Every case names the file (or descriptor), where in it, and what is
/// wrong; nothing in the HLS directory has changed when one is thrown.
public enum SubweaveError: Error, Sendable, CustomStringConvertible {
    /// Descriptor problems, all of them, found before any file was read.
    case registration([RegistrationError])
    /// A playlist could not be read or parsed.
    case playlist(HLSError)
    /// A media segment's timeline could not be read.
    case media(file: String, ContainerError)
    /// A subtitle source could not be fetched or yielded nothing usable.
    case load(LoadFailure)
    /// A file could not be read or written.
    case io(path: String, reason: String)
    /// The media is encrypted, so its timestamps cannot be read.
    case encrypted(String)
    /// Two renditions of a group would have the same NAME (RFC 8216bis §4.4.6.1).
    case nameClash(String)
    /// No track was given and the video carries no captions.
    case nothingToPackage(String)
    /// The master changed between reading it and writing the new one.
    case masterChanged(path: String)
    /// What to remove matches nothing, or matches what only force may remove.
    case removal(String)
    /// A track would be written with no cue (allowed with `allowEmpty`).
    case emptyTrack(String)
    /// A strict run had warnings; nothing was written.
    case strict([PackageWarning])

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
        }
    }

    public var description: String {
        switch self {
        case .registration(let errors):
            let lines = errors.map { "  - \($0)" }.joined(separator: "\n")
            return "\(errors.count) problem\(errors.count == 1 ? "" : "s") with the subtitle tracks (nothing was read or written):\n\(lines)"
        case .playlist(let error): return error.description
        case .media(let file, let error): return "\(file): \(error.description)"
        case .load(let failure): return failure.description
        case .io(let path, let reason): return "\(path): \(reason)"
        case .encrypted(let message), .nameClash(let message), .nothingToPackage(let message), .removal(let message), .emptyTrack(let message):
            return message
        case .strict(let warnings):
            let lines = warnings.map { "  - \($0.message)" }.joined(separator: "\n")
            return "--strict: \(warnings.count) warning\(warnings.count == 1 ? "" : "s"), so nothing was written:\n\(lines)"
        case .masterChanged(let path):
            return "\(path): the master changed after it was read (another tool wrote it); nothing was written. Plan again from the master as it now stands"
        }
    }
}

/// A descriptor problem, decided from the descriptor alone.
public struct RegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
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
        case nameCollision = "name_collision"
    }

    public let code: Code
    /// Which descriptor: `--subtitle #2` or `tracks.json[1]`.
    public let descriptor: String
    /// What is wrong and how to fix it.
    public let explanation: String

    /// A problem of `code` with the descriptor `descriptor` (`--subtitle #2`), explained.
    public init(_ code: Code, descriptor: String, _ explanation: String) {
        self.code = code
        self.descriptor = descriptor
        self.explanation = explanation
    }

    public var description: String { "\(descriptor): \(explanation)" }
}

/// A subtitle source that could not be used.
public struct LoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case unreachable
        case noCues = "no_cues"
        case notSubtitles = "not_subtitles"
    }

    public let code: Code
    public let sourceID: String
    public let location: String
    public let explanation: String

    /// A failure of `code` for track `sourceID` read from `location`, explained.
    public init(_ code: Code, sourceID: String, location: String, _ explanation: String) {
        self.code = code
        self.sourceID = sourceID
        self.location = location
        self.explanation = explanation
    }

    public var description: String { "\(location) (track \"\(sourceID)\"): \(explanation)" }
}
