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
        out.member("endTime", inner)
        out.number(endTime)
        out.next()
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

/// JSON text written by hand, as UTF-8 bytes, the way Foundation's `JSONEncoder` writes it with
/// `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes` (a test holds the two to the same
/// bytes).
struct PrettyJSON {
    var bytes: [UInt8] = []
    /// Where a full buffer goes (nil: kept): a cue's text can be as long as its file.
    private let flush: (([UInt8]) -> Void)?
    private static let hexDigits = Array("0123456789abcdef".utf8)
    /// How many bytes are gathered before they are flushed.
    static let flushSize = 1 << 20

    /// A writer that keeps everything in ``bytes``, or hands every megabyte to `flush`.
    init(flushing flush: (([UInt8]) -> Void)? = nil) { self.flush = flush }

    /// Hands the bytes gathered to `flush`, if there is one and a megabyte is gathered.
    mutating func flushIfFull() {
        guard let flush, bytes.count >= Self.flushSize else { return }
        flush(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// `text` as it is.
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `{` and a line break.
    mutating func open() { raw("{\n") }

    /// A comma and a line break, between members.
    mutating func next() { raw(",\n") }

    /// A line break, `indent` and `}`.
    mutating func close(_ indent: String) {
        bytes.append(0x0A)
        raw(indent)
        bytes.append(0x7D)
    }

    /// `indent"key" : `.
    mutating func member(_ key: String, _ indent: String) {
        raw(indent)
        bytes.append(0x22)
        raw(key)
        raw("\" : ")
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00xx`;
    /// everything else as it is.
    mutating func string(_ value: String) {
        bytes.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20:
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
            if bytes.count >= Self.flushSize { flushIfFull() }
        }
        bytes.append(0x22)
    }

    /// A finite number as Swift describes it, without a trailing `.0`.
    mutating func number(_ value: Double) {
        let text = value.description
        raw(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
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
