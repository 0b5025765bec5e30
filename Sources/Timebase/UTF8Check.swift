/// Finds where bytes stop being UTF-8, so an error can point at the offending byte.
package enum UTF8Check {
    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF), or nil if all are well formed.
    package static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            // ASCII eight bytes at a time, else a byte at a time; a run of other bytes is checked whole.
            if i + 8 <= count, ByteWords.isASCII(ByteWords.load(base, at: i)) {
                i += 8
                continue
            }
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            var end = i + 1
            while end < count, bytes[end] >= 0x80 { end += 1 }
            // Specialised here: a generic call from another module runs unspecialised, several times slower.
            if let bad = firstInvalidOffset(bytes[i..<end]) { return i + bad }
            i = end
        }
        return nil
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or nil.
    package static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset($0[...]) }
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence, or nil.
    package static func firstInvalidOffset<C: Collection>(_ bytes: C) -> Int? where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i - bytes.startIndex
            }
            guard i + length <= end else { return i - bytes.startIndex }
            let b1 = bytes[i + 1]
            guard b1 >= low && b1 <= high else { return i - bytes.startIndex }
            for k in 2..<max(2, length) where bytes[i + k] & 0xC0 != 0x80 {
                return i - bytes.startIndex
            }
            i += length
        }
        return nil
    }
}
