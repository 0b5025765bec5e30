import Foundation
import Testing

@testable import HLS

/// AES-128 against the standards' vectors and against OpenSSL, a peer that shares nothing with it.
struct AES128Tests {
    static func hex(_ text: String) -> [UInt8] { SegmentKey.hexBytes(Array(text.utf8)) ?? [] }

    @Test func theSBoxIsFIPS197s() {
        // FIPS 197 Figure 7: S(00) = 63, S(01) = 7c, S(53) = ed, S(ff) = 16.
        #expect(AES128.sbox[0x00] == 0x63 && AES128.sbox[0x01] == 0x7C && AES128.sbox[0x53] == 0xED && AES128.sbox[0xFF] == 0x16)
        #expect(Set(AES128.sbox).count == 256)
    }

    /// FIPS 197 Appendix C.1 (one block, so CBC from a zero IV is the bare cipher) and NIST SP
    /// 800-38A F.2.1 (CBC-AES128, four blocks); PKCS#7 adds one block of padding to each.
    @Test func standardVectors() throws {
        let fips = try #require(AES128(key: Self.hex("000102030405060708090a0b0c0d0e0f")))
        let one = fips.encrypt(Self.hex("00112233445566778899aabbccddeeff"), iv: [UInt8](repeating: 0, count: 16))
        #expect(Array(one.prefix(16)) == Self.hex("69c4e0d86a7b0430d8cdb78070b4c55a"))
        #expect(try fips.decrypt(one, iv: [UInt8](repeating: 0, count: 16)) == Self.hex("00112233445566778899aabbccddeeff"))

        let nist = try #require(AES128(key: Self.hex("2b7e151628aed2a6abf7158809cf4f3c")))
        let iv = Self.hex("000102030405060708090a0b0c0d0e0f")
        let plaintext = Self.hex(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let expected = Self.hex(
            "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7")
        let encrypted = nist.encrypt(plaintext, iv: iv)
        #expect(Array(encrypted.prefix(64)) == expected)
        #expect(encrypted.count == 80)
        #expect(try nist.decrypt(encrypted, iv: iv) == plaintext)
    }

    @Test func wrongKeysAndDamagedBytesAreRefused() throws {
        let key = try #require(AES128(key: Array(0..<16)))
        let other = try #require(AES128(key: Array(1...16)))
        let iv = SegmentKey.iv(sequenceNumber: 7)
        let encrypted = key.encrypt(Array("WEBVTT\n\n".utf8), iv: iv)
        #expect(throws: AES128.Failure.length(15)) { try key.decrypt(Array(encrypted.prefix(15)), iv: iv) }
        #expect(throws: AES128.Failure.length(0)) { try key.decrypt([], iv: iv) }
        // Another key gives random-looking padding; over many IVs, a few pass by chance but
        // none gives back the text.
        for n in 0..<64 {
            let wrong = try? other.decrypt(key.encrypt(Array("WEBVTT\n\n".utf8), iv: SegmentKey.iv(sequenceNumber: n)), iv: SegmentKey.iv(sequenceNumber: n))
            #expect(wrong != Array("WEBVTT\n\n".utf8))
        }
        #expect(AES128(key: Array(0..<15)) == nil)
    }

    /// Every length from 0 to 40 bytes, and a large buffer, against `openssl enc -aes-128-cbc`.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "openssl is not installed"))
    func matchesOpenSSL() throws {
        let keyBytes = Self.hex("8f1c3d5e7a9b0c2d4e6f8091a2b3c4d5")
        let iv = SegmentKey.iv(sequenceNumber: 1_234_567)
        let cipher = try #require(AES128(key: keyBytes))
        var generator = SystemRandomNumberGenerator()
        let big = (0..<100_003).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for plaintext in (0...40).map({ Array(big.prefix($0)) }) + [big] {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aes-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let input = folder.appendingPathComponent("in"), output = folder.appendingPathComponent("out")
            try Data(plaintext).write(to: input)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = [
                "enc", "-aes-128-cbc", "-K", SegmentKey.hexSequence(keyBytes).dropFirst(2).description, "-iv",
                SegmentKey.hexSequence(iv).dropFirst(2).description, "-in", input.path, "-out", output.path,
            ]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let theirs = try [UInt8](Data(contentsOf: output))
            #expect(cipher.encrypt(plaintext, iv: iv) == theirs, "\(plaintext.count) bytes")
            #expect(try cipher.decrypt(theirs, iv: iv) == plaintext, "\(plaintext.count) bytes")
        }
    }

    @Test func ivAttributesAndSequenceNumbers() {
        #expect(SegmentKey.iv(sequenceNumber: 1) == [UInt8](repeating: 0, count: 15) + [1])
        #expect(SegmentKey.iv(sequenceNumber: 0x0102) == [UInt8](repeating: 0, count: 14) + [1, 2])
        #expect(SegmentKey.iv(parsing: "0x000102030405060708090A0B0C0D0E0F") == Array(0..<16))
        #expect(SegmentKey.iv(parsing: "0X000102030405060708090a0b0c0d0e0f") == Array(0..<16))
        for bad in ["000102030405060708090a0b0c0d0e0f", "0x0001", "0x000102030405060708090a0b0c0d0e0g", "\"0x000102030405060708090a0b0c0d0e0f\""] {
            #expect(SegmentKey.iv(parsing: bad) == nil, "\(bad)")
        }
        #expect(SegmentKey.hexSequence(Array(0..<16)) == "0x000102030405060708090a0b0c0d0e0f")
    }
}
