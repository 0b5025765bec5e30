import Captions
import Foundation
import HLS
import TestSupport
import Testing

@testable import Subweave

/// A look (the first segments of a variant, read to confirm its caption services) reads an
/// MPEG-TS segment a chunk at a time: in chunks of any size it finds what the whole segments
/// carry.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct CaptionLookTests {
    @Test func aLookInSmallChunksFindsWhatWholeSegmentsCarry() async throws {
        // CC1 from frame 10 (segment 0), CC3 from frame 80 (segment 1): 2 s segments.
        var script = CaptionScript()
        script.popOn(["First"], at: 10)
        script.send([CC608.command(0x2C)], at: 40)
        script.popOn(["Tercero"], at: 80, field: 2)
        script.send([CC608.command(0x2C, field: 2)], at: 110, field: 2)
        let hls = try CaptionedStream.hls(script: script, frames: 180)
        let url = URL(fileURLWithPath: hls + "/prog.m3u8")
        let playlist = try MediaPlaylist(parsing: Array(try Data(contentsOf: url)), source: "prog.m3u8")
        let reader = MediaReader(loader: ResourceLoader())
        let timeline = try await reader.timeline(of: playlist, at: url)
        let sizes = try FileManager.default.contentsOfDirectory(atPath: hls).filter { $0.hasSuffix(".ts") }.map {
            try FileManager.default.attributesOfItem(atPath: hls + "/" + $0)[.size] as? Int ?? 0
        }
        #expect(sizes.allSatisfy { $0 > 3 * 4_000 }, "segments of several chunks: \(sizes)")
        var scanner = CaptionScanner(reader: reader)
        scanner.lookChunkSize = 1 << 26
        let whole = try await scanner.look(at: [0, 1], of: timeline, playlistURL: url)
        #expect(whole.services == [.cc1, .cc3] && whole.carriesData)
        // Chunks of 4,000 bytes: packets cut across chunks.
        scanner.lookChunkSize = 4_000
        let chunked = try await scanner.look(at: [0, 1], of: timeline, playlistURL: url)
        #expect(chunked.services == whole.services && chunked.carriesData == whole.carriesData)
        let first = try await scanner.look(at: [0], of: timeline, playlistURL: url)
        #expect(first.services == [.cc1])
    }
}
