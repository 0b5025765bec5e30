import Timebase

/// Cue content read from WebVTT cue text and written as it: the WebVTT side of the neutral model.
extension CueContent {
    /// The content WebVTT cue text `text` says.
    ///
    /// `<i>`, `<b>`, `<u>`, `<v>`, `<lang>`, the colour classes (`.yellow`, `.bg_black`) and
    /// other classes, ruby and karaoke timestamps (W3C WebVTT §4.2.2). Character references are
    /// decoded; unknown tags are ignored, as a browser ignores them.
    public init(webVTT text: String) {
        var builder = WebVTTContentBuilder()
        var tokenizer = CueText.Tokenizer(Array(text.unicodeScalars))
        while let token = tokenizer.next() { builder.consume(token) }
        self.init(lines: builder.finish())
    }

    /// The content as WebVTT cue text, with what WebVTT cannot say added to `dropped` (each kind
    /// once: "colour #123456", "font family", "text outline"): WebVTT colours are eight classes,
    /// and fonts, sizes and outlines are the player's.
    ///
    /// Each text run is written on its own: `<c.colour>` around `<i>` around `<b>` around `<u>`,
    /// inside `<lang>` and `<v>`. The box is not text: ``CueBox/webVTTSettings`` places it.
    public func webVTT(dropping dropped: inout Set<String>) -> String {
        var out = ""
        for (index, line) in lines.enumerated() {
            if index > 0 { out += "\n" }
            for run in line { out += Self.webVTT(run, dropping: &dropped) }
        }
        return out
    }

    /// What WebVTT drops of the content `cues` kept (``droppedByWebVTT``), gathered until it
    /// holds more than `limit` kinds.
    package static func droppedByWebVTT(_ cues: [Cue], beyond limit: Int) -> Set<String> {
        var dropped: Set<String> = []
        for index in cues.indices {
            guard let content = cues[index].keptContent else { continue }
            dropped.formUnion(content.droppedByWebVTT)
            if dropped.count > limit { break }
        }
        return dropped
    }

    /// What ``webVTT(dropping:)`` leaves out of this content; empty when WebVTT holds it all.
    public var droppedByWebVTT: Set<String> {
        var dropped: Set<String> = []
        _ = webVTT(dropping: &dropped)
        return dropped
    }

    /// Whether a run is in one of WebVTT's colours other than the default white.
    package var hasWebVTTColour: Bool {
        func coloured(_ run: CueRun) -> Bool {
            switch run {
            case .text(_, let style): return style.colour.flatMap(\.webVTTClass).map { $0 != "white" } ?? false
            case .ruby(let base, let annotation, _): return (base + annotation).contains(where: coloured)
            case .timestamp: return false
            }
        }
        return lines.contains { $0.contains(where: coloured) }
    }

    /// The last character ``webVTT(_:dropping:)`` writes for `run` (`>` after markup), nil when it
    /// writes nothing; found without writing it.
    static func lastWritten(_ run: CueRun) -> Unicode.Scalar? {
        switch run {
        case .timestamp:
            return ">"
        case .ruby(let base, let annotation, _):
            if annotation.contains(where: { lastWritten($0) != nil }) { return ">" }
            return base.lazy.compactMap(lastWritten).last
        case .text(let text, let style):
            guard let last = text.unicodeScalars.last else { return nil }
            let marked =
                style.underline || style.bold || style.italic || style.colour?.webVTTClass != nil || !style.classes.isEmpty
                || style.language != nil || style.voice != nil
            if marked { return ">" }
            // CueText.escaped writes `&`, `<` and `>` as references, which end in `;`.
            return last == "&" || last == "<" || last == ">" ? ";" : last
        }
    }

    static func webVTT(_ run: CueRun, dropping dropped: inout Set<String>) -> String {
        switch run {
        case .timestamp(let time):
            return "<\(time)>"
        case .ruby(let base, let annotation, let position):
            let baseText = base.map { webVTT($0, dropping: &dropped) }.joined()
            let annotationText = annotation.map { webVTT($0, dropping: &dropped) }.joined()
            guard !annotationText.isEmpty else { return baseText }
            if position == .after { dropped.insert("ruby below its base") }
            return "<ruby>\(baseText)<rt>\(annotationText)</rt></ruby>"
        case .text(let text, let style):
            guard !text.isEmpty else { return "" }
            var out = CueText.escaped(text)
            if style.underline { out = "<u>\(out)</u>" }
            if style.bold { out = "<b>\(out)</b>" }
            if style.italic { out = "<i>\(out)</i>" }
            var classes: [String] = []
            if let colour = style.colour {
                if let name = colour.webVTTClass { classes.append(name) } else { dropped.insert("colour \(colour)") }
            }
            // A black background of any opacity is WebVTT's own look (rgba(0,0,0,0.8)): nothing lost.
            if let background = style.background, background.alpha > 0, !(background.red == 0 && background.green == 0 && background.blue == 0) {
                dropped.insert("background colour \(background)")
            }
            classes += style.classes
            if !classes.isEmpty { out = "<c.\(classes.joined(separator: "."))>\(out)</c>" }
            if let family = style.fontFamily, !CueStyle.genericFamilies.contains(String(family.trimming(.asciiWhitespace))) { dropped.insert("font family") }
            if let size = style.fontSize, size != "100%", size != "1c" { dropped.insert("font size") }
            if let outline = style.textOutline, outline != "none" { dropped.insert("text outline") }
            if let language = style.language { out = "<lang \(language)>\(out)</lang>" }
            if let voice = style.voice { out = "<v \(voice)>\(out)</v>" }
            return out
        }
    }
}

extension CueStyle {
    /// TTML's generic font families: the player's own fonts, which WebVTT uses anyway.
    static let genericFamilies: Set<String> = [
        "default", "monospace", "sansSerif", "serif", "monospaceSansSerif", "monospaceSerif", "proportionalSansSerif", "proportionalSerif",
    ]
}

extension CueBox {
    /// The box as WebVTT cue settings, where WebVTT can say it: its edge by `displayAlign` as
    /// `line`, its width as `size`, its side by `textAlign` as `position` (W3C "Mapping TTML to
    /// WebVTT" as practised: IMSC's region becomes the cue box), a vertical writing mode as
    /// `vertical`.
    public var webVTTSettings: CueSettings {
        var settings = CueSettings()
        switch displayAlign {
        case .after:
            settings.line = .percentage(Self.format(top + height))
            settings.lineAlign = .end
        case .center:
            settings.line = .percentage(Self.format(top + height / 2))
            settings.lineAlign = .center
        case .before:
            settings.line = .percentage(Self.format(top))
            settings.lineAlign = .start
        }
        switch textAlign {
        case .left?, .start?:
            settings.position = Self.format(left)
            settings.positionAlign = .lineLeft
            settings.align = .start
        case .right?, .end?:
            settings.position = Self.format(left + width)
            settings.positionAlign = .lineRight
            settings.align = .end
        case .center?, nil:
            settings.position = Self.format(left + width / 2)
            settings.positionAlign = .center
        }
        settings.size = Self.format(width)
        switch writingMode {
        case .tbrl: settings.vertical = .rl
        case .tblr: settings.vertical = .lr
        case .lrtb, .rltb: break
        }
        return settings
    }

    /// A percentage within 0-100 to three decimals, without trailing zeros.
    static func format(_ value: Double) -> String {
        let clamped = min(100, max(0, value))
        let rounded = (clamped * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// Builds lines of runs from WebVTT cue text tokens.
struct WebVTTContentBuilder {
    private var lines: [[CueRun]] = [[]]
    /// Each open element: its name and the style inside it.
    private var open: [(name: String, style: CueStyle)] = []
    /// The ruby being read: its base and annotation so far, and whether inside `<rt>`.
    private var ruby: (base: [CueRun], annotation: [CueRun], inText: Bool)?

    private var style: CueStyle { open.last?.style ?? CueStyle() }

    private mutating func append(_ run: CueRun) {
        if ruby?.inText == true {
            ruby?.annotation.append(run)
        } else if ruby != nil {
            ruby?.base.append(run)
        } else {
            lines[lines.count - 1].append(run)
        }
    }

    mutating func consume(_ token: CueText.Token) {
        switch token {
        case .text(let raw):
            let parts = CueText.decodeReferences(raw).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 {
                    // A line break in ruby is a space: the annotation sits over one base.
                    if ruby != nil { append(.text(" ", style)) } else { lines.append([]) }
                }
                if !part.isEmpty { append(.text(String(part), style)) }
            }
        case .start(let name, let classes, let annotation):
            var inner = style
            switch name {
            case "i": inner.italic = true
            case "b": inner.bold = true
            case "u": inner.underline = true
            case "v": inner.voice = String(annotation.trimming(.asciiWhitespace))
            case "lang":
                let tag = String(annotation.trimming(.asciiWhitespace))
                inner.language = tag.isEmpty ? nil : tag
            case "c": break
            case "ruby":
                if ruby == nil { ruby = ([], [], false) }
            case "rt":
                if ruby != nil { ruby?.inText = true }
            default: return
            }
            for name in classes {
                if let colour = CueColour(webVTTClass: name) {
                    inner.colour = colour
                } else if name.hasPrefix("bg_"), let colour = CueColour(webVTTClass: String(name.dropFirst(3))) {
                    inner.background = colour
                } else {
                    inner.classes.append(name)
                }
            }
            open.append((name, inner))
        case .end(let name):
            guard let index = open.lastIndex(where: { $0.name == name }) else { return }
            let closed = open[index...].map(\.name)
            open.removeSubrange(index...)
            if closed.contains("rt") { ruby?.inText = false }
            if closed.contains("ruby") { closeRuby() }
        case .timestamp(let time):
            append(.timestamp(time))
        }
    }

    private mutating func closeRuby() {
        guard let (base, annotation, _) = ruby else { return }
        ruby = nil
        if annotation.isEmpty {
            base.forEach { append($0) }
        } else {
            append(.ruby(base: base, annotation: annotation, position: .before))
        }
    }

    mutating func finish() -> [[CueRun]] {
        closeRuby()
        return lines
    }
}
