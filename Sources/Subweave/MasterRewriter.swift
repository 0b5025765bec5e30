import HLS
import Timebase

/// A subtitle rendition to declare in the master.
public struct NewSubtitleRendition: Sendable, Equatable {
    /// How Subweave recognises the rendition on a later run (its URI is derived from it too).
    public let identity: String
    public let name: String
    public let language: LanguageTag
    public let forced: Bool
    public let sdh: Bool
    /// The descriptor said `default` (advisory).
    public let prefersDefault: Bool
    /// The media playlist URI, relative to the master.
    public let uri: String
    /// The rendition's folder (``RenditionLayout``): an existing rendition in the same folder is
    /// this one from an earlier run, replaced where it stands.
    public var folder: String { RenditionLayout.recognise(uri)?.folder ?? uri }
    /// Where the rendition came from, for messages (`--subtitle #1`, `CC1`).
    public let origin: String

    public init(identity: String, name: String, language: LanguageTag, forced: Bool, sdh: Bool, prefersDefault: Bool, uri: String, origin: String) {
        self.identity = identity
        self.name = name
        self.language = language
        self.forced = forced
        self.sdh = sdh
        self.prefersDefault = prefersDefault
        self.uri = uri
        self.origin = origin
    }
}

/// A CEA-608 service found in the video, to declare as a CLOSED-CAPTIONS rendition.
public struct CaptionServiceDeclaration: Sendable, Equatable {
    /// `CC1` … `CC4`.
    public let instreamID: String
    public let name: String
    public let language: LanguageTag?

    public init(instreamID: String, name: String, language: LanguageTag?) {
        self.instreamID = instreamID
        self.name = name
        self.language = language
    }
}

/// What the caller asks for `CLOSED-CAPTIONS` on the variants (`--closed-captions`).
public enum ClosedCaptionsRequest: String, Sendable, Equatable, CaseIterable {
    /// `CLOSED-CAPTIONS=NONE` everywhere, unless the master already declares caption groups its
    /// variants use, which are kept (with a warning).
    case automatic = "auto"
    /// Remove caption groups; `NONE` everywhere.
    case none
    /// Declare the CEA-608 services the video carries (found by scanning it); `NONE` without any.
    case inBand = "in-band"
}

/// What the master rewrite does about `CLOSED-CAPTIONS`: the request, resolved against what the
/// video carries.
public enum ClosedCaptionsPolicy: Sendable, Equatable {
    /// As ``ClosedCaptionsRequest/automatic``.
    case automatic
    /// As ``ClosedCaptionsRequest/none``.
    case none
    /// Declare these services in group `cc` (or `cc2`… if taken); with none, `NONE` everywhere.
    case declare([CaptionServiceDeclaration])
}

/// Rewrites a master playlist to declare subtitle renditions, touching only the lines it must.
public struct MasterRewriter: Sendable {
    public var preferredLanguage: LanguageTag?
    public var closedCaptions: ClosedCaptionsPolicy

    public init(preferredLanguage: LanguageTag? = nil, closedCaptions: ClosedCaptionsPolicy = .automatic) {
        self.preferredLanguage = preferredLanguage
        self.closedCaptions = closedCaptions
    }

    /// The result of a rewrite.
    public struct Result: Sendable, Equatable {
        public let master: MasterPlaylist
        /// The SUBTITLES groups the renditions joined.
        public let groups: [String]
        public let warnings: [PackageWarning]
    }

    /// Declares `renditions` (in this order of preference for placement) in every SUBTITLES group
    /// the variants use, or in a new group `subs`; sets `SUBTITLES` and `CLOSED-CAPTIONS` on every
    /// variant; applies the DEFAULT/AUTOSELECT rules. Renditions already in the master with the
    /// same URI (Subweave's own, from an earlier run) are replaced where they stand.
    public func rewrite(_ input: MasterPlaylist, renditions: [NewSubtitleRendition]) throws(SubweaveError) -> Result {
        var master = input
        var warnings: [PackageWarning] = []
        let variants = try wrap { () throws(HLSError) in try master.variants() }
        let existing = try wrap { () throws(HLSError) in try master.renditions() }

        // Groups: those the variants name, in order; else a new one.
        var groups: [String] = []
        for variant in variants {
            if let group = variant.attributes["SUBTITLES"]?.unquoted, !groups.contains(group) { groups.append(group) }
        }
        if groups.isEmpty {
            let taken = Set(existing.compactMap(\.groupID))
            var candidate = "subs"
            var n = 2
            while taken.contains(candidate) { candidate = "subs-\(n)"; n += 1 }
            groups = [candidate]
        }

        // Order new renditions: languages in first-appearance order, general → SDH → forced.
        let languageOrder = renditions.map { $0.language.description }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let ordered = renditions.enumerated().sorted { a, b in
            let ka = (languageOrder.firstIndex(of: a.element.language.description) ?? 0, RenditionRules.rank(forced: a.element.forced, sdh: a.element.sdh), a.offset)
            let kb = (languageOrder.firstIndex(of: b.element.language.description) ?? 0, RenditionRules.rank(forced: b.element.forced, sdh: b.element.sdh), b.offset)
            return ka < kb
        }.map(\.element)

        var names: [String: String] = [:]
        for rendition in ordered {
            if let other = names[rendition.name] {
                throw .nameClash("\(rendition.origin) and \(other) both have NAME \"\(rendition.name)\"; NAME must be unique within a group (RFC 8216bis §4.4.6.1). Give one of them name=…")
            }
            names[rendition.name] = rendition.origin
        }

        // Plan each group: which lines are ours to replace, where new ones go, the final member list.
        var edits: [(lineIndex: Int, text: String?)] = []       // replace (text) or delete (nil)
        var insertions: [(beforeLine: Int, texts: [String])] = []
        let newFolders = Set(renditions.map(\.folder))
        func folder(of member: MasterPlaylist.Rendition) -> String? {
            member.uri.flatMap(RenditionLayout.recognise)?.folder
        }
        for group in groups {
            let members = existing.filter { $0.type == "SUBTITLES" && $0.groupID == group }
            var ours: [String: MasterPlaylist.Rendition] = [:]
            for member in members { if let f = folder(of: member), newFolders.contains(f) { ours[f] = member } }
            let others = members.filter { !(folder(of: $0).map(newFolders.contains) ?? false) }
            for rendition in ordered {
                if let clash = others.first(where: { $0.name == rendition.name }) {
                    throw .nameClash("\(rendition.origin) has NAME \"\(rendition.name)\", which the rendition on line \(master.playlist.lines[clash.lineIndex].number ?? 0) of \(master.source) (group \"\(group)\") already uses; NAME must be unique within a group (RFC 8216bis §4.4.6.1). Give the track another name=…")
                }
            }

            // Final order of the group's members: existing lines in order, ours replaced in place,
            // the rest inserted after the group's last line.
            enum Slot { case existing(MasterPlaylist.Rendition), new(NewSubtitleRendition) }
            var slots: [Slot] = []
            let pending = ordered.filter { ours[$0.folder] == nil }
            for member in members {
                if let f = folder(of: member), let rendition = ordered.first(where: { $0.folder == f }) {
                    slots.append(.new(rendition))
                } else {
                    slots.append(.existing(member))
                }
            }
            slots += pending.map { .new($0) }

            let ruleMembers: [RenditionRules.Member] = slots.map { slot in
                switch slot {
                case .existing(let r):
                    return RenditionRules.Member(language: r.language.flatMap(LanguageTag.init(parsing:)), forced: r.flag("FORCED"),
                                                 characteristics: r.attributes["CHARACTERISTICS"]?.unquoted, prefersDefault: r.flag("DEFAULT"))
                case .new(let n):
                    return RenditionRules.Member(language: n.language, forced: n.forced,
                                                 characteristics: n.sdh ? RenditionRules.sdhCharacteristics : nil, prefersDefault: n.prefersDefault)
                }
            }
            let chosen = RenditionRules.preferredDefault(in: ruleMembers, preferred: preferredLanguage)

            var newLines: [String] = []
            for (index, slot) in slots.enumerated() {
                switch slot {
                case .existing(let r):
                    guard let chosen else { continue }
                    var attributes = r.attributes
                    if index == chosen {
                        attributes.set("DEFAULT", .enumerated("YES"), order: AttributeOrder.media)
                        attributes.set("AUTOSELECT", .enumerated("YES"), order: AttributeOrder.media)
                    } else if r.flag("DEFAULT") {
                        attributes.set("DEFAULT", .enumerated("NO"), order: AttributeOrder.media)
                    } else {
                        continue
                    }
                    if attributes != r.attributes { edits.append((r.lineIndex, "#EXT-X-MEDIA:" + attributes.text)) }
                case .new(let n):
                    let isDefault = chosen == index
                    let line = "#EXT-X-MEDIA:" + Self.attributes(for: n, group: group, isDefault: isDefault,
                        autoselect: RenditionRules.autoselect(at: index, in: ruleMembers, isDefault: isDefault)).text
                    if let old = ours[n.folder] {
                        edits.append((old.lineIndex, line))
                    } else {
                        newLines.append(line)
                    }
                }
            }
            if !newLines.isEmpty {
                let anchor: Int
                if let last = members.last {
                    anchor = last.lineIndex + 1
                } else if let last = existing.last {
                    anchor = last.lineIndex + 1
                } else {
                    anchor = Self.firstStreamLine(master) ?? master.playlist.lines.count
                }
                insertions.append((anchor, newLines))
            }
        }

        // Variants: SUBTITLES, then CLOSED-CAPTIONS.
        var variantAttributes: [Int: AttributeList] = [:]
        for variant in variants {
            var attributes = variant.attributes
            if attributes["SUBTITLES"] == nil {
                attributes.set("SUBTITLES", .quoted(groups[0]), order: AttributeOrder.streamInf)
            }
            variantAttributes[variant.lineIndex] = attributes
        }
        var captionLines: [String] = []
        let captionGroups = Set(existing.filter { $0.type == "CLOSED-CAPTIONS" }.compactMap(\.groupID))
        let usedCaptionGroups = variants.compactMap { v -> String? in
            guard let a = v.attributes["CLOSED-CAPTIONS"], a.isQuoted, captionGroups.contains(a.unquoted) else { return nil }
            return a.unquoted
        }
        var removeCaptionRenditions = false
        switch closedCaptions {
        case .automatic where !usedCaptionGroups.isEmpty:
            warnings.append(PackageWarning(.captionGroupsKept, "the master declares in-band closed captions (group \"\(usedCaptionGroups[0])\"); kept. Pass --closed-captions none to remove them, or --closed-captions in-band to declare what the video carries"))
            for (line, var attributes) in variantAttributes {
                let value = attributes["CLOSED-CAPTIONS"]
                // NONE on some variants and a group on others is forbidden (RFC 8216bis §4.4.6.2).
                if let value, !(value.isQuoted && captionGroups.contains(value.unquoted)) {
                    attributes.remove("CLOSED-CAPTIONS")
                    warnings.append(PackageWarning(.closedCaptionsNoneRemoved, "line \(master.playlist.lines[line].number ?? 0): CLOSED-CAPTIONS=\(value.rawValue) removed; it cannot be NONE while other variants name a caption group"))
                    variantAttributes[line] = attributes
                }
            }
        case .automatic, .none, .declare([]):
            removeCaptionRenditions = !captionGroups.isEmpty
            if case .declare = closedCaptions, !captionGroups.isEmpty {
                warnings.append(PackageWarning(.captionGroupsRemoved, "no CEA-608 service was found in the video; the master's CLOSED-CAPTIONS renditions were removed"))
            }
            for (line, var attributes) in variantAttributes {
                attributes.set("CLOSED-CAPTIONS", .enumerated("NONE"), order: AttributeOrder.streamInf)
                variantAttributes[line] = attributes
            }
        case .declare(let services):
            removeCaptionRenditions = !captionGroups.isEmpty
            var groupID = "cc"
            let taken = Set(existing.filter { $0.type != "CLOSED-CAPTIONS" }.compactMap(\.groupID))
            var n = 2
            while taken.contains(groupID) { groupID = "cc\(n)"; n += 1 }
            for service in services {
                // The attribute order the CLOSED-CAPTIONS declaration has always had in Subweave's spec.
                var attributes = AttributeList()
                attributes.set("TYPE", .enumerated("CLOSED-CAPTIONS"), order: [])
                attributes.set("GROUP-ID", .quoted(groupID), order: [])
                attributes.set("NAME", .quoted(service.name), order: [])
                if let language = service.language, !language.isUndetermined {
                    attributes.set("LANGUAGE", .quoted(language.description), order: [])
                }
                attributes.set("DEFAULT", .enumerated("NO"), order: [])
                attributes.set("AUTOSELECT", .enumerated("NO"), order: [])
                attributes.set("INSTREAM-ID", .quoted(service.instreamID), order: [])
                captionLines.append("#EXT-X-MEDIA:" + attributes.text)
            }
            for (line, var attributes) in variantAttributes {
                attributes.set("CLOSED-CAPTIONS", .quoted(groupID), order: AttributeOrder.streamInf)
                variantAttributes[line] = attributes
            }
        }
        for (line, attributes) in variantAttributes {
            if let original = variants.first(where: { $0.lineIndex == line }), original.attributes != attributes {
                edits.append((line, "#EXT-X-STREAM-INF:" + attributes.text))
            }
        }
        if removeCaptionRenditions {
            for r in existing where r.type == "CLOSED-CAPTIONS" { edits.append((r.lineIndex, nil)) }
        }
        if !captionLines.isEmpty {
            let anchor = existing.filter { $0.type != "CLOSED-CAPTIONS" }.last.map { $0.lineIndex + 1 } ?? Self.firstStreamLine(master) ?? master.playlist.lines.count
            insertions.append((anchor, captionLines))
        }

        // Apply: replacements first (indices unchanged), then insertions and deletions from the bottom up.
        var deletions: [Int] = []
        for edit in edits {
            if let text = edit.text {
                if master.playlist.lines[edit.lineIndex].text != text { master.playlist.lines[edit.lineIndex].text = text }
            } else {
                deletions.append(edit.lineIndex)
            }
        }
        enum Change { case insert([String]), delete }
        var changes: [(Int, Int, Change)] = insertions.enumerated().map { ($0.element.beforeLine, $0.offset, .insert($0.element.texts)) }
        changes += deletions.map { ($0, Int.max, .delete) }  // a deletion goes before an insertion at the same line
        for (line, _, change) in changes.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }) {
            switch change {
            case .insert(let texts): master.playlist.insert(texts.map(master.playlist.makeLine), at: line)
            case .delete: master.playlist.lines.remove(at: line)
            }
        }
        return Result(master: master, groups: groups, warnings: warnings)
    }

    /// The attribute list of a new SUBTITLES rendition, in RFC 8216bis §4.4.6.1 order.
    static func attributes(for r: NewSubtitleRendition, group: String, isDefault: Bool, autoselect: Bool) -> AttributeList {
        var list = AttributeList()
        let order = AttributeOrder.media
        list.set("TYPE", .enumerated("SUBTITLES"), order: order)
        list.set("URI", .quoted(r.uri), order: order)
        list.set("GROUP-ID", .quoted(group), order: order)
        list.set("LANGUAGE", .quoted(r.language.description), order: order)
        list.set("NAME", .quoted(r.name), order: order)
        list.set("DEFAULT", .enumerated(isDefault ? "YES" : "NO"), order: order)
        list.set("AUTOSELECT", .enumerated(autoselect ? "YES" : "NO"), order: order)
        list.set("FORCED", .enumerated(r.forced ? "YES" : "NO"), order: order)
        if r.sdh { list.set("CHARACTERISTICS", .quoted(RenditionRules.sdhCharacteristics), order: order) }
        return list
    }

    static func firstStreamLine(_ master: MasterPlaylist) -> Int? {
        master.playlist.lines.firstIndex { $0.tagName == "#EXT-X-STREAM-INF" || $0.tagName == "#EXT-X-I-FRAME-STREAM-INF" }
    }

    private func wrap<T>(_ body: () throws(HLSError) -> T) throws(SubweaveError) -> T {
        do { return try body() } catch { throw .playlist(error) }
    }
}
