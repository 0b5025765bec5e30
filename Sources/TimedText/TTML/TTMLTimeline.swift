import Timebase

/// The active interval of every element of a TTML body, resolved by TTML2's timing rules
/// (§12.2 `begin`, `dur`, `end`, `timeContainer`; §12.4 time intervals).
///
/// - An element's `begin` and `end` count from its sync base: its parent's begin in a parallel
///   container (`par`, the default of `body`, `div`, `p` and `span`), the end of the previous
///   sibling in a sequential one (`timeContainer="seq"`); `dur` counts from its begin; with both
///   `end` and `dur`, the earlier wins.
/// - Without `end` or `dur` the *implicit* duration applies: a parallel container lasts until its
///   last child ends, a sequential one until its last child ends; an element whose children are
///   only text (an anonymous span's content) lasts indefinitely in a parallel container and not
///   at all (zero) in a sequential one. Indefinite means "until the parent ends": at the top,
///   until the document ends.
/// - Every interval is clipped to its parent's: nothing is active outside the element it is in.
/// - `set` elements are timed like their siblings but do not shape their parent's implicit
///   duration (they change a property of it, TTML2 §11).
struct TTMLTimeline {
    /// An active interval; `end` nil is indefinite (until the parent's end).
    struct Interval: Equatable {
        var begin: MediaTime
        var end: MediaTime?

        /// Whether the interval holds the instant `t` (begin inclusive, end exclusive).
        func contains(_ t: MediaTime) -> Bool { t >= begin && (end.map { t < $0 } ?? true) }
    }

    let timing: TTMLTiming
    private(set) var intervals: [ObjectIdentifier: Interval] = [:]

    /// Resolves `body` and everything in it.
    init(body: TTMLNode, timing: TTMLTiming) throws(SubtitleFileError) {
        self.timing = timing
        _ = try resolve(body, syncBase: .zero, clip: nil, inSequence: false)
    }

    /// The interval resolved for `node` (a node never resolved, as after an indefinite sibling
    /// of a sequence, is never active).
    func interval(of node: TTMLNode) -> Interval {
        intervals[ObjectIdentifier(node)] ?? Interval(begin: .indefinite, end: .indefinite)
    }

    /// A region's active interval: its own `begin`, `end` and `dur`, from the document's start.
    func interval(ofRegion attributes: [String: String], line: Int) throws(SubtitleFileError) -> Interval {
        let (begin, end) = try own(attributes, syncBase: .zero, line: line)
        return Interval(begin: begin, end: end)
    }

    /// An element's begin and explicit end from its attributes and its sync base.
    private func own(_ attributes: [String: String], syncBase: MediaTime, line: Int) throws(SubtitleFileError) -> (MediaTime, MediaTime?) {
        func time(_ key: String) throws(SubtitleFileError) -> MediaTime? {
            guard let text = attributes[key] else { return nil }
            return try timing.time(text, line: line)
        }
        let begin = try Self.sum(syncBase, try time("begin") ?? .zero, line: line)
        var end: MediaTime?
        if let ownEnd = try time("end") { end = try Self.sum(syncBase, ownEnd, line: line) }
        if let dur = try time("dur") {
            let byDuration = try Self.sum(begin, dur, line: line)
            end = end.map { min($0, byDuration) } ?? byDuration
        }
        return (begin, end)
    }

    /// Resolves `node` whose sync base is `syncBase`, inside a parent active until `clip`
    /// (nil: indefinitely), in a sequential container or not; records its interval and returns it.
    private mutating func resolve(_ node: TTMLNode, syncBase: MediaTime, clip: MediaTime?, inSequence: Bool) throws(SubtitleFileError) -> Interval {
        let (begin, explicitEnd) = try own(node.attributes, syncBase: syncBase, line: node.line)
        let ownClip = Self.earlier(explicitEnd, clip)
        let sequential = node.attributes["timeContainer"] == "seq"
        var cursor: MediaTime? = begin  // a sequence's next sync base; nil after an indefinite child
        var latest = begin
        var indefinite = false
        var content = false
        for child in node.children {
            switch child {
            case .element(let element) where element.name == "set":
                _ = try resolve(element, syncBase: begin, clip: ownClip, inSequence: false)
            case .element(let element) where element.name == "br":
                continue
            case .element(let element):
                content = true
                guard let base = sequential ? cursor : begin else { continue }  // after an indefinite sibling: never begins
                let interval = try resolve(element, syncBase: base, clip: ownClip, inSequence: sequential)
                if let end = interval.end {
                    latest = max(latest, end)
                    if sequential { cursor = end }
                } else {
                    indefinite = true
                    if sequential { cursor = nil }
                }
            case .text(let text):
                // Text between block elements is not content; in a p or span it is an anonymous span.
                guard node.name == "p" || node.name == "span" || text.contains(where: { !$0.isWhitespace }) else { continue }
                content = true
                if !sequential { indefinite = true }
            }
        }
        var implicitEnd: MediaTime? = indefinite ? nil : latest
        if !content || (inSequence && node.hasOnlyText) { implicitEnd = begin }
        var interval = Interval(begin: begin, end: explicitEnd ?? implicitEnd)
        if let clip {
            interval.end = min(interval.end ?? clip, clip)
            if interval.begin > clip { interval.begin = clip }
        }
        if let end = interval.end, end < interval.begin { interval.end = interval.begin }
        intervals[ObjectIdentifier(node)] = interval
        return interval
    }

    static func earlier(_ a: MediaTime?, _ b: MediaTime?) -> MediaTime? {
        switch (a, b) {
        case (let a?, let b?): return min(a, b)
        default: return a ?? b
        }
    }

    /// Times add up along the nesting: every sum stays within the bound of every timestamp (a file
    /// can nest thousands of elements that each begin far in).
    static func sum(_ a: MediaTime, _ b: MediaTime, line: Int) throws(SubtitleFileError) -> MediaTime {
        guard let total = MediaTime.checkedSum(a, b) else {
            throw SubtitleFileError(
                .ttml, line: line,
                "an element begins or ends \((a.seconds + b.seconds).decimalSeconds) s in, adding up its ancestors' times: beyond the \(MediaTime.limit / 90_000) s any timestamp may reach"
            )
        }
        return total
    }
}

extension MediaTime {
    /// The end of what has no resolvable end (TTML's indefinite).
    ///
    /// The largest time a file may name. The packager ends such a cue with the programme; `convert` with the document.
    package static let indefinite = MediaTime(ticks: MediaTime.limit)
}
