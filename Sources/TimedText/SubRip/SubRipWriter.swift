import Timebase

/// Writes cues as SubRip: numbered blocks, `hh:mm:ss,mmm` times,
/// the text players of SubRip understand: `<i>`, `<b>`, `<u>` kept, WebVTT colour classes as
/// `<font color>`, other markup dropped, character references decoded.
///
/// SubRip has no escape, and its readers (ffmpeg, webvtt-py, players) take what stands between
/// `<` and `>` for a tag and hide it: a literal `<` or `>` of the text (`&lt;LAUGHING&gt;` in
/// WebVTT) is written as `‹` or `›` (U+2039, U+203A), which every reader shows. An ASS override
/// opening `{\` is written `{\u{2060}\` for the same reason (readers hide `{\…}`).
package enum SubRipWriter {
    package static func file(_ cues: [Cue]) -> String {
        var out = ""
        for (index, cue) in cues.enumerated() {
            out += "\(index + 1)\n\(timestamp(cue.start)) --> \(timestamp(cue.end))\n\(text(cue.text))\n\n"
        }
        return out
    }

    /// `hh:mm:ss,mmm`.
    static func timestamp(_ time: MediaTime) -> String {
        var text = WebVTTTimestamp.format(time)
        if let dot = text.lastIndex(of: ".") { text.replaceSubrange(dot...dot, with: ",") }
        return text
    }

    static let colours: Set<String> = ["white", "lime", "cyan", "red", "yellow", "magenta", "blue", "black"]

    /// Text that SubRip readers show as written (no tag shapes).
    static func literal(_ text: String) -> String {
        guard text.contains(where: { $0 == "<" || $0 == ">" || $0 == "{" }) else { return text }
        return text.replacingOccurrences(of: "<", with: "\u{2039}").replacingOccurrences(of: ">", with: "\u{203A}")
            .replacingOccurrences(of: "{\\", with: "{\u{2060}\\")
    }

    /// WebVTT cue text as SubRip text.
    static func text(_ text: String) -> String {
        var out = ""
        var open: [String] = []  // what each open WebVTT tag became ("" when dropped)
        var tokenizer = CueText.Tokenizer(Array(text.unicodeScalars))
        while let token = tokenizer.next() {
            switch token {
            case .text(let t): out += literal(CueText.decodeReferences(t))
            case .start(let name, let classes, _):
                var written = ""
                if ["i", "b", "u"].contains(name) {
                    written = name
                    out += "<\(name)>"
                } else if name == "c", let colour = classes.first(where: colours.contains) {
                    written = "font"
                    out += "<font color=\"\(colour)\">"
                }
                open.append(written)
            case .end:
                if let written = open.popLast(), !written.isEmpty { out += "</\(written)>" }
            case .timestamp:
                continue
            }
        }
        for written in open.reversed() where !written.isEmpty { out += "</\(written)>" }
        return out
    }
}
