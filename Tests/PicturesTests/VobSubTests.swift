import Foundation
import Pictures
import TestSupport
import Testing
import Timebase

/// VobSub pictures that spumux (dvdauthor) drew from known text, read back: their times, places
/// and pixels against what ffmpeg's own dvdsub decoder finds in the same files.
@Suite(.enabled(if: BitmapSubtitles.missingTools.isEmpty, "spumux, mkvextract, ffmpeg or the DejaVu font is missing"))
struct VobSubTests {
    static let cues: [(Double, Double, String)] = [(1.0, 3.0, "Hello there, world!"), (4.0, 6.5, "A second cue\nwith two lines.")]

    @Test func picturesComeBackAtTheirTimesAndPlaces() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub(Self.cues, folder: folder)
        let index = try VobSub.index(try String(contentsOfFile: made.idx, encoding: .utf8))
        let sub = Array(try Data(contentsOf: URL(fileURLWithPath: made.sub)))
        let (pictures, problems) = VobSub.pictures(index: index, sub: sub)
        #expect(problems.isEmpty, "\(problems)")
        #expect(pictures.count == 2)
        for (picture, cue) in zip(pictures, Self.cues) {
            // spumux times are the SubRip times on the program stream's clock; a 40 ms frame.
            #expect(abs(picture.start.seconds - (cue.0 + made.start)) <= 0.04, "start \(picture.start.seconds) for \(cue.0 + made.start)")
            #expect(abs((picture.end?.seconds ?? -1) - (cue.1 + made.start)) <= 0.04, "end \(picture.end?.seconds ?? -1) for \(cue.1 + made.start)")
            #expect(picture.y > 288 && picture.y + picture.height <= 576, "at the bottom: y \(picture.y)+\(picture.height)")
            #expect(!picture.isBlank)
        }
        // Two lines are taller than one.
        #expect(pictures[1].height > pictures[0].height * 3 / 2)
    }

    /// ffmpeg's dvdsub decoder, rendering the same `.idx`/`.sub` over black, lights the same
    /// pixels our picture makes visible (within the rows both draw).
    @Test func ffmpegDecodesTheSamePixels() throws {
        let folder = try Scratch.make().path
        let made = try BitmapSubtitles.vobSub([(1.0, 3.0, "Pixel for pixel")], folder: folder)
        let index = try VobSub.index(try String(contentsOfFile: made.idx, encoding: .utf8))
        let picture = try #require(VobSub.pictures(index: index, sub: Array(try Data(contentsOf: URL(fileURLWithPath: made.sub)))).pictures.first)
        let ffmpeg = try #require(Tools.ffmpeg)
        let at = picture.start.seconds + 0.5
        let out = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=black:s=720x576:r=25:d=\(Int(at) + 2)", "-i", made.idx,
                "-filter_complex", "[0:v][1:s]overlay,format=gray", "-ss", String(at - 0.0), "-frames:v", "1", "-f", "rawvideo", "-y", folder + "/frame.gray",
            ])
        #expect(out.status == 0, "\(out.stderr)")
        let frame = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/frame.gray")))
        try #require(frame.count == 720 * 576)
        var agree = 0, total = 0
        for row in 0..<picture.height {
            for column in 0..<picture.width {
                let color = picture.palette[Int(picture.indices[row * picture.width + column])]
                // Our pixel over black, against ffmpeg's.
                let ours = color.luma * Int(color.alpha) / 255
                let theirs = Int(frame[(picture.y + row) * 720 + picture.x + column])
                total += 1
                if abs(ours - theirs) <= 24 { agree += 1 }
            }
        }
        #expect(Double(agree) / Double(total) > 0.99, "\(agree) of \(total) pixels agree")
    }

    @Test func hostileUnitsAreSaidNotCrashed() throws {
        let idx = "# VobSub index file, v7\nsize: 720x576\nid: en, index: 0\ntimestamp: 00:00:01:000, filepos: 000000000\n"
        let index = try VobSub.index(idx)
        // A pack, then a private stream 1 packet whose unit claims 4,096 bytes and has 10.
        var sub: [UInt8] = [0, 0, 1, 0xBA, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xC3, 0xF8]
        sub += [0, 0, 1, 0xBD, 0, 14, 0x81, 0x80, 0, 0x20, 0x10, 0x00, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 7, 8]
        let (pictures, problems) = VobSub.pictures(index: index, sub: sub)
        #expect(pictures.isEmpty && problems.count == 1 && problems[0].offset == 0, "\(problems)")
        #expect(throws: VobSub.Problem.self) { try VobSub.index("timestamp: nonsense") }
    }
}
