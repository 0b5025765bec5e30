/// The subtitle, caption and variant rules of RFC 8216bis (draft 22) and Apple's HLS Authoring
/// Specification, checked on a master playlist alone.
public enum MasterRules {
    /// Every finding for `master`.
    public static func check(_ master: MasterPlaylist) -> [ValidationFinding] {
        var findings: [ValidationFinding] = []
        let file = master.source
        func add(_ severity: ValidationFinding.Severity, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
            findings.append(ValidationFinding(severity, file: file, line: line, rule: rule, requirement: requirement, message))
        }
        guard let variants = try? master.variants(), let renditions = try? master.renditions(),
              let iframes = try? master.iFrameStreams() else { return findings }
        let lines = master.playlist.lines
        func lineNumber(_ index: Int) -> Int? { lines[index].number }

        // Attribute lists: names appear once (§4.2).
        for (index, line) in lines.enumerated() {
            guard case .tag(let name, let value?) = line.kind, let list = try? AttributeList(parsing: value) else { continue }
            for duplicate in list.duplicateNames {
                add(.error, lineNumber(index), "RFC 8216bis §4.2", "an attribute name appears at most once in an attribute list",
                    "\(name) has \(duplicate) more than once")
            }
        }
        let versions = lines.indices.filter { lines[$0].tagName == "#EXT-X-VERSION" }
        if versions.count > 1 {
            add(.error, lineNumber(versions[1]), "RFC 8216bis §4.4.1.2", "a playlist has at most one EXT-X-VERSION tag",
                "EXT-X-VERSION appears \(versions.count) times")
        }

        // EXT-X-MEDIA (§4.4.6.1).
        let types = ["AUDIO", "VIDEO", "SUBTITLES", "CLOSED-CAPTIONS"]
        for r in renditions {
            let n = lineNumber(r.lineIndex)
            let a = r.attributes
            guard let type = a["TYPE"] else {
                add(.error, n, "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires TYPE", "EXT-X-MEDIA has no TYPE")
                continue
            }
            if type.isQuoted || !types.contains(type.rawValue) {
                add(.error, n, "RFC 8216bis §4.4.6.1", "TYPE is an enumerated-string: AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS, unquoted",
                    "TYPE=\(type.rawValue) is not one of them")
            }
            if a["GROUP-ID"] == nil || a["GROUP-ID"]?.isQuoted == false {
                add(.error, n, "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires GROUP-ID, a quoted-string", "GROUP-ID is missing or unquoted")
            }
            if a["NAME"] == nil || a["NAME"]?.isQuoted == false {
                add(.error, n, "RFC 8216bis §4.4.6.1", "EXT-X-MEDIA requires NAME, a quoted-string", "NAME is missing or unquoted")
            }
            for flag in ["DEFAULT", "AUTOSELECT", "FORCED"] {
                if let value = a[flag], value.rawValue != "YES" && value.rawValue != "NO" {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "\(flag) is an enumerated-string, YES or NO, unquoted", "\(flag)=\(value.rawValue)")
                }
            }
            if r.flag("DEFAULT") && !r.flag("AUTOSELECT") {
                add(.error, n, "RFC 8216bis §4.4.6.1", "if DEFAULT is YES, AUTOSELECT must be YES too",
                    "\(type.rawValue) rendition \"\(r.name ?? "")\" has DEFAULT=YES without AUTOSELECT=YES")
            }
            if let language = r.language {
                if !isLanguageTag(language) {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "LANGUAGE is a BCP 47 (RFC 5646) language tag", "LANGUAGE=\"\(language)\" is not one")
                }
            } else if type.rawValue == "SUBTITLES" || type.rawValue == "CLOSED-CAPTIONS" || type.rawValue == "AUDIO" {
                add(.warning, n, "Apple HLS Authoring Spec 4.4", "every audio, subtitle and caption rendition has a LANGUAGE",
                    "\(type.rawValue) rendition \"\(r.name ?? "")\" has no LANGUAGE; players cannot match it to the viewer")
            }
            switch type.rawValue {
            case "SUBTITLES":
                if r.uri == nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "URI is required for TYPE=SUBTITLES", "subtitle rendition \"\(r.name ?? "")\" has no URI")
                }
                if a["INSTREAM-ID"] != nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is for TYPE=CLOSED-CAPTIONS only", "a SUBTITLES rendition has INSTREAM-ID")
                }
                if r.flag("FORCED") && !r.flag("AUTOSELECT") {
                    add(.warning, n, "Apple HLS Authoring Spec 5.11", "forced subtitle renditions are AUTOSELECT=YES",
                        "forced rendition \"\(r.name ?? "")\" is not AUTOSELECT=YES, so it may never show")
                }
                if let c = a["CHARACTERISTICS"]?.unquoted, c.contains("public.accessibility.transcribes-spoken-dialog"),
                   !c.contains("public.accessibility.describes-music-and-sound") {
                    add(.warning, n, "Apple HLS Authoring Spec 4.5", "SDH subtitles carry both transcribes-spoken-dialog and describes-music-and-sound",
                        "\"\(r.name ?? "")\" has only transcribes-spoken-dialog")
                }
            case "CLOSED-CAPTIONS":
                if r.uri != nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "URI must not appear for TYPE=CLOSED-CAPTIONS (captions ride in the video)",
                        "caption rendition \"\(r.name ?? "")\" has a URI")
                }
                if let id = a["INSTREAM-ID"] {
                    if !isInstreamID(id.unquoted) || !id.isQuoted {
                        add(.error, n, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is a quoted-string: \"CC1\"…\"CC4\" or \"SERVICE1\"…\"SERVICE63\"",
                            "INSTREAM-ID=\(id.rawValue)")
                    }
                } else {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is required for TYPE=CLOSED-CAPTIONS", "caption rendition \"\(r.name ?? "")\" has no INSTREAM-ID")
                }
                if a["FORCED"] != nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "FORCED appears only with TYPE=SUBTITLES", "a CLOSED-CAPTIONS rendition has FORCED")
                }
            default:
                if a["FORCED"] != nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "FORCED appears only with TYPE=SUBTITLES", "a \(type.rawValue) rendition has FORCED")
                }
                if a["INSTREAM-ID"] != nil {
                    add(.error, n, "RFC 8216bis §4.4.6.1", "INSTREAM-ID is for TYPE=CLOSED-CAPTIONS only", "a \(type.rawValue) rendition has INSTREAM-ID")
                }
            }
        }

        // Groups (§4.4.6.1.1).
        var groups: [String: [MasterPlaylist.Rendition]] = [:]
        var groupOrder: [String] = []
        for r in renditions {
            guard let type = r.type, let id = r.groupID else { continue }
            let key = "\(type)\u{0}\(id)"
            if groups[key] == nil { groupOrder.append(key) }
            groups[key, default: []].append(r)
        }
        for key in groupOrder {
            let members = groups[key, default: []]
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            let (type, id) = (String(parts[0]), String(parts[1]))
            let defaults = members.filter { $0.flag("DEFAULT") }
            if defaults.count > 1 {
                add(.error, lineNumber(defaults[1].lineIndex), "RFC 8216bis §4.4.6.1.1", "at most one rendition of a group has DEFAULT=YES",
                    "\(type) group \"\(id)\" has \(defaults.count) DEFAULT=YES renditions (\(defaults.compactMap(\.name).joined(separator: ", ")))")
            }
            var names: [String: Int] = [:]
            for member in members {
                guard let name = member.name else { continue }
                if let first = names[name] {
                    add(.error, lineNumber(member.lineIndex), "RFC 8216bis §4.4.6.1", "NAME is unique among the renditions of a group",
                        "\(type) group \"\(id)\" has NAME \"\(name)\" twice (first on line \(lineNumber(first) ?? 0))")
                } else {
                    names[name] = member.lineIndex
                }
            }
            var combinations: [String: String] = [:]
            for member in members where member.flag("AUTOSELECT") {
                let combination = [member.language ?? "", member.attributes["ASSOC-LANGUAGE"]?.unquoted ?? "",
                                   member.flag("FORCED") ? "forced" : "", member.attributes["CHARACTERISTICS"]?.unquoted ?? ""].joined(separator: "|")
                if let other = combinations[combination] {
                    add(.warning, lineNumber(member.lineIndex), "RFC 8216bis §4.4.6.1.1",
                        "AUTOSELECT=YES renditions of a group differ in LANGUAGE, ASSOC-LANGUAGE, FORCED or CHARACTERISTICS",
                        "\"\(member.name ?? "")\" and \"\(other)\" in \(type) group \"\(id)\" cannot be told apart for automatic selection")
                } else {
                    combinations[combination] = member.name ?? ""
                }
            }
        }
        let subtitleGroups = groupOrder.filter { $0.hasPrefix("SUBTITLES\u{0}") }
        if subtitleGroups.count > 1 {
            func signature(_ key: String) -> [String] {
                groups[key, default: []].map { "\($0.name ?? "")|\($0.language ?? "")|\($0.flag("FORCED"))|\($0.attributes["CHARACTERISTICS"]?.unquoted ?? "")" }.sorted()
            }
            let reference = signature(subtitleGroups[0])
            for key in subtitleGroups.dropFirst() where signature(key) != reference {
                let id = key.split(separator: "\u{0}", omittingEmptySubsequences: false)[1]
                add(.error, groups[key]?.first.flatMap { lineNumber($0.lineIndex) }, "RFC 8216bis §4.4.6.1.1", "several groups of one TYPE hold the same set of renditions",
                    "SUBTITLES group \"\(id)\" differs from group \"\(subtitleGroups[0].split(separator: "\u{0}", omittingEmptySubsequences: false)[1])\"")
            }
        }

        // Variants (§4.4.6.2).
        func groupExists(_ type: String, _ id: String) -> Bool { groups["\(type)\u{0}\(id)"] != nil }
        var captionValues: [(Int, String)] = []
        let hasSubtitles = !subtitleGroups.isEmpty
        for v in variants {
            let n = lineNumber(v.lineIndex)
            let a = v.attributes
            if a["BANDWIDTH"] == nil {
                add(.error, n, "RFC 8216bis §4.4.6.2", "EXT-X-STREAM-INF requires BANDWIDTH", "a variant has no BANDWIDTH")
            }
            for type in ["AUDIO", "VIDEO", "SUBTITLES"] {
                guard let value = a[type] else { continue }
                if !value.isQuoted || !groupExists(type, value.unquoted) {
                    add(.error, n, "RFC 8216bis §4.4.6.2", "\(type) names (as a quoted-string) the GROUP-ID of EXT-X-MEDIA tags with TYPE=\(type)",
                        "\(type)=\(value.rawValue) names no \(type) group")
                }
            }
            if hasSubtitles && a["SUBTITLES"] == nil {
                add(.warning, n, "RFC 8216bis §4.4.6.2", "a variant that offers subtitles names their group in SUBTITLES",
                    "this variant has no SUBTITLES attribute; iOS Safari shows WebVTT only for variants that have one")
            }
            if let cc = a["CLOSED-CAPTIONS"] {
                if cc.isQuoted {
                    if cc.unquoted == "NONE" {
                        add(.error, n, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or the enumerated-string NONE, unquoted",
                            "CLOSED-CAPTIONS=\"NONE\" names a group called NONE; write CLOSED-CAPTIONS=NONE")
                    } else if !groupExists("CLOSED-CAPTIONS", cc.unquoted) {
                        add(.error, n, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS names the GROUP-ID of EXT-X-MEDIA tags with TYPE=CLOSED-CAPTIONS",
                            "CLOSED-CAPTIONS=\(cc.rawValue) names no caption group")
                    }
                } else if cc.rawValue != "NONE" {
                    add(.error, n, "RFC 8216bis §4.4.6.2", "CLOSED-CAPTIONS is a quoted GROUP-ID or NONE", "CLOSED-CAPTIONS=\(cc.rawValue)")
                }
                captionValues.append((v.lineIndex, cc.rawValue))
            } else {
                add(.warning, n, "Apple Technical Q&A QA1801", "a variant without in-band captions says CLOSED-CAPTIONS=NONE",
                    "no CLOSED-CAPTIONS attribute: Apple players may list an \"Unknown CC\" option")
            }
        }
        let noneLines = captionValues.filter { $0.1 == "NONE" }
        if !noneLines.isEmpty && noneLines.count != variants.count {
            add(.error, lineNumber(noneLines[0].0), "RFC 8216bis §4.4.6.2", "if one variant has CLOSED-CAPTIONS=NONE, every variant does",
                "\(noneLines.count) of \(variants.count) variants say NONE")
        }

        // I-frame streams (§4.4.6.3).
        for f in iframes {
            let n = lineNumber(f.lineIndex)
            for forbidden in ["SUBTITLES", "CLOSED-CAPTIONS", "AUDIO", "FRAME-RATE"] where f.attributes[forbidden] != nil {
                add(.error, n, "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF takes no \(forbidden) attribute",
                    "an I-frame stream has \(forbidden)")
            }
            if f.attributes["URI"] == nil {
                add(.error, n, "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires URI", "an I-frame stream has no URI")
            }
            if f.attributes["BANDWIDTH"] == nil {
                add(.error, n, "RFC 8216bis §4.4.6.3", "EXT-X-I-FRAME-STREAM-INF requires BANDWIDTH", "an I-frame stream has no BANDWIDTH")
            }
        }
        return findings
    }

    static func isInstreamID(_ value: String) -> Bool {
        if ["CC1", "CC2", "CC3", "CC4"].contains(value) { return true }
        guard value.hasPrefix("SERVICE"), let n = Int(value.dropFirst(7)) else { return false }
        return (1...63).contains(n)
    }

    /// Well-formedness only (the full parser lives in Timebase): subtags of letters and digits,
    /// the first 2-8 letters.
    static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) || first == "x" else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
