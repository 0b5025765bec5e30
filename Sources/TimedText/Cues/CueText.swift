/// WebVTT cue text markup: repairing it so a segment is valid WebVTT, and escaping plain text.
///
/// The repair tokenises as the WebVTT cue text tokenizer does (W3C WebVTT §6.4) and rebuilds:
/// known tags (`c`, `i`, `b`, `u`, `ruby`, `rt`, `v`, `lang`, timestamps) are kept with their
/// classes and annotations; unknown tags are dropped, as a browser drops them; end tags without a
/// matching start are dropped and open tags are closed at the end; a `&` that does not begin a
/// character reference becomes `&amp;` and `>` in text becomes `&gt;`. Text a browser would show
/// is unchanged.
package enum CueText {
    /// Escapes plain text for a WebVTT cue: `&`, `<` and `>` as character references.
    package static func escaped(_ plain: String) -> String {
        // Most text has nothing to escape.
        guard plain.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return plain }
        var out = ""
        out.reserveCapacity(plain.utf8.count)
        for scalar in plain.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text with its markup repaired, and whether anything changed.
    package static func repaired(_ text: String) -> (text: String, changed: Bool) {
        // Fast paths: no markup characters at all, or markup already as the repair writes it.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">") }) {
            return (text, false)
        }
        if isAlreadyRepaired(text) { return (text, false) }
        let result = repairedFully(text)
        return (result, result != text)
    }

    /// The full repair, token by token (what the fast path must agree with).
    static func repairedFully(_ text: String) -> String {
        var builder = Builder()
        var tokenizer = Tokenizer(Array(text.unicodeScalars))
        while let token = tokenizer.next() {
            builder.consume(token)
        }
        return builder.finish()
    }

    /// Whether `text` is already what ``repaired(_:)`` would make of it.
    ///
    /// Checked on its bytes without building anything: only `<i>`, `<b>`, `<u>` and
    /// `<c.class…>` tags (classes of letters, digits and `_`), properly nested and closed; `&` only in references ending with `;`; no
    /// `>` outside a tag. Anything else (voices, ruby, timestamps, stray or unknown tags) takes
    /// the full repair.
    static func isAlreadyRepaired(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        bytes.append(0)  // a sentinel: the loops below never read past the end
        var open: [UInt8] = []
        var i = 0
        let end = bytes.count - 1
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: ">"):
                return false
            case UInt8(ascii: "&"):
                guard let next = referenceEnd(bytes, at: i, end: end) else { return false }
                i = next
            case UInt8(ascii: "<"):
                guard let next = tagEnd(bytes, at: i, end: end, open: &open) else { return false }
                i = next
            default:
                i += 1
            }
        }
        return open.isEmpty
    }

    /// One past the `;` of the character reference whose `&` is at `i`, or nil.
    ///
    /// A numeric reference (decimal, or `x` and hexadecimal), or a named one the table knows.
    private static func referenceEnd(_ bytes: [UInt8], at i: Int, end: Int) -> Int? {
        var j = i + 1
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
        if bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = bytes[j] | 0x20 == UInt8(ascii: "x")
            if hex { j += 1 }
            let digitsStart = j
            while j < end, hex ? isHex(bytes[j]) : isDigit(bytes[j]) { j += 1 }
            guard j > digitsStart, bytes[j] == UInt8(ascii: ";") else { return nil }
        } else {
            while j < end, isDigit(bytes[j]) || (bytes[j] | 0x20 >= 0x61 && bytes[j] | 0x20 <= 0x7A) { j += 1 }
            guard j > i + 1, bytes[j] == UInt8(ascii: ";"), j - i <= 34,
                CharacterReferences.named[String(decoding: bytes[(i + 1)...j], as: UTF8.self)] != nil
            else { return nil }
        }
        return j + 1
    }

    /// One past the `>` of the tag whose `<` is at `i`, or nil.
    ///
    /// The tag is `<i>`, `<b>`, `<u>` or `<c.class…>` (classes of letters, digits and `_`), pushed
    /// on `open`, or the end tag of the innermost one, popped.
    private static func tagEnd(_ bytes: [UInt8], at i: Int, end: Int, open: inout [UInt8]) -> Int? {
        var j = i + 1
        let closing = bytes[j] == UInt8(ascii: "/")
        if closing { j += 1 }
        let name = bytes[j]
        guard name == UInt8(ascii: "i") || name == UInt8(ascii: "b") || name == UInt8(ascii: "u") || name == UInt8(ascii: "c") else { return nil }
        j += 1
        if closing {
            guard bytes[j] == UInt8(ascii: ">"), open.last == name else { return nil }
            open.removeLast()
            return j + 1
        }
        if name == UInt8(ascii: "c") {
            while bytes[j] == UInt8(ascii: ".") {
                j += 1
                let classStart = j
                while j < end, bytes[j] != UInt8(ascii: ".") && bytes[j] != UInt8(ascii: ">") {
                    let b = bytes[j]
                    guard (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "_") else { return nil }
                    j += 1
                }
                guard j > classStart else { return nil }
            }
        }
        guard bytes[j] == UInt8(ascii: ">") else { return nil }
        open.append(name)
        return j + 1
    }

    /// The text as Subweave writes it into a segment: markup repaired (``repaired(_:)``), then
    /// made safe to read back as the same cue, and whether anything changed.
    ///
    /// A WebVTT cue ends at its first empty line and a line containing `-->` starts another
    /// block (W3C WebVTT §6.1), so a written cue text must have neither: empty and
    /// whitespace-only lines are removed (a SubRip line that held only `{\an8}` leaves one), CR
    /// becomes LF, and C0 control characters other than tab and line feed, and DEL, are dropped
    /// (a parser turns NUL into U+FFFD; the others are invisible or break terminals). The repair
    /// never writes `-->` (see ``Builder``).
    package static func sanitized(_ text: String) -> (text: String, changed: Bool) {
        let (repaired, repairChanged) = repaired(text)
        var needsWork = false
        var lineHasText = false
        for byte in repaired.utf8 {
            switch byte {
            case 0x0A:
                needsWork = !lineHasText
                lineHasText = false
            case 0x20, 0x09: break
            case 0x00..<0x20, 0x7F: needsWork = true
            default: lineHasText = true
            }
            if needsWork { break }
        }
        if !needsWork && lineHasText { return (repaired, repairChanged) }
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        func endLine() {
            if current.contains(where: { $0 != " " && $0 != "\t" }) { lines.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for scalar in repaired.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x0D: endLine()
            case 0x09: current.append(scalar)
            case 0x00..<0x20, 0x7F: continue
            default: current.append(scalar)
            }
        }
        endLine()
        let result = lines.joined(separator: "\n")
        return (result, repairChanged || result != repaired)
    }

    /// The text a viewer reads: tags removed, character references decoded.
    package static func plainText(_ text: String) -> String {
        // No tag and no reference (most cues): the text is what shows.
        guard text.utf8.contains(where: { $0 == 0x3C || $0 == 0x26 }) else { return text }
        var out = ""
        var tokenizer = Tokenizer(Array(text.unicodeScalars))
        while let token = tokenizer.next() {
            if case .text(let t) = token { out += decodeReferences(t) }
        }
        return out
    }

    static let knownTags: Set<String> = ["c", "i", "b", "u", "ruby", "rt", "v", "lang"]

    enum Token: Equatable {
        case text(String)
        case start(name: String, classes: [String], annotation: String)
        case end(name: String)
        case timestamp(String)
    }

    struct Tokenizer {
        let s: [Unicode.Scalar]
        var i = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }

        static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\u{0C}" }

        mutating func next() -> Token? {
            guard i < s.count else { return nil }
            if s[i] != "<" {
                var text = ""
                while i < s.count, s[i] != "<" {
                    text.unicodeScalars.append(s[i])
                    i += 1
                }
                return .text(text)
            }
            i += 1  // '<'
            guard i < s.count else { return .start(name: "", classes: [], annotation: "") }
            let c = s[i]
            if c == "/" {
                i += 1
                var name = ""
                while i < s.count, s[i] != ">" { name.unicodeScalars.append(s[i]); i += 1 }
                if i < s.count { i += 1 }
                return .end(name: name)
            }
            if c.isASCIIDigit {
                var stamp = ""
                while i < s.count, s[i] != ">" { stamp.unicodeScalars.append(s[i]); i += 1 }
                if i < s.count { i += 1 }
                return .timestamp(stamp)
            }
            var name = ""
            var classes: [String] = []
            var annotation = ""
            var state = 0  // 0 name, 1 class, 2 annotation
            var currentClass = ""
            while i < s.count, s[i] != ">" {
                let ch = s[i]
                switch state {
                case 0:
                    if Tokenizer.isSpace(ch) { state = 2 } else if ch == "." { state = 1 } else { name.unicodeScalars.append(ch) }
                case 1:
                    if Tokenizer.isSpace(ch) {
                        classes.append(currentClass); currentClass = ""; state = 2
                    } else if ch == "." {
                        classes.append(currentClass); currentClass = ""
                    } else {
                        currentClass.unicodeScalars.append(ch)
                    }
                default:
                    annotation.unicodeScalars.append(ch)
                }
                i += 1
            }
            if state == 1 { classes.append(currentClass) }
            if i < s.count { i += 1 }
            return .start(name: name, classes: classes.filter { !$0.isEmpty }, annotation: annotation)
        }
    }

    struct Builder {
        var out = ""
        /// Open elements: the tag as read, and the tag written for it.
        var open: [(read: String, written: String)] = []

        mutating func consume(_ token: Token) {
            switch token {
            case .text(let t):
                out += escapeText(t)
            case .start(let name, let classes, let annotation):
                guard CueText.knownTags.contains(name) else { return }
                // Ruby text only directly inside ruby (the spec ignores it elsewhere).
                if name == "rt" && open.last?.read != "ruby" { return }
                let note = annotation.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\u{0C}" }).joined(separator: " ")
                // `<v>`, `<v.loud>` or `<lang>` without an annotation is a span of its classes to a
                // browser: written as `c`, which says the same and is valid without one.
                let written = (name == "v" || name == "lang") && note.isEmpty ? "c" : name
                var tag = "<" + written
                // A class is written as read unless it holds what cannot be written in a tag, or
                // ends a tag with "--" (the tag's '>' would make "-->", which ends a cue's text).
                var writable = classes.filter { c in
                    c.unicodeScalars.allSatisfy({ !Tokenizer.isSpace($0) && $0 != "&" && $0 != "<" && $0 != ">" && $0.value >= 0x20 })
                }
                while !writable.isEmpty, (tag + writable.map { "." + $0 }.joined()).hasSuffix("--") { writable.removeLast() }
                for c in writable { tag += "." + c }
                if written == "v" || written == "lang" {
                    var escaped = escapeText(note)
                    // "--" before the tag's '>' would read as "-->": the last '-' as a reference says the same.
                    if escaped.hasSuffix("--") { escaped = String(escaped.dropLast()) + "&#45;" }
                    tag += " " + escaped
                }
                out += tag + ">"
                open.append((name, written))
            case .end(let name):
                // The spec closes only the current element (and, for `</ruby>` in ruby text, the
                // ruby text and its ruby); any other end tag is ignored (WebVTT §6.4).
                if open.last?.read == name {
                    out += "</\(open.removeLast().written)>"
                } else if name == "ruby", open.last?.read == "rt", open.dropLast().last?.read == "ruby" {
                    out += "</rt></ruby>"
                    open.removeLast(2)
                }
            case .timestamp(let stamp):
                if WebVTTTimestamp.parse(stamp) != nil { out += "<\(stamp)>" }
            }
        }

        mutating func finish() -> String {
            // A voice span that encloses the rest of the cue needs no end tag (WebVTT §4.2.2).
            let needsClosing = open.first?.written == "v" ? open.dropFirst() : open[...]
            for tag in needsClosing.reversed() { out += "</\(tag.written)>" }
            open = []
            return out
        }

        /// Escapes `&` that does not start a character reference, and `>`.
        private func escapeText(_ t: String) -> String {
            guard t.unicodeScalars.contains(where: { $0 == "&" || $0 == ">" }) else { return t }
            let scalars = Array(t.unicodeScalars)
            var result = ""
            var k = 0
            while k < scalars.count {
                let c = scalars[k]
                if c == ">" {
                    result += "&gt;"
                } else if c == "&" {
                    if let reference = CharacterReferences.match(scalars, at: k) {
                        if reference.terminated {
                            // A complete reference: written as it is, the browser decodes it.
                            for j in k..<(k + reference.length) { result.unicodeScalars.append(scalars[j]) }
                        } else {
                            // A legacy form without `;` (`&amp`, `&not`, `&#233`): what it stands for.
                            result += CueText.escaped(reference.text)
                        }
                        k += reference.length
                        continue
                    }
                    result += "&amp;"
                } else {
                    result.unicodeScalars.append(c)
                }
                k += 1
            }
            return result
        }
    }

    /// Decodes character references as a browser does (``CharacterReferences``).
    static func decodeReferences(_ t: String) -> String {
        guard t.utf8.contains(0x26) else { return t }
        let s = Array(t.unicodeScalars)
        var out = ""
        var k = 0
        while k < s.count {
            if s[k] == "&", let reference = CharacterReferences.match(s, at: k) {
                out += reference.text
                k += reference.length
                continue
            }
            out.unicodeScalars.append(s[k])
            k += 1
        }
        return out
    }
}
