/// Text from files and command lines made safe to show and to write into a playlist label.
package enum LabelText {
    /// Characters a label (`NAME`) or source ID may not hold: control characters, line and
    /// paragraph separators (line-splitting parsers such as python m3u8 see a new line at
    /// U+2028/U+2029), bidirectional embedding, override and isolate controls, and invisible
    /// zero-width spaces (all of which let one menu entry pass for another).
    ///
    /// ZWJ and ZWNJ are
    /// allowed: Persian, Indic scripts and emoji need them.
    package static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: return true  // C0, DEL, C1
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true  // embeddings, overrides, isolates, ALM
        case 0x200B, 0x2060, 0xFEFF, 0x180E: return true  // zero-width space, word joiner, BOM, Mongolian vowel separator
        default: return false
        }
    }

    /// `scalar` named for a message: "a line feed", "U+202E RIGHT-TO-LEFT OVERRIDE".
    package static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "a double quote"
        case "\n": return "a line feed"
        case "\r": return "a carriage return"
        default:
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).zeroPadded(to: 4)
            if let name = scalar.properties.name { return "\(code) \(name)" }
            return "the control character \(code)"
        }
    }

    /// Why a refused scalar is refused, for the message.
    package static func reason(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x22, 0x0A, 0x0D: return "NAME is a quoted-string, which cannot hold a double quote or line break (RFC 8216bis §4.2)"
        case 0x2028, 0x2029: return "line-splitting playlist parsers read it as a new line; write the label on one line"
        case 0x202A...0x202E, 0x2066...0x2069, 0x061C: return "bidirectional controls can make a menu label read as another; remove them"
        case 0x200B, 0x2060, 0xFEFF, 0x180E: return "invisible characters can make two menu labels look the same; remove them"
        default: return "control characters cannot appear in a playlist label"
        }
    }

    /// At most `limit` characters of `text` for a message, with control, separator, bidirectional
    /// and invisible characters (a terminal escape sequence among them) written as `\u{…}`; with
    /// `lineBreaks`, each line break written so (such as `" / "`, for cue text on one line).
    package static func excerpt(_ text: some StringProtocol, limit: Int = 80, lineBreaks: String? = nil) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return out + "…" }
            if let lineBreaks, scalar == "\n" {
                out += lineBreaks
            } else {
                append(scalar, to: &out, keepingLineBreaks: false)
            }
            count += 1
        }
        return out
    }

    /// `text` as it may be shown on a terminal.
    ///
    /// The characters ``isRefused(_:)`` names (ESC among them) are written as `\u{1B}`, line feeds
    /// and tabs kept. Every human-readable line Subweave prints goes through it: a message may
    /// quote a file name or a hostile file's text.
    package static func visible(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars { append(scalar, to: &out, keepingLineBreaks: true) }
        return out
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, keepingLineBreaks: Bool) {
        if isRefused(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t")) {
            out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
}
