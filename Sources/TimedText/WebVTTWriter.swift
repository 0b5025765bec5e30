import Timebase

/// Writes WebVTT: cue blocks, whole files and HLS segments.
package enum WebVTTWriter {
    /// A cue block without the blank line after it: identifier line (if any), timing line with
    /// settings, text lines.
    package static func block(_ cue: Cue) -> String {
        var out = ""
        if !cue.identifier.isEmpty { out += cue.identifier + "\n" }
        out += WebVTTTimestamp.format(cue.start) + " --> " + WebVTTTimestamp.format(cue.end)
        let settings = cue.settings.text
        if !settings.isEmpty { out += " " + settings }
        out += "\n" + cue.text
        return out
    }

    /// A WebVTT file or segment: `WEBVTT`, the map line if any (on the line right after the
    /// signature, where hls.js looks for it), a blank line, the header blocks, then the cue blocks,
    /// each followed by a blank line.
    package static func file(map: TimestampMap?, headerBlocks: [String], cueBlocks: [String]) -> String {
        var out = "WEBVTT\n"
        if let map { out += map.line + "\n" }
        out += "\n"
        for block in headerBlocks { out += block + "\n\n" }
        for block in cueBlocks { out += block + "\n\n" }
        return out
    }

    /// The header blocks a document's segments must repeat: its regions and style sheets.
    package static func headerBlocks(_ document: WebVTTDocument) -> [String] {
        document.regions.map(\.block) + document.styleSheets.map { "STYLE\n" + $0 }
    }
}
