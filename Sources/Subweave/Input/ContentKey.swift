import Foundation
import HLS

/// A title's AES-128 key (`EXT-X-KEY:METHOD=AES-128`), read from a local file the operator
/// names: what decrypts the video to read its timestamps and captions, and what encrypts the
/// subtitle segments written beside it.
///
/// The file holds the 16 bytes a player fetches from the key URI (what `openssl rand 16` and
/// ffmpeg's key info file use), or those bytes as 32 hexadecimal digits (`0x` and a final line
/// break allowed). The key itself is never written anywhere, shown or hashed; a check value
/// (the key encrypting a block of zeros, as key ceremonies compare keys) stands for it in
/// generation hashes.
public struct ContentKey: Sendable {
    /// The key file, as named.
    public let path: String
    let cipher: AES128
    /// AES-128 of 16 zero bytes under the key.
    let checkValue: [UInt8]

    /// The key in the file at `path`.
    public static func read(path: String) throws(SubweaveError) -> ContentKey {
        let bytes: [UInt8]
        do { bytes = try ResourceLoader.readFile(path, limit: 4096, kind: .subtitle) } catch {
            throw .unreadable(path: path, what: "the key file", error)
        }
        guard let key = Self.keyBytes(bytes), let cipher = AES128(key: key) else {
            throw .key(path: path, .notAKey(bytes: bytes.count))
        }
        return ContentKey(path: path, cipher: cipher)
    }

    /// The key in `bytes` (a key file's content, or what a key URI serves), named by `path`.
    init?(bytes: [UInt8], path: String) {
        guard let key = Self.keyBytes(bytes), let cipher = AES128(key: key) else { return nil }
        self.init(path: path, cipher: cipher)
    }

    init(path: String, cipher: AES128) {
        self.path = path
        self.cipher = cipher
        checkValue = Array(cipher.encrypt([UInt8](repeating: 0, count: 16), iv: [UInt8](repeating: 0, count: 16)).prefix(16))
    }

    /// The 16 key bytes of a key file's content: the bytes themselves, or 32 hexadecimal digits.
    static func keyBytes(_ content: [UInt8]) -> [UInt8]? {
        if content.count == 16 { return content }
        var text = content[...]
        while let last = text.last, last == 0x0A || last == 0x0D || last == 0x20 { text.removeLast() }
        if text.starts(with: Array("0x".utf8)) || text.starts(with: Array("0X".utf8)) { text = text.dropFirst(2) }
        guard text.count == 32 else { return nil }
        return SegmentKey.hexBytes(text)
    }

    /// `bytes` decrypted (CBC from `iv`, PKCS#7 removed); `place` names them for the error.
    func decrypt(_ bytes: [UInt8], iv: [UInt8], place: String) throws(SubweaveError) -> [UInt8] {
        do { return try cipher.decrypt(bytes, iv: iv) } catch { throw .key(path: path, .doesNotDecrypt(place: place)) }
    }

    /// `bytes` encrypted (PKCS#7, CBC from `iv`).
    func encrypt(_ bytes: [UInt8], iv: [UInt8]) -> [UInt8] { cipher.encrypt(bytes, iv: iv) }

    /// The IV of the cues Subweave keeps beside an encrypted rendition (`cues.vtt`): the key's
    /// encryption of a fixed block, so it is no segment's (those are media sequence numbers).
    var keptCuesIV: [UInt8] {
        Array(cipher.encrypt(Array("subweave cues.vt".utf8), iv: [UInt8](repeating: 0, count: 16)).prefix(16))
    }
}
