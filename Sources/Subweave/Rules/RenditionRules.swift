import HLS
import Timebase
import TimedText

/// The rules that decide DEFAULT, AUTOSELECT and order among the renditions of a SUBTITLES group.
///
/// Pure functions over a group's members, so each rule is tested as a table.
package enum RenditionRules {
    /// What the rules need to know of one member of a group.
    package struct Member: Sendable, Equatable {
        /// The LANGUAGE, parsed; nil when absent or not a BCP 47 tag.
        package var language: LanguageTag?
        package var forced: Bool
        package var characteristics: String?
        /// The descriptor said `default`, or (for an existing rendition) it says DEFAULT=YES.
        package var prefersDefault: Bool

        package init(language: LanguageTag?, forced: Bool, characteristics: String?, prefersDefault: Bool) {
            self.language = language
            self.forced = forced
            self.characteristics = characteristics
            self.prefersDefault = prefersDefault
        }
    }

    /// The member that becomes the group's only `DEFAULT=YES`, or nil (change nothing).
    ///
    /// Candidates are members whose language matches `preferred` (``LanguageTag/match(_:)``: ISO
    /// 639-1/-2T/-2B codes alike, case ignored, `pt` ↔ `pt-BR`, scripts respected, `und` matches
    /// nothing). Among them: a full rendition beats a forced one; then the closer language match;
    /// then a member that prefers to be default; then the first in group order.
    package static func preferredDefault(in members: [Member], preferred: LanguageTag?) -> Int? {
        guard let preferred else { return nil }
        var best: (index: Int, key: (Int, Int, Int, Int))?
        for (index, member) in members.enumerated() {
            guard let language = member.language else { continue }
            let quality = preferred.match(language)
            guard quality != .none else { continue }
            let key = (member.forced ? 0 : 1, quality.rawValue, member.prefersDefault ? 1 : 0, -index)
            if let current = best, key <= current.key { continue }
            best = (index, key)
        }
        return best?.index
    }

    /// Whether a new member at `index` is AUTOSELECT=YES.
    ///
    /// YES when it is the DEFAULT; never for `und` (or no language) otherwise; else YES for the
    /// first member of the group with its LANGUAGE/FORCED/CHARACTERISTICS combination (SDH
    /// renditions, Apple HLS Authoring Spec 4.6, and forced ones, 5.11, among them), so that
    /// AUTOSELECT members differ as RFC 8216bis §4.4.6.1.1 asks: a second English SDH rendition
    /// (CC3 beside CC1) could not be told from the first by a player choosing automatically.
    package static func autoselect(at index: Int, in members: [Member], isDefault: Bool) -> Bool {
        if isDefault { return true }
        let member = members[index]
        guard let language = member.language, !language.isUndetermined else { return false }
        return !members[..<index].contains { other in
            other.language == language && other.forced == member.forced && other.characteristics == member.characteristics
        }
    }

    /// The rank of a rendition among others of its language: general, easy-to-read, SDH, then
    /// forced (Apple HLS Authoring Spec 9.17; ``MediaCharacteristics/rank(forced:)``).
    package static func rank(forced: Bool, characteristics: MediaCharacteristics) -> Int {
        characteristics.rank(forced: forced)
    }

    /// The forced cues a full track of the same language does not also carry (Apple HLS Authoring
    /// Spec 5.8: a viewer who turns full subtitles on must not lose the forced ones).
    ///
    /// A forced cue is carried when a full cue overlaps it in time with the same visible text
    /// (markup, case and spacing ignored).
    package static func forcedCuesMissing(forced: [Cue], full: [Cue]) -> [Cue] {
        func normalized(_ text: String) -> String {
            CueText.plainText(text).lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        let fullTexts = full.map { ($0.start, $0.end, normalized($0.text)) }
        return forced.filter { cue in
            let text = normalized(cue.text)
            return !fullTexts.contains { $0.0 < cue.end && $0.1 > cue.start && ($0.2 == text || $0.2.contains(text)) }
        }
    }

    /// The indices of the tracks whose cues ``forcedCoverageWarnings(_:_:)`` compares: forced
    /// tracks, and full tracks that are or may become (a language read from the file) in a forced
    /// track's language.
    static func forcedCoverageTracks(_ tracks: [SubtitleTrack]) -> Set<Int> {
        func unknown(_ track: SubtitleTrack) -> Bool { track.language.isUndetermined && track.label.isEmpty }
        let forced = tracks.filter(\.isForced)
        if forced.isEmpty { return [] }
        if forced.contains(where: unknown) { return Set(tracks.indices) }
        let languages = Set(forced.map(\.language))
        return Set(tracks.indices.filter { tracks[$0].isForced || unknown(tracks[$0]) || languages.contains(tracks[$0].language) })
    }

    /// Apple HLS Authoring Spec 5.8: where a language has forced and full tracks, the full ones
    /// should also carry the forced cues.
    ///
    /// `cues`: each track's cues, nil for the tracks ``forcedCoverageTracks(_:)`` leaves out.
    static func forcedCoverageWarnings(_ tracks: [SubtitleTrack], _ cues: [[Cue]?]) -> [PackageWarning] {
        var warnings: [PackageWarning] = []
        for (forcedIndex, forced) in tracks.enumerated() where forced.isForced && !forced.language.isUndetermined {
            guard let forcedCues = cues[forcedIndex] else { continue }
            for (fullIndex, full) in tracks.enumerated() where !full.isForced && full.language == forced.language {
                guard let fullCues = cues[fullIndex] else { continue }
                let missing = forcedCuesMissing(forced: forcedCues, full: fullCues)
                guard let first = missing.first else { continue }
                warnings.append(
                    PackageWarning(
                        .forcedCuesMissing,
                        "Apple HLS Authoring Spec 5.8: the full \(full.language) track \"\(full.sourceID)\" lacks \(missing.count) of the \(forcedCues.count) forced cues of \"\(forced.sourceID)\" (the first at \(first.start.decimalSeconds) s); viewers who choose it will miss them"
                    ))
            }
        }
        return warnings
    }
}
