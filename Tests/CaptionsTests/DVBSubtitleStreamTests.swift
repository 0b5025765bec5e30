import Captions
import Containers
import Foundation
import Pictures
import TestSupport
import Testing
import Timebase

/// DVB subtitle streams beside the video: named by PID, found in the PMT with their subtitling
/// descriptors, and decoded to the same pictures however the stream is cut.
struct DVBSubtitleStreamTests {
    /// `DVB` and the PID in four hexadecimal digits; the PIDs that cannot carry a stream are refused.
    @Test func servicesAreNamedByTheirPID() throws {
        let service = try #require(CaptionService.dvbSubtitles(pid: 0x104))
        #expect(service.rawValue == "DVB0104" && service.pid == 0x104 && service.isDVBSubtitles && !service.isDeclarable)
        #expect(CaptionService(rawValue: "dvb0104") == service)
        #expect(CaptionService(rawValue: "DVB1FFE")?.pid == 0x1FFE)
        for refused in ["DVB1FFF", "DVB000F", "DVB104", "DVB00104", "DVBXYZW", "DVB-104"] { #expect(CaptionService(rawValue: refused) == nil, "\(refused)") }
        #expect(CaptionService.dvbSubtitles(pid: 0x1FFF) == nil)
        // Every 608 channel, 708 service and teletext page sorts before a DVB stream.
        #expect([service, .cc3, CaptionService(rawValue: "888")!, .dtvcc(2)!].sorted().map(\.rawValue) == ["CC3", "SERVICE2", "888", "DVB0104"])
        #expect(service.family == "dvbsub_ocr" && service.field == nil && !service.isDTVCC)
    }

    /// A transport stream ffmpeg wrote with two DVB subtitle streams: both found, with their
    /// languages and subtitling types (0x20 for the hard of hearing), and the pictures decoded
    /// alike whether the bytes come whole or in chunks of 1,000 (across packets and PES packets).
    @Test(.enabled(if: BitmapSubtitles.missingTools.isEmpty, "spumux, ffmpeg or the DejaVu font is missing"))
    func streamsAreFoundAndDecodedInChunks() throws {
        let folder = try Scratch.make().path
        _ = try BitmapSubtitles.dvbTitle(
            [
                .init(language: "eng", hardOfHearing: true, cues: [(1, 3, "One"), (4, 6, "Two")]),
                .init(language: "fra", cues: [(2, 5, "Un deux trois")]),
            ], folder: folder)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/whole.ts")))
        func read(_ size: Int) -> DVBSubtitleStreamReader {
            var reader = DVBSubtitleStreamReader()
            var start = 0
            while start < bytes.count {
                reader.feed(bytes[start..<min(bytes.count, start + size)])
                start += size
            }
            reader.finish(at: MediaTime(ticks: 1 << 40))
            return reader
        }
        let whole = read(bytes.count), chunked = read(1_000)
        let english = try #require(CaptionService(rawValue: "DVB0101")), french = try #require(CaptionService(rawValue: "DVB0102"))
        #expect(whole.servicesWithPictures == [english, french])
        #expect(whole.languages.map(\.language) == ["eng", "fra"])
        #expect(whole.forHardOfHearing == [english])
        #expect(whole.pictures[english]?.count == 2 && whole.pictures[french]?.count == 1)
        #expect(whole.pictures == chunked.pictures)
        #expect(whole.notes.isEmpty, "\(whole.notes)")
        // Times are PTS (90 kHz): the second English picture shows 3 s after the first, for 2 s.
        let pictures = try #require(whole.pictures[english])
        #expect(abs((pictures[1].start - pictures[0].start).seconds - 3) < 0.045)
        #expect(abs(((pictures[1].end ?? .zero) - pictures[1].start).seconds - 2) < 0.045)
    }

    /// A page shown again unchanged from the moment it ended (an acquisition point) joins the
    /// picture it repeats; one that changes, or comes after a gap, stays apart.
    @Test func repeatedPagesJoin() {
        func picture(_ start: Int64, _ end: Int64, _ pixel: UInt8, x: Int = 10) -> SubtitlePicture {
            SubtitlePicture(
                start: MediaTime(ticks: start), end: MediaTime(ticks: end), x: x, y: 400, width: 2, height: 1, indices: [pixel, 1],
                palette: [PaletteColor(red: 0, green: 0, blue: 0, alpha: 0), PaletteColor(red: 255, green: 255, blue: 255)], offset: 0)
        }
        let joined = SubtitlePicture.joiningRepeats([
            picture(0, 90, 1), picture(0, 90, 1, x: 300), picture(90, 180, 1), picture(90, 180, 1, x: 300), picture(180, 270, 0),
            picture(300, 390, 0),
        ])
        #expect(joined.map { [$0.start.ticks, $0.end?.ticks ?? -1, Int64($0.x)] } == [[0, 180, 10], [0, 180, 300], [180, 270, 10], [300, 390, 10]])
    }
}
