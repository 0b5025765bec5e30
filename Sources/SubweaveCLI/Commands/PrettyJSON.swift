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
        openString()
        var value = value
        value.withUTF8 { stringContent($0) }
        closeString()
    }

    /// The opening `"` of a string written in pieces.
    mutating func openString() { bytes.append(0x22) }

    /// The closing `"` of a string written in pieces.
    mutating func closeString() { bytes.append(0x22) }

    /// UTF-8 `utf8` inside a string (whole characters: a piece may end anywhere between them),
    /// escaped as ``string(_:)`` escapes it.
    mutating func stringContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        for byte in utf8 {
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
    }

    /// A finite number as Swift describes it, without a trailing `.0`.
    mutating func number(_ value: Double) {
        let text = value.description
        raw(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
}
