import Timebase

/// Writes WebVTT: cue blocks, whole files and HLS segments.
package enum WebVTTWriter {
    /// A cue block without the blank line after it: identifier line (if any), timing line with
    /// settings, text lines.
    package static func block(_ cue: Cue) -> String {
        var out = ""
        let settings = cue.settings.text
        // Sized once: a cue's text may be as large as its file, and is copied once.
        out.reserveCapacity(cue.identifier.utf8.count + settings.utf8.count + cue.text.utf8.count + 40)
        if !cue.identifier.isEmpty {
            out += cue.identifier
            out += "\n"
        }
        out += WebVTTTimestamp.format(cue.start)
        out += " --> "
        out += WebVTTTimestamp.format(cue.end)
        if !settings.isEmpty {
            out += " "
            out += settings
        }
        out += "\n"
        out += cue.text
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
