import Captions
import Containers
import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

/// Segments read apart and joined must decode to what reading on through them gives, and a
/// segment that cannot be joined must say so (the scanner then reads on).
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed (apt-get install -y ffmpeg)"))
struct SegmentJoiningTests {
    /// What a reader decoded, to compare two readings.
    struct Reading: Equatable {
        var cues: [CaptionService: [Cue]]
        var accessUnits: Int
        var captionDataUnits: Int
        var origin: Int64?
        var notes: [String]
        var firstText: String?
    }

    static func reading(_ reader: TransportStreamCaptionReader) -> Reading {
        Reading(
            cues: reader.cues, accessUnits: reader.decoder?.accessUnits ?? 0, captionDataUnits: reader.decoder?.captionDataUnits ?? 0,
            origin: reader.origin, notes: reader.notes, firstText: reader.firstText.map { "\($0.service) \($0.time)" })
    }

    /// Reading on: every segment fed in turn, as one file each.
    static func readOn(_ segments: [[UInt8]]) -> Reading {
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        for (i, segment) in segments.enumerated() { _ = reader.feed(segment[...], label: "s\(i).ts") }
        reader.finish()
        return reading(reader)
    }

    /// Reading apart: the first segment fed, the others extracted each on its own (in reverse
    /// order, as any order must do) and joined; nil when a segment cannot be joined.
    static func readApart(_ segments: [[UInt8]]) -> (reading: Reading?, joins: [Bool]) {
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = reader.feed(segments[0][...], label: "s0.ts")
        guard let extractor = reader.segmentExtractor(), reader.endBeforeJoining() else { return (nil, []) }
        let extracted = segments.indices.dropFirst().reversed().map { extractor.extract(segments[$0][...]) }.reversed()
        let joins = extracted.map(\.joins)
        guard joins.allSatisfy({ $0 }) else { return (nil, joins) }
        for segment in extracted { reader.join(segment) }
        reader.finish()
        return (reading(reader), joins)
    }

    /// programme.ts (CEA-608 CC1 and CC3) cut by ffmpeg's HLS muxer into 2 s segments.
    static func hlsSegments() throws -> [[UInt8]] {
        let folder = try Scratch.make().path
        let outcome = try Tools.run(
            Tools.ffmpeg!,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-i", Fixtures.path("captions/programme.ts"), "-c", "copy", "-f", "hls", "-hls_time", "2",
                "-hls_playlist_type", "vod", "-hls_segment_filename", folder + "/s%03d.ts", folder + "/index.m3u8",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ts") }.sorted()
        return try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) }
    }

    @Test func hlsSegmentsReadApartDecodeAsReadOn() throws {
        let segments = try Self.hlsSegments()
        try #require(segments.count > 3)
        let on = Self.readOn(segments)
        let apart = Self.readApart(segments)
        #expect(apart.joins.allSatisfy { $0 }, "every segment of an HLS muxer starts a video PES packet: \(apart.joins)")
        let joined = try #require(apart.reading)
        #expect(on.cues.values.map(\.count).reduce(0, +) > 20, "the programme's captions were read")
        #expect(joined == on)
    }

    /// Cut at packet boundaries that fall inside PES packets: a video PES crosses the cut, so
    /// the segment after it cannot be joined; where all happen to join, the result is the same.
    @Test(arguments: [188 * 97, 188 * 500, 188 * 1_201])
    func cutsInsideAPESPacketAreNotJoined(_ size: Int) throws {
        let bytes = try Fixtures.bytes("captions/programme.ts")
        let segments = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) }
        let apart = Self.readApart(segments)
        if let joined = apart.reading {
            #expect(joined == Self.readOn(segments))
        } else {
            #expect(apart.joins.contains(false))
        }
        #expect(apart.joins.contains(false), "cuts every \(size) bytes: some fall inside a video PES")
    }

    /// Cut anywhere (not at a packet): a packet is split across the cut, and nothing joins there.
    @Test func cutsInsideAPacketAreNotJoined() throws {
        var segments = try Self.hlsSegments()
        let moved = Array(segments[2].suffix(100))
        segments[2].removeLast(100)
        segments[3].insert(contentsOf: moved, at: 0)
        let apart = Self.readApart(segments)
        #expect(apart.reading == nil)
        #expect(apart.joins[1] == false && apart.joins[2] == false, "segment 2 ends inside a packet, segment 3 starts inside one: \(apart.joins)")
    }

    /// A damaged segment (a PES start code destroyed) makes a note when read, so it is not joined:
    /// the note must be said where reading on says it.
    @Test func aDamagedSegmentIsNotJoined() throws {
        var segments = try Self.hlsSegments()
        let target = 2
        // The first video PES start in the segment after its tables: find a packet with PUSI on
        // the video PID and break its start code.
        var demuxer = TransportStreamDemuxer()
        var videoOffset: Int?
        demuxer.feed(segments[target][...]) { packet in if videoOffset == nil, packet.pts != nil { videoOffset = packet.offset } }
        let offset = try #require(videoOffset)
        let payloadStart = offset + 4 + (segments[target][offset + 3] & 0x20 != 0 ? 1 + Int(segments[target][offset + 4]) : 0)
        segments[target][payloadStart + 2] = 0x07
        let apart = Self.readApart(segments)
        #expect(apart.reading == nil)
        #expect(apart.joins[target - 1] == false)
        #expect(Self.readOn(segments).notes.contains { $0.contains("does not start with a PES start code") })
    }

    /// A segment fed in chunks of any size (the first shorter than three packets too) reads as
    /// the segment fed whole: the same caption data, and the same answer to whether it joins,
    /// for segments that join and for segments that do not.
    @Test(arguments: [61, 188, 377, 4_096])
    func aSegmentFedInChunksReadsAsFedWhole(_ chunk: Int) throws {
        let segments = try Self.hlsSegments()
        var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = reader.feed(segments[0][...], label: "s0.ts")
        let extractor = try #require(reader.segmentExtractor())
        // Each segment as cut, and the same bytes with the first packet's sync byte broken.
        var broken = segments[1]
        broken[0] = 0x00
        for bytes in segments.dropFirst() + [broken] {
            let whole = extractor.extract(bytes[...])
            var reading = extractor.reading()
            for start in stride(from: 0, to: bytes.count, by: chunk) { reading.feed(bytes[start..<min(bytes.count, start + chunk)]) }
            let chunked = reading.finish()
            #expect(chunked.joins == whole.joins)
            #expect(chunked.units.map(\.pts) == whole.units.map(\.pts))
            #expect(chunked.units.map(\.data) == whole.units.map(\.data))
        }
        #expect(!extractor.extract(broken[...]).joins, "a segment whose first packet lost its sync byte does not join")
    }
}
