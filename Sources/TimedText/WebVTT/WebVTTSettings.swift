import Timebase

/// "Collect WebVTT cue timings and settings" and "parse the WebVTT cue settings" (§6.3).
enum CueTimingParser {
    /// Start, end, the valid settings, and the text of each setting dropped as invalid; nil when
    /// the timings fail.
    static func parse(_ line: ArraySlice<UInt8>, regions: [CueRegion]) -> (MediaTime, MediaTime, CueSettings, [String])? {
        var position = line.startIndex
        func skipWhitespace() { while position < line.endIndex, line[position].isASCIIWhitespace { position += 1 } }
        skipWhitespace()
        guard let start = WebVTTTimestamp.collect(line, &position) else { return nil }
        skipWhitespace()
        for expected in Array("-->".utf8) {
            guard position < line.endIndex, line[position] == expected else { return nil }
            position += 1
        }
        skipWhitespace()
        guard let end = WebVTTTimestamp.collect(line, &position) else { return nil }
        let remainder = String(decoding: line[position...], as: UTF8.self)
        let (settings, dropped) = parseSettings(remainder, regions: regions)
        return (start, end, settings, dropped)
    }

    static func parseSettings(_ text: String, regions: [CueRegion]) -> (CueSettings, [String]) {
        var settings = CueSettings()
        var dropped: [String] = []
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" || $0 == "\r" })
        for token in tokens {
            guard let colon = token.firstIndex(of: ":"), colon != token.startIndex, token.last != ":" else {
                dropped.append(String(token))
                continue
            }
            let name = token[..<colon]
            let value = String(token[token.index(after: colon)...])
            var valid = true
            switch name {
            case "region":
                if regions.contains(where: { $0.identifier == value }) { settings.region = value } else { valid = false }
            case "vertical":
                if let v = CueSettings.Vertical(rawValue: value) { settings.vertical = v } else { valid = false }
            case "line":
                valid = applyLine(value, to: &settings)
            case "position":
                valid = applyPosition(value, to: &settings)
            case "size":
                if let p = percentage(value) { settings.size = p } else { valid = false }
            case "align":
                if let a = CueSettings.Align(rawValue: value) { settings.align = a } else { valid = false }
            default:
                valid = false
            }
            if !valid { dropped.append(String(token)) }
        }
        // §6.3: a cue with a vertical direction, a line, or a size other than 100 leaves its region.
        if settings.region != nil && (settings.vertical != nil || settings.line != nil || (settings.size.map { Double($0) != 100 } ?? false)) {
            settings.region = nil
        }
        return (settings, dropped)
    }

    /// The `line` setting (§6.3): a percentage or a line number, then an optional alignment;
    /// false (nothing set) when it is invalid.
    private static func applyLine(_ value: String, to settings: inout CueSettings) -> Bool {
        let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        let linePosition = String(parts[0])
        var lineAlign: CueSettings.LineAlign?
        if parts.count == 2 {
            guard let a = CueSettings.LineAlign(rawValue: String(parts[1])) else { return false }
            lineAlign = a
        }
        guard linePosition.contains(where: \.isASCIIDigit) else { return false }
        if linePosition.hasSuffix("%") {
            guard let p = percentage(linePosition) else { return false }
            settings.line = .percentage(p)
        } else {
            // HTML's rules for parsing floating-point numbers: a value that rounds to
            // infinity is an error, so the setting is ignored (the line stays auto).
            guard isLineNumber(linePosition), Double(linePosition)?.isFinite == true else { return false }
            settings.line = .number(linePosition)
        }
        settings.lineAlign = lineAlign
        return true
    }

    /// The `position` setting (§6.3): a percentage, then an optional alignment; false (nothing
    /// set) when it is invalid.
    private static func applyPosition(_ value: String, to settings: inout CueSettings) -> Bool {
        let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        guard let p = percentage(String(parts[0])) else { return false }
        var align: CueSettings.PositionAlign?
        if parts.count == 2 {
            guard let a = CueSettings.PositionAlign(rawValue: String(parts[1])) else { return false }
            align = a
        }
        settings.position = p
        settings.positionAlign = align
        return true
    }

    /// "Parse a percentage string": digits, optionally `.` and digits, then `%`, in 0...100.
    ///
    /// Returns the number's text without `%`.
    static func percentage(_ text: String) -> String? {
        guard text.hasSuffix("%") else { return nil }
        let number = String(text.dropLast())
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            let value = Double(number), value >= 0, value <= 100
        else { return nil }
        return number
    }

    /// A snap-to-lines line number: an optional leading `-`, digits, at most one `.` between digits.
    static func isLineNumber(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }
}

/// "Collect WebVTT region settings" (§6.2).
enum RegionSettingsParser {
    static func apply(_ text: String, to region: inout CueRegion) {
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let colon = token.firstIndex(of: ":"), colon != token.startIndex, token.last != ":" else { continue }
            let name = token[..<colon]
            let value = String(token[token.index(after: colon)...])
            switch name {
            case "id":
                if !value.contains("-->") { region.identifier = value }
            case "width":
                if let p = CueTimingParser.percentage(value) { region.width = p }
            case "lines":
                // "If value consists of only ASCII digits": an integer of any length.
                if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) { region.lines = value }
            case "regionanchor", "viewportanchor":
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let x = CueTimingParser.percentage(String(parts[0])),
                    let y = CueTimingParser.percentage(String(parts[1]))
                else { continue }
                if name == "regionanchor" { region.regionAnchor = (x, y) } else { region.viewportAnchor = (x, y) }
            case "scroll":
                if value == "up" { region.scrollUp = true }
            default:
                continue
            }
        }
    }
}
