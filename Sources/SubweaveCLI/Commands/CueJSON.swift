import TimedText

/// A cue with the attribute names and defaults of the W3C `VTTCue` interface (WebVTT §8.1).
struct VTTCueJSON {
    let id: String
    let startTime: Double
    let endTime: Double
    let text: String
    /// `""` (horizontal), `"rl"` or `"lr"`.
    let vertical: String
    let snapToLines: Bool
    /// A number, or `"auto"`.
    let line: NumberOrAuto
    let lineAlign: String
    let position: NumberOrAuto
    let positionAlign: String
    let size: Double
    let align: String
    let region: VTTRegionJSON?
    /// For a cue read from a picture: OCR's confidence in its text, percent (not a VTTCue attribute).
    var confidence: Double?
    /// For a cue read from a picture flagged forced (shown with subtitles off): true.
    var forced = false

    init(_ cue: Cue, regions: [CueRegion]) {
        let s = cue.settings
        id = cue.identifier
        startTime = cue.start.seconds
        endTime = cue.end.seconds
        text = cue.text
        vertical = s.vertical?.rawValue ?? ""
        switch s.line {
        case .number(let n)?:
            line = .number(Self.finite(Double(n) ?? 0))
            snapToLines = true
        case .percentage(let p)?:
            line = .number(Self.finite(Double(p) ?? 0))
            snapToLines = false
        case nil:
            line = .auto
            snapToLines = true
        }
        lineAlign = s.lineAlign?.rawValue ?? "start"
        position = s.position.flatMap(Double.init).map { .number(Self.finite($0)) } ?? .auto
        positionAlign = s.positionAlign?.rawValue ?? "auto"
        size = s.size.flatMap(Double.init).map(Self.finite) ?? 100
        align = s.align?.rawValue ?? "center"
        region = s.region.flatMap { id in regions.last { $0.identifier == id } }.map(VTTRegionJSON.init)
    }

    /// A line number beyond the largest double is Infinity to a browser; JSON has no Infinity,
    /// so it is written as the largest finite double of its sign.
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : (value < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude)
    }
}

extension VTTCueJSON {
    /// The cue as `JSONEncoder` writes it pretty-printed with sorted keys, each line after the
    /// first indented by `indent`; made by hand, since `cues --json` writes millions of cues.
    func write(into out: inout PrettyJSON, indent: String) {
        let inner = indent + "  "
        out.open()
        out.member("align", inner)
        out.string(align)
        out.next()
        if let confidence {
            out.member("confidence", inner)
            out.number((confidence * 10).rounded() / 10)
            out.next()
        }
        out.member("endTime", inner)
        out.number(endTime)
        out.next()
        if forced {
            out.member("forced", inner)
            out.raw("true")
            out.next()
        }
        out.member("id", inner)
        out.string(id)
        out.next()
        out.member("line", inner)
        line.write(into: &out)
        out.next()
        out.member("lineAlign", inner)
        out.string(lineAlign)
        out.next()
        out.member("position", inner)
        position.write(into: &out)
        out.next()
        out.member("positionAlign", inner)
        out.string(positionAlign)
        out.next()
        out.member("region", inner)
        if let region { region.write(into: &out, indent: inner) } else { out.raw("null") }
        out.next()
        out.member("size", inner)
        out.number(size)
        out.next()
        out.member("snapToLines", inner)
        out.raw(snapToLines ? "true" : "false")
        out.next()
        out.member("startTime", inner)
        out.number(startTime)
        out.next()
        out.member("text", inner)
        out.string(text)
        out.next()
        out.member("vertical", inner)
        out.string(vertical)
        out.close(indent)
    }
}

/// A region with the attribute names and defaults of the W3C `VTTRegion` interface.
struct VTTRegionJSON {
    let id: String
    let width: Double
    /// The spec's integer rule has no upper bound: a large value is kept (as a number).
    let lines: Double
    let regionAnchorX: Double
    let regionAnchorY: Double
    let viewportAnchorX: Double
    let viewportAnchorY: Double
    let scroll: String

    init(_ r: CueRegion) {
        id = r.identifier
        width = r.width.flatMap(Double.init).map(VTTCueJSON.finite) ?? 100
        lines = r.lines.flatMap { Double($0) }.map(VTTCueJSON.finite) ?? 3
        regionAnchorX = r.regionAnchor.flatMap { Double($0.0) }.map(VTTCueJSON.finite) ?? 0
        regionAnchorY = r.regionAnchor.flatMap { Double($0.1) }.map(VTTCueJSON.finite) ?? 100
        viewportAnchorX = r.viewportAnchor.flatMap { Double($0.0) }.map(VTTCueJSON.finite) ?? 0
        viewportAnchorY = r.viewportAnchor.flatMap { Double($0.1) }.map(VTTCueJSON.finite) ?? 100
        scroll = r.scrollUp ? "up" : ""
    }

    /// The region as `JSONEncoder` writes it (see ``VTTCueJSON/write(into:indent:)``).
    func write(into out: inout PrettyJSON, indent: String) {
        let inner = indent + "  "
        out.open()
        out.member("id", inner)
        out.string(id)
        for (key, value) in [("lines", lines), ("regionAnchorX", regionAnchorX), ("regionAnchorY", regionAnchorY)] {
            out.next()
            out.member(key, inner)
            out.number(value)
        }
        out.next()
        out.member("scroll", inner)
        out.string(scroll)
        for (key, value) in [("viewportAnchorX", viewportAnchorX), ("viewportAnchorY", viewportAnchorY), ("width", width)] {
            out.next()
            out.member(key, inner)
            out.number(value)
        }
        out.close(indent)
    }
}

enum NumberOrAuto {
    case number(Double)
    case auto

    func write(into out: inout PrettyJSON) {
        switch self {
        case .number(let n): out.number(n)
        case .auto: out.raw("\"auto\"")
        }
    }
}
