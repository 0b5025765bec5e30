import Containers
import Foundation
import HLS
import Platform
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
    /// A file or URL could not be read: its path, what it is to the run (`media segment 3`, `the
    /// intent record`; may be empty) and why.
    case unreadable(path: String, what: String, ReadFailure)
    /// A file-system operation failed, or found the wrong thing in place: the path, the
    /// operation and its errno.
    case fileSystem(FileProblem)
    /// The run would write the master where it cannot: a URL, with no local output given
    /// (`following`: a live follow, which always writes a local master).
    case outputNeeded(master: String, following: Bool)
    /// The intent record beside the master does not parse (the decoder's account).
    case intentRecord(path: String, decoding: String)
    /// The programme's sound could not be had to check subtitles against.
    case sound(path: String, SoundProblem)
    /// The media is encrypted, so what Subweave needs of it cannot be read.
    case encrypted(EncryptedSegment)
    /// Two renditions of a group would have the same NAME (RFC 8216bis §4.4.6.1).
    case nameClash(NameClash)
    /// Two renditions the run would write to one folder, or one inside another's.
    case folderClash(FolderClash)
    /// The SUBTITLES group asked for cannot be used.
    case groupConflict(GroupConflict)
    /// A title key (the file named) that cannot be read or used.
    case key(path: String, KeyProblem)
    /// Two settings the run cannot carry out together (said in full).
    case unsupported(MessageText)
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
        case .unreadable: return "unreadable"
        case .fileSystem: return "file_system"
        case .outputNeeded: return "output_needed"
        case .intentRecord: return "intent_record"
        case .sound: return "sound"
        case .encrypted: return "encrypted"
        case .nameClash: return "name_clash"
        case .folderClash: return "folder_clash"
        case .groupConflict: return "group_conflict"
        case .key: return "key"
        case .unsupported: return "unsupported"
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
        case .unreadable(let path, _, _), .masterChanged(let path), .outputNeeded(let path, _), .intentRecord(let path, _), .sound(let path, _):
            return path
        case .fileSystem(let problem): return problem.path
        case .media(let file, _): return file
        case .key(let path, _): return path
        default: return ""
        }
    }

    /// What is wrong: the description without ``context``.
    public var explanation: String {
        switch self {
        case .unreadable(_, let what, let failure): return what.isEmpty ? failure.explanation : "\(what) \(failure.explanation)"
        case .fileSystem(let problem): return problem.explanation
        case .outputNeeded: return outputNeededMessage.description
        case .intentRecord(_, let decoding):
            return
                "is not an intent record Subweave can read (\(decoding)); it keeps what the operator said of this title: fix it or remove it (then earlier settings are inferred from the renditions)"
        case .sound(_, let problem): return problem.explanation
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
        case .outputNeeded(let master, _): return "\(master): " + outputNeededMessage
        case .unreadable(let path, let what, let failure):
            return what.isEmpty ? "\(path): \(failure.message)" : "\(path): \(what) \(failure.message)"
        case .load(let failure): return failure.message
        case .removal(let problem): return problem.message
        case .emptyTrack(let track): return track.message
        case .groupConflict(let conflict): return conflict.message
        case .folderClash(let clash): return clash.message
        case .key(let path, let problem): return "\(path): " + problem.explanation
        case .unsupported(let message): return message
        case .strict(let warnings):
            var message: MessageText = "\(Setting.strict): \(warnings.count) warning\(warnings.count == 1 ? "" : "s"), so nothing was written:"
            for warning in warnings { message = message + "\n  - \(warning.message)" }
            return message
        default: return MessageText(plainDescription)
        }
    }

    /// What ``outputNeeded(master:following:)`` says after the master's name.
    private var outputNeededMessage: MessageText {
        guard case .outputNeeded(_, let following) = self else { return "" }
        if following { return "\(Setting.follow) writes a local master; give \(Setting.output)" }
        return "the master is not a local file; give an output path (\(Setting.output)) to write the new master to"
    }

    /// The description of the cases that name no setting.
    private var plainDescription: String {
        switch self {
        case .registration(let errors):
            let lines = errors.map { "  - \($0)" }.joined(separator: "\n")
            return "\(errors.count) problem\(errors.count == 1 ? "" : "s") with the subtitle tracks (nothing was read or written):\n\(lines)"
        case .playlist(let error): return error.description
        case .media, .unreadable, .fileSystem, .intentRecord, .sound, .masterChanged: return explainedDescription
        case .outputNeeded: return message.description
        case .load(let failure): return failure.description
        case .encrypted(let segment): return segment.message
        case .nameClash(let clash): return clash.message
        case .groupConflict, .key, .unsupported, .folderClash: return message.description
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
            let package = name == "tesseract" ? "tesseract-ocr" : name
            return "\(name) is needed to \(purpose), and none was found: install it (apt-get install \(package)) or name it in SUBWEAVE_\(name.uppercased())"
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

/// A file-system operation that failed, or found the wrong thing in place.
public struct FileProblem: Sendable, Equatable {
    /// The path the operation was on.
    public let path: String
    /// What failed or was found, as the message says it: "cannot create the file", "is a folder; …".
    public let operation: String
    /// The errno the failing call set, when one says why.
    public let errno: Int32?

    public init(path: String, operation: String, errno: Int32? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// What failed and why: "cannot create the file (errno 13: Permission denied)", as
    /// Platform's ``FileFailure`` says it.
    public var explanation: String { FileFailure(path, operation, errno: errno).explanation }
}

/// Why the programme's sound could not be had.
public enum SoundProblem: Sendable, Equatable {
    /// The playlist `name` decodes to no sound at all.
    case none(name: String)
    /// The sound of `name` begins further from the first video frame than the programme lasts.
    case outsideTheProgramme(name: String, lead: Double, duration: Double)
    /// ffmpeg could not be started.
    case cannotStart(ffmpeg: String, reason: String)
    /// ffmpeg took no input and gave no sound for `seconds`; it was stopped.
    case stalled(ffmpeg: String, name: String, seconds: Double)
    /// ffmpeg ended with `status`, saying `said`.
    case decoderFailed(name: String, status: Int32, said: String)

    /// What went wrong, said of the path the error names.
    public var explanation: String {
        switch self {
        case .none(let name): return "\(name) holds no sound to check the subtitles against"
        case .outsideTheProgramme(let name, let lead, let duration):
            return
                "the sound of \(name) begins \(abs(lead).decimalSeconds) s \(lead > 0 ? "after" : "before") the first video frame, further than the programme is long (\(duration.decimalSeconds) s): there is no sound to check the subtitles against"
        case .cannotStart(let ffmpeg, let reason): return "\(ffmpeg) could not be started: \(reason)"
        case .stalled(let ffmpeg, let name, let seconds):
            return "ffmpeg (\(ffmpeg)) took no input and gave no sound for \(seconds.decimalSeconds) s while decoding \(name); it was stopped"
        case .decoderFailed(let name, let status, let said):
            return "ffmpeg could not decode \(name) (exit \(status))\(said.isEmpty ? "" : ": \(LabelText.excerpt(said))")"
        }
    }
}

extension Result where Failure == SubweaveError {
    /// The value `body` returns, or the error it throws: for work whose failure is thrown later,
    /// where its result is used (a read started ahead, a look on another core).
    static func capturing(_ body: () async throws(SubweaveError) -> Success) async -> Result {
        do throws(SubweaveError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
