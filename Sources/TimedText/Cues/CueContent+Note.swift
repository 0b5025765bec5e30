import Timebase

/// Kept content carried in a WebVTT file as a comment before its cue, so that cues Subweave
/// keeps as WebVTT (beside a rendition, to segment it again) come back with what WebVTT cannot say.
///
/// The comment is a WebVTT `NOTE` block (W3C WebVTT §4.1: players ignore it) of one line:
/// `NOTE subweave-content ` and the content as compact JSON, written and read by hand (``NoteJSON``:
/// 20,000 cues take milliseconds, where `JSONEncoder` and `JSONSerialization` took half a second
/// each), with `>` written `\u003e` so that the block never holds `-->`:
///
/// ```
/// {"l":[[{"t":"縦","s":{"c":"#123456","f":"Arial"}}]],"b":{"x":80,"y":10,"w":15,"h":80,"d":"before","m":"tbrl"}}
/// ```
///
/// `l` the lines, each a list of runs: `t` text with its style `s` (`i`, `b`, `u` italic, bold,
/// underline; `c` colour, `g` background; `f` font family, `z` size, `o` outline; `n` language,
/// `v` voice, `k` classes), `r` ruby with its base, `a` annotation and `p` position, `m` a
/// karaoke timestamp; `b` the box: `x`, `y`, `w`, `h` percentages, `d` display alignment, `m`
/// writing mode, `a` text alignment.
extension CueContent {
    /// The words a content note begins with.
    package static let notePrefix = "NOTE subweave-content "

    /// The `NOTE` block for this content without a cue to match (it is attached to none).
    package var noteBlock: String { Self.notePrefix + noteJSON(hash: nil) }

    /// The hash a note keeps of the cue it was written for: its settings and text as written.
    package static func hash(of cue: Cue) -> String {
        var hash = ContentHash()
        hash.add(cue.settings.text)
        hash.add(cue.text)
        return hash.hex()
    }

    /// The content as the note's JSON, with `hash` (``hash(of:)``) when there is one.
    func noteJSON(hash: String?) -> String {
        var out = "{\"l\":["
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "," }
            Self.write(line, to: &out)
        }
        out += "]"
        if let box {
            out += ",\"b\":{\"x\":\(box.left),\"y\":\(box.top),\"w\":\(box.width),\"h\":\(box.height)"
            out += ",\"d\":\"\(box.displayAlign.rawValue)\",\"m\":\"\(box.writingMode.rawValue)\""
            if let align = box.textAlign { out += ",\"a\":\"\(align.rawValue)\"" }
            out += "}"
        }
        if let hash { out += ",\"h\":\"\(hash)\"" }
        return out + "}"
    }

    private static func write(_ runs: [CueRun], to out: inout String) {
        out += "["
        for (index, run) in runs.enumerated() {
            if index > 0 { out += "," }
            switch run {
            case .text(let text, let style):
                out += "{\"t\":"
                string(text, to: &out)
                if !style.isPlain {
                    out += ",\"s\":"
                    write(style, to: &out)
                }
                out += "}"
            case .ruby(let base, let annotation, let position):
                out += "{\"r\":"
                write(base, to: &out)
                out += ",\"a\":"
                write(annotation, to: &out)
                out += ",\"p\":\"\(position.rawValue)\"}"
            case .timestamp(let time):
                out += "{\"m\":"
                string(time, to: &out)
                out += "}"
            }
        }
        out += "]"
    }

    private static func write(_ style: CueStyle, to out: inout String) {
        var fields: [String] = []
        if style.italic { fields.append("\"i\":1") }
        if style.bold { fields.append("\"b\":1") }
        if style.underline { fields.append("\"u\":1") }
        let strings: [(String, String?)] = [
            ("c", style.colour?.description), ("g", style.background?.description), ("f", style.fontFamily), ("z", style.fontSize),
            ("o", style.textOutline), ("n", style.language), ("v", style.voice),
        ]
        for (key, value) in strings {
            guard let value else { continue }
            var field = "\"\(key)\":"
            string(value, to: &field)
            fields.append(field)
        }
        if !style.classes.isEmpty {
            var field = "\"k\":["
            for (index, name) in style.classes.enumerated() {
                if index > 0 { field += "," }
                string(name, to: &field)
            }
            fields.append(field + "]")
        }
        out += "{" + fields.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string: quotes, backslashes, control characters and `>` escaped.
    private static func string(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case ">": out += "\\u003e"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The content a note's JSON says, or nil when it is not a content note Subweave wrote.
    package init?(noteJSON: Substring) {
        guard let (content, _) = Self.note(noteJSON) else { return nil }
        self = content
    }

    /// The content a note's JSON says and the hash of the cue it was written for, if it says one.
    static func note(_ json: Substring) -> (CueContent, String?)? {
        var parser = NoteJSON(Array(json.utf8))
        guard let object = parser.document()?.object, let content = CueContent(object) else { return nil }
        return (content, object["h"]?.string)
    }

    private init?(_ object: NoteJSON.Members) {
        guard let lines = object["l"]?.array else { return nil }
        var read: [[CueRun]] = []
        for line in lines {
            guard let runs = Self.runs(line) else { return nil }
            read.append(runs)
        }
        var box: CueBox?
        if let b = object["b"] {
            guard let b = b.object, let x = b["x"]?.number, let y = b["y"]?.number, let w = b["w"]?.number, let h = b["h"]?.number,
                let display = b["d"]?.string.flatMap(CueBox.DisplayAlign.init), let mode = b["m"]?.string.flatMap(CueBox.WritingMode.init)
            else { return nil }
            box = CueBox(left: x, top: y, width: w, height: h, displayAlign: display, writingMode: mode)
            if let align = b["a"] {
                guard let align = align.string.flatMap(CueBox.TextAlign.init) else { return nil }
                box?.textAlign = align
            }
        }
        self.init(lines: read, box: box)
    }

    private static func runs(_ value: NoteJSON.Value) -> [CueRun]? {
        guard let list = value.array else { return nil }
        var runs: [CueRun] = []
        for item in list {
            guard let run = item.object else { return nil }
            if let text = run["t"]?.string {
                guard let style = run["s"].map(Self.style) ?? CueStyle() else { return nil }
                runs.append(.text(text, style))
            } else if let base = run["r"].flatMap(Self.runs), let annotation = run["a"].flatMap(Self.runs),
                let position = run["p"]?.string.flatMap(CueStyle.RubyPosition.init)
            {
                runs.append(.ruby(base: base, annotation: annotation, position: position))
            } else if let time = run["m"]?.string {
                runs.append(.timestamp(time))
            } else {
                return nil
            }
        }
        return runs
    }

    private static func style(_ value: NoteJSON.Value) -> CueStyle? {
        guard let fields = value.object else { return nil }
        var style = CueStyle()
        style.italic = fields["i"]?.number == 1
        style.bold = fields["b"]?.number == 1
        style.underline = fields["u"]?.number == 1
        if let c = fields["c"] {
            guard let colour = c.string.flatMap({ CueColour($0) }) else { return nil }
            style.colour = colour
        }
        if let g = fields["g"] {
            guard let colour = g.string.flatMap({ CueColour($0) }) else { return nil }
            style.background = colour
        }
        style.fontFamily = fields["f"]?.string
        style.fontSize = fields["z"]?.string
        style.textOutline = fields["o"]?.string
        style.language = fields["n"]?.string
        style.voice = fields["v"]?.string
        if let k = fields["k"] {
            guard let list = k.array else { return nil }
            let classes = list.compactMap(\.string)
            guard classes.count == list.count else { return nil }
            style.classes = classes
        }
        return style
    }

    /// `cues` (read from WebVTT `text`, in its order) with the content of each content note
    /// kept on the cue that follows it, when the note was written for that cue as it is (its
    /// settings and text hash as the note says); a note that was not is ignored (the text says
    /// what the cue shows).
    ///
    /// Read line by line on the UTF-8 bytes: a note line sets the content for the next timing
    /// line (one with `-->`, which only timing lines hold), which is the next cue.
    public static func attachingNotes(to cues: [Cue], from text: String) -> [Cue] {
        let prefix = Array(notePrefix.utf8)
        var result = cues
        var pending: (content: CueContent, hash: String?)?
        var index = 0
        var found = false
        var utf8 = text
        utf8.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.starts(with: prefix) {
                    found = true
                    pending = Self.note(Substring(String(decoding: line[prefix.count...], as: UTF8.self)))
                } else if Self.holdsArrow(line) {
                    if let (content, hash) = pending, let hash, index < result.count, hash == Self.hash(of: result[index]) {
                        result[index].keptContent = content
                    }
                    pending = nil
                    index += 1
                }
                start = end + 1
            }
        }
        return found ? result : cues
    }

    /// Whether `line` holds `-->`.
    private static func holdsArrow(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count >= 3 else { return false }
        for i in 0..<(line.count - 2) where line[i] == 0x2D && line[i + 1] == 0x2D && line[i + 2] == 0x3E { return true }
        return false
    }
}
