/// AES-128 (FIPS 197) in CBC mode with PKCS#7 padding: what HLS calls `METHOD=AES-128`
/// (RFC 8216bis §5.2), the whole segment encrypted with a 16-byte key and a 16-byte IV.
///
/// A round is four table look-ups per column (the "T-table" form of FIPS 197 §5, with the
/// equivalent inverse cipher of §5.3.5 for decryption); the tables are computed from the S-box,
/// itself computed rather than typed. Checked against FIPS 197's and NIST SP 800-38A's test
/// vectors, and against `openssl enc`.
package struct AES128: Sendable {
    /// The 11 round keys as 44 big-endian column words (row 0 in the high byte).
    private let encryptionKeys: [UInt32]
    /// The round keys of the equivalent inverse cipher: the same, InvMixColumns applied to rounds 1–9.
    private let decryptionKeys: [UInt32]

    /// Why bytes cannot be decrypted.
    package enum Failure: Error, Equatable {
        /// The length is not a positive multiple of 16 bytes.
        case length(Int)
        /// The last block does not end in valid PKCS#7 padding (the wrong key, or damaged bytes).
        case padding
    }

    /// A cipher with `key`; nil unless it is 16 bytes.
    package init?(key: [UInt8]) {
        guard key.count == 16 else { return nil }
        var w: [UInt32] = (0..<4).map { c in (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(key[4 * c + $1]) } }
        var rcon: UInt32 = 1
        for i in 4..<44 {
            var t = w[i - 1]
            if i % 4 == 0 {
                t = Self.subWord(t << 8 | t >> 24) ^ (rcon << 24)
                rcon = UInt32(Self.xtime(UInt8(rcon)))
            }
            w.append(w[i - 4] ^ t)
        }
        encryptionKeys = w
        let box = Self.sbox, td = Self.decryptionTables
        decryptionKeys = w.enumerated().map { index, word in
            guard index >= 4 && index < 40 else { return word }
            // InvMixColumns of the word: the Td tables undo the S-box they include.
            func byte(_ shift: UInt32) -> Int { Int(box[Int((word >> shift) & 0xFF)]) }
            return td[byte(24)] ^ td[256 + byte(16)] ^ td[512 + byte(8)] ^ td[768 + byte(0)]
        }
    }

    /// `plaintext` padded (PKCS#7) and encrypted in CBC mode from `iv`.
    package func encrypt(_ plaintext: [UInt8], iv: [UInt8]) -> [UInt8] {
        precondition(iv.count == 16, "an AES-128 IV is 16 bytes")
        let pad = 16 - plaintext.count % 16
        var out = plaintext
        out.append(contentsOf: repeatElement(UInt8(pad), count: pad))
        var chain = Self.words(iv[...])
        Self.encryptionTables.withUnsafeBufferPointer { te in
            Self.sbox.withUnsafeBufferPointer { box in
                encryptionKeys.withUnsafeBufferPointer { keys in
                    out.withUnsafeMutableBufferPointer { buffer in
                        for start in stride(from: 0, to: buffer.count, by: 16) {
                            var s = Self.load(buffer, start)
                            s = (s.0 ^ chain.0, s.1 ^ chain.1, s.2 ^ chain.2, s.3 ^ chain.3)
                            chain = Self.encryptBlock(s, keys: keys, te: te, box: box)
                            Self.store(chain, buffer, start)
                        }
                    }
                }
            }
        }
        return out
    }

    /// `ciphertext` decrypted in CBC mode from `iv`, its PKCS#7 padding removed.
    package func decrypt(_ ciphertext: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        precondition(iv.count == 16, "an AES-128 IV is 16 bytes")
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw .length(ciphertext.count) }
        var out = ciphertext
        var chain = Self.words(iv[...])
        Self.decryptionTables.withUnsafeBufferPointer { td in
            Self.inverseSbox.withUnsafeBufferPointer { box in
                decryptionKeys.withUnsafeBufferPointer { keys in
                    out.withUnsafeMutableBufferPointer { buffer in
                        for start in stride(from: 0, to: buffer.count, by: 16) {
                            let c = Self.load(buffer, start)
                            let p = Self.decryptBlock(c, keys: keys, td: td, box: box)
                            Self.store((p.0 ^ chain.0, p.1 ^ chain.1, p.2 ^ chain.2, p.3 ^ chain.3), buffer, start)
                            chain = c
                        }
                    }
                }
            }
        }
        guard let last = out.last, (1...16).contains(last), out.suffix(Int(last)).allSatisfy({ $0 == last }) else { throw .padding }
        out.removeLast(Int(last))
        return out
    }

    typealias Block = (UInt32, UInt32, UInt32, UInt32)

    private static func words(_ bytes: ArraySlice<UInt8>) -> Block {
        let b = Array(bytes)
        func word(_ c: Int) -> UInt32 { UInt32(b[4 * c]) << 24 | UInt32(b[4 * c + 1]) << 16 | UInt32(b[4 * c + 2]) << 8 | UInt32(b[4 * c + 3]) }
        return (word(0), word(1), word(2), word(3))
    }

    @inline(__always)
    private static func load(_ p: UnsafeMutableBufferPointer<UInt8>, _ start: Int) -> Block {
        func word(_ i: Int) -> UInt32 { UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3]) }
        return (word(start), word(start + 4), word(start + 8), word(start + 12))
    }

    @inline(__always)
    private static func store(_ s: Block, _ p: UnsafeMutableBufferPointer<UInt8>, _ start: Int) {
        @inline(__always) func put(_ w: UInt32, _ i: Int) {
            p[i] = UInt8(truncatingIfNeeded: w >> 24)
            p[i + 1] = UInt8(truncatingIfNeeded: w >> 16)
            p[i + 2] = UInt8(truncatingIfNeeded: w >> 8)
            p[i + 3] = UInt8(truncatingIfNeeded: w)
        }
        put(s.0, start)
        put(s.1, start + 4)
        put(s.2, start + 8)
        put(s.3, start + 12)
    }

    /// One block encrypted (FIPS 197 §5.1): ShiftRows takes row r of column c from column c + r.
    @inline(__always)
    private static func encryptBlock(
        _ input: Block, keys k: UnsafeBufferPointer<UInt32>, te: UnsafeBufferPointer<UInt32>, box: UnsafeBufferPointer<UInt8>
    ) -> Block {
        var s = (input.0 ^ k[0], input.1 ^ k[1], input.2 ^ k[2], input.3 ^ k[3])
        @inline(__always) func t(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ key: UInt32) -> UInt32 {
            te[Int(a >> 24)] ^ te[256 + Int((b >> 16) & 0xFF)] ^ te[512 + Int((c >> 8) & 0xFF)] ^ te[768 + Int(d & 0xFF)] ^ key
        }
        for round in 1..<10 {
            let r = 4 * round
            s = (
                t(s.0, s.1, s.2, s.3, k[r]), t(s.1, s.2, s.3, s.0, k[r + 1]), t(s.2, s.3, s.0, s.1, k[r + 2]), t(s.3, s.0, s.1, s.2, k[r + 3])
            )
        }
        @inline(__always) func last(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ key: UInt32) -> UInt32 {
            (UInt32(box[Int(a >> 24)]) << 24 | UInt32(box[Int((b >> 16) & 0xFF)]) << 16 | UInt32(box[Int((c >> 8) & 0xFF)]) << 8
                | UInt32(box[Int(d & 0xFF)])) ^ key
        }
        return (last(s.0, s.1, s.2, s.3, k[40]), last(s.1, s.2, s.3, s.0, k[41]), last(s.2, s.3, s.0, s.1, k[42]), last(s.3, s.0, s.1, s.2, k[43]))
    }

    /// One block decrypted (the equivalent inverse cipher, FIPS 197 §5.3.5): InvShiftRows takes
    /// row r of column c from column c − r.
    @inline(__always)
    private static func decryptBlock(
        _ input: Block, keys k: UnsafeBufferPointer<UInt32>, td: UnsafeBufferPointer<UInt32>, box: UnsafeBufferPointer<UInt8>
    ) -> Block {
        var s = (input.0 ^ k[40], input.1 ^ k[41], input.2 ^ k[42], input.3 ^ k[43])
        @inline(__always) func t(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ key: UInt32) -> UInt32 {
            td[Int(a >> 24)] ^ td[256 + Int((b >> 16) & 0xFF)] ^ td[512 + Int((c >> 8) & 0xFF)] ^ td[768 + Int(d & 0xFF)] ^ key
        }
        for round in stride(from: 9, through: 1, by: -1) {
            let r = 4 * round
            s = (
                t(s.0, s.3, s.2, s.1, k[r]), t(s.1, s.0, s.3, s.2, k[r + 1]), t(s.2, s.1, s.0, s.3, k[r + 2]), t(s.3, s.2, s.1, s.0, k[r + 3])
            )
        }
        @inline(__always) func last(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ key: UInt32) -> UInt32 {
            (UInt32(box[Int(a >> 24)]) << 24 | UInt32(box[Int((b >> 16) & 0xFF)]) << 16 | UInt32(box[Int((c >> 8) & 0xFF)]) << 8
                | UInt32(box[Int(d & 0xFF)])) ^ key
        }
        return (last(s.0, s.3, s.2, s.1, k[0]), last(s.1, s.0, s.3, s.2, k[1]), last(s.2, s.1, s.0, s.3, k[2]), last(s.3, s.2, s.1, s.0, k[3]))
    }

    /// SubWord (FIPS 197 §5.2): the S-box on each byte of a word.
    private static func subWord(_ w: UInt32) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { word, i in word | UInt32(sbox[Int((w >> (8 * UInt32(i))) & 0xFF)]) << (8 * UInt32(i)) }
    }

    /// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
    static func xtime(_ a: UInt8) -> UInt8 { (a << 1) ^ (a & 0x80 != 0 ? 0x1B : 0) }

    /// Multiplication in GF(2^8).
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var a = a, b = b, product: UInt8 = 0
        while b != 0 {
            if b & 1 != 0 { product ^= a }
            a = xtime(a)
            b >>= 1
        }
        return product
    }

    /// A column as a word, row 0 in the high byte.
    private static func column(_ bytes: [UInt8]) -> UInt32 { bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }

    /// SubBytes then MixColumns for a byte in row r (table r): MixColumns' column r times S(x).
    static let encryptionTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 1024)
        for x in 0..<256 {
            let s = sbox[x]
            let word = column([xtime(s), s, s, xtime(s) ^ s])
            for r in 0..<4 { tables[256 * r + x] = r == 0 ? word : word >> (8 * UInt32(r)) | word << (32 - 8 * UInt32(r)) }
        }
        return tables
    }()

    /// InvSubBytes then InvMixColumns for a byte in row r (table r).
    static let decryptionTables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 1024)
        for x in 0..<256 {
            let y = inverseSbox[x]
            let word = column([multiply(y, 14), multiply(y, 9), multiply(y, 13), multiply(y, 11)])
            for r in 0..<4 { tables[256 * r + x] = r == 0 ? word : word >> (8 * UInt32(r)) | word << (32 - 8 * UInt32(r)) }
        }
        return tables
    }()

    /// The S-box (FIPS 197 §5.1.1): the multiplicative inverse in GF(2^8), then the affine
    /// transformation, computed rather than typed (the generator 3 walks every non-zero element).
    static let sbox: [UInt8] = {
        var box = [UInt8](repeating: 0x63, count: 256)
        var p: UInt8 = 1, q: UInt8 = 1
        func rotate(_ x: UInt8, _ n: UInt8) -> UInt8 { (x << n) | (x >> (8 - n)) }
        repeat {
            p = p ^ (p << 1) ^ (p & 0x80 != 0 ? 0x1B : 0)
            q ^= q << 1
            q ^= q << 2
            q ^= q << 4
            if q & 0x80 != 0 { q ^= 0x09 }
            box[Int(p)] = q ^ rotate(q, 1) ^ rotate(q, 2) ^ rotate(q, 3) ^ rotate(q, 4) ^ 0x63
        } while p != 1
        return box
    }()

    /// The inverse S-box.
    static let inverseSbox: [UInt8] = {
        var box = [UInt8](repeating: 0, count: 256)
        for (i, v) in sbox.enumerated() { box[Int(v)] = UInt8(i) }
        return box
    }()
}
