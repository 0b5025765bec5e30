import TimedText

/// `{"cues": [...]}` for `subweave cues --json`.
struct CueListJSON: Encodable {
    let cues: [VTTCueJSON]

    init(cues: [Cue], regions: [CueRegion]) {
        self.cues = cues.map { VTTCueJSON($0, regions: regions) }
    }
}

/// A cue with the attribute names and defaults of the W3C `VTTCue` interface (WebVTT §8.1).
struct VTTCueJSON: Encodable {
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
        position = s.position.flatMap(Double.init).map(NumberOrAuto.number) ?? .auto
        positionAlign = s.positionAlign?.rawValue ?? "auto"
        size = s.size.flatMap(Double.init) ?? 100
        align = s.align?.rawValue ?? "center"
        region = s.region.flatMap { id in regions.last { $0.identifier == id } }.map(VTTRegionJSON.init)
    }

    /// A line number beyond the largest double is Infinity to a browser; JSON has no Infinity,
    /// so it is written as the largest finite double of its sign.
    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : (value < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude)
    }

    private enum CodingKeys: String, CodingKey {
        case id, startTime, endTime, text, vertical, snapToLines, line, lineAlign, position, positionAlign, size, align, region
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(startTime, forKey: .startTime)
        try c.encode(endTime, forKey: .endTime)
        try c.encode(text, forKey: .text)
        try c.encode(vertical, forKey: .vertical)
        try c.encode(snapToLines, forKey: .snapToLines)
        try c.encode(line, forKey: .line)
        try c.encode(lineAlign, forKey: .lineAlign)
        try c.encode(position, forKey: .position)
        try c.encode(positionAlign, forKey: .positionAlign)
        try c.encode(size, forKey: .size)
        try c.encode(align, forKey: .align)
        if let region { try c.encode(region, forKey: .region) } else { try c.encodeNil(forKey: .region) }
    }
}

/// A region with the attribute names and defaults of the W3C `VTTRegion` interface.
struct VTTRegionJSON: Encodable {
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
        width = r.width.flatMap(Double.init) ?? 100
        lines = r.lines.flatMap { Double($0) }.map(VTTCueJSON.finite) ?? 3
        regionAnchorX = r.regionAnchor.flatMap { Double($0.0) } ?? 0
        regionAnchorY = r.regionAnchor.flatMap { Double($0.1) } ?? 100
        viewportAnchorX = r.viewportAnchor.flatMap { Double($0.0) } ?? 0
        viewportAnchorY = r.viewportAnchor.flatMap { Double($0.1) } ?? 100
        scroll = r.scrollUp ? "up" : ""
    }
}

enum NumberOrAuto: Encodable {
    case number(Double)
    case auto

    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .auto: try c.encode("auto")
        }
    }
}
