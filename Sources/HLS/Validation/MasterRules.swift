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
                        .error, c.line(index), "RFC 8216bis §4.2", "an attribute name appears at most once in an attribute list",
                        "\(name) has \(duplicate) more than once")
                }
            }
        },
        MasterRule("master.version-once") { c, sink in
            let versions = (0..<c.master.playlist.count).filter { c.master.playlist.lineClass($0) == .tag(TagName.version) }
            if versions.count > 1 {
                sink.add(
                    .error, c.line(versions[1]), "RFC 8216bis §4.4.1.2", "a playlist has at most one EXT-X-VERSION tag",
                    "EXT-X-VERSION appears \(versions.count) times")
            }
        },
    ]

    static let renditionRules: [MasterRule] = [
        MasterRule("media.type") { c, sink in
            for r in c.renditions {
                guard let type = r.attributes["TYPE"] else {
                    sink.add(.error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires TYPE", "EXT-X-MEDIA has no TYPE")
                    continue
                }
                if r.type == nil {
                    sink.add(
                        .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1",
                        "TYPE is an enumerated-string: AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, unquoted",
                        "TYPE=\(type.rawValue) is not one of them")
                }
            }
        },
        MasterRule("media.group-id-and-name") { c, sink in
            for r in c.renditions {
                for name in ["GROUP-ID", "NAME"] where r.attributes[name]?.isQuoted != true {
                    sink.add(
                        .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires \(name), a quoted-string", "\(name) is missing or unquoted")
                }
            }
        },
        MasterRule("media.yes-no") { c, sink in
            for r in c.renditions {
                for flag in ["DEFAULT", "AUTOSELECT", "FORCED"] {
                    if let value = r.attributes[flag], YesNo(rawValue: value.rawValue) == nil {
                        sink.add(
                            .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "\(flag) is an enumerated-string, YES or NO, unquoted",
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
                    .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "if AUTOSELECT is present, it is YES when DEFAULT is YES",
                    "rendition \"\(c.name(r))\" has DEFAULT=YES and AUTOSELECT=NO")
            }
        },
        MasterRule("media.language") { c, sink in
            for r in c.renditions {
                if let language = r.language {
                    if !LanguageTag.isWellFormed(language) {
                        sink.add(
                            .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "LANGUAGE is a BCP 47 (RFC 5646) language tag",
                            "LANGUAGE=\"\(LabelText.excerpt(language))\" is not one")
                    }
                } else if let type = r.type, type != .video {
                    sink.add(
                        .warning, c.line(r.lineIndex), "Apple HLS Authoring Spec 4.4", "every audio, subtitle and caption rendition has a LANGUAGE",
                        "\(type.rawValue) rendition \"\(c.name(r))\" has no LANGUAGE; players cannot match it to the viewer")
                }
            }
        },
        MasterRule("subtitles.uri") { c, sink in
            for r in c.renditions where r.type == .subtitles && r.uri == nil {
                sink.add(
                    .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "URI is required for TYPE=SUBTITLES", "subtitle rendition \"\(c.name(r))\" has no URI")
            }
        },
        MasterRule("subtitles.forced-autoselect") { c, sink in
            for r in c.renditions where r.type == .subtitles && r.isForced && !r.isAutoselect {
                sink.add(
                    .warning, c.line(r.lineIndex), "Apple HLS Authoring Spec 5.11", "forced subtitle renditions are AUTOSELECT=YES",
                    "forced rendition \"\(c.name(r))\" is not AUTOSELECT=YES, so it may never show")
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
                        .warning, c.line(r.lineIndex), "Apple HLS Authoring Spec 4.6", "SDH subtitle and caption renditions are AUTOSELECT=YES",
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
                    .warning, c.line(r.lineIndex), "Apple HLS Authoring Spec 4.5",
                    "SDH subtitles carry both transcribes-spoken-dialog and describes-music-and-sound",
                    "\"\(c.name(r))\" has only transcribes-spoken-dialog")
            }
        },
        MasterRule("captions.no-uri") { c, sink in
            for r in c.renditions where r.type == .closedCaptions && r.uri != nil {
                sink.add(
                    .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "URI must not appear for TYPE=CLOSED-CAPTIONS (captions ride in the video)",
                    "caption rendition \"\(c.name(r))\" has a URI")
            }
        },
        MasterRule("captions.instream-id") { c, sink in
            for r in c.renditions where r.type == .closedCaptions {
                guard let id = r.attributes["INSTREAM-ID"] else {
                    sink.add(
                        .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "INSTREAM-ID is required for TYPE=CLOSED-CAPTIONS",
                        "caption rendition \"\(c.name(r))\" has no INSTREAM-ID")
                    continue
                }
                if !id.isQuoted || !isInstreamID(id.unquoted) {
                    sink.add(
                        .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "INSTREAM-ID is a quoted-string: \"CC1\"…\"CC4\" or \"SERVICE1\"…\"SERVICE63\"",
                        "INSTREAM-ID=\(id.rawValue)")
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
                    .error, c.line(r.lineIndex), "RFC 8216bis §7", "INSTREAM-ID \"SERVICEn\" (CEA-708) requires EXT-X-VERSION 7 or higher",
                    "INSTREAM-ID=\(id.rawValue) in a playlist of version \(version)")
            }
        },
        MasterRule("media.forced-only-subtitles") { c, sink in
            for r in c.renditions where r.type != .subtitles && r.type != nil && r.attributes["FORCED"] != nil {
                sink.add(
                    .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "FORCED appears only with TYPE=SUBTITLES",
                    "a \(r.type?.rawValue ?? "") rendition has FORCED")
            }
        },
        MasterRule("media.instream-id-only-captions") { c, sink in
            for r in c.renditions where r.type != .closedCaptions && r.type != nil && r.attributes["INSTREAM-ID"] != nil {
                sink.add(
                    .error, c.line(r.lineIndex), "RFC 8216bis §4.4.6.1", "INSTREAM-ID is for TYPE=CLOSED-CAPTIONS only",
                    "a \(r.type?.rawValue ?? "") rendition has INSTREAM-ID")
            }
        },
    ]

    static let groupRules: [MasterRule] = [
        MasterRule("group.one-default") { c, sink in
            for group in c.groups {
                let defaults = group.members.filter(\.isDefault)
                guard defaults.count > 1 else { continue }
                sink.add(
                    .error, c.line(defaults[1].lineIndex), "RFC 8216bis §4.4.6.1.1", "at most one rendition of a group has DEFAULT=YES",
                    "\(group.type.rawValue) group \"\(group.id)\" has \(defaults.count) DEFAULT=YES renditions (\(defaults.map(c.name).joined(separator: ", ")))"
                )
            }
        },
        MasterRule("group.unique-names") { c, sink in
            for group in c.groups {
                for (first, again) in RenditionNames.repeats(group.members.map(\.name)) {
                    let member = group.members[again]
                    sink.add(
                        .error, c.line(member.lineIndex), "RFC 8216bis §4.4.6.1", "NAME is unique among the renditions of a group",
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
                            .warning, c.line(member.lineIndex), "RFC 8216bis §4.4.6.1.1",
                            "AUTOSELECT=YES renditions of a group differ in LANGUAGE, ASSOC-LANGUAGE, FORCED or CHARACTERISTICS",
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
                    .error, group.members.first.flatMap { c.line($0.lineIndex) }, "RFC 8216bis §4.4.6.1.1",
                    "several groups of one TYPE hold the same set of renditions",
                    "SUBTITLES group \"\(group.id)\" differs from group \"\(reference.id)\"")
            }
        },
    ]

    static let variantRules: [MasterRule] = [
        MasterRule("variant.bandwidth") { c, sink in
            for v in c.variants where v.attributes["BANDWIDTH"] == nil {
                sink.add(.error, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2", "EXT-X-STREAM-INF requires BANDWIDTH", "a variant has no BANDWIDTH")
            }
        },
        MasterRule("variant.group-references") { c, sink in
            for v in c.variants {
                for type in [MediaType.audio, .video, .subtitles] {
                    guard let value = v.attributes[type.streamInfAttribute] else { continue }
                    if !value.isQuoted || c.group(type, value.unquoted) == nil {
                        sink.add(
                            .error, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2",
                            "\(type.rawValue) names (as a quoted-string) the GROUP-ID of EXT-X-MEDIA tags with TYPE=\(type.rawValue)",
                            "\(type.rawValue)=\(value.rawValue) names no \(type.rawValue) group")
                    }
                }
            }
        },
        MasterRule("variant.subtitles-present") { c, sink in
            guard c.groups.contains(where: { $0.type == .subtitles }) else { return }
            for v in c.variants where v.attributes["SUBTITLES"] == nil {
                sink.add(
                    .warning, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2", "a variant that offers subtitles names their group in SUBTITLES",
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
                        .warning, c.line(v.lineIndex), "Apple Technical Q&A QA1801",
                        "a variant says CLOSED-CAPTIONS (a group, or NONE without in-band captions)",
                        "no CLOSED-CAPTIONS attribute, so Apple players may list an \"Unknown CC\" option; \(advice)")
                    continue
                }
                if cc.isQuoted && cc.unquoted == "NONE" {
                    sink.add(
                        .error, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or the enumerated-string NONE, unquoted",
                        "CLOSED-CAPTIONS=\"NONE\" names a group called NONE; write CLOSED-CAPTIONS=NONE")
                } else if cc.isQuoted && c.group(.closedCaptions, cc.unquoted) == nil {
                    sink.add(
                        .error, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS names the GROUP-ID of EXT-X-MEDIA tags with TYPE=CLOSED-CAPTIONS",
                        "CLOSED-CAPTIONS=\(cc.rawValue) names no caption group")
                } else if !cc.isQuoted && cc.rawValue != "NONE" {
                    sink.add(
                        .error, c.line(v.lineIndex), "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or NONE", "CLOSED-CAPTIONS=\(cc.rawValue)")
                }
            }
        },
        MasterRule("variant.none-everywhere") { c, sink in
            let none = c.variants.filter { $0.attributes["CLOSED-CAPTIONS"]?.rawValue == "NONE" }
            if let first = none.first, none.count != c.variants.count {
                sink.add(
                    .error, c.line(first.lineIndex), "RFC 8216bis §4.4.6.2", "if one variant has CLOSED-CAPTIONS=NONE, every variant does",
                    "\(none.count) of \(c.variants.count) variants say NONE")
            }
        },
    ]

    static let iFrameRules: [MasterRule] = [
        MasterRule("iframe.attributes") { c, sink in
            for f in c.master.iFrameStreams {
                for forbidden in ["SUBTITLES", "CLOSED-CAPTIONS", "AUDIO", "FRAME-RATE"] where f.attributes[forbidden] != nil {
                    sink.add(
                        .error, c.line(f.lineIndex), "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF takes no \(forbidden) attribute",
                        "an I-frame stream has \(forbidden)")
                }
                if f.attributes["URI"] == nil {
                    sink.add(.error, c.line(f.lineIndex), "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires URI", "an I-frame stream has no URI")
                }
                if let bandwidth = f.attributes["BANDWIDTH"] {
                    if bandwidth.isQuoted || Int(bandwidth.rawValue) == nil {
                        sink.add(
                            .error, c.line(f.lineIndex), "RFC 8216bis §4.4.6.3", "BANDWIDTH is a decimal-integer (unquoted)",
                            "BANDWIDTH=\(bandwidth.rawValue) is not a decimal-integer")
                    }
                } else {
                    sink.add(
                        .error, c.line(f.lineIndex), "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires BANDWIDTH", "an I-frame stream has no BANDWIDTH"
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
