import HLS
import Timebase

/// The changes to one SUBTITLES group: Subweave's renditions from an earlier run replaced where
/// they stand (or removed), new ones added after the group's last line, and the DEFAULT /
/// AUTOSELECT rules applied to the group as it will be.
struct SubtitleGroupEdit {
    let master: MasterPlaylist
    let group: String
    /// The group's SUBTITLES renditions in the master, in order.
    let members: [MasterPlaylist.Rendition]
    /// New renditions in placement order.
    let renditions: [NewSubtitleRendition]
    /// Lines (indices) of renditions to take out of the master.
    let removing: Set<Int>
    let preferredLanguage: LanguageTag?
    let folderTemplates: [RenditionFolderTemplate]

    /// A member of the group as it will be.
    enum Slot {
        case existing(MasterPlaylist.Rendition)
        case replacing(MasterPlaylist.Rendition, NewSubtitleRendition)
        case adding(NewSubtitleRendition)

        var name: String? {
            switch self {
            case .existing(let r): return r.name
            case .replacing(_, let n), .adding(let n): return n.name
            }
        }
    }

    func folder(of rendition: MasterPlaylist.Rendition) -> String? {
        rendition.uri.flatMap { RenditionLayout.recognise($0, templates: folderTemplates) }?.folder
    }

    /// The group's members as they will be, and the lines of removed members.
    func slots() -> (slots: [Slot], removed: [Int]) {
        var slots: [Slot] = []
        var removed: [Int] = []
        var placed: Set<String> = []
        for member in members {
            let folder = self.folder(of: member)
            let replacing = renditions.first { rendition in
                rendition.replacesLine.map { $0 == member.lineIndex } ?? (folder != nil && rendition.folder == folder)
            }
            if let rendition = replacing {
                slots.append(.replacing(member, rendition))
                placed.insert(rendition.folder)
            } else if removing.contains(member.lineIndex) {
                removed.append(member.lineIndex)
            } else {
                slots.append(.existing(member))
            }
        }
        // A rendition that takes another's line stays in that line's group.
        slots += renditions.filter { !placed.contains($0.folder) && $0.replacesLine == nil }.map(Slot.adding)
        return (slots, removed)
    }

    /// NAME is unique in the group (RFC 8216bis §4.4.6.1): the clash named with both origins.
    func checkNames(_ slots: [Slot]) throws(SubweaveError) {
        guard let (first, again) = RenditionNames.firstRepeat(slots.map(\.name)) else { return }
        func origin(_ slot: Slot) -> String {
            switch slot {
            case .existing(let r): return "the rendition on line \(master.playlist.lines[r.lineIndex].number ?? 0) of \(master.source) (group \"\(group)\")"
            case .replacing(_, let n), .adding(let n): return n.origin
            }
        }
        let name = LabelText.excerpt(slots[again].name ?? "")
        throw .nameClash(NameClash(name: name, first: origin(slots[first]), second: origin(slots[again])))
    }

    /// What the rules need to know of each slot.
    func ruleMembers(_ slots: [Slot]) -> [RenditionRules.Member] {
        slots.map { slot in
            switch slot {
            case .existing(let r):
                return RenditionRules.Member(
                    language: r.language.flatMap(LanguageTag.init(parsing:)), forced: r.isForced,
                    characteristics: r.characteristics, prefersDefault: r.isDefault)
            case .replacing(_, let n), .adding(let n):
                return RenditionRules.Member(
                    language: n.language, forced: n.forced,
                    characteristics: n.characteristics.attributeValue, prefersDefault: n.prefersDefault)
            }
        }
    }

    /// The member that is DEFAULT=YES: with a preferred language that matches a member, the
    /// rule's choice (`decided`: other members lose DEFAULT); otherwise the member that already
    /// was (a re-run without a preference keeps the earlier choice), or none.
    func chosenDefault(_ slots: [Slot], _ members: [RenditionRules.Member]) -> (index: Int?, decided: Bool) {
        if let preferredLanguage, let pick = RenditionRules.preferredDefault(in: members, preferred: preferredLanguage) {
            return (pick, true)
        }
        let earlier = slots.firstIndex { slot in
            switch slot {
            case .existing(let r), .replacing(let r, _): return r.isDefault
            case .adding: return false
            }
        }
        return (earlier, false)
    }

    /// The edits, and how many members the group keeps.
    func edits() throws(SubweaveError) -> (edits: [MasterPlaylist.Edit], remaining: Int) {
        let (slots, removed) = slots()
        try checkNames(slots)
        let members = ruleMembers(slots)
        let (chosen, decided) = chosenDefault(slots, members)
        var edits: [MasterPlaylist.Edit] = removed.map { .remove(line: $0) }
        var added: [(name: String, attributes: AttributeList)] = []
        for (index, slot) in slots.enumerated() {
            switch slot {
            case .existing(let r):
                guard decided, let attributes = Self.defaultChange(r, isChosen: index == chosen) else { continue }
                edits.append(.setTag(line: r.lineIndex, name: TagName.media, attributes: attributes))
            case .replacing(let old, let n):
                edits.append(.setTag(line: old.lineIndex, name: TagName.media, attributes: attributes(n, index, chosen, members)))
            case .adding(let n):
                added.append((TagName.media, attributes(n, index, chosen, members)))
            }
        }
        if !added.isEmpty { edits.append(.insertTags(before: insertionLine(), added)) }
        return (edits, slots.count)
    }

    private func attributes(_ n: NewSubtitleRendition, _ index: Int, _ chosen: Int?, _ members: [RenditionRules.Member]) -> AttributeList {
        let isDefault = chosen == index
        return n.attributes(group: group, isDefault: isDefault, autoselect: RenditionRules.autoselect(at: index, in: members, isDefault: isDefault))
    }

    /// An existing member's attributes after the DEFAULT rule, or nil when they do not change.
    static func defaultChange(_ r: MasterPlaylist.Rendition, isChosen: Bool) -> AttributeList? {
        var attributes = r.attributes
        if isChosen {
            attributes.set("DEFAULT", YesNo.yes.value, order: AttributeOrder.media)
            attributes.set("AUTOSELECT", YesNo.yes.value, order: AttributeOrder.media)
        } else if r.isDefault {
            attributes.set("DEFAULT", YesNo.no.value, order: AttributeOrder.media)
        }
        return attributes == r.attributes ? nil : attributes
    }

    /// New members go after the group's last line, else after the last EXT-X-MEDIA, else before
    /// the first stream.
    func insertionLine() -> Int {
        if let last = members.last { return last.lineIndex + 1 }
        if let last = master.renditions.last { return last.lineIndex + 1 }
        return MasterRewriter.firstStreamLine(master)
    }
}
