/// Passing over runs of bytes a scan has nothing to do with, eight bytes (one word) at a time.
///
/// The tests are the classic ones on a 64-bit word (each byte's high bit gathers the answer for
/// that byte) and say only whether a word holds a byte that matters, not which: the scan looks
/// at that word's bytes one by one. The loops live here, called once per run, because the
/// compiler does not inline a `package` function into another module, even `@inlinable`, and a
/// call per word would cost more than the word saves.
package enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` of `base` (any alignment).
    @inline(__always) static func load(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
    }

    /// Whether every byte of `word` is ASCII (below 0x80).
    @inline(__always) static func isASCII(_ word: UInt64) -> Bool { word & highs == 0 }

    /// Whether a byte of `word` is below `bound` (at most 0x80).
    @inline(__always) static func hasByte(below bound: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highs != 0
    }

    /// Whether a byte of `word` is `byte`.
    @inline(__always) static func has(_ byte: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// Where, stepping eight bytes at a time from `start`, the first word of `bytes` is that
    /// holds a byte below `bound` (1 to 0x80) or equal to `a` or `b`; the start of the last,
    /// shorter-than-eight run when no whole word does. (`a` and `b` default to 0, a byte below
    /// every bound: they add nothing.)
    package static func firstWord(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, withByteBelow bound: UInt8, or a: UInt8 = 0, _ b: UInt8 = 0
    ) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        while i + 8 <= bytes.count {
            let word = load(base, at: i)
            if hasByte(below: bound, in: word) || has(a, in: word) || has(b, in: word) { return i }
            i += 8
        }
        return i
    }

    /// Where, stepping eight bytes at a time from `start`, the first word of `bytes` is that
    /// holds a byte that is not printable ASCII (below 0x20, DEL, or not ASCII) or is `a` or `b`;
    /// the start of the last, shorter-than-eight run when no whole word does.
    package static func firstWord(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, notPrintableOr a: UInt8, _ b: UInt8) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        while i + 8 <= bytes.count {
            let word = load(base, at: i)
            if !isASCII(word) || hasByte(below: 0x20, in: word) || has(0x7F, in: word) || has(a, in: word) || has(b, in: word) { return i }
            i += 8
        }
        return i
    }

    /// Where, stepping eight bytes at a time from `start`, the first word of `bytes` is that
    /// holds a control byte (below 0x20, or DEL) or one of `<`, `>`, `&`, `{` and `\`: the bytes
    /// cue-text markup, repair and sanitising look at; the start of the last, shorter-than-eight
    /// run when no whole word does.
    package static func firstWordWithControlOrMarkup(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        while i + 8 <= bytes.count {
            let word = load(base, at: i)
            if hasByte(below: 0x20, in: word) || has(0x7F, in: word) || has(0x3C, in: word) || has(0x3E, in: word) || has(0x26, in: word)
                || has(0x7B, in: word) || has(0x5C, in: word)
            {
                return i
            }
            i += 8
        }
        return i
    }
}
