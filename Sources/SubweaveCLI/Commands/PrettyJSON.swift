import Timebase

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
    ///
    /// Beyond what `JSONEncoder` escapes, the characters a terminal or a line-splitting reader
    /// takes for something else (DEL, C1 controls, U+2028/U+2029, bidirectional controls,
    /// invisible spaces: ``LabelText/isRefused(_:)``) are written as `\uXXXX`: the same text to a
    /// JSON parser, harmless on a terminal.
    mutating func stringContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            switch byte {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            case 0..<0x20, 0x7F: unicodeEscape(UInt32(byte))
            case 0x80...:
                let length = Self.sequenceLength(byte)
                if i + length <= utf8.count, let scalar = Self.scalar(utf8, at: i, length: length), LabelText.isRefused(scalar) {
                    unicodeEscape(scalar.value)
                } else {
                    bytes.append(contentsOf: utf8[i..<min(i + length, utf8.count)])
                }
                i += length
                if bytes.count >= Self.flushSize { flushIfFull() }
                continue
            default: bytes.append(byte)
            }
            i += 1
            if bytes.count >= Self.flushSize { flushIfFull() }
        }
    }

    /// JSON text (as `JSONEncoder` writes it) with the characters ``stringContent(_:)`` escapes
    /// beyond it escaped: they can only be inside strings, so the rest is copied as it is.
    static func escapingInvisible(_ json: some Collection<UInt8>) -> [UInt8] {
        var out = PrettyJSON()
        var copy = Array(json)
        copy.withUnsafeBufferPointer { all in
            var start = 0
            var i = 0
            while i < all.count {
                let byte = all[i]
                guard byte >= 0x7F else {
                    i += 1
                    continue
                }
                let length = byte == 0x7F ? 1 : sequenceLength(byte)
                let scalar = byte == 0x7F ? Unicode.Scalar(0x7F) : (i + length <= all.count ? Self.scalar(all, at: i, length: length) : nil)
                if let scalar, LabelText.isRefused(scalar) {
                    out.bytes.append(contentsOf: all[start..<i])
                    out.unicodeEscape(scalar.value)
                    start = i + length
                }
                i += length
            }
            out.bytes.append(contentsOf: all[start..<all.count])
        }
        copy = []
        return out.bytes
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane.
    private mutating func unicodeEscape(_ value: UInt32) {
        bytes.append(contentsOf: [0x5C, 0x75])
        for shift in stride(from: 12, through: 0, by: -4) { bytes.append(Self.hexDigits[Int((value >> UInt32(shift)) & 0xF)]) }
    }

    /// How many bytes the UTF-8 sequence that starts with `lead` takes (1 for a stray byte).
    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xC0...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF7: return 4
        default: return 1
        }
    }

    /// The scalar of the `length`-byte sequence at `i`, nil when it is not well formed.
    private static func scalar(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> Unicode.Scalar? {
        guard length > 1 else { return nil }
        var value = UInt32(utf8[i]) & (0xFF >> UInt32(length + 1))
        for k in 1..<length {
            let next = utf8[i + k]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        return Unicode.Scalar(value)
    }

    /// A finite number as Swift describes it, without a trailing `.0`.
    mutating func number(_ value: Double) {
        let text = value.description
        raw(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
}
