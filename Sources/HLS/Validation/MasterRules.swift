import Timebase

/// The subtitle, caption and variant rules of RFC 8216bis (draft 22) and Apple's HLS Authoring
/// Specification, checked on a master playlist alone: a table of small rules, each with a stable
/// identifier (`media.default-autoselect`, …) that its findings carry.
package enum MasterRules {
    /// Every finding for `master`, rule by rule in table order; `captionsFound` says what caption
    /// service the video was seen to carry ("CC1, text at 0.534 s"), when it was looked at.
    package static func check(_ master: MasterPlaylist, captionsFound: String? = nil) -> ValidationFindings {
        var context = MasterContext(master)
        context.captionsFound = captionsFound
        var sink = FindingSink(file: master.source)
        for rule in rules { rule.check(context, &sink) }
        return sink.findings
    }

    /// The rules, by identifier.
    package static var identifiers: [String] { rules.map(\.id) }

    // MARK: - Rows

    // Each rule's rows: its identifier, severity, reference and requirement, stated once; the
    // checks below say only where and what they found. A requirement that names the attribute
    // found is completed where it is found (``RuleRow/requiring(_:)``).
    static let masterAttributeOnce = RuleRow("master.attribute-once", .error, "RFC 8216bis §4.2", "an attribute name appears at most once in an attribute list")
    static let masterVersionOnce = RuleRow("master.version-once", .error, "RFC 8216bis §4.4.1.2", "a playlist has at most one EXT-X-VERSION tag")
    static let mediaType = RuleRow("media.type", .error, "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires TYPE")
    static let mediaTypeValue = RuleRow(
        "media.type", .error, "RFC 8216bis §4.4.6.1", "TYPE is an enumerated-string: AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, unquoted")
    static let mediaGroupIdAndName = RuleRow("media.group-id-and-name", .error, "RFC 8216bis §4.4.6.1", "")
    static let mediaYesNo = RuleRow("media.yes-no", .error, "RFC 8216bis §4.4.6.1", "")
    static let mediaDefaultAutoselect = RuleRow(
        "media.default-autoselect", .error, "RFC 8216bis §4.4.6.1", "if AUTOSELECT is present, it is YES when DEFAULT is YES")
    static let mediaLanguage = RuleRow("media.language", .error, "RFC 8216bis §4.4.6.1", "LANGUAGE is a BCP 47 (RFC 5646) language tag")
    static let mediaLanguagePresent = RuleRow(
        "media.language", .warning, "Apple HLS Authoring Spec 4.4", "every audio, subtitle and caption rendition has a LANGUAGE")
    static let subtitlesUri = RuleRow("subtitles.uri", .error, "RFC 8216bis §4.4.6.1", "URI is required for TYPE=SUBTITLES")
    static let subtitlesForcedAutoselect = RuleRow(
        "subtitles.forced-autoselect", .warning, "Apple HLS Authoring Spec 5.11", "forced subtitle renditions are AUTOSELECT=YES")
    static let mediaSdhAutoselect = RuleRow(
        "media.sdh-autoselect", .warning, "Apple HLS Authoring Spec 4.6", "SDH subtitle and caption renditions are AUTOSELECT=YES")
    static let subtitlesSdhCharacteristics = RuleRow(
        "subtitles.sdh-characteristics", .warning, "Apple HLS Authoring Spec 4.5",
        "SDH subtitles carry both transcribes-spoken-dialog and describes-music-and-sound")
    static let mediaCharacteristics = RuleRow(
        "media.characteristics", .error, "RFC 8216bis §4.4.6.1",
        "CHARACTERISTICS is a quoted-string of one or more Uniform Type Identifiers separated by commas")
    static let subtitlesCharacteristics = RuleRow(
        "subtitles.characteristics", .warning, "RFC 8216bis §4.4.6.1",
        "public.accessibility.describes-video is a characteristic of AUDIO renditions, not of subtitles")
    static let subtitlesOrder = RuleRow(
        "subtitles.order", .info, "Apple HLS Authoring Spec 9.17",
        "renditions of one language are ordered general to specific: general, easy-to-read, SDH, forced")
    static let captionsNoUri = RuleRow(
        "captions.no-uri", .error, "RFC 8216bis §4.4.6.1", "URI must not appear for TYPE=CLOSED-CAPTIONS (captions ride in the video)")
    static let captionsInstreamId = RuleRow("captions.instream-id", .error, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is required for TYPE=CLOSED-CAPTIONS")
    static let captionsInstreamIdValue = RuleRow(
        "captions.instream-id", .error, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is a quoted-string: \"CC1\"…\"CC4\" or \"SERVICE1\"…\"SERVICE63\"")
    static let captionsServiceNeedsVersion7 = RuleRow(
        "captions.service-needs-version-7", .error, "RFC 8216bis §7", "INSTREAM-ID \"SERVICEn\" (CEA-708) requires EXT-X-VERSION 7 or higher")
    static let mediaForcedOnlySubtitles = RuleRow("media.forced-only-subtitles", .error, "RFC 8216bis §4.4.6.1", "FORCED appears only with TYPE=SUBTITLES")
    static let mediaInstreamIdOnlyCaptions = RuleRow(
        "media.instream-id-only-captions", .error, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is for TYPE=CLOSED-CAPTIONS only")
    static let groupOneDefault = RuleRow("group.one-default", .error, "RFC 8216bis §4.4.6.1.1", "at most one rendition of a group has DEFAULT=YES")
    static let groupUniqueNames = RuleRow("group.unique-names", .error, "RFC 8216bis §4.4.6.1", "NAME is unique among the renditions of a group")
    static let groupAutoselectDistinct = RuleRow(
        "group.autoselect-distinct", .warning, "RFC 8216bis §4.4.6.1.1",
        "AUTOSELECT=YES renditions of a group differ in LANGUAGE, ASSOC-LANGUAGE, FORCED or CHARACTERISTICS")
    static let groupSameMembers = RuleRow("group.same-members", .error, "RFC 8216bis §4.4.6.1.1", "several groups of one TYPE hold the same set of renditions")
    static let variantBandwidth = RuleRow("variant.bandwidth", .error, "RFC 8216bis §4.4.6.2", "EXT-X-STREAM-INF requires BANDWIDTH")
    static let variantGroupReferences = RuleRow("variant.group-references", .error, "RFC 8216bis §4.4.6.2", "")
    static let variantSubtitlesPresent = RuleRow(
        "variant.subtitles-present", .warning, "RFC 8216bis §4.4.6.2", "a variant that offers subtitles names their group in SUBTITLES")
    static let variantClosedCaptions = RuleRow(
        "variant.closed-captions", .warning, "Apple Technical Q&A QA1801", "a variant says CLOSED-CAPTIONS (a group, or NONE without in-band captions)")
    static let variantClosedCaptionsValue = RuleRow(
        "variant.closed-captions", .error, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or the enumerated-string NONE, unquoted")
    static let variantClosedCaptionsGroup = RuleRow(
        "variant.closed-captions", .error, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS names the GROUP-ID of EXT-X-MEDIA tags with TYPE=CLOSED-CAPTIONS")
    static let variantClosedCaptionsQuoted = RuleRow("variant.closed-captions", .error, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or NONE")
    static let variantNoneEverywhere = RuleRow(
        "variant.none-everywhere", .error, "RFC 8216bis §4.4.6.2", "if one variant has CLOSED-CAPTIONS=NONE, every variant does")
    static let iframeForbidden = RuleRow("iframe.attributes", .error, "RFC 8216bis §4.4.6.3", "")
    static let iframeURI = RuleRow("iframe.attributes", .error, "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires URI")
    static let iframeBandwidthValue = RuleRow("iframe.attributes", .error, "RFC 8216bis §4.4.6.3", "BANDWIDTH is a decimal-integer (unquoted)")
    static let iframeBandwidth = RuleRow("iframe.attributes", .error, "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires BANDWIDTH")

    static let rules: [MasterRule] = playlistRules + renditionRules + groupRules + variantRules + iFrameRules

    static let playlistRules: [MasterRule] = [
        MasterRule("master.attribute-once") { c, sink in
            let playlist = c.master.playlist
            for index in 0..<playlist.count {
                // Names alone, on the line's bytes: a value may be megabytes long.
                guard case .tag(let name) = playlist.lineClass(index), let list = (try? playlist.attributes(ofLine: index, values: false)) ?? nil
                else { continue }
                for duplicate in list.duplicateNames {
                    sink.add(
                        MasterRules.masterAttributeOnce, c.line(index), "\(name) has \(duplicate) more than once")
                }
            }
        },
        MasterRule("master.version-once") { c, sink in
            let versions = (0..<c.master.playlist.count).filter { c.master.playlist.lineClass($0) == .tag(TagName.version) }
            if versions.count > 1 {
                sink.add(
                    MasterRules.masterVersionOnce, c.line(versions[1]), "EXT-X-VERSION appears \(versions.count) times")
            }
        },
    ]

    static let renditionRules: [MasterRule] = [
        MasterRule("media.type") { c, sink in
            for r in c.renditions {
                guard let type = r.attributes["TYPE"] else {
                    sink.add(MasterRules.mediaType, c.line(r.lineIndex), "EXT-X-MEDIA has no TYPE")
                    continue
                }
                if r.type == nil {
                    sink.add(
                        MasterRules.mediaTypeValue, c.line(r.lineIndex), "TYPE=\(type.rawValue) is not one of them")
                }
            }
        },
        MasterRule("media.group-id-and-name") { c, sink in
            for r in c.renditions {
                for name in ["GROUP-ID", "NAME"] where r.attributes[name]?.isQuoted != true {
                    sink.add(
                        MasterRules.mediaGroupIdAndName.requiring("EXT-X-MEDIA requires \(name), a quoted-string"), c.line(r.lineIndex),
                        "\(name) is missing or unquoted")
                }
            }
        },
        MasterRule("media.yes-no") { c, sink in
            for r in c.renditions {
                for flag in ["DEFAULT", "AUTOSELECT", "FORCED"] {
                    if let value = r.attributes[flag], YesNo(rawValue: value.rawValue) == nil {
                        sink.add(
                            MasterRules.mediaYesNo.requiring("\(flag) is an enumerated-string, YES or NO, unquoted"), c.line(r.lineIndex),
                            "\(flag)=\(value.rawValue)")
                    }
                }
            }
        },
        // "If the AUTOSELECT attribute is present, its value MUST be YES if the value of the DEFAULT
        // attribute is YES": an absent AUTOSELECT is not constrained.
        MasterRule("media.default-autoselect") { c, sink in
            for r in c.renditions where r.isDefault && r.attributes["AUTOSELECT"] != nil && !r.isAutoselect {
                sink.add(
                    MasterRules.mediaDefaultAutoselect, c.line(r.lineIndex), "rendition \"\(c.name(r))\" has DEFAULT=YES and AUTOSELECT=NO")
            }
        },
        MasterRule("media.language") { c, sink in
            for r in c.renditions {
                if let language = r.language {
                    if !LanguageTag.isWellFormed(language) {
                        sink.add(
                            MasterRules.mediaLanguage, c.line(r.lineIndex), "LANGUAGE=\"\(LabelText.excerpt(language))\" is not one")
                    }
                } else if let type = r.type, type != .video {
                    sink.add(
                        MasterRules.mediaLanguagePresent, c.line(r.lineIndex),
                        "\(type.rawValue) rendition \"\(c.name(r))\" has no LANGUAGE; players cannot match it to the viewer")
                }
            }
        },
        MasterRule("subtitles.uri") { c, sink in
            for r in c.renditions where r.type == .subtitles && r.uri == nil {
                sink.add(
                    MasterRules.subtitlesUri, c.line(r.lineIndex), "subtitle rendition \"\(c.name(r))\" has no URI")
            }
        },
        MasterRule("subtitles.forced-autoselect") { c, sink in
            for r in c.renditions where r.type == .subtitles && r.isForced && !r.isAutoselect {
                sink.add(
                    MasterRules.subtitlesForcedAutoselect, c.line(r.lineIndex), "forced rendition \"\(c.name(r))\" is not AUTOSELECT=YES, so it may never show")
            }
        },
        // AAS 4.6: a subtitle or caption rendition that transcribes spoken dialog (SDH) is
        // AUTOSELECT=YES, so a player whose viewer asked for accessible media can choose it.
        MasterRule("media.sdh-autoselect") { c, sink in
            // Asked of each language (with FORCED and CHARACTERISTICS) of SDH renditions in a
            // group: a second one like the first may not be AUTOSELECT=YES too
            // (group.autoselect-distinct), and one without a real language cannot be chosen by it.
            for group in c.groups {
                var firsts: [String: MasterPlaylist.Rendition] = [:]
                var order: [String] = []
                var chosen: Set<String> = []
                for r in group.members {
                    guard let value = r.characteristics, value.contains("public.accessibility.transcribes-spoken-dialog"),
                        let language = r.language, !language.isEmpty, language.lowercased() != "und"
                    else { continue }
                    let key = [language.lowercased(), r.isForced ? "forced" : "", value].joined(separator: "|")
                    if firsts[key] == nil {
                        firsts[key] = r
                        order.append(key)
                    }
                    if r.isAutoselect { chosen.insert(key) }
                }
                for key in order where !chosen.contains(key) {
                    guard let r = firsts[key] else { continue }
                    sink.add(
                        MasterRules.mediaSdhAutoselect, c.line(r.lineIndex),
                        "\"\(c.name(r))\" transcribes spoken dialog but is not AUTOSELECT=YES, so players that look for accessible media skip it")
                }
            }
        },
        MasterRule("subtitles.sdh-characteristics") { c, sink in
            for r in c.renditions where r.type == .subtitles {
                guard let value = r.characteristics, value.contains("public.accessibility.transcribes-spoken-dialog"),
                    !value.contains("public.accessibility.describes-music-and-sound")
                else { continue }
                sink.add(
                    MasterRules.subtitlesSdhCharacteristics, c.line(r.lineIndex), "\"\(c.name(r))\" has only transcribes-spoken-dialog")
            }
        },
        MasterRule("media.characteristics") { c, sink in
            for r in c.renditions {
                guard let value = r.attributes["CHARACTERISTICS"] else { continue }
                let items = value.unquoted.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if !value.isQuoted {
                    sink.add(MasterRules.mediaCharacteristics, c.line(r.lineIndex), "\"\(c.name(r))\" has CHARACTERISTICS unquoted")
                } else if let bad = items.first(where: { !MediaCharacteristics.isWellFormed($0) }) {
                    sink.add(
                        MasterRules.mediaCharacteristics, c.line(r.lineIndex),
                        bad.isEmpty
                            ? "\"\(c.name(r))\" has an empty item in CHARACTERISTICS" : "\"\(c.name(r))\" has \"\(LabelText.excerpt(bad))\" in CHARACTERISTICS")
                }
            }
        },
        MasterRule("subtitles.characteristics") { c, sink in
            for r in c.renditions where r.type == .subtitles {
                guard MediaCharacteristics(attribute: r.characteristics).contains(MediaCharacteristics.describesVideo) else { continue }
                sink.add(MasterRules.subtitlesCharacteristics, c.line(r.lineIndex), "subtitle rendition \"\(c.name(r))\" says it describes video")
            }
        },
        // AAS 9.17: a menu lists a language's renditions in playlist order, so the general one
        // comes first and the more specific ones (easy-to-read, SDH, forced) after it.
        MasterRule("subtitles.order") { c, sink in
            for group in c.groups where group.type == .subtitles {
                var highest: [String: (rank: Int, name: String)] = [:]
                for r in group.members {
                    let language = (r.language ?? "").lowercased()
                    let rank = MediaCharacteristics(attribute: r.characteristics).rank(forced: r.isForced)
                    if let before = highest[language], before.rank > rank {
                        sink.add(
                            MasterRules.subtitlesOrder, c.line(r.lineIndex),
                            "\"\(c.name(r))\" comes after \"\(before.name)\", a more specific rendition of its language")
                    } else if highest[language].map({ rank > $0.rank }) ?? true {
                        highest[language] = (rank, c.name(r))
                    }
                }
            }
        },
        MasterRule("captions.no-uri") { c, sink in
            for r in c.renditions where r.type == .closedCaptions && r.uri != nil {
                sink.add(
                    MasterRules.captionsNoUri, c.line(r.lineIndex), "caption rendition \"\(c.name(r))\" has a URI")
            }
        },
        MasterRule("captions.instream-id") { c, sink in
            for r in c.renditions where r.type == .closedCaptions {
                guard let id = r.attributes["INSTREAM-ID"] else {
                    sink.add(
                        MasterRules.captionsInstreamId, c.line(r.lineIndex), "caption rendition \"\(c.name(r))\" has no INSTREAM-ID")
                    continue
                }
                if !id.isQuoted || !isInstreamID(id.unquoted) {
                    sink.add(
                        MasterRules.captionsInstreamIdValue, c.line(r.lineIndex), "INSTREAM-ID=\(id.rawValue)")
                }
            }
        },
        MasterRule("captions.service-needs-version-7") { c, sink in
            // RFC 8216bis §7 (protocol version compatibility): INSTREAM-ID "SERVICEn" needs version 7.
            let version = c.master.versionTag?.version ?? 1
            guard version < 7 else { return }
            for r in c.renditions where r.type == .closedCaptions {
                guard let id = r.attributes["INSTREAM-ID"], id.isQuoted, id.unquoted.hasPrefix("SERVICE") else { continue }
                sink.add(
                    MasterRules.captionsServiceNeedsVersion7, c.line(r.lineIndex), "INSTREAM-ID=\(id.rawValue) in a playlist of version \(version)")
            }
        },
        MasterRule("media.forced-only-subtitles") { c, sink in
            for r in c.renditions where r.type != .subtitles && r.type != nil && r.attributes["FORCED"] != nil {
                sink.add(
                    MasterRules.mediaForcedOnlySubtitles, c.line(r.lineIndex), "a \(r.type?.rawValue ?? "") rendition has FORCED")
            }
        },
        MasterRule("media.instream-id-only-captions") { c, sink in
            for r in c.renditions where r.type != .closedCaptions && r.type != nil && r.attributes["INSTREAM-ID"] != nil {
                sink.add(
                    MasterRules.mediaInstreamIdOnlyCaptions, c.line(r.lineIndex), "a \(r.type?.rawValue ?? "") rendition has INSTREAM-ID")
            }
        },
    ]

    static let groupRules: [MasterRule] = [
        MasterRule("group.one-default") { c, sink in
            for group in c.groups {
                let defaults = group.members.filter(\.isDefault)
                guard defaults.count > 1 else { continue }
                sink.add(
                    MasterRules.groupOneDefault, c.line(defaults[1].lineIndex),
                    "\(group.type.rawValue) group \"\(group.id)\" has \(defaults.count) DEFAULT=YES renditions (\(defaults.map(c.name).joined(separator: ", ")))"
                )
            }
        },
        MasterRule("group.unique-names") { c, sink in
            for group in c.groups {
                for (first, again) in RenditionNames.repeats(group.members.map(\.name)) {
                    let member = group.members[again]
                    sink.add(
                        MasterRules.groupUniqueNames, c.line(member.lineIndex),
                        "\(group.type.rawValue) group \"\(group.id)\" has NAME \"\(c.name(member))\" twice (first on line \(c.line(group.members[first].lineIndex) ?? 0))"
                    )
                }
            }
        },
        MasterRule("group.autoselect-distinct") { c, sink in
            for group in c.groups {
                var seen: [String: String] = [:]
                for member in group.members where member.isAutoselect {
                    let key = [
                        member.language ?? "", member.attributes["ASSOC-LANGUAGE"]?.unquoted ?? "", member.isForced ? "forced" : "",
                        member.characteristics ?? "",
                    ].joined(separator: "|")
                    if let other = seen[key] {
                        sink.add(
                            MasterRules.groupAutoselectDistinct, c.line(member.lineIndex),
                            "\"\(c.name(member))\" and \"\(other)\" in \(group.type.rawValue) group \"\(group.id)\" cannot be told apart for automatic selection"
                        )
                    } else {
                        seen[key] = c.name(member)
                    }
                }
            }
        },
        MasterRule("group.same-members") { c, sink in
            let subtitleGroups = c.groups.filter { $0.type == .subtitles }
            guard let reference = subtitleGroups.first else { return }
            func signature(_ group: MasterContext.Group) -> [String] {
                group.members.map { "\($0.name ?? "")|\($0.language ?? "")|\($0.isForced)|\($0.characteristics ?? "")" }.sorted()
            }
            for group in subtitleGroups.dropFirst() where signature(group) != signature(reference) {
                sink.add(
                    MasterRules.groupSameMembers, group.members.first.flatMap { c.line($0.lineIndex) },
                    "SUBTITLES group \"\(group.id)\" differs from group \"\(reference.id)\"")
            }
        },
    ]

    static let variantRules: [MasterRule] = [
        MasterRule("variant.bandwidth") { c, sink in
            for v in c.variants where v.attributes["BANDWIDTH"] == nil {
                sink.add(MasterRules.variantBandwidth, c.line(v.lineIndex), "a variant has no BANDWIDTH")
            }
        },
        MasterRule("variant.group-references") { c, sink in
            for v in c.variants {
                for type in [MediaType.audio, .video, .subtitles] {
                    guard let value = v.attributes[type.streamInfAttribute] else { continue }
                    if !value.isQuoted || c.group(type, value.unquoted) == nil {
                        sink.add(
                            MasterRules.variantGroupReferences.requiring(
                                "\(type.rawValue) names (as a quoted-string) the GROUP-ID of EXT-X-MEDIA tags with TYPE=\(type.rawValue)"), c.line(v.lineIndex),
                            "\(type.rawValue)=\(value.rawValue) names no \(type.rawValue) group")
                    }
                }
            }
        },
        MasterRule("variant.subtitles-present") { c, sink in
            guard c.groups.contains(where: { $0.type == .subtitles }) else { return }
            for v in c.variants where v.attributes["SUBTITLES"] == nil {
                sink.add(
                    MasterRules.variantSubtitlesPresent, c.line(v.lineIndex),
                    "this variant has no SUBTITLES attribute; iOS Safari shows WebVTT only for variants that have one")
            }
        },
        MasterRule("variant.closed-captions") { c, sink in
            for v in c.variants {
                guard let cc = v.attributes["CLOSED-CAPTIONS"] else {
                    let none = "say CLOSED-CAPTIONS=NONE if the video carries no CEA-608/708 captions, else declare them in a TYPE=CLOSED-CAPTIONS group"
                    let advice =
                        c.captionsFound.map {
                            "the video carries \($0): declare its services in a TYPE=CLOSED-CAPTIONS group, or publish them as subtitle renditions; NONE would hide them"
                        } ?? none
                    sink.add(
                        MasterRules.variantClosedCaptions, c.line(v.lineIndex),
                        "no CLOSED-CAPTIONS attribute, so Apple players may list an \"Unknown CC\" option; \(advice)")
                    continue
                }
                if cc.isQuoted && cc.unquoted == "NONE" {
                    sink.add(
                        MasterRules.variantClosedCaptionsValue, c.line(v.lineIndex),
                        "CLOSED-CAPTIONS=\"NONE\" names a group called NONE; write CLOSED-CAPTIONS=NONE")
                } else if cc.isQuoted && c.group(.closedCaptions, cc.unquoted) == nil {
                    sink.add(
                        MasterRules.variantClosedCaptionsGroup, c.line(v.lineIndex), "CLOSED-CAPTIONS=\(cc.rawValue) names no caption group")
                } else if !cc.isQuoted && cc.rawValue != "NONE" {
                    sink.add(
                        MasterRules.variantClosedCaptionsQuoted, c.line(v.lineIndex), "CLOSED-CAPTIONS=\(cc.rawValue)")
                }
            }
        },
        MasterRule("variant.none-everywhere") { c, sink in
            let none = c.variants.filter { $0.attributes["CLOSED-CAPTIONS"]?.rawValue == "NONE" }
            if let first = none.first, none.count != c.variants.count {
                sink.add(
                    MasterRules.variantNoneEverywhere, c.line(first.lineIndex), "\(none.count) of \(c.variants.count) variants say NONE")
            }
        },
    ]

    static let iFrameRules: [MasterRule] = [
        MasterRule("iframe.attributes") { c, sink in
            for f in c.master.iFrameStreams {
                for forbidden in ["SUBTITLES", "CLOSED-CAPTIONS", "AUDIO", "FRAME-RATE"] where f.attributes[forbidden] != nil {
                    sink.add(
                        MasterRules.iframeForbidden.requiring("EXT-X-I-FRAME-STREAM-INF takes no \(forbidden) attribute"), c.line(f.lineIndex),
                        "an I-frame stream has \(forbidden)")
                }
                if f.attributes["URI"] == nil {
                    sink.add(MasterRules.iframeURI, c.line(f.lineIndex), "an I-frame stream has no URI")
                }
                if let bandwidth = f.attributes["BANDWIDTH"] {
                    if bandwidth.isQuoted || Int(bandwidth.rawValue) == nil {
                        sink.add(
                            MasterRules.iframeBandwidthValue, c.line(f.lineIndex), "BANDWIDTH=\(bandwidth.rawValue) is not a decimal-integer")
                    }
                } else {
                    sink.add(
                        MasterRules.iframeBandwidth, c.line(f.lineIndex), "an I-frame stream has no BANDWIDTH"
                    )
                }
            }
        }
    ]

    static func isInstreamID(_ value: String) -> Bool {
        if ["CC1", "CC2", "CC3", "CC4"].contains(value) { return true }
        guard value.hasPrefix("SERVICE"), let n = Int(value.dropFirst(7)) else { return false }
        return (1...63).contains(n)
    }
}
