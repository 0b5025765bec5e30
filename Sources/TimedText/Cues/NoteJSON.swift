/// The JSON of a content note, read: objects, arrays, strings and numbers (what the note holds),
/// nested at most 32 deep.
struct NoteJSON {
    /// An object's members, looked up by key.
    struct Members {
        var pairs: [(String, Value)] = []
        subscript(key: String) -> Value? { pairs.first { $0.0 == key }?.1 }
    }

    enum Value {
        /// Members in the order written (a handful, looked up by a scan: no hashing).
        case object(Members)
        case array([Value])
        case string(String)
        case number(Double)

        var object: Members? { if case .object(let o) = self { return o } else { return nil } }
        var array: [Value]? { if case .array(let a) = self { return a } else { return nil } }
        var string: String? { if case .string(let s) = self { return s } else { return nil } }
        var number: Double? { if case .number(let n) = self { return n } else { return nil } }
    }

    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The one value the bytes hold, nil when they hold anything else.
    mutating func document() -> Value? {
        guard let value = value(depth: 0) else { return nil }
        skipSpace()
        return i == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) -> Value? {
        guard depth < 32 else { return nil }
        skipSpace()
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var object = Members()
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(object)
            }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let item = value(depth: depth + 1) else { return nil }
                object.pairs.append((key, item))
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                return .object(object)
            }
        case UInt8(ascii: "["):
            i += 1
            var array: [Value] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(array)
            }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                array.append(item)
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { return nil }
                i += 1
                return .array(array)
            }
        case UInt8(ascii: "\""):
            return string().map(Value.string)
        default:
            let start = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(bytes[i]) { i += 1 }
            guard i > start, let number = Double(String(decoding: bytes[start..<i], as: UTF8.self)), number.isFinite else { return nil }
            return .number(number)
        }
    }

    /// A string at `i` (its quotes included), its escapes decoded.
    private mutating func string() -> String? {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { return nil }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { return nil }
                    i += 4
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            default:
                out.append(b)
            }
        }
        return nil
    }
}
