import Timebase

/// What a TTML body shows, and when, as cues: a cue per interval in which a paragraph's visible
/// text stays the same.
///
/// Text shows while it is active (``TTMLTimeline``) and displayed: not under an element whose
/// `tts:display` is `none` or whose `tts:visibility` is `hidden` (set on it, by its styles, or
/// for a while by a `set` child, TTML2 §11), and only while its region is active (a region's own
/// `begin`/`end`/`dur`, TTML2 §9). Each cue keeps its ``CueContent``: runs with their styles
/// (colours, fonts, outline), the region as its box, and IMSC 1.1 ruby (`tts:ruby` container,
/// base and text spans) as a ruby run; its text is that content as WebVTT. A second ruby text
/// (double-sided ruby) has no place in the model and is left out, with a warning.
struct TTMLPresenter {
    /// A piece of a paragraph's text, with when and how it shows.
    struct Fragment {
        var text: String
        let interval: TTMLTimeline.Interval
        let style: TTMLStyle
        let lineBreak: Bool
        /// `xml:space="preserve"`: whitespace kept as written.
        var preserve = false
        /// Shown only while not inside one of `hidden`, and, when `staticallyHidden`, while
        /// inside one of `shown`.
        var hidden: [TTMLTimeline.Interval] = []
        var shown: [TTMLTimeline.Interval] = []
        var staticallyHidden = false
        /// Its place in a ruby annotation, when it is in one.
        var ruby: Ruby?
        /// The region it is in: the nearest `region` attribute on it or around it.
        var region: String?

        func isShown(at t: MediaTime) -> Bool {
            guard interval.contains(t), !hidden.contains(where: { $0.contains(t) }) else { return false }
            return !staticallyHidden || shown.contains { $0.contains(t) }
        }
    }

    /// A fragment's part in IMSC 1.1 ruby: the base, or the nth annotation text, of a container.
    enum Ruby: Equatable {
        case base(container: Int)
        case text(container: Int, index: Int)
    }

    /// What an element passes to what is inside it.
    struct Context {
        var style = TTMLStyle()
        var region: String?
        var preserve = false
        var hidden: [TTMLTimeline.Interval] = []
        var shown: [TTMLTimeline.Interval] = []
        var staticallyHidden = false
        /// Under an element with `tts:display="none"` (which no descendant can undo).
        var displayNone = false
        var ruby: Ruby?
    }

    let timeline: TTMLTimeline
    let styles: [String: (attributes: [String: String], refs: [String])]
    let regions: [String: [String: String]]
    let rootExtent: (Double, Double)?
    private(set) var cues: [Cue] = []
    private(set) var warnings: [IngestWarning] = []
    private var rubyContainers = 0
    private var droppedRubyTexts: (count: Int, line: Int)?
    private var openEnded: (count: Int, line: Int)?
    private var regionless: (count: Int, line: Int)?

    init(
        timeline: TTMLTimeline, styles: [String: (attributes: [String: String], refs: [String])], regions: [String: [String: String]],
        rootExtent: (Double, Double)?
    ) {
        self.timeline = timeline
        self.styles = styles
        self.regions = regions
        self.rootExtent = rootExtent
    }

    /// Presents `body`: its cues and warnings.
    mutating func present(_ body: TTMLNode) throws(SubtitleFileError) {
        try walk(body, Context(preserve: body.attributes["space"] == "preserve"))
        if let (count, line) = openEnded {
            warnings.append(
                IngestWarning(
                    kind: .cueClamped, line: line,
                    "\(count) paragraph(s) have no resolvable end (TTML2 §12.4: active until their parent ends, here the document): they last until the programme (or, converted, the document) ends"
                ))
        }
        if let (count, line) = regionless {
            warnings.append(
                IngestWarning(
                    kind: .cueSkipped, line: line,
                    "\(count) paragraph(s) hold text in no region although the document defines regions: TTML presents such text nowhere (TTML2 §11.3.1.3, as ttconv does), so it is left out; give the paragraph or its div a region"
                ))
        }
        if let (count, line) = droppedRubyTexts {
            warnings.append(
                IngestWarning(
                    kind: .settingDropped, line: line,
                    "\(count) second ruby text(s) (double-sided ruby) left out: WebVTT ruby has one annotation per base; the first is kept"))
        }
    }

    /// The context inside `node`: its styles, and what its `set` children change for a while.
    func context(of node: TTMLNode, in outer: Context) -> Context {
        var context = outer
        var own = TTMLStyle()
        for id in (node.attributes["style"] ?? "").split(separator: " ").map(String.init) { own = own.overridden(by: resolvedStyle(id, depth: 0)) }
        own = own.overridden(by: TTMLStyle(attributes: node.attributes))
        context.style = outer.style.overridden(by: own.inherited)
        if let space = node.attributes["space"] { context.preserve = space == "preserve" }
        if let region = node.attributes["region"] { context.region = region }
        if own.displayNone == true { context.displayNone = true }
        context.staticallyHidden = context.displayNone || context.style.visibilityHidden == true
        for set in node.elements where set.name == "set" {
            let attributes = set.attributes
            let interval = timeline.interval(of: set)
            if attributes["display"] == "none" || attributes["visibility"] == "hidden" { context.hidden.append(interval) }
            if attributes["display"] == "auto" || attributes["visibility"] == "visible" { context.shown.append(interval) }
        }
        context.ruby = nil
        return context
    }

    private mutating func walk(_ node: TTMLNode, _ outer: Context) throws(SubtitleFileError) {
        let context = context(of: node, in: outer)
        for element in node.elements {
            switch element.name {
            case "p": try paragraph(element, context)
            case "div", "body": try walk(element, context)
            default: continue  // spans and text outside paragraphs are not shown
            }
        }
    }

    /// The cues of one paragraph: where the document defines regions, a cue per region its text
    /// is in (a span may name another region than its paragraph's), text in none left out.
    private mutating func paragraph(_ p: TTMLNode, _ outer: Context) throws(SubtitleFileError) {
        let context = context(of: p, in: outer)
        var fragments: [Fragment] = []
        collect(p, context, into: &fragments)
        guard !regions.isEmpty else {
            try cues(of: p, fragments, region: nil)
            return
        }
        var order: [String] = []
        var inRegion: [String: [Fragment]] = [:]
        var outside = false
        for f in fragments {
            guard let id = f.region, regions[id] != nil else {
                if !f.lineBreak && f.text.contains(where: { !$0.isWhitespace }) { outside = true }
                continue
            }
            if inRegion[id] == nil { order.append(id) }
            inRegion[id, default: []].append(f)
        }
        if outside, timeline.interval(of: p).end.map({ $0 > timeline.interval(of: p).begin }) ?? true {
            regionless = ((regionless?.count ?? 0) + 1, regionless?.line ?? p.line)
        }
        for id in order { try cues(of: p, inRegion[id] ?? [], region: regions[id]) }
    }

    /// The cues of `fragments` of paragraph `p` shown in `region`: one per interval in which
    /// their visible text stays the same, while the paragraph and the region are active.
    private mutating func cues(of p: TTMLNode, _ fragments: [Fragment], region: [String: String]?) throws(SubtitleFileError) {
        var interval = timeline.interval(of: p)
        var box: CueBox?
        if let region {
            box = TTMLRegion.box(region, rootExtent: rootExtent)
            let active = try timeline.interval(ofRegion: region, line: p.line)
            interval.begin = max(interval.begin, active.begin)
            interval.end = TTMLTimeline.earlier(interval.end, active.end)
        }
        let end = interval.end ?? .indefinite
        guard end > interval.begin else { return }
        if interval.end == nil { openEnded = ((openEnded?.count ?? 0) + 1, openEnded?.line ?? p.line) }
        var boundaries: Set<MediaTime> = [interval.begin, end]
        func add(_ i: TTMLTimeline.Interval) {
            if i.begin > interval.begin && i.begin < end { boundaries.insert(i.begin) }
            if let e = i.end, e > interval.begin && e < end { boundaries.insert(e) }
        }
        for f in fragments {
            add(f.interval)
            f.hidden.forEach(add)
            f.shown.forEach(add)
        }
        let sorted = boundaries.sorted()
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            let content = CueContent(lines: TTMLText.compose(fragments.filter { $0.isShown(at: a) }), box: box)
            guard !content.lines.isEmpty else { continue }
            // What WebVTT leaves out is said where a WebVTT rendition is written (the content keeps it).
            var unsaid: Set<String> = []
            var cue = Cue(start: a, end: b, settings: box?.webVTTSettings ?? CueSettings(), text: content.webVTT(dropping: &unsaid), sourceLine: p.line)
            cue.keptContent = content
            if let last = cues.last, last.end == cue.start, last.keptContent == cue.keptContent {
                cues[cues.count - 1].end = cue.end
            } else {
                cues.append(cue)
            }
        }
    }

    /// The fragments of everything inside `node`.
    private mutating func collect(_ node: TTMLNode, _ context: Context, into fragments: inout [Fragment]) {
        let interval = timeline.interval(of: node)
        func fragment(_ text: String, lineBreak: Bool, _ c: Context) -> Fragment {
            Fragment(
                text: text, interval: interval, style: c.style, lineBreak: lineBreak, preserve: c.preserve, hidden: c.hidden, shown: c.shown,
                staticallyHidden: c.staticallyHidden, ruby: c.ruby, region: c.region)
        }
        // Text directly in a sequential container is an anonymous span whose implicit duration
        // is zero there (TTML2 §12.4): it is never shown.
        let sequential = node.attributes["timeContainer"] == "seq"
        for child in node.children {
            switch child {
            case .text(let text):
                if sequential { continue }
                fragments.append(fragment(text, lineBreak: false, context))
            case .element(let element) where element.name == "br":
                fragments.append(fragment("", lineBreak: true, context))
            case .element(let element) where element.name == "span":
                var inner = self.context(of: element, in: context)
                inner.ruby = rubyRole(element, outer: context)
                collect(element, inner, into: &fragments)
            default:
                continue
            }
        }
    }

    /// The ruby part a span plays (`tts:ruby`, directly or through its styles): a container
    /// opens a new annotation; base and text spans belong to the container they are in.
    private mutating func rubyRole(_ span: TTMLNode, outer: Context) -> Ruby? {
        var role = span.attributes["ruby"]
        for id in (span.attributes["style"] ?? "").split(separator: " ").map(String.init) where role == nil { role = styles[id]?.attributes["ruby"] }
        switch role {
        case "container":
            rubyContainers += 1
            return .base(container: rubyContainers)  // its direct text is base text
        case "base", "baseContainer":
            guard case .base(let c)? = outer.ruby ?? .base(container: rubyContainers) else { return outer.ruby }
            return .base(container: c)
        case "text":
            let container: Int
            switch outer.ruby {
            case .base(let c)?, .text(let c, _)?: container = c
            case nil: container = rubyContainers
            }
            let index = rubyTexts[container, default: 0]
            rubyTexts[container] = index + 1
            if index > 0 { droppedRubyTexts = ((droppedRubyTexts?.count ?? 0) + 1, droppedRubyTexts?.line ?? span.line) }
            return .text(container: container, index: index)
        case "textContainer":
            return outer.ruby
        case "delimiter":
            return .text(container: rubyContainers, index: -1)  // shown only where ruby cannot be: left out
        default:
            return outer.ruby
        }
    }
    private var rubyTexts: [Int: Int] = [:]

    /// A named style with the styles it references (a chain of at most 16).
    func resolvedStyle(_ id: String, depth: Int) -> TTMLStyle {
        guard depth < 16, let definition = styles[id] else { return TTMLStyle() }
        var style = TTMLStyle()
        for ref in definition.refs { style = style.overridden(by: resolvedStyle(ref, depth: depth + 1)) }
        return style.overridden(by: TTMLStyle(attributes: definition.attributes))
    }
}
