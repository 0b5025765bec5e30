import Foundation
import Pictures
import TestSupport
import Testing
import Timebase

/// DVB subtitles that ffmpeg's `dvbsub` encoder wrote into MPEG-TS from spumux's pictures, read
/// back: their times against ffprobe's packets, their pixels against ffmpeg's own decoder, and
/// the stream's language from its subtitling descriptor.
@Suite(.enabled(if: BitmapSubtitles.missingTools.isEmpty && Tools.ffprobe != nil, "spumux, mkvextract, ffmpeg or the DejaVu font is missing"))
struct DVBSubtitleTests {
    /// A TS with video and the DVB subtitles of `cues` (language `language`), made by ffmpeg.
    static func transportStream(_ cues: [(Double, Double, String)], language: String = "fra") throws -> (path: String, folder: String) {
        let folder = try Scratch.make().path
        _ = try BitmapSubtitles.vobSub(cues, folder: folder)
        let ts = folder + "/dvb.ts"
        let made = try Tools.run(
            try #require(Tools.ffmpeg),
            [
                "-nostdin", "-loglevel", "error", "-y", "-i", folder + "/subs-spu.mpg", "-map", "0:v", "-map", "0:s", "-c:v", "libx264", "-preset",
                "ultrafast", "-c:s", "dvbsub", "-metadata:s:s:0", "language=\(language)", "-f", "mpegts", ts,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return (ts, folder)
    }

    /// The subtitle packets' times (seconds) and sizes, as ffprobe reads them.
    static func packetTimes(_ ts: String) throws -> [(time: Double, size: Int)] {
        let out = try Tools.run(
            try #require(Tools.ffprobe), ["-v", "error", "-select_streams", "s", "-show_entries", "packet=pts_time,size", "-of", "csv=p=0", ts])
        return out.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let size = Int(fields[1]) else { return nil }
            return (time, size)
        }
    }

    @Test func picturesComeAtThePacketsTimesWithTheirLanguage() throws {
        let (ts, _) = try Self.transportStream([(1.0, 3.0, "Bonjour à tous"), (4.0, 6.5, "Deux lignes\nde texte")])
        let stream = DVBSubtitles.pictures(transportStream: Array(try Data(contentsOf: URL(fileURLWithPath: ts))))
        #expect(stream.found && stream.language == "fra", "\(stream.language ?? "none")")
        #expect(stream.problems.isEmpty, "\(stream.problems)")
        // ffmpeg writes a page per picture and an empty page to clear it: the big packets start
        // pictures, the small ones end them.
        let packets = try Self.packetTimes(ts)
        let starts = packets.filter { $0.size > 100 }.map(\.time), ends = packets.filter { $0.size <= 100 }.map(\.time)
        try #require(stream.pictures.count == 2 && starts.count == 2, "\(stream.pictures.count) pictures, packets \(packets)")
        for (k, picture) in stream.pictures.enumerated() {
            #expect(abs(picture.start.seconds - starts[k]) < 0.002, "start \(picture.start.seconds) for \(starts[k])")
            #expect(abs((picture.end?.seconds ?? -1) - ends[k]) < 0.002, "end \(picture.end?.seconds ?? -1) for \(ends[k])")
            #expect(picture.frameWidth == 720 && picture.frameHeight == 576 && !picture.isBlank)
        }
    }

    /// ffmpeg's dvbsub decoder, overlaying the stream on its video, lights the pixels our reading
    /// of it makes visible.
    @Test func ffmpegDecodesTheSamePixels() throws {
        let (ts, folder) = try Self.transportStream([(1.0, 3.0, "Pixel for pixel")])
        let stream = DVBSubtitles.pictures(transportStream: Array(try Data(contentsOf: URL(fileURLWithPath: ts))))
        let picture = try #require(stream.pictures.first)
        let at = picture.start.seconds + 0.06
        let out = try Tools.run(
            try #require(Tools.ffmpeg),
            [
                "-nostdin", "-loglevel", "error", "-copyts", "-i", ts, "-filter_complex", "[0:v]drawbox=c=black:t=fill[b];[b][0:s]overlay,format=gray",
                "-ss", String(at), "-frames:v", "1", "-f", "rawvideo", "-y", folder + "/frame.gray",
            ])
        #expect(out.status == 0, "\(out.stderr)")
        let frame = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/frame.gray")))
        try #require(frame.count == 720 * 576)
        var agree = 0
        for row in 0..<picture.height {
            for column in 0..<picture.width {
                let color = picture.palette[Int(picture.indices[row * picture.width + column])]
                let ours = color.luma * Int(color.alpha) / 255
                if abs(ours - Int(frame[(picture.y + row) * 720 + picture.x + column])) <= 32 { agree += 1 }
            }
        }
        #expect(Double(agree) / Double(picture.width * picture.height) > 0.98, "\(agree) of \(picture.width * picture.height) pixels agree")
        #expect(OCRImage(picture).pixels.contains(0), "the fill is found as ink")
    }

    @Test func aFileWithoutDVBSubtitlesSaysSo() {
        let stream = DVBSubtitles.pictures(transportStream: [UInt8](repeating: 0xFF, count: 188 * 4))
        #expect(!stream.found && stream.pictures.isEmpty)
    }
}

/// A DVB subtitle stream keeps its first 20 problems, and counts the rest instead of dropping
/// them in silence: 25 PES packets without the data identifier give 20 problems and 5 more.
struct DVBSubtitleProblemCountTests {
    @Test func problemsPastTheFirstTwentyAreCounted() {
        var decoder = DVBSubtitles.Decoder()
        for k in 0..<25 { decoder.decode([0x21, 0x00], time: MediaTime(ticks: Int64(k) * 90_000), offset: k * 188) }
        #expect(decoder.problems.count == 20)
        #expect(decoder.problemsLeftOut == 5)
        #expect(decoder.problems.first?.description == "byte 0: a subtitle PES packet without the DVB data identifier 0x20")
    }
}
