import Foundation
import Testing
import Timebase

@testable import Subweave

/// A playlist is taken for one of Subweave's generations only when every file it names is a
/// plain name in its folder; anything else (a path, a URL, a variable, an odd map) is read in
/// full and each file stat'd.
struct RunFingerprintPlaylistTests {
    @Test func onlyPlainNamesAreTakenForAGenerationsOwn() {
        let plain = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"init.mp4\"\n#EXTINF:6.000,\n00000.m4s\r\n#EXTINF:6.000,\n00001.m4s\n\n#EXT-X-ENDLIST\n"
        #expect(RunFingerprint.namesOnlyPlainFiles(Array(plain.utf8)))
        #expect(RunFingerprint.namesOnlyPlainFiles(Array("#EXTM3U\n".utf8)))
        for odd in [
            "#EXTM3U\n#EXTINF:6,\n../other/00000.vtt\n", "#EXTM3U\n#EXTINF:6,\nhttps://cdn.example/00000.vtt\n", "#EXTM3U\n#EXTINF:6,\n/abs/00000.vtt\n",
            "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n#EXTINF:6,\n{$a}.vtt\n", "#EXTM3U\n#EXT-X-MAP:URI=\"../init.mp4\"\n#EXTINF:6,\n0.m4s\n",
            "#EXTM3U\n#EXT-X-MAP:URI=\"{$a}.mp4\"\n", "#EXTM3U\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n", "#EXTM3U\n#EXTINF:6,\n 00000.vtt\n",
            "#EXTM3U\n#EXTINF:6,\n..\n",
        ] {
            #expect(!RunFingerprint.namesOnlyPlainFiles(Array(odd.utf8)), "\(odd)")
        }
    }

    /// Adding an array of bytes hashes as adding the same bytes as any sequence does.
    @Test func anArrayHashesAsItsBytes() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var a = ContentHash(), b = ContentHash()
        a.add(bytes)
        b.add(bytes[...])
        #expect(a.hex(16) == b.hex(16))
    }
}
