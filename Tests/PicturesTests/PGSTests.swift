import Foundation
import Pictures
import TestSupport
import Testing
import Timebase

/// PGS (`.sup`) pictures: spumux's text pictures written as PGS by the tests' own writer (no
/// PGS encoder is packaged for Debian), checked against ffmpeg's PGS decoder, and read back.
@Suite(.enabled(if: BitmapSubtitles.missingTools.isEmpty, "spumux, mkvextract, ffmpeg or the DejaVu font is missing"))
struct PGSTests {
    /// Pictures spumux drew, as the PGS writer takes them.
    static func spumuxPictures(_ cues: [(Double, Double, String)], folder: String) throws -> [PGSWriter.Picture] {
        let made = try BitmapSubtitles.vobSub(cues, folder: folder)
        let index = try VobSub.index(try String(contentsOfFile: made.idx, encoding: .utf8))
        let pictures = VobSub.pictures(index: index, sub: Array(try Data(contentsOf: URL(fileURLWithPath: made.sub)))).pictures
        return pictures.map { p in
            PGSWriter.Picture(
                start: p.start.seconds, end: (p.end ?? p.start).seconds, x: p.x, y: p.y, width: p.width, height: p.height, indices: p.indices,
                palette: p.palette.map { ($0.red, $0.green, $0.blue, $0.alpha) })
        }
    }

    @Test func writtenPicturesComeBackWhole() throws {
        let folder = try Scratch.make().path
        let source = try Self.spumuxPictures([(1.0, 3.0, "Hello there, world!"), (4.0, 6.5, "A second cue\nwith two lines.")], folder: folder)
        let sup = PGSWriter.sup(source, frameWidth: 720, frameHeight: 576)
        let (pictures, problems) = PGS.pictures(sup)
        #expect(problems.isEmpty, "\(problems)")
        try #require(pictures.count == source.count)
        for (picture, written) in zip(pictures, source) {
            #expect(picture.indices == written.indices && picture.x == written.x && picture.y == written.y && picture.width == written.width)
            #expect(abs(picture.start.seconds - written.start) < 0.0001 && abs((picture.end?.seconds ?? -1) - written.end) < 0.0001)
            #expect(picture.frameWidth == 720 && picture.frameHeight == 576)
        }
    }

    /// ffmpeg's PGS decoder, overlaying the written `.sup` on black, lights the pixels our reading
    /// of it makes visible: the writer writes PGS, and the reader reads it as ffmpeg does.
    @Test func ffmpegDecodesTheSamePixels() throws {
        let folder = try Scratch.make().path
        let source = try Self.spumuxPictures([(1.0, 3.0, "Pixel for pixel")], folder: folder)
        let sup = PGSWriter.sup(source, frameWidth: 720, frameHeight: 576)
        try Data(sup).write(to: URL(fileURLWithPath: folder + "/subs.sup"))
        let picture = try #require(PGS.pictures(sup).pictures.first)
        // A frame just after the start: ffmpeg's overlay shows a PGS picture without a duration for
        // about a second, whatever comes after it.
        let at = picture.start.seconds + 0.06
        let out = try Tools.run(
            try #require(Tools.ffmpeg),
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "color=black:s=720x576:r=25:d=\(Int(at) + 2)", "-i", folder + "/subs.sup",
                "-filter_complex", "[0:v][1:s]overlay,format=gray", "-ss", String(at), "-frames:v", "1", "-f", "rawvideo", "-y", folder + "/frame.gray",
            ])
        #expect(out.status == 0, "\(out.stderr)")
        let frame = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/frame.gray")))
        try #require(frame.count == 720 * 576)
        var agree = 0
        for row in 0..<picture.height {
            for column in 0..<picture.width {
                let color = picture.palette[Int(picture.indices[row * picture.width + column])]
                let ours = color.luma * Int(color.alpha) / 255
                if abs(ours - Int(frame[(picture.y + row) * 720 + picture.x + column])) <= 24 { agree += 1 }
            }
        }
        #expect(Double(agree) / Double(picture.width * picture.height) > 0.99, "\(agree) of \(picture.width * picture.height) pixels agree")
    }

    @Test func damagedFilesAreSaidWithTheirOffsets() {
        #expect(PGS.pictures([]).pictures.isEmpty)
        let notPGS = PGS.pictures(Array("not a sup file at all".utf8))
        #expect(notPGS.pictures.isEmpty && notPGS.problems.first?.offset == 0)
        // A segment whose size runs past the end.
        let cut: [UInt8] = [0x50, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0x16, 0xFF, 0xFF, 1, 2, 3]
        #expect(PGS.pictures(cut).problems.first?.reason.contains("past the end") == true)
        // An object claiming a picture larger than any frame: said, not allocated.
        var huge: [UInt8] = [0x50, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0x16, 0, 19] + [2, 208, 2, 64, 0x10, 0, 0, 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        huge += [0x50, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0x15, 0, 14] + [0, 0, 0, 0xC0, 0, 0, 7, 0xEA, 0x60, 0xEA, 0x60, 1, 2, 3]
        huge += [0x50, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0]
        let said = PGS.pictures(huge)
        #expect(said.pictures.isEmpty && said.problems.contains { $0.reason.contains("larger than any frame") }, "\(said.problems)")
    }
}

/// PGS problems past the first 20 are counted, not dropped in silence (no tools needed).
struct PGSProblemCountTests {
    /// Past the first 20 problems, one more entry says how many more there were (at the first
    /// left out): 25 segments of an unknown type give 20 problems and "5 more".
    @Test func problemsPastTheFirstTwentyAreCounted() {
        let unknown: [UInt8] = [0x50, 0x47, 0, 0, 0, 0, 0, 0, 0, 0, 0x99, 0, 0]
        let read = PGS.pictures(Array((0..<25).map { _ in unknown }.joined()))
        #expect(read.problems.count == 21)
        #expect(read.problems.prefix(20).allSatisfy { $0.reason == "unknown segment type 0x99, skipped" })
        #expect(read.problems.last?.description == "byte 260: 5 more problem(s) from here on were left out (the first 20 are listed)")
    }
}
