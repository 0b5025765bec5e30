/// A 64-bit hash of bytes taken eight at a time, for content-addressed names of large content
/// (not for security): the same bytes always give the same name, on every machine and run.
///
/// ``ContentHash`` (FNV-1a) multiplies once per byte; this one once per eight-byte word (an
/// xxHash-style round: multiply the word, add, rotate, multiply), then mixes the total length
/// and the bytes left over at the end. Bytes added in any pieces give the hash of them joined.
/// Its values are not ``ContentHash``'s: a name made with one is never compared with the other.
package struct WordHash: Sendable, Equatable {
    private var accumulator: UInt64 = 0x2715_2F6C_8D4B_7E91
    /// The bytes not yet a whole word, in their order from the low byte up.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var length: UInt64 = 0

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9

    package init() {}

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = accumulator &+ word &* prime2
        return ((mixed << 31) | (mixed >> 33)) &* prime1
    }

    /// Adds `bytes`.
    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return }
        length &+= UInt64(count)
        var i = 0
        if pendingCount > 0 {
            while i < count && pendingCount < 8 {
                pending |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(pendingCount))
                pendingCount += 1
                i += 1
            }
            guard pendingCount == 8 else { return }
            accumulator = Self.round(accumulator, pending)
            pending = 0
            pendingCount = 0
        }
        var acc = accumulator
        while count - i >= 8 {
            acc = Self.round(acc, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        accumulator = acc
        while i < count {
            pending |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(pendingCount))
            pendingCount += 1
            i += 1
        }
    }

    /// Adds `bytes` through their storage.
    package mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// Adds one byte (a separator).
    package mutating func add(byte: UInt8) {
        length &+= 1
        pending |= UInt64(byte) << (8 * UInt64(pendingCount))
        pendingCount += 1
        if pendingCount == 8 {
            accumulator = Self.round(accumulator, pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// Adds the UTF-8 of `text` and a separator, so that ("ab", "c") and ("a", "bc") differ.
    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        add(byte: 0xFF)
    }

    /// The hash as a number: the words so far, the length and the bytes left over, mixed so that
    /// every bit of them moves about half of the result's.
    package var digest: UInt64 {
        var h = Self.round(accumulator ^ (length &* Self.prime3), pending)
        h ^= h >> 33
        h = h &* Self.prime2
        h ^= h >> 29
        h = h &* Self.prime3
        h ^= h >> 32
        return h
    }

    /// The hash as `digits` lower-case hexadecimal digits (at most 16).
    package func hex(_ digits: Int = 16) -> String {
        String(String(digest, radix: 16).zeroPadded(to: 16).suffix(min(16, digits)))
    }
}
