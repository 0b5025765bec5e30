import Testing
import Timebase

/// The generation hash: its value is the one its definition gives for the bytes joined, however
/// they are handed to it, and it tells apart what a name must tell apart.
struct WordHashTests {
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// The definition, over the whole input at once: little-endian words, each
    /// `rotl(acc + word * p2, 31) * p1`; then the length times p3 mixed in, the left-over bytes as
    /// a last round, and the xxHash64 avalanche.
    static func reference(_ bytes: [UInt8]) -> UInt64 {
        let p1: UInt64 = 0x9E37_79B1_85EB_CA87
        let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        let p3: UInt64 = 0x1656_67B1_9E37_79F9
        func round(_ acc: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = acc &+ word &* p2
            return ((mixed << 31) | (mixed >> 33)) &* p1
        }
        func word(_ slice: ArraySlice<UInt8>) -> UInt64 {
            var value: UInt64 = 0
            for (k, byte) in slice.enumerated() { value |= UInt64(byte) << (8 * UInt64(k)) }
            return value
        }
        var acc: UInt64 = 0x2715_2F6C_8D4B_7E91
        let whole = bytes.count / 8 * 8
        for start in stride(from: 0, to: whole, by: 8) { acc = round(acc, word(bytes[start..<start + 8])) }
        var h = round(acc ^ (UInt64(bytes.count) &* p3), word(bytes[whole...]))
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }

    @Test func bytesInAnyPiecesHashAsTheDefinitionGivesForThemJoined() {
        var g = Generator(state: 7)
        for _ in 0..<2_000 {
            let bytes = g.bytes(g.below(200))
            var whole = WordHash()
            whole.add(bytes)
            #expect(whole.digest == Self.reference(bytes), "\(bytes.count) bytes")
            // Cut anywhere, each piece handed as bytes, as an array or a byte at a time.
            var pieces = WordHash()
            var at = 0
            while at < bytes.count {
                let end = min(bytes.count, at + g.below(20))
                switch g.below(3) {
                case 0: bytes[at..<end].withUnsafeBytes { pieces.add($0) }
                case 1: pieces.add(Array(bytes[at..<end]))
                default: for byte in bytes[at..<end] { pieces.add(byte: byte) }
                }
                at = end
            }
            #expect(pieces == whole && pieces.digest == whole.digest, "\(bytes.count) bytes in pieces")
            #expect(pieces.hex(12) == String(String(whole.digest, radix: 16).zeroPadded(to: 16).suffix(12)))
        }
    }

    @Test func aNameTellsApartWhatDiffers() {
        // Trailing zero bytes (the left-over word is zero-filled: the length tells them apart).
        var seen: [UInt64: [UInt8]] = [:]
        for count in 0..<24 {
            let bytes = [UInt8](repeating: 0, count: count)
            var hash = WordHash()
            hash.add(bytes)
            #expect(seen.updateValue(bytes, forKey: hash.digest) == nil, "\(count) zero bytes")
        }
        // Strings end with a separator.
        var ab = WordHash()
        ab.add("ab")
        ab.add("c")
        var a = WordHash()
        a.add("a")
        a.add("bc")
        #expect(ab.digest != a.digest)
        // 200,000 cue-like texts: no two share a 12-digit name.
        var names = Set<String>()
        var g = Generator(state: 9)
        for i in 0..<200_000 {
            var hash = WordHash()
            hash.add("00:\(i / 60_000):\(i / 1000 % 60).\(i % 1000) --> \(g.below(1000))\nLine \(i)")
            names.insert(hash.hex(12))
        }
        #expect(names.count == 200_000)
    }

    /// Flipping any one bit of the input flips about half the digest's bits.
    @Test func oneBitMovesAboutHalfTheDigest() {
        var g = Generator(state: 11)
        var flipped = 0
        var trials = 0
        for _ in 0..<200 {
            let bytes = g.bytes(1 + g.below(100))
            let base = Self.reference(bytes)
            for bit in stride(from: 0, to: bytes.count * 8, by: 3) {
                var changed = bytes
                changed[bit / 8] ^= 1 << UInt8(bit % 8)
                var hash = WordHash()
                hash.add(changed)
                let distance = (hash.digest ^ base).nonzeroBitCount
                #expect(distance > 0, "a flipped bit changes the digest")
                flipped += distance
                trials += 1
            }
        }
        let mean = Double(flipped) / Double(trials)
        #expect((30.0...34.0).contains(mean), "mean \(mean) of 64 bits")
    }
}
