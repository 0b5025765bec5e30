import Foundation
import TestSupport
import Testing

/// `--encrypt-subtitles KEYFILE` on titles ffmpeg encrypts with AES-128, checked by decrypting
/// with OpenSSL, a peer that shares nothing with Subweave's cipher.
@Suite(
    .enabled(if: BuiltTool.subweave != nil && Tools.ffmpeg != nil, "needs the subweave binary and ffmpeg"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl"))
struct EncryptedSubtitlesCommandTests {
    static let srt = "1\n00:00:01,000 --> 00:00:03,000\nHello <i>encrypted</i> world\n\n2\n00:00:04,500 --> 00:00:07,000\nSecond & last\n"

    /// Two encodings of one test pattern, 8 s in 2 s segments: `clear/` and `encrypted/` (the
    /// key in `encrypted/key.bin`, named `key.bin` by the playlist), each with `en.srt`.
    static func titles() throws -> (root: String, key: [UInt8]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("enc-\(UUID().uuidString)").path
        let key = (0..<16).map { UInt8(($0 * 37 + 11) & 0xFF) }
        try FileManager.default.createDirectory(atPath: root + "/encrypted", withIntermediateDirectories: true)
        try Data(key).write(to: URL(fileURLWithPath: root + "/encrypted/key.bin"))
        try GeneratedMedia.tsVideo(folder: root + "/clear", seconds: 8, segment: 2)
        try GeneratedMedia.tsVideo(folder: root + "/encrypted", seconds: 8, segment: 2, key: ("key.bin", root + "/encrypted/key.bin"))
        for folder in ["clear", "encrypted"] { try srt.write(toFile: "\(root)/\(folder)/en.srt", atomically: true, encoding: .utf8) }
        return (root, key)
    }

    static func generation(_ folder: String) throws -> String {
        let base = folder + "/subtitles/en-en"
        let names = try FileManager.default.contentsOfDirectory(atPath: base).filter { !$0.hasPrefix(".") }
        return base + "/" + (try #require(names.first))
    }

    static func openssl(_ path: String, key: [UInt8], sequence: Int) throws -> Data {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        let iv = [UInt8](repeating: 0, count: 15) + [UInt8(sequence)]
        let out = try Tools.run("/usr/bin/openssl", ["enc", "-d", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", path])
        #expect(out.status == 0, "openssl: \(out.stderr)")
        return Data(out.stdout.utf8)
    }

    @Test func openSSLDecryptsEverySegmentToTheClearTitlesBytes() throws {
        let (root, key) = try Self.titles()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clear = try BuiltTool.run(["package", root + "/clear/master.m3u8", "--subtitle", "url=\(root)/clear/en.srt,language=en"])
        #expect(clear.status == 0, "\(clear.stderr)")
        let encrypted = try BuiltTool.run(
            [
                "package", root + "/encrypted/master.m3u8", "--subtitle", "url=\(root)/encrypted/en.srt,language=en", "--encrypt-subtitles",
                root + "/encrypted/key.bin",
            ])
        #expect(encrypted.status == 0, "\(encrypted.stderr)")

        let clearGeneration = try Self.generation(root + "/clear"), sealed = try Self.generation(root + "/encrypted")
        let playlist = try String(contentsOfFile: sealed + "/index.m3u8", encoding: .utf8)
        // The video's key, relative to the subtitle playlist; no IV: each segment's is its sequence number.
        #expect(playlist.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"../../../key.bin\"\n#EXTINF"), "\(playlist)")
        for n in 0..<4 {
            let name = String(format: "/%05d.vtt", n)
            let cipher = try Data(contentsOf: URL(fileURLWithPath: sealed + name))
            #expect(!String(decoding: cipher, as: UTF8.self).contains("WEBVTT"))
            #expect(try Self.openssl(sealed + name, key: key, sequence: n) == (try Data(contentsOf: URL(fileURLWithPath: clearGeneration + name))), "\(name)")
        }
        // The cues kept beside the rendition are not served in the clear either.
        #expect(!String(decoding: try Data(contentsOf: URL(fileURLWithPath: sealed + "/cues.vtt")), as: UTF8.self).contains("Hello"))

        // validate reads the video and the segments with the key at their URI, as a player does.
        let validate = try BuiltTool.run(["validate", root + "/encrypted/master.m3u8", "--json"])
        #expect(validate.status == 0, "\(validate.stdout)")
        #expect(validate.stdout.contains("\"errors\" : 0") || !validate.stdout.contains("\"severity\" : \"error\""), "\(validate.stdout)")
        #expect(!validate.stdout.contains("timeline-readable"), "\(validate.stdout)")

        // A refresh keeps encrypting (the intent recorded the key file), and changes nothing.
        let refresh = try BuiltTool.run(["refresh", root + "/encrypted/master.m3u8"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(try Self.generation(root + "/encrypted") == sealed)

        // Every command reads the title with the key its intent names: report and captions too.
        let report = try BuiltTool.run(["report", root + "/encrypted/master.m3u8"])
        #expect(report.status == 0 && report.stdout.contains("external:en:en"), "\(report.stdout)\(report.stderr)")
        let captions = try BuiltTool.run(["captions", root + "/encrypted/master.m3u8"])
        #expect(!captions.stderr.contains("encrypted"), "\(captions.stderr)")

        // Stopping is said, not forgotten: clear segments again, and no key tag.
        let stop = try BuiltTool.run(["package", root + "/encrypted/master.m3u8", "--encrypt-subtitles", "none"])
        #expect(stop.status == 1 && stop.stderr.contains("is encrypted"), "the video still needs its key to be read: \(stop.stderr)")
    }

    @Test func whatCannotBeEncryptedIsRefusedAndNothingIsWritten() throws {
        let (root, _) = try Self.titles()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data((0..<16).map { UInt8($0) }).write(to: URL(fileURLWithPath: root + "/wrong.bin"))
        try Data([1, 2, 3, 4, 5]).write(to: URL(fileURLWithPath: root + "/short.bin"))
        let cases: [(folder: String, key: String, says: String)] = [
            ("clear", root + "/encrypted/key.bin", "--encrypt-subtitles: the video (\(root)/clear/prog.m3u8) is not encrypted"),
            ("encrypted", root + "/wrong.bin", "\(root)/wrong.bin: does not decrypt segment 0 (line"),
            ("encrypted", root + "/short.bin", "\(root)/short.bin: is not an AES-128 key: expected the 16 bytes served at the key URI"),
            ("encrypted", root + "/missing.bin", "\(root)/missing.bin"),
        ]
        for c in cases {
            let before = try FolderSnapshot(root + "/" + c.folder)
            let outcome = try BuiltTool.run([
                "package", "\(root)/\(c.folder)/master.m3u8", "--subtitle", "url=\(root)/\(c.folder)/en.srt,language=en", "--encrypt-subtitles", c.key,
            ])
            #expect(outcome.status == 1, "\(c.key): \(outcome.stderr)")
            #expect(outcome.stderr.contains(c.says), "\(c.key): \(outcome.stderr)")
            #expect(before.differences(to: try FolderSnapshot(root + "/" + c.folder)) == [], "\(c.key)")
        }
        // Following does not encrypt: refused at once rather than publishing clear segments.
        let follow = try BuiltTool.run([
            "package", "\(root)/encrypted/master.m3u8", "--subtitle", "url=\(root)/encrypted/en.srt,language=en", "--encrypt-subtitles",
            root + "/encrypted/key.bin", "--follow", "--idle-timeout", "1",
        ])
        #expect(follow.status == 1 && follow.stderr.contains("--follow does not encrypt subtitles"), "\(follow.stderr)")
        // Without a key, an encrypted title says what would read it.
        let keyless = try BuiltTool.run(["package", "\(root)/encrypted/master.m3u8", "--subtitle", "url=\(root)/encrypted/en.srt,language=en"])
        #expect(keyless.status == 1 && keyless.stderr.contains("without the key. Give the title's key file"), "\(keyless.stderr)")
    }
}
