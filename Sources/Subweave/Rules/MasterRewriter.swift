import HLS
import Timebase

/// Rewrites a master playlist to declare (or take out) subtitle renditions, touching only the
/// lines it must: the rendition lines of its groups, and the `SUBTITLES` and `CLOSED-CAPTIONS`
/// attributes of the variants.
package struct MasterRewriter: Sendable {
    package var preferredLanguage: LanguageTag?
    package var closedCaptions: ClosedCaptionsPolicy
    /// The CLOSED-CAPTIONS group an earlier run of Subweave declared, if any.
    package var ownCaptionGroup: String?
    /// The GROUP-ID of the SUBTITLES group to make; nil: `subs` (`subs-2`… if taken).
    package var subtitleGroup: String?
    /// The CODECS entry of the renditions' format (`stpp.ttml.im1t`), added to every variant
    /// that lists its codecs; nil for WebVTT (named by none).
    package var textCodec: String?
    /// A CODECS entry an earlier run added for a format the renditions are no longer in
    /// (`stpp.ttml.im1t` after a switch back to WebVTT): taken out of every variant.
    package var withdrawnCodec: String?
    /// The folder templates of the title (``RenditionFolderTemplate``): a member of a group in
    /// one of their folders is Subweave's, replaced by the new rendition in its folder.
    package var folderTemplates: [RenditionFolderTemplate] = [.standard]

    package init(preferredLanguage: LanguageTag? = nil, closedCaptions: ClosedCaptionsPolicy = .automatic) {
        self.preferredLanguage = preferredLanguage
        self.closedCaptions = closedCaptions
    }

    /// The result of a rewrite.
    package struct Result: Sendable, Equatable {
        package let master: MasterPlaylist
        /// The SUBTITLES groups the renditions joined.
        package let groups: [String]
        package let warnings: [PackageWarning]
        /// The CLOSED-CAPTIONS group the rewrite declared services in, if it declared any.
        package var captionGroup: String?
    }

    /// Declares `renditions` in every SUBTITLES group the variants use (or a new group `subs`),
    /// replacing Subweave's own renditions from an earlier run where they stand; takes out the
    /// renditions on the lines `removing`; sets `SUBTITLES` (dropping it when the group
    /// ends empty) and `CLOSED-CAPTIONS` on every variant; applies the DEFAULT/AUTOSELECT rules.
    package func rewrite(_ input: MasterPlaylist, renditions: [NewSubtitleRendition], removing: Set<Int> = []) throws(SubweaveError) -> Result {
        var master = input
        let groups = try Self.subtitleGroups(master, asked: subtitleGroup)
        let ordered = Self.placementOrder(renditions)
        var edits: [MasterPlaylist.Edit] = []
        var remaining = 0
        // Each group's members found once (a master may have as many groups as variants).
        var members: [String: [MasterPlaylist.Rendition]] = [:]
        for rendition in master.renditions where rendition.type == .subtitles {
            if let id = rendition.groupID { members[id, default: []].append(rendition) }
        }
        for group in groups {
            let edit = SubtitleGroupEdit(
                master: master, group: group, members: members[group] ?? [], renditions: ordered, removing: removing,
                preferredLanguage: preferredLanguage, folderTemplates: folderTemplates)
            let (groupEdits, kept) = try edit.edits()
            edits += groupEdits
            remaining += kept
        }
        // Renditions to remove in groups no variant uses are not in any group's edit.
        let edited = Set(groups.flatMap { members[$0] ?? [] }.map(\.lineIndex))
        edits += removing.subtracting(edited).sorted().map { .remove(line: $0) }
        // One change for every variant, kept as an edit of the tag rather than 200,000 edited lines.
        var variantEdits: [AttributeEdit] = [
            remaining == 0
                ? .remove("SUBTITLES")  // the group is gone: a variant may not name it (§4.4.6.2)
                : .setIfAbsent("SUBTITLES", .quoted(groups[0]), order: AttributeOrder.streamInf)
        ]
        if remaining > 0, let textCodec {
            variantEdits.append(.addToList("CODECS", item: textCodec))
        } else if let codec = textCodec ?? withdrawnCodec {
            // No rendition left in the format: the variants no longer name it.
            variantEdits.append(.removeFromList("CODECS", item: codec))
        }
        if let withdrawnCodec, withdrawnCodec != textCodec { variantEdits.append(.removeFromList("CODECS", item: withdrawnCodec)) }
        let captionEdit = ClosedCaptionsEdit(master: master, policy: closedCaptions, ownGroup: ownCaptionGroup)
        let captions = captionEdit.edits()
        variantEdits += captions.variantEdits
        edits += captions.edits
        edits.append(.editAttributes(tag: TagName.streamInf, variantEdits))
        do { try master.apply(edits) } catch { throw .playlist(error) }
        var result = Result(master: master, groups: remaining == 0 ? [] : groups, warnings: captions.warnings)
        result.captionGroup = captionEdit.group
        return result
    }

    /// The SUBTITLES groups the variants name, in order; else a new group: `asked`, or `subs`
    /// (`subs-2` … if taken).
    ///
    /// `asked` must be what the variants name when they name a group (a variant names one
    /// SUBTITLES group, and renaming one would orphan players' saved choices), and may not be
    /// the ID of another TYPE's group.
    static func subtitleGroups(_ master: MasterPlaylist, asked: String? = nil) throws(SubweaveError) -> [String] {
        var groups: [String] = []
        var seen: Set<String> = []
        for variant in master.variants {
            if let group = variant.attributes["SUBTITLES"]?.unquoted, seen.insert(group).inserted { groups.append(group) }
        }
        if let asked {
            if let what = GroupConflict.unusable(asked) { throw .groupConflict(GroupConflict(asked: asked, reason: .unusable(what))) }
            if !groups.isEmpty && groups != [asked] { throw .groupConflict(GroupConflict(asked: asked, reason: .variantsName(groups))) }
            if let other = master.renditions.first(where: { $0.groupID == asked && $0.type != .subtitles }) {
                throw .groupConflict(GroupConflict(asked: asked, reason: .otherType(other.type?.rawValue ?? "?")))
            }
            return [asked]
        }
        guard groups.isEmpty else { return groups }
        let taken = Set(master.renditions.compactMap(\.groupID))
        var candidate = "subs"
        var n = 2
        while taken.contains(candidate) { candidate = "subs-\(n)"; n += 1 }
        return [candidate]
    }

    /// Languages in the order first given; within a language general → easy-to-read → SDH →
    /// forced (Apple HLS Authoring Spec 9.17).
    static func placementOrder(_ renditions: [NewSubtitleRendition]) -> [NewSubtitleRendition] {
        var languages: [String] = []
        for r in renditions where !languages.contains(r.language.description) { languages.append(r.language.description) }
        return renditions.enumerated().sorted { a, b in
            let ka = (
                languages.firstIndex(of: a.element.language.description) ?? 0,
                RenditionRules.rank(forced: a.element.forced, characteristics: a.element.characteristics), a.offset
            )
            let kb = (
                languages.firstIndex(of: b.element.language.description) ?? 0,
                RenditionRules.rank(forced: b.element.forced, characteristics: b.element.characteristics), b.offset
            )
            return ka < kb
        }.map(\.element)
    }

    /// The line of the first `EXT-X-STREAM-INF` or `EXT-X-I-FRAME-STREAM-INF` (or the end).
    static func firstStreamLine(_ master: MasterPlaylist) -> Int {
        let playlist = master.playlist
        return (0..<playlist.count).first { [.tag(TagName.streamInf), .tag(TagName.iFrameStreamInf)].contains(playlist.lineClass($0)) } ?? playlist.count
    }
}

/// `CLOSED-CAPTIONS` on the variants, and the master's caption renditions, under a policy.
struct ClosedCaptionsEdit {
    let master: MasterPlaylist
    let policy: ClosedCaptionsPolicy
    /// The group an earlier run of Subweave declared (``TitleIntent/declaredCaptionGroup``): its
    /// lines are Subweave's to replace or take out; other groups are the master's own.
    var ownGroup: String?

    /// The group a `.declare` policy declares its services in (Subweave's earlier one, if any).
    var group: String? {
        guard case .declare(let services) = policy, !services.isEmpty else { return nil }
        return ownGroup ?? freeGroupID()
    }

    /// The edits of every variant's attributes, of the renditions, and the warnings.
    func edits() -> (variantEdits: [AttributeEdit], edits: [MasterPlaylist.Edit], warnings: [PackageWarning]) {
        let captionRenditions = master.renditions.filter { $0.type == .closedCaptions }
        let own = captionRenditions.filter { ownGroup != nil && $0.groupID == ownGroup }.map { MasterPlaylist.Edit.remove(line: $0.lineIndex) }
        let foreign = captionRenditions.filter { ownGroup == nil || $0.groupID != ownGroup }
        let foreignGroups = Set(foreign.compactMap(\.groupID))
        let used = master.variants.lazy.compactMap { v -> String? in
            guard let a = v.attributes["CLOSED-CAPTIONS"], a.isQuoted, foreignGroups.contains(a.unquoted) else { return nil }
            return a.unquoted
        }.first
        let none: AttributeEdit = .set("CLOSED-CAPTIONS", .enumerated("NONE"), order: AttributeOrder.streamInf)
        switch policy {
        case .restore(let original):
            return restore(original).map { ($0.variantEdits, own + $0.edits, $0.warnings) }
                ?? ClosedCaptionsEdit(master: master, policy: .automatic, ownGroup: ownGroup).edits()
        case .automatic where used != nil:
            return ([.removeUnlessQuoted("CLOSED-CAPTIONS", kept: foreignGroups)], own, keepDeclared(used ?? "", foreignGroups))
        case .automatic where !foreign.isEmpty:
            // Caption groups no variant names are the master's own business: kept, and said.
            let groups = foreignGroups.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            return (
                [none], own,
                [
                    PackageWarning(
                        .captionGroupsKept,
                        "the master declares CLOSED-CAPTIONS group(s) \(groups) that no variant names; kept as they are (\(Setting.closedCaptionsNone) removes them)"
                    )
                ]
            )
        case .automatic: return ([none], own, [])
        case .none, .declare([]):
            var warnings: [PackageWarning] = []
            if case .declare = policy, !foreign.isEmpty {
                warnings.append(
                    PackageWarning(.captionGroupsRemoved, "no CEA-608 service was found in the video; the master's CLOSED-CAPTIONS renditions were removed"))
            }
            return ([none], captionRenditions.map { .remove(line: $0.lineIndex) }, warnings)
        case .declare(let services):
            let group = ownGroup ?? freeGroupID()
            let anchor = master.renditions.filter { $0.type != .closedCaptions }.last.map { $0.lineIndex + 1 } ?? MasterRewriter.firstStreamLine(master)
            let inserted: MasterPlaylist.Edit = .insertTags(before: anchor, services.map { (TagName.media, $0.attributes(group: group)) })
            // INSTREAM-ID "SERVICEn" (CEA-708) needs protocol version 7 (RFC 8216bis §7).
            let version: [MasterPlaylist.Edit] = services.contains { $0.instreamID.hasPrefix("SERVICE") } ? [.requireVersion(7)] : []
            return (
                [.set("CLOSED-CAPTIONS", .quoted(group), order: AttributeOrder.streamInf)],
                captionRenditions.map { .remove(line: $0.lineIndex) } + [inserted] + version, []
            )
        }
    }

    /// Every variant's CLOSED-CAPTIONS as it was before Subweave first wrote the master, when
    /// they were all the same (nil when they differed: the caller falls back).
    private func restore(_ original: [String?]) -> (variantEdits: [AttributeEdit], edits: [MasterPlaylist.Edit], warnings: [PackageWarning])? {
        guard let first = original.first, original.allSatisfy({ $0 == first }) else { return nil }
        guard let raw = first else { return ([.remove("CLOSED-CAPTIONS")], [], []) }
        let value: AttributeValue = raw.hasPrefix("\"") ? .quoted(String(raw.dropFirst().dropLast())) : .enumerated(raw)
        return ([.set("CLOSED-CAPTIONS", value, order: AttributeOrder.streamInf)], [], [])
    }

    /// The master declares caption groups its variants use: kept, and NONE (which cannot stand
    /// beside a group, RFC 8216bis §4.4.6.2) removed from the other variants (the warnings say where).
    private func keepDeclared(_ group: String, _ captionGroups: Set<String>) -> [PackageWarning] {
        var warnings = [
            PackageWarning(
                .captionGroupsKept,
                "the master declares in-band closed captions (group \"\(group)\"); kept. Use \(Setting.closedCaptionsNone) to remove them, or \(Setting.closedCaptionsInBand) to declare what the video carries"
            )
        ]
        for variant in master.variants {
            guard let value = variant.attributes["CLOSED-CAPTIONS"], !(value.isQuoted && captionGroups.contains(value.unquoted)) else { continue }
            warnings.append(
                PackageWarning(
                    .closedCaptionsNoneRemoved,
                    "line \(master.playlist.number(ofLine: variant.lineIndex) ?? 0): CLOSED-CAPTIONS=\(value.rawValue) removed; it cannot be NONE while other variants name a caption group"
                ))
        }
        return warnings
    }

    /// `cc`, or `cc2`… when another type's group already has the name.
    private func freeGroupID() -> String {
        let taken = Set(master.renditions.filter { $0.type != .closedCaptions }.compactMap(\.groupID))
        var group = "cc"
        var n = 2
        while taken.contains(group) { group = "cc\(n)"; n += 1 }
        return group
    }
}
