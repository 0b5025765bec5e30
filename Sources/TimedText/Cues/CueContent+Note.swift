import Foundation

/// Kept content carried in a WebVTT file as a comment before its cue, so that cues Subweave
/// keeps as WebVTT (beside a rendition, to segment it again) come back with what WebVTT cannot say.
///
/// The comment is a WebVTT `NOTE` block (W3C WebVTT §4.1: players ignore it) of one line:
/// `NOTE subweave-content ` and the content as JSON, with `>` written `\u003e` so that the
/// block never holds `-->`.
extension CueContent {
    /// The words a content note begins with.
    static let notePrefix = "NOTE subweave-content "

    /// The `NOTE` block for this content, without the blank line after it.
    public var noteBlock: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "" }
        return Self.notePrefix + String(decoding: data, as: UTF8.self).replacingOccurrences(of: ">", with: "\\u003e")
    }

    /// `cues` (read from WebVTT `text`, in its order) with the content of each content note
    /// kept on the cue that follows it, when the note says the same words in the same place as
    /// that cue; a note that does not is ignored (the text says what the cue shows).
    public static func attachingNotes(to cues: [Cue], from text: String) -> [Cue] {
        guard text.contains(notePrefix) else { return cues }
        var result = cues
        var pending: CueContent?
        var index = 0
        for block in text.components(separatedBy: "\n\n") {
            let trimmed = block.drop { $0 == "\n" || $0 == "\r" }
            if trimmed.hasPrefix(notePrefix) {
                let json = trimmed.dropFirst(notePrefix.count).prefix { $0 != "\n" && $0 != "\r" }
                pending = try? JSONDecoder().decode(CueContent.self, from: Data(json.utf8))
                continue
            }
            guard trimmed.contains("-->") else { continue }
            defer {
                index += 1
                pending = nil
            }
            guard let content = pending, index < result.count else { continue }
            let settings = content.box?.webVTTSettings ?? result[index].settings
            guard content.plainText == CueContent(webVTT: result[index].text).plainText, settings == result[index].settings else { continue }
            result[index].keptContent = content
        }
        return result
    }
}
