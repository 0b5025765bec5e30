import Foundation
import TestSupport
import Testing

/// Re-records Fixtures/captions/programme.ts, the captioned clip the examples and the captions
/// benchmark start from: `SUBWEAVE_REMAKE_FIXTURES=1 swift test --filter FixtureMaker`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SUBWEAVE_REMAKE_FIXTURES"] == "1", "set SUBWEAVE_REMAKE_FIXTURES=1 to re-record"))
struct FixtureMaker {
    @Test func programmeWithCaptions() throws {
        // 20 s at 29.97 fps: a pop-on caption every 2 s on CC1, a roll-up commentary on CC3.
        var script = CaptionScript()
        for i in 0..<9 {
            let frame = 10 + i * 60
            script.popOn(["Caption \(i + 1) of 9", i % 2 == 0 ? "pop-on, CC1" : "second row"], at: frame)
            script.send([CC608.command(0x2C)], at: frame + 55)
        }
        script.send([CC608.command(0x25, field: 2), CC608.pac(row: 15)], at: 20, field: 2)
        for i in 0..<8 {
            script.send(CC608.text("Roll-up line \(i + 1)") + [CC608.command(0x2D, field: 2)], at: 40 + i * 70, field: 2)
        }
        script.send([CC608.command(0x2C, field: 2)], at: 590, field: 2)
        let dir = try Scratch.make().path
        let file = try CaptionedStream.make(script: script, frames: 600, folder: dir)
        let target = Fixtures.path("captions/programme.ts")
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: file, toPath: target)
    }
}
