/// The `EXT-X-KEY` in force for a media segment (RFC 8216bis §4.4.4.4).
public struct SegmentKey: Sendable, Equatable {
    /// METHOD (never NONE: a segment under `METHOD=NONE` has no key).
    public let method: EncryptionMethod
    /// URI as written, variables substituted: where a player fetches the key (relative to the playlist).
    public let uri: String?
    /// IV: the 16 bytes written, or nil (then each segment's media sequence number is its IV).
    public let iv: [UInt8]?
    /// KEYFORMAT as written; nil means `identity` (the key is the 16 bytes at URI).
    public let keyFormat: String?
    /// The line of the tag.
    public let line: Int?

    public init(method: EncryptionMethod, uri: String?, iv: [UInt8]?, keyFormat: String?, line: Int?) {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
        self.line = line
    }

    /// Whether the key is the 16 bytes at URI (KEYFORMAT absent or `identity`), as AES-128 needs.
    public var isIdentity: Bool { keyFormat == nil || keyFormat == "identity" }

    /// The IV of the segment whose media sequence number is `sequenceNumber`: the tag's IV, else
    /// the number as a 128-bit big-endian integer (RFC 8216bis §5.2).
    public func iv(forSequenceNumber sequenceNumber: Int) -> [UInt8] {
        iv ?? Self.iv(sequenceNumber: sequenceNumber)
    }

    /// `sequenceNumber` as a 128-bit big-endian integer: the IV of a segment under a tag without IV.
    public static func iv(sequenceNumber: Int) -> [UInt8] {
        let n = UInt64(max(0, sequenceNumber))
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: n >> (8 * (7 - $0))) }
    }

    /// The IV of a hexadecimal-sequence (`0x` and 32 hexadecimal digits), or nil.
    public static func iv(parsing text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 34, digits[0] == 0x30, digits[1] == 0x78 || digits[1] == 0x58 else { return nil }
        return hexBytes(digits.dropFirst(2))
    }

    /// The bytes of an even number of hexadecimal digits, or nil.
    public static func hexBytes(_ digits: some Collection<UInt8>) -> [UInt8]? {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x41...0x46: return c - 0x41 + 10
            case 0x61...0x66: return c - 0x61 + 10
            default: return nil
            }
        }
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for c in digits {
            guard let v = value(c) else { return nil }
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return bytes
    }

    /// `0x` and 32 lower-case hexadecimal digits: `bytes` as an IV attribute value.
    public static func hexSequence(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        return "0x" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
