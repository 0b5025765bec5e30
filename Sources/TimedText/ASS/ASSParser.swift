import Timebase

/// Advanced SubStation Alpha (`.ass`) and SubStation Alpha (`.ssa`) subtitles, read into cues.
///
/// The `[Events]` section's `Dialogue:` lines, in the order its `Format:` line gives (the last
/// field, Text, keeps its commas); `Comment:` lines are skipped. Times are `H:MM:SS.cc`. In the
/// text, `\N` and `\n` break the line and `\h` is a no-break space; override blocks map what
/// WebVTT can say: `{\i1}`/`{\b1}`/`{\u1}` (and 0 to end) become `<i>`/`<b>`/`<u>`, `{\r}` ends
/// them, `{\anN}` (or SSA's `{\aN}`) sets line and alignment as for SubRip, and `{\pos(x,y)}` sets
/// line and position as percentages of the script's `PlayResX`/`PlayResY`. Each cue keeps its
/// ``CueContent`` with the style's and overrides' colour (`PrimaryColour`, `{\c}`, `{\1c}`), font
/// (`Fontname`, `{\fn}`) and size (`Fontsize`, `{\fs}`, as cells of 15 to `PlayResY`); a colour
/// of WebVTT's eight other than white is written in the text as its class. Other overrides are
/// dropped; drawings (`{\p1}` … `{\p0}`) are dropped with a warning. A style's italic, bold,
/// underline and alignment apply to its lines. Layers are kept: cues are sorted by start time,
/// then by layer.
package enum ASSParser {
    /// Parses `text`; fails when there is no `[Events]` section with a `Format:` line.
    package static func parse(_ text: String) throws(SubtitleFileError) -> (cues: [Cue], warnings: [IngestWarning]) {
        var reader = ASSReader()
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, raw) in lines.enumerated() {
            var line = Substring(raw)
            if index == 0, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            reader.read(line, number: index + 1)
        }
        guard reader.sawEvents else {
            throw SubtitleFileError(.ass, line: 1, "no [Events] section: not an ASS/SSA script (it begins with [Script Info], then styles, then [Events])")
        }
        let ordered = reader.events.enumerated().sorted { a, b in
            (a.element.cue.start, a.element.layer, a.offset) < (b.element.cue.start, b.element.layer, b.offset)
        }
        return (ordered.map(\.element.cue), reader.warnings)
    }
}

/// The state of a read: the section, the formats, the styles, the events so far.
struct ASSReader {
    struct Style {
        var italic = false
        var bold = false
        var underline = false
        /// Numpad alignment (1-9).
        var alignment = 2
        /// `PrimaryColour`: the text's colour.
        var colour: CueColour?
        var fontName: String?
        /// `Fontsize`, in script pixels (of `PlayResY`).
        var fontSize: Double?
    }

    var section = ""
    var legacy = false
    var styleFormat: [String] = []
    var eventFormat: [String] = []
    var styles: [String: Style] = [:]
    var playResX: Double?
    var playResY: Double?
    /// `WrapStyle` (ASS specs: 2 makes `\n` a hard line break; otherwise it is a soft one).
    var wrapStyle = 0
    var events: [(cue: Cue, layer: Int)] = []
    var warnings: [IngestWarning] = []
    var sawEvents = false

    mutating func read(_ line: Substring, number: Int) {
        let trimmed = line.trimming([" ", "\t"])
        if trimmed.isEmpty || trimmed.hasPrefix(";") { return }
        if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
            section = trimmed.lowercased()
            if section == "[events]" { sawEvents = true }
            if section == "[v4 styles]" { legacy = true }
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let key = trimmed[..<colon].trimming([" ", "\t"]).lowercased()
        let value = String(trimmed[trimmed.index(after: colon)...].trimming([" ", "\t"]))
        switch (section, key) {
        case ("[script info]", "playresx"): playResX = Double(value).flatMap { $0 > 0 ? $0 : nil }
        case ("[script info]", "playresy"): playResY = Double(value).flatMap { $0 > 0 ? $0 : nil }
        case ("[script info]", "wrapstyle"): wrapStyle = Int(value) ?? 0
        case ("[v4+ styles]", "format"), ("[v4 styles]", "format"): styleFormat = Self.fields(value)
        case ("[v4+ styles]", "style"), ("[v4 styles]", "style"): readStyle(value)
        case ("[events]", "format"): eventFormat = Self.fields(value)
        case ("[events]", "dialogue"): readDialogue(value, number: number)
        default: return
        }
    }

    static func fields(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimming([" ", "\t"]).lowercased() }
    }

    /// Splits `value` into `count` fields; the last keeps its commas.
    static func split(_ value: String, count: Int) -> [String]? {
        let parts = value.split(separator: ",", maxSplits: max(0, count - 1), omittingEmptySubsequences: false).map(String.init)
        return parts.count == count ? parts : nil
    }

    mutating func readStyle(_ value: String) {
        guard !styleFormat.isEmpty, let parts = Self.split(value, count: styleFormat.count) else { return }
        var style = Style()
        func field(_ name: String) -> String? { styleFormat.firstIndex(of: name).map { String(parts[$0].trimming([" ", "\t"])) } }
        style.italic = field("italic").map { $0 != "0" && !$0.isEmpty } ?? false
        style.bold = field("bold").map { $0 != "0" && !$0.isEmpty } ?? false
        style.underline = field("underline").map { $0 != "0" && !$0.isEmpty } ?? false
        style.colour = (field("primarycolour") ?? field("primarycolor")).flatMap(Self.colour)
        style.fontName = field("fontname").flatMap { $0.isEmpty ? nil : $0 }
        style.fontSize = field("fontsize").flatMap(Double.init).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        if let alignment = field("alignment").flatMap(Int.init) {
            style.alignment = legacy ? Self.numpad(legacy: alignment) ?? 2 : (1...9).contains(alignment) ? alignment : 2
        }
        styles[field("name") ?? "Default"] = style
    }

    /// An ASS colour: `&HAABBGGRR` or `&HBBGGRR` (hexadecimal, `&H` and the closing `&`
    /// optional; alpha 00 is opaque, FF transparent), or SSA's decimal of the same bits.
    static func colour(_ text: String) -> CueColour? {
        var v = text.trimming(.asciiWhitespace)
        if v.hasSuffix("&") { v = v.dropLast() }
        let value: UInt32?
        if v.hasPrefix("&H") || v.hasPrefix("&h") {
            let digits = v.dropFirst(2)
            value = digits.count <= 8 ? UInt32(digits, radix: 16) : nil
        } else {
            value = v.count <= 10 ? UInt32(v) : nil
        }
        guard let value else { return nil }
        return CueColour(
            red: UInt8(value & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value >> 16 & 0xFF), alpha: 255 - UInt8(value >> 24 & 0xFF))
    }

    /// SSA's alignment (1-3 bottom, +4 top, +8 middle) as a numpad position.
    static func numpad(legacy value: Int) -> Int? {
        let column = value & 3
        guard (1...3).contains(column) else { return nil }
        if value & 4 != 0 { return 6 + column }
        if value & 8 != 0 { return 3 + column }
        return column
    }

    mutating func readDialogue(_ value: String, number: Int) {
        let format = eventFormat.isEmpty ? ["layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text"] : eventFormat
        guard let parts = Self.split(value, count: format.count), let textIndex = format.firstIndex(of: "text"),
            let startIndex = format.firstIndex(of: "start"), let endIndex = format.firstIndex(of: "end")
        else {
            warnings.append(
                IngestWarning(kind: .cueSkipped, line: number, "Dialogue line skipped: it does not have the \(format.count) fields its Format line names"))
            return
        }
        guard let start = Self.time(parts[startIndex]), let end = Self.time(parts[endIndex]) else {
            warnings.append(
                IngestWarning(
                    kind: .cueSkipped, line: number, "Dialogue line skipped: \"\(parts[startIndex])\" or \"\(parts[endIndex])\" is not a time H:MM:SS.cc"))
            return
        }
        guard end > start else {
            warnings.append(IngestWarning(kind: .cueSkipped, line: number, "Dialogue line skipped: its end is not after its start"))
            return
        }
        let styleName = format.firstIndex(of: "style").map { String(parts[$0].trimming([" ", "\t", "*"])) } ?? "Default"
        let style = styles[styleName] ?? styles["Default"] ?? Style()
        var text = ASSText(style: style, playRes: (playResX, playResY), softBreaksAreHard: wrapStyle == 2)
        text.convert(parts[textIndex])
        if text.droppedDrawing {
            warnings.append(IngestWarning(kind: .markupRepaired, line: number, "a drawing ({\\p…}) was dropped: WebVTT cannot show vector drawings"))
        }
        guard !text.plainIsEmpty else { return }
        let layer = format.firstIndex(of: "layer").flatMap { Int(String(parts[$0].trimming([" ", "\t"]))) } ?? 0
        var cue = Cue(start: start, end: end, settings: text.settings, text: text.output, sourceLine: number)
        let content = text.content
        // A colour of WebVTT's eight other than the default white: the text is written from the content.
        if content.hasWebVTTColour {
            var unsaid: Set<String> = []
            cue.text = content.webVTT(dropping: &unsaid)
        }
        cue.keptContent = content
        events.append((cue, layer))
    }

    /// `H:MM:SS.cc` (hours any digits, up to 9; centiseconds, or more digits read as a fraction).
    static func time(_ text: String) -> MediaTime? {
        let parts = String(text.trimming([" ", "\t"])).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, (1...9).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit), parts[1].count == 2,
            parts[1].allSatisfy(\.isASCIIDigit), let hours = Int64(parts[0]), let minutes = Int64(parts[1]), minutes < 60
        else { return nil }
        let secondParts = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(secondParts.count), secondParts[0].count == 2, secondParts[0].allSatisfy(\.isASCIIDigit),
            let seconds = Int64(secondParts[0]), seconds < 60
        else { return nil }
        var fraction: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1].prefix(3)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int64(digits) else { return nil }
            fraction = value * [100, 10, 1][digits.count - 1]
        }
        return MediaTime(hours: hours, minutes: minutes, seconds: seconds, milliseconds: fraction)
    }
}

/// One Dialogue text turned into WebVTT cue text and settings.
struct ASSText {
    let style: ASSReader.Style
    let playRes: (x: Double?, y: Double?)
    var output = ""
    var settings = CueSettings()
    var droppedDrawing = false
    var plainIsEmpty = true
    private var open: [String] = []
    private var drawing = false
    /// The same text as runs with everything the script says of their look.
    private var lines: [[CueRun]] = [[]]
    private var colour: CueColour?
    private var fontName: String?
    private var fontSize: Double?

    /// Text not yet in `lines`, all in one look.
    private var pending = ""
    private var pendingLook = CueStyle()

    /// What the line shows, in no format's terms: the styles' and overrides' colour, font and
    /// size kept (a size as cells of the frame's height: `PlayResY` is 15 cells, IMSC1's default).
    var content: CueContent {
        var text = self
        text.flush()
        return CueContent(lines: text.lines)
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        lines[lines.count - 1].append(.text(pending, pendingLook))
        pending = ""
    }

    /// `\n` breaks the line (WrapStyle 2) or is a space where the renderer may wrap (libass:
    /// "There should be no linebreak here"); `\N` always breaks.
    let softBreaksAreHard: Bool

    init(style: ASSReader.Style, playRes: (x: Double?, y: Double?), softBreaksAreHard: Bool = false) {
        self.style = style
        self.playRes = playRes
        self.softBreaksAreHard = softBreaksAreHard
    }

    /// `text` added to the runs in the current look; a line feed starts a line.
    private mutating func addRun(_ text: String) {
        for (index, part) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if index > 0 {
                flush()
                lines.append([])
            }
            guard !part.isEmpty else { continue }
            var look = CueStyle()
            look.italic = open.contains("i")
            look.bold = open.contains("b")
            look.underline = open.contains("u")
            // Opaque white is every player's default look: not said, as WebVTT and IMSC1 leave it unsaid.
            look.colour = colour == CueColour(red: 255, green: 255, blue: 255) ? nil : colour
            look.fontFamily = fontName
            if let fontSize, let height = playRes.y { look.fontSize = ASSText.format(fontSize / height * 15) + "c" }
            if look != pendingLook {
                flush()
                pendingLook = look
            }
            pending += part
        }
    }

    mutating func convert(_ text: String) {
        colour = style.colour
        fontName = style.fontName
        fontSize = style.fontSize
        var alignment = style.alignment
        var position: (Double, Double)?
        if style.italic { openTag("i") }
        if style.bold { openTag("b") }
        if style.underline { openTag("u") }
        let s = Array(text.unicodeScalars)
        // The next `}` is found once for every `{` before it (a line of `{` is linear).
        var nextBrace = NextIndex<Unicode.Scalar>("}")
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "{", let close = nextBrace.find(in: s, from: i) {
                let block = String(String.UnicodeScalarView(s[(i + 1)..<close]))
                apply(block, alignment: &alignment, position: &position)
                i = close + 1
                continue
            }
            if c == "\\", i + 1 < s.count, s[i + 1] == "n", !softBreaksAreHard {
                if !drawing {
                    output += " "
                    addRun(" ")
                }
                i += 2
                continue
            }
            if c == "\\", i + 1 < s.count, s[i + 1].isASCII, let replacement = SubRipMarkup.escapes[UInt8(s[i + 1].value)] {
                if !drawing {
                    output += String(decoding: replacement, as: UTF8.self)
                    addRun(String(decoding: replacement, as: UTF8.self))
                }
                i += 2
                continue
            }
            if !drawing {
                switch c {
                case "&": output += "&amp;"
                case "<": output += "&lt;"
                case ">": output += "&gt;"
                default: output.unicodeScalars.append(c)
                }
                addRun(String(Character(c)))
                if c != " " && c != "\u{00A0}" { plainIsEmpty = false }
            }
            i += 1
        }
        while let tag = open.popLast() { output += "</\(tag)>" }
        place(alignment: alignment, position: position)
    }

    private mutating func openTag(_ tag: String) {
        guard !open.contains(tag) else { return }
        output += "<\(tag)>"
        open.append(tag)
    }

    private mutating func closeTag(_ tag: String) {
        guard let index = open.lastIndex(of: tag) else { return }
        for t in open[index...].reversed() { output += "</\(t)>" }
        let reopen = open[(index + 1)...]
        open.removeSubrange(index...)
        for t in reopen { openTag(t) }
    }

    /// One override block: `\i1\b0\an8\pos(10,20)…`.
    private mutating func apply(_ block: String, alignment: inout Int, position: inout (Double, Double)?) {
        for raw in block.split(separator: "\\").map({ String($0.trimming([" ", "\t"])) }) where !raw.isEmpty {
            let tag = raw
            func flag(_ name: String) -> Bool? {
                guard tag.hasPrefix(name), let value = Int(tag.dropFirst(name.count)) else { return nil }
                return value != 0
            }
            if let on = flag("i") {
                on ? openTag("i") : closeTag("i")
            } else if let on = flag("u") {
                on ? openTag("u") : closeTag("u")
            } else if tag.hasPrefix("b"),
                let weight = Int(tag.dropFirst())
            {
                weight == 0 ? closeTag("b") : openTag("b")
            } else if tag == "r" || (tag.hasPrefix("r") && !tag.hasPrefix("re")) {
                while let t = open.popLast() { output += "</\(t)>" }
                colour = style.colour
                fontName = style.fontName
                fontSize = style.fontSize
            } else if tag.hasPrefix("c&") || tag.hasPrefix("1c&") || tag == "c" || tag == "1c" {
                let value = tag.drop { $0 != "&" }
                colour = value.isEmpty ? style.colour : ASSReader.colour(String(value)) ?? colour
            } else if tag.hasPrefix("fn") {
                let name = String(tag.dropFirst(2).trimming(.asciiWhitespace))
                fontName = name.isEmpty ? style.fontName : name
            } else if tag.hasPrefix("fs"), !tag.hasPrefix("fsc"), !tag.hasPrefix("fsp") {
                let size = Double(tag.dropFirst(2)).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
                fontSize = tag == "fs" ? style.fontSize : size ?? fontSize
            } else if tag.hasPrefix("an"), let n = Int(tag.dropFirst(2)), (1...9).contains(n) {
                alignment = n
            } else if tag.hasPrefix("a"), !tag.hasPrefix("al"), let n = Int(tag.dropFirst()), let numpad = ASSReader.numpad(legacy: n) {
                alignment = numpad
            } else if tag.hasPrefix("pos("), tag.hasSuffix(")") {
                let numbers = tag.dropFirst(4).dropLast().split(separator: ",").compactMap { Double(String($0.trimming([" ", "\t"]))) }
                if numbers.count == 2, numbers.allSatisfy(\.isFinite) { position = (numbers[0], numbers[1]) }
            } else if tag.hasPrefix("p"), let level = Int(tag.dropFirst()) {
                drawing = level > 0
                if drawing { droppedDrawing = true }
            }
        }
    }

    /// Alignment and position as WebVTT settings (the numpad mapping SubRip's `{\anN}` uses).
    private mutating func place(alignment: Int, position: (Double, Double)?) {
        if let (x, y) = position, let width = playRes.x, let height = playRes.y {
            let line = min(100, max(0, y / height * 100)), across = min(100, max(0, x / width * 100))
            settings.line = .percentage(Self.format(line))
            settings.lineAlign = alignment >= 7 ? .start : alignment >= 4 ? .center : .end
            settings.position = Self.format(across)
            settings.positionAlign = alignment % 3 == 1 ? .lineLeft : alignment % 3 == 0 ? .lineRight : .center
            settings.align = alignment % 3 == 1 ? .start : alignment % 3 == 0 ? .end : .center
            return
        }
        SubRipMarkup.applyOverrides("\\an\(alignment)", to: &settings)
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
