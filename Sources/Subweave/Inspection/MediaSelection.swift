import Foundation
import HLS
import Timebase

/// A master's renditions as AVFoundation presents them: media selection groups by characteristic
/// (audible, legible, visual), and which options a player picks at load for a viewer's locales.
///
/// The selection follows Apple's documented behaviour with the system subtitle setting on
/// "Automatic": audio in the first AUTOSELECT=YES rendition of the viewer's languages (else the
/// DEFAULT, else the first); full subtitles only when the chosen audio is not in the viewer's first
/// language and an AUTOSELECT=YES subtitle is in it (else a DEFAULT=YES subtitle, if any); and
/// with any audio, the forced subtitles in that audio's language. Forced options are not listed
/// in the subtitle menu.
public struct MediaSelectionReport: Sendable, Codable, Equatable {
    public struct Option: Sendable, Codable, Equatable {
        public var displayName: String
        public var language: String?
        public var forced: Bool
        public var characteristics: [String]
        public var isDefault: Bool
        public var autoselect: Bool
        /// `SUBTITLES`, `CLOSED-CAPTIONS`, `AUDIO`, `VIDEO`.
        public var type: String
        public var groupID: String
        public var instreamID: String?
        /// Shown in the player's menu (forced subtitles are not).
        public var listed: Bool

        enum CodingKeys: String, CodingKey {
            case displayName = "display_name", language, forced, characteristics, isDefault = "default", autoselect, type
            case groupID = "group_id", instreamID = "instream_id", listed
        }
    }

    public struct Group: Sendable, Codable, Equatable {
        /// `audible`, `legible` or `visual`.
        public var characteristic: String
        public var options: [Option]
        /// Legible groups can be turned off.
        public var allowsEmptySelection: Bool

        enum CodingKeys: String, CodingKey { case characteristic, options, allowsEmptySelection = "allows_empty_selection" }
    }

    public struct Selection: Sendable, Codable, Equatable {
        public var locales: [String]
        public var audio: String?
        public var subtitles: String?
        public var reason: String
        /// For each audio option, the forced subtitle that shows with it (or nil).
        public var forcedWithAudio: [ForcedPairing]

        enum CodingKeys: String, CodingKey { case locales, audio, subtitles, reason, forcedWithAudio = "forced_with_audio" }
    }

    public struct ForcedPairing: Sendable, Codable, Equatable {
        public var audio: String
        public var forced: String?
    }

    public var groups: [Group]
    public var selection: Selection?

    /// Builds the groups of `master` and, with `locales`, the selection at load.
    public init(master: MasterPlaylist, locales: [LanguageTag]) {
        let renditions = master.renditions
        let variant = master.variants.first
        func option(_ r: MasterPlaylist.Rendition) -> Option {
            let characteristics = r.attributes["CHARACTERISTICS"]?.unquoted.split(separator: ",").map(String.init) ?? []
            return Option(
                displayName: r.name ?? "", language: r.language, forced: r.isForced, characteristics: characteristics,
                isDefault: r.isDefault, autoselect: r.isAutoselect, type: r.type?.rawValue ?? "", groupID: r.groupID ?? "",
                instreamID: r.attributes["INSTREAM-ID"]?.unquoted, listed: !r.isForced)
        }
        // The groups the first variant uses (AVFoundation presents one group per characteristic).
        func members(_ type: MediaType) -> [Option] {
            let id = variant?.attributes[type.streamInfAttribute]?.unquoted
            return renditions.filter { $0.type == type && (id == nil || $0.groupID == id) }.map(option)
        }
        let audio = members(.audio)
        let video = members(.video)
        var legible = members(.subtitles)
        if variant?.attributes["CLOSED-CAPTIONS"]?.isQuoted == true { legible += members(.closedCaptions) }
        groups = []
        if !audio.isEmpty { groups.append(Group(characteristic: "audible", options: audio, allowsEmptySelection: false)) }
        if !legible.isEmpty { groups.append(Group(characteristic: "legible", options: legible, allowsEmptySelection: true)) }
        if !video.isEmpty { groups.append(Group(characteristic: "visual", options: video, allowsEmptySelection: false)) }
        selection = locales.isEmpty ? nil : Self.select(audio: audio, legible: legible, locales: locales)
    }

    static func tag(_ option: Option) -> LanguageTag? { option.language.flatMap(LanguageTag.init(parsing:)) }

    static func select(audio: [Option], legible: [Option], locales: [LanguageTag]) -> Selection {
        func matches(_ option: Option, _ locale: LanguageTag) -> Bool { tag(option).map { locale.match($0) != .none } ?? false }
        var chosenAudio: Option?
        for locale in locales {
            if let match = audio.first(where: { $0.autoselect && matches($0, locale) }) { chosenAudio = match; break }
        }
        chosenAudio = chosenAudio ?? audio.first(where: \.isDefault) ?? audio.first
        let full = legible.filter { !$0.forced }
        let forced = legible.filter(\.forced)
        func forcedFor(_ audio: Option?) -> Option? {
            guard let language = audio.flatMap(tag) else { return nil }
            return forced.filter { tag($0).map { language.match($0) != .none } ?? false }.sorted { $0.autoselect && !$1.autoselect }.first
        }
        let viewer = locales[0]
        let audioUnderstood = chosenAudio.map { matches($0, viewer) } ?? (audio.isEmpty)
        var subtitles: Option?
        var reason: String
        if !audioUnderstood,
            let match = full.first(where: { $0.autoselect && matches($0, viewer) && $0.characteristics.isEmpty })
                ?? full.first(where: { $0.autoselect && matches($0, viewer) })
        {
            subtitles = match
            reason = "the audio is not in \(viewer); the AUTOSELECT=YES subtitles in \(viewer) are shown"
        } else if let byDefault = full.first(where: \.isDefault) {
            subtitles = byDefault
            reason = "DEFAULT=YES subtitles are shown at load"
        } else if let f = forcedFor(chosenAudio) {
            subtitles = f
            reason = "no full subtitles are selected; the forced subtitles in the audio's language show"
        } else {
            reason =
                audioUnderstood
                ? "the audio is in the viewer's language and no subtitles are DEFAULT=YES: subtitles are off"
                : "no AUTOSELECT=YES subtitles in \(viewer) and none DEFAULT=YES: subtitles are off"
        }
        let pairings = audio.map { ForcedPairing(audio: $0.displayName, forced: forcedFor($0)?.displayName) }
        return Selection(
            locales: locales.map(\.description), audio: chosenAudio?.displayName, subtitles: subtitles?.displayName,
            reason: reason, forcedWithAudio: pairings)
    }

    /// Lines for a person.
    public var summary: String {
        var lines: [String] = []
        for group in groups {
            lines.append("\(group.characteristic)\(group.allowsEmptySelection ? " (can be off)" : ""):")
            for o in group.options {
                var flags: [String] = []
                if o.isDefault { flags.append("default") }
                if o.autoselect { flags.append("autoselect") }
                if o.forced { flags.append("forced, not in the menu") }
                if let id = o.instreamID { flags.append(id) }
                flags += o.characteristics
                lines.append(
                    "  \(o.displayName) [\(o.language ?? "no language")] \(o.type) group \"\(o.groupID)\"\(flags.isEmpty ? "" : ": " + flags.joined(separator: ", "))"
                )
            }
        }
        if let s = selection {
            lines.append("at load for \(s.locales.joined(separator: ", ")):")
            lines.append("  audio: \(s.audio ?? "none")")
            lines.append("  subtitles: \(s.subtitles ?? "off") (\(s.reason))")
            for p in s.forcedWithAudio { lines.append("  with audio \(p.audio): forced \(p.forced ?? "none")") }
        }
        return lines.joined(separator: "\n")
    }
}

extension MediaSelectionReport {
    /// Reads the master at `master` (a file or `http(s)://` URL) and builds its selection report.
    public static func load(master: URL, locales: [LanguageTag], loader: ResourceLoader = ResourceLoader()) async throws(SubweaveError) -> MediaSelectionReport
    {
        let bytes = try await MediaReader(loader: loader).read(master, kind: .playlist, what: "the master playlist")
        do {
            return MediaSelectionReport(master: try MasterPlaylist(parsing: bytes, source: MediaReader.display(master)), locales: locales)
        } catch {
            throw .playlist(error)
        }
    }
}
