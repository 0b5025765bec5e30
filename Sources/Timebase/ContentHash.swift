/// A 64-bit FNV-1a hash of bytes, for content-addressed names (not for security): the same
/// bytes always give the same name, on every machine and run.
package struct ContentHash: Sendable, Equatable {
    @usableFromInline private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Adds `bytes` (inlinable: specialised where it is called, on the caller's collection).
    @inlinable
    package mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        var h = value
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        value = h
    }

    /// Adds `bytes` through their storage (the same hash as any sequence of them).
    package mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// Adds `bytes`: the loop every other `add` ends in, over contiguous memory.
    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var h = value
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        value = h
    }

    /// Adds one byte (a separator).
    package mutating func add(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Adds the UTF-8 of `text` and a separator, so that ("ab", "c") and ("a", "bc") differ.
    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        add(byte: 0xFF)
    }

    /// Adds the UTF-8 of `text` with no separator: a piece of a longer text, whose pieces added
    /// one after another (and ``add(byte:)`` 0xFF at its end) hash as ``add(_:)-(String)`` of
    /// the whole text does, without the whole being built.
    package mutating func add(piece text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    /// Adds `number` in decimal digits, as `"\(number)"` writes it, with no separator (a piece:
    /// ``add(piece:)``).
    package mutating func add(decimal number: Int64) { add(digitsOf: number.magnitude, negative: number < 0) }

    /// ``add(decimal:)-(Int64)`` of an `Int`.
    package mutating func add(decimal number: Int) { add(digitsOf: UInt64(number.magnitude), negative: number < 0) }

    /// ``add(decimal:)-(Int64)`` of a `UInt64`.
    package mutating func add(decimal number: UInt64) { add(digitsOf: number, negative: false) }

    private mutating func add(digitsOf magnitude: UInt64, negative: Bool) {
        if negative { add(byte: UInt8(ascii: "-")) }
        var left = magnitude
        // At most 20 digits, written from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = digits.count
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: left % 10)
                left /= 10
            } while left > 0
            add(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: digits[first...])))
        }
    }

    /// The hash of `bytes` as 16 hexadecimal digits.
    package static func of(_ bytes: [UInt8]) -> String {
        var hash = ContentHash()
        hash.add(bytes)
        return hash.hex()
    }

    /// The hash as a number.
    package var digest: UInt64 { value }

    /// The hash as `digits` lower-case hexadecimal digits (at most 16).
    package func hex(_ digits: Int = 16) -> String {
        String(String(value, radix: 16).zeroPadded(to: 16).suffix(min(16, digits)))
    }
}
