/// AES-128 (FIPS 197) in CBC mode with PKCS#7 padding: what HLS calls `METHOD=AES-128`
/// (RFC 8216bis §5.2), the whole segment encrypted with a 16-byte key and a 16-byte IV.
///
/// Checked against FIPS 197's and NIST SP 800-38A's test vectors, and against `openssl enc`.
package struct AES128: Sendable {
    /// The 11 round keys, 16 bytes each.
    private let roundKeys: [UInt8]

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
        var w = key
        w.reserveCapacity(176)
        var rcon: UInt8 = 1
        for i in stride(from: 16, to: 176, by: 4) {
            var t = [w[i - 4], w[i - 3], w[i - 2], w[i - 1]]
            if i % 16 == 0 {
                t = [Self.sbox[Int(t[1])] ^ rcon, Self.sbox[Int(t[2])], Self.sbox[Int(t[3])], Self.sbox[Int(t[0])]]
                rcon = Self.xtime(rcon)
            }
            for j in 0..<4 { w.append(w[i - 16 + j] ^ t[j]) }
        }
        roundKeys = w
    }

    /// `plaintext` padded (PKCS#7) and encrypted in CBC mode from `iv`.
    package func encrypt(_ plaintext: [UInt8], iv: [UInt8]) -> [UInt8] {
        precondition(iv.count == 16, "an AES-128 IV is 16 bytes")
        let pad = 16 - plaintext.count % 16
        var out = plaintext
        out.append(contentsOf: repeatElement(UInt8(pad), count: pad))
        var previous = iv
        out.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 16) {
                for j in 0..<16 { buffer[start + j] ^= previous[j] }
                encryptBlock(buffer, at: start)
                for j in 0..<16 { previous[j] = buffer[start + j] }
            }
        }
        return out
    }

    /// `ciphertext` decrypted in CBC mode from `iv`, its PKCS#7 padding removed.
    package func decrypt(_ ciphertext: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        precondition(iv.count == 16, "an AES-128 IV is 16 bytes")
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw .length(ciphertext.count) }
        var out = ciphertext
        var previous = iv
        var current = [UInt8](repeating: 0, count: 16)
        out.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: 16) {
                for j in 0..<16 { current[j] = buffer[start + j] }
                decryptBlock(buffer, at: start)
                for j in 0..<16 { buffer[start + j] ^= previous[j] }
                swap(&previous, &current)
            }
        }
        guard let last = out.last, (1...16).contains(last), out.suffix(Int(last)).allSatisfy({ $0 == last }) else { throw .padding }
        out.removeLast(Int(last))
        return out
    }

    /// The 16 bytes at `start` encrypted in place.
    private func encryptBlock(_ s: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        roundKeys.withUnsafeBufferPointer { k in
            for j in 0..<16 { s[start + j] ^= k[j] }
            for round in 1...10 {
                // SubBytes and ShiftRows: byte (row r, column c) comes from column c + r.
                var t = [UInt8](repeating: 0, count: 16)
                for c in 0..<4 {
                    for r in 0..<4 { t[4 * c + r] = Self.sbox[Int(s[start + 4 * ((c + r) % 4) + r])] }
                }
                if round < 10 {
                    for c in 0..<4 {
                        let a0 = t[4 * c], a1 = t[4 * c + 1], a2 = t[4 * c + 2], a3 = t[4 * c + 3]
                        let all = a0 ^ a1 ^ a2 ^ a3
                        t[4 * c] = a0 ^ all ^ Self.xtime(a0 ^ a1)
                        t[4 * c + 1] = a1 ^ all ^ Self.xtime(a1 ^ a2)
                        t[4 * c + 2] = a2 ^ all ^ Self.xtime(a2 ^ a3)
                        t[4 * c + 3] = a3 ^ all ^ Self.xtime(a3 ^ a0)
                    }
                }
                for j in 0..<16 { s[start + j] = t[j] ^ k[16 * round + j] }
            }
        }
    }

    /// The 16 bytes at `start` decrypted in place (the inverse cipher, FIPS 197 §5.3).
    private func decryptBlock(_ s: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        roundKeys.withUnsafeBufferPointer { k in
            var t = [UInt8](repeating: 0, count: 16)
            for j in 0..<16 { t[j] = s[start + j] ^ k[160 + j] }
            for round in stride(from: 9, through: 0, by: -1) {
                // InvShiftRows and InvSubBytes: byte (row r, column c) goes to column c + r.
                var u = [UInt8](repeating: 0, count: 16)
                for c in 0..<4 {
                    for r in 0..<4 { u[4 * ((c + r) % 4) + r] = Self.inverseSbox[Int(t[4 * c + r])] }
                }
                for j in 0..<16 { u[j] ^= k[16 * round + j] }
                if round > 0 {
                    for c in 0..<4 {
                        let a0 = u[4 * c], a1 = u[4 * c + 1], a2 = u[4 * c + 2], a3 = u[4 * c + 3]
                        u[4 * c] = Self.multiply(a0, 14) ^ Self.multiply(a1, 11) ^ Self.multiply(a2, 13) ^ Self.multiply(a3, 9)
                        u[4 * c + 1] = Self.multiply(a0, 9) ^ Self.multiply(a1, 14) ^ Self.multiply(a2, 11) ^ Self.multiply(a3, 13)
                        u[4 * c + 2] = Self.multiply(a0, 13) ^ Self.multiply(a1, 9) ^ Self.multiply(a2, 14) ^ Self.multiply(a3, 11)
                        u[4 * c + 3] = Self.multiply(a0, 11) ^ Self.multiply(a1, 13) ^ Self.multiply(a2, 9) ^ Self.multiply(a3, 14)
                    }
                }
                t = u
            }
            for j in 0..<16 { s[start + j] = t[j] }
        }
    }

    /// Multiplication by x in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
    private static func xtime(_ a: UInt8) -> UInt8 { (a << 1) ^ (a & 0x80 != 0 ? 0x1B : 0) }

    /// Multiplication in GF(2^8).
    private static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var a = a, b = b, product: UInt8 = 0
        while b != 0 {
            if b & 1 != 0 { product ^= a }
            a = xtime(a)
            b >>= 1
        }
        return product
    }

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
