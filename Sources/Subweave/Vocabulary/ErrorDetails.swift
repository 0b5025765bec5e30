/// What an error names, typed, so a caller can act on it without reading its message.

/// A segment Subweave must read but cannot: it is encrypted.
public struct EncryptedSegment: Sendable, Equatable {
    /// Which segment: `segment 3 (line 12 of prog.m3u8)`.
    public let place: String
    /// The `EXT-X-KEY` METHOD, when the playlist says.
    public let method: String?
    /// What it was read for.
    public let purpose: Purpose

    public enum Purpose: Sendable, Equatable {
        /// The media timeline (the video's timestamps).
        case timestamps
        /// Retiming another tool's subtitle rendition.
        case retiming
    }

    public init(place: String, method: String?, purpose: Purpose) {
        self.place = place
        self.method = method
        self.purpose = purpose
    }

    var message: String {
        let key = method.map { " (EXT-X-KEY METHOD=\($0))" } ?? ""
        switch purpose {
        case .timestamps:
            return
                "\(place) is encrypted\(key); Subweave cannot read its timestamps without the key. Give the title's key file (an AES-128 title's subtitles are then encrypted with it), package before encryption, or from the clear media"
        case .retiming:
            return "\(place): the subtitle segment is encrypted\(key); it cannot be retimed"
        }
    }
}

/// Why the SUBTITLES group asked for (``PackageRequest/subtitleGroup``) cannot be the one the
/// renditions join.
public struct GroupConflict: Sendable, Equatable {
    /// What stands in the way.
    public enum Reason: Sendable, Equatable {
        /// The variants already name these SUBTITLES groups (a variant names one; Subweave does not rename a group).
        case variantsName([String])
        /// A group of another TYPE has the ID.
        case otherType(String)
        /// The ID cannot be written as a quoted-string: empty, or holding this character.
        case unusable(String)
    }

    public let asked: String
    public let reason: Reason

    public init(asked: String, reason: Reason) {
        self.asked = asked
        self.reason = reason
    }

    var message: MessageText {
        let id = LabelText.excerpt(asked)
        switch reason {
        case .variantsName(let groups):
            let named = groups.map { "\"\(LabelText.excerpt($0))\"" }.joined(separator: ", ")
            return
                "\(Setting.subtitleGroup) \"\(id)\": the variants already name SUBTITLES group \(named), and Subweave does not rename a group (a variant names one SUBTITLES group, RFC 8216bis §4.4.6.2); leave the setting out, or take the group's renditions out first"
        case .otherType(let type):
            return "\(Setting.subtitleGroup) \"\(id)\": GROUP-ID \"\(id)\" is already a group of TYPE=\(type) renditions; choose another"
        case .unusable(let what):
            return "\(Setting.subtitleGroup) \"\(id)\" cannot be a GROUP-ID: \(what)"
        }
    }

    /// Why `text` cannot be a GROUP-ID (a quoted-string, RFC 8216bis §4.2, shown in no menu but
    /// kept to printable text), or nil.
    public static func unusable(_ text: String) -> String? {
        if text.isEmpty { return "it is empty" }
        if let bad = text.unicodeScalars.first(where: { LabelText.isRefused($0) || $0 == "\"" }) {
            return "it contains \(LabelText.describe(bad))"
        }
        if text.utf8.count > 200 { return "it is longer than 200 bytes" }
        return nil
    }
}

/// Two renditions of one group that would have the same NAME (RFC 8216bis §4.4.6.1).
public struct NameClash: Sendable, Equatable {
    public let name: String
    /// Where each comes from: a descriptor's origin, or the master's line.
    public let first: String
    public let second: String

    public init(name: String, first: String, second: String) {
        self.name = name
        self.first = first
        self.second = second
    }

    var message: String {
        "\(second) and \(first) both have NAME \"\(name)\"; NAME must be unique within a group (RFC 8216bis §4.4.6.1). Give the track another name=…"
    }
}

/// A rendition the run would write into a folder another rendition has (or would have), or
/// one inside the other's: the rendition folder template places them so.
public struct FolderClash: Sendable, Equatable {
    /// The folder the run would write, relative to the master.
    public let folder: String
    /// What would be written there (a track, an earlier rendition written again).
    public let writing: String
    /// The other rendition, and its folder.
    public let other: String
    public let otherFolder: String
    /// Whether the other rendition stays from an earlier run (else this run writes it too).
    public let otherIsKept: Bool
    /// The template the run places side-loaded tracks with.
    public let template: String

    public init(folder: String, writing: String, other: String, otherFolder: String, otherIsKept: Bool, template: String) {
        self.folder = folder
        self.writing = writing
        self.other = other
        self.otherFolder = otherFolder
        self.otherIsKept = otherIsKept
        self.template = template
    }

    var message: MessageText {
        let verb = otherIsKept ? "is" : "would be"
        let place: String
        if otherFolder == folder {
            place = "\(folder), where \(other) \(verb)"
        } else if folder.hasPrefix(otherFolder + "/") {
            place = "\(folder), inside \(otherFolder) where \(other) \(verb)"
        } else {
            place = "\(folder), around \(otherFolder) where \(other) \(verb)"
        }
        return
            "\(writing) would be written to \(place): rendition folder template \"\(template)\" (\(Setting.renditionFolder)) gives them no folders of their own, one apart from the other; nothing was written. Put {id} and {language} in the template, or remove one of them"
    }
}

/// A track that would be written with no cue on the programme's timeline.
public struct EmptyTrack: Sendable, Equatable {
    public let sourceID: String
    /// Where its cues came from.
    public let source: String
    /// Why it has none (its first warning), when known.
    public let why: String?

    public init(sourceID: String, source: String, why: String?) {
        self.sourceID = sourceID
        self.source = source
        self.why = why
    }

    /// What is said of it, written or not.
    var finding: String { "track \"\(sourceID)\" (\(source)) has no cue on the programme's timeline" + (why.map { " (\($0))" } ?? "") }

    var message: MessageText { "\(finding); nothing was written. Use \(Setting.allowEmpty) to write an empty rendition anyway" }
}

/// Why a removal cannot be done.
public enum RemovalProblem: Sendable, Equatable {
    /// The selector names a rendition this run also writes.
    case alsoWritten(selector: String, identity: String)
    /// The selector matches nothing in `master`, which declares `declared`.
    case noMatch(selector: String, master: String, declared: [String])
    /// The selector matches renditions Subweave did not create, and force was not given.
    case notSubweaves(selector: String, renditions: [String])

    var message: MessageText {
        switch self {
        case .alsoWritten(let selector, let identity):
            return "\(selector) names \(identity) that this run also writes; remove it in one run and add it in another, or use \(Setting.replace)"
        case .noMatch(let selector, let master, let declared):
            return MessageText(
                "\(selector) matches no subtitle rendition of \(master)"
                    + (declared.isEmpty ? "; it declares none" : "; it declares: \(declared.joined(separator: ", "))"))
        case .notSubweaves(let selector, let renditions):
            return
                "\(selector) matches \(renditions.joined(separator: ", ")), which Subweave did not create; use \(Setting.forceRemoval) to take its line out of the master (its files are left where they are)"
        }
    }
}

/// What is wrong with a key, or with encrypting under it.
public enum KeyProblem: Sendable, Equatable {
    /// The file holds neither 16 bytes nor 32 hexadecimal digits.
    case notAKey(bytes: Int)
    /// Decrypting with it gives no valid padding.
    case doesNotDecrypt(place: String)
    /// The reference variant is not encrypted.
    case videoNotEncrypted(playlist: String)
    /// The reference variant's segments use another METHOD (SAMPLE-AES).
    case method(playlist: String, method: String)
    /// The reference variant uses several keys.
    case rotation(playlist: String, keys: Int)
    /// The key is not the 16 bytes at URI (KEYFORMAT), or there is no URI.
    case keyFormat(playlist: String, format: String)
    /// Encrypted cues kept beside a rendition, and no key given.
    case keyNeeded(what: String)
    /// A followed (live) title: its subtitles are not encrypted yet.
    case notFollowed
}

extension KeyProblem {
    var explanation: MessageText {
        switch self {
        case .notAKey(let count):
            return
                "is not an AES-128 key: expected the 16 bytes served at the key URI, or them as 32 hexadecimal digits; found \(count) byte\(count == 1 ? "" : "s")"
        case .doesNotDecrypt(let place):
            return "does not decrypt \(place): it is not the key of the video's EXT-X-KEY (or the segment is damaged)"
        case .videoNotEncrypted(let playlist):
            return
                "\(Setting.encryptSubtitles): the video (\(playlist)) is not encrypted, so there is no key to encrypt subtitles under; leave the setting out (or say none)"
        case .method(let playlist, let method):
            return
                "\(Setting.encryptSubtitles): the video (\(playlist)) is encrypted with METHOD=\(method); subtitle segments can only be encrypted as whole segments (METHOD=AES-128), under an AES-128 key"
        case .rotation(let playlist, let keys):
            return
                "\(Setting.encryptSubtitles): the video (\(playlist)) changes keys (\(keys) EXT-X-KEY URIs); one key file cannot encrypt subtitles under each"
        case .keyFormat(let playlist, let format):
            return "\(Setting.encryptSubtitles): the video's key (\(playlist)) is \(format), not the 16 bytes at its URI (KEYFORMAT identity)"
        case .notFollowed:
            return
                "\(Setting.follow) does not encrypt subtitles; the title's intent says they are encrypted (\(Setting.encryptSubtitles)), so it is not followed"
        case .keyNeeded(let what):
            return "\(what) is encrypted; give the title's key file (\(Setting.encryptSubtitles)) to read it"
        }
    }
}
