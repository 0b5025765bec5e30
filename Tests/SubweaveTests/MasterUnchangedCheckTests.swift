import Foundation
import Platform
import Subweave
import TestSupport
import Testing

/// Before a plan is written, the master on disk is compared with the bytes the plan was made from,
/// a megabyte at a time (it is not read whole again): any difference, anywhere, is a change.
struct MasterUnchangedCheckTests {
    @Test func aDifferenceAnywhereIsAChange() throws {
        let folder = try Scratch.make().path
        let path = folder + "/master.m3u8"
        var rng = SeededGenerator(seed: 66)
        // Three pieces and a bit, so that the pieces and the end are all exercised.
        let bytes = (0..<(3 << 20) + 4321).map { _ in UInt8.random(in: 0...255, using: &rng) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(FileSystem.contentsEqual(path, bytes))
        for offset in [0, (1 << 20) - 1, 1 << 20, (2 << 20) + 17, bytes.count - 1] {
            var changed = bytes
            changed[offset] ^= 0x01
            #expect(!FileSystem.contentsEqual(path, changed), "a byte changed at \(offset)")
        }
        #expect(!FileSystem.contentsEqual(path, Array(bytes.dropLast())), "the file is longer")
        #expect(!FileSystem.contentsEqual(path, bytes + [0x0A]), "the file is shorter")
        #expect(!FileSystem.contentsEqual(folder + "/absent.m3u8", bytes))
        #expect(!FileSystem.contentsEqual(folder, []), "a folder is not a master")
        #expect(mkfifo(folder + "/fifo", 0o644) == 0)
        #expect(!FileSystem.contentsEqual(folder + "/fifo", []), "a FIFO is refused, not read")
        try Data().write(to: URL(fileURLWithPath: folder + "/empty"))
        #expect(FileSystem.contentsEqual(folder + "/empty", []))
    }
}
