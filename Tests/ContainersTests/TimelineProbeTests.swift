import Containers
import Foundation
import TestSupport
import Testing
import Timebase

struct TimelineProbeTests {
    @Test(
        .enabled(if: Tools.ffprobe != nil, "ffprobe is not installed"),
        arguments: [
            "media/ts-bframes/seg_000.ts", "media/ts-bframes/seg_001.ts", "media/discontinuity/b_000.ts",
            "media/pts-wrap/seg_000.ts", "media/pts-wrap/seg_001.ts", "media/pts-wrap/seg_002.ts",
        ])
    func lowestVideoPTSAgreesWithFFprobe(_ file: String) throws {
        let timeline = try TimelineProbe.probe(segment: try Fixtures.bytes(file), initialization: nil)
        #expect(timeline.container == .mpegTS)
        #expect(timeline.source == .video)
        #expect(timeline.start == (try Tools.lowestVideoPTS(Fixtures.path(file))))
    }

    @Test func theLowestPTSNotTheFirst() throws {
        // Decode order I P B B (open GOP): the B-frames present before the I-frame.
        var data = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x1B, 0x100), (0x0F, 0x101)])
        data += TSBuilder.pes(pid: 0x101, pts: 120_000, streamID: 0xC0)  // audio earlier than all video
        for pts: Int64 in [135_000, 144_000, 129_000, 132_000] { data += TSBuilder.pes(pid: 0x100, pts: pts) }
        let timeline = try TimelineProbe.probe(segment: data, initialization: nil)
        #expect(timeline.source == .video)
        #expect(timeline.start == 129_000)
    }

    @Test(
        .enabled(if: Tools.ffprobe != nil, "ffprobe is not installed"),
        arguments: ["media/fmp4/seg_000.m4s", "media/fmp4/seg_001.m4s", "media/fmp4-hevc/seg_000.m4s", "media/fmp4-hevc/seg_002.m4s"])
    func fragmentedMP4StartsAtThePresentationTime(_ segment: String) throws {
        let initialization = (segment as NSString).deletingLastPathComponent + "/init.mp4"
        let timeline = try TimelineProbe.probe(segment: try Fixtures.bytes(segment), initialization: try Fixtures.bytes(initialization))
        #expect(timeline.container == .fragmentedMP4)
        #expect(timeline.source == .video)
        // The first frame is shown at tfdt plus its composition offset (x264 B-frames: 2 frames
        // later), as ffprobe reads the presentation times with edit lists ignored.
        let expected = try Tools.firstPresentationTime(init: Fixtures.path(initialization), segment: Fixtures.path(segment))
        #expect(timeline.start == expected)
        #expect(timeline.decodeStart.map { timeline.start - $0 } == 6006, "2 frames of 1001/30000 s between decode and presentation")
    }

    @Test func withoutBFramesPresentationIsDecodeTime() throws {
        let timeline = try TimelineProbe.probe(
            segment: try Fixtures.bytes("media/fmp4-nob/seg_001.m4s"), initialization: try Fixtures.bytes("media/fmp4-nob/init.mp4"))
        #expect(timeline.decodeStart == timeline.start)
    }

    /// A segment probed as it is read gives what the whole segment gives, whatever the chunks:
    /// the start, or the same error at the same byte; leading junk, a packet cut by a chunk's end,
    /// lost sync, a segment shorter than four packets, fMP4 and garbage included.
    @Test(.enabled(if: Tools.ffprobe != nil, "ffprobe is not installed"))
    func aSegmentReadInChunksIsProbedAsAWhole() throws {
        func probe(_ bytes: [UInt8], chunk size: Int, initialization: [UInt8]? = nil) -> String {
            var reading = TimelineProbe.Reading()
            var start = 0
            repeat {
                let end = size == 0 ? bytes.count : min(bytes.count, start + size)
                reading.feed(bytes[start..<end])
                start = end
            } while start < bytes.count
            do { return "\(try reading.finish(initialization: initialization))" } catch { return "error at \(error.offset): \(error.reason)" }
        }
        let segment = try Fixtures.bytes("media/ts-bframes/seg_000.ts")
        // Sync lost in the first frame, before the start is settled; and in the last packet,
        // after it is, where the probe reads nothing.
        var lostSync = segment
        lostSync[188 * 5] = 0x00
        var lostLate = segment
        lostLate[segment.count - 188] = 0x00
        let junk: [UInt8] = [0x47, 0x00, 0x11] + [UInt8](repeating: 0xAA, count: 90)
        let short = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x1B, 0x100)]) + TSBuilder.pes(pid: 0x100, pts: 9_000)
        let cases: [(String, [UInt8], [UInt8]?)] = [
            ("clean", segment, nil), ("lost sync", lostSync, nil), ("lost sync once settled", lostLate, nil), ("leading junk", junk + segment, nil),
            ("cut at the end", Array(segment.dropLast(100)), nil),
            ("three packets", short, nil), ("garbage", Array("hello world".utf8), nil),
            ("fMP4", try Fixtures.bytes("media/fmp4/seg_000.m4s"), try Fixtures.bytes("media/fmp4/init.mp4")),
        ]
        for (name, bytes, initialization) in cases {
            let whole = probe(bytes, chunk: 0, initialization: initialization)
            if name == "clean" || name == "leading junk" { #expect(!whole.hasPrefix("error"), "\(name): \(whole)") }
            if name == "lost sync" { #expect(whole.contains("error at \(188 * 5)"), "\(whole)") }
            if name == "lost sync once settled" { #expect(whole == probe(segment, chunk: 0), "\(whole)") }
            for size in [1, 7, 187, 188, 189, 1_000, 188 * 1_024] {
                #expect(probe(bytes, chunk: size, initialization: initialization) == whole, "\(name), chunks of \(size)")
            }
        }
    }

    @Test func garbageIsNeitherFormat() {
        #expect(throws: ContainerError.self) { try TimelineProbe.probe(segment: Array("hello world".utf8), initialization: nil) }
        #expect(throws: ContainerError.self) { try TimelineProbe.probe(segment: [], initialization: nil) }
    }

    @Test func transportStreamWithoutPMTIsAnError() throws {
        // Three null packets (PID 0x1FFF): sync is fine, but there is no PAT.
        var packet = [UInt8](repeating: 0xFF, count: 188)
        packet[0] = 0x47; packet[1] = 0x1F; packet[2] = 0xFF; packet[3] = 0x10
        do {
            _ = try TimelineProbe.probe(segment: packet + packet + packet, initialization: nil)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .missing)
            #expect(error.reason.contains("PAT"))
        }
    }

    @Test func lowestPTSAcrossAWrapInsideOneSegment() throws {
        // A synthetic stream: PAT, PMT (one H.264 stream on PID 0x100), then PES headers with PTS
        // 2^33 - 3000, 2^33 - 6000 (B-frame), 1000 (after the wrap). The lowest is 2^33 - 6000.
        let m = PresentationTimestamp.modulus
        var data = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x1B, 0x100)])
        for pts in [m - 3000, m - 6000, 1000] { data += TSBuilder.pes(pid: 0x100, pts: pts) }
        let timeline = try TimelineProbe.probe(segment: data, initialization: nil)
        #expect(timeline.start == m - 6000)
    }

    /// A PMT whose section goes on in a second packet (no unit start) is read whole, and a packet
    /// that starts no PES packet is not read for a PTS, however much it looks like a PES header.
    @Test func aTableCrossingPacketsIsReadAndContinuationsAreNot() throws {
        var body: [UInt8] = [0xE1, 0x00, 0xF0, 0x00]
        // 20 audio streams with a language descriptor each (11 bytes apiece), then the video: the
        // section ends in its second packet, the video's entry with it.
        for index in 0..<20 { body += [0x0F, 0xE2, UInt8(index), 0xF0, 0x06, 0x0A, 0x04, 0x65, 0x6E, 0x67, 0x00] }
        body += [0x1B, 0xE1, 0x00, 0xF0, 0x00]
        let section = TSBuilder.section(tableID: 0x02, body: body)
        #expect(section.count > 184 && section.count < 368)
        var data = TSBuilder.pat(pmtPID: 0x1000)
        data += TSBuilder.packet(pid: 0x1000, unitStart: true, payload: Array(section.prefix(184)))
        // Audio between the two parts of the PMT.
        data += TSBuilder.packet(pid: 0x200, unitStart: false, payload: [UInt8](repeating: 0xAA, count: 184))
        data += TSBuilder.packet(pid: 0x1000, unitStart: false, payload: Array(section.dropFirst(184)), counter: 1)
        data += TSBuilder.pes(pid: 0x100, pts: 900_000)
        // The video PES goes on: its next packet carries bytes that read as a PES header with an
        // earlier PTS, but starts no unit.
        var lookalike = TSBuilder.pes(pid: 0x100, pts: 450_000)
        lookalike[1] &= ~0x40
        lookalike[3] = (lookalike[3] & 0xF0) | 1
        data += lookalike
        data += TSBuilder.pes(pid: 0x100, pts: 903_003)
        let timeline = try TimelineProbe.probe(segment: data, initialization: nil)
        #expect(timeline.source == .video)
        #expect(timeline.start == 900_000)
    }

    /// The probe stops once a frame is decoded after the lowest PTS so far.
    ///
    /// With decode times given, no later frame can be presented earlier. Without them it reads on
    /// to the end.
    @Test func theStartSettlesOnceAFrameIsDecodedAfterIt() throws {
        let head = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x1B, 0x100)])
        // Decode order I P B B, two frames of delay: (DTS, PTS).
        let frames: [(Int64, Int64)] = [(0, 6_006), (3_003, 15_015), (6_006, 9_009), (9_009, 12_012)]
        var data = head
        for (dts, pts) in frames { data += TSBuilder.pes(pid: 0x100, pts: pts, dts: dts) }
        var reading = TimelineProbe.Reading()
        reading.feed(data[...])
        #expect(reading.isSettled)
        // What comes after is not read: a later packet that would present earlier (the stream
        // is damaged), or lost sync.
        let after = TSBuilder.pes(pid: 0x100, pts: 1_000, dts: 12_012) + [UInt8](repeating: 0, count: 188)
        #expect(try TimelineProbe.probe(segment: data + after, initialization: nil).start == 6_006)
        // Before the fourth frame (DTS 6,006 is not after 6,006) it is not settled.
        var early = TimelineProbe.Reading()
        early.feed(data.dropLast(188)[...])
        #expect(!early.isSettled)
        // PTS only: read to the end, where the lower PTS is.
        var ptsOnly = head
        for (_, pts) in frames { ptsOnly += TSBuilder.pes(pid: 0x100, pts: pts) }
        var unsettled = TimelineProbe.Reading()
        unsettled.feed((ptsOnly + TSBuilder.pes(pid: 0x100, pts: 1_000))[...])
        #expect(!unsettled.isSettled)
        #expect(try unsettled.finish(initialization: nil).start == 1_000)
    }

    @Test func audioOnlyUsesAudio() throws {
        var data = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x0F, 0x101)])
        data += TSBuilder.pes(pid: 0x101, pts: 900_000, streamID: 0xC0)
        data += TSBuilder.pes(pid: 0x101, pts: 901_920, streamID: 0xC0)
        let timeline = try TimelineProbe.probe(segment: data, initialization: nil)
        #expect(timeline.source == .audio)
        #expect(timeline.start == 900_000)
    }
}

/// Transport packets built in code, one comment per field (after mux.js's test generators).
enum TSBuilder {
    static func packet(pid: UInt16, unitStart: Bool, payload: [UInt8], counter: UInt8 = 0) -> [UInt8] {
        var p: [UInt8] = [
            0x47,  // sync byte
            (unitStart ? 0x40 : 0) | UInt8(pid >> 8),  // payload_unit_start_indicator, PID high bits
            UInt8(pid & 0xFF),  // PID low bits
            0x10 | (counter & 0x0F),
        ]  // payload only, continuity counter
        let room = 184
        if payload.count < room {
            // Adaptation field of stuffing so the payload ends the packet.
            let stuffing = room - payload.count
            p[3] = 0x30 | (counter & 0x0F)
            p.append(UInt8(stuffing - 1))  // adaptation_field_length
            if stuffing > 1 { p.append(0x00) }  // flags
            if stuffing > 2 { p += [UInt8](repeating: 0xFF, count: stuffing - 2) }
        }
        p += payload.prefix(room)
        return p
    }

    static func section(tableID: UInt8, body: [UInt8]) -> [UInt8] {
        let length = body.count + 5 + 4  // after section_length: 5 header bytes, body, CRC
        var s: [UInt8] = [
            tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF),
            0x00, 0x01,  // table id extension
            0xC1,  // version 0, current
            0x00, 0x00,
        ]  // section number, last section number
        s += body
        s += [0, 0, 0, 0]  // CRC (not checked by the probe)
        return [0x00] + s  // pointer_field
    }

    static func pat(pmtPID: UInt16) -> [UInt8] {
        packet(pid: 0, unitStart: true, payload: section(tableID: 0x00, body: [0x00, 0x01, 0xE0 | UInt8(pmtPID >> 8), UInt8(pmtPID & 0xFF)]))
    }

    static func pmt(pid: UInt16, streams: [(UInt8, UInt16)]) -> [UInt8] {
        var body: [UInt8] = [
            0xE1, 0x00,  // PCR PID 0x100
            0xF0, 0x00,
        ]  // program_info_length 0
        for (type, esPID) in streams {
            body += [type, 0xE0 | UInt8(esPID >> 8), UInt8(esPID & 0xFF), 0xF0, 0x00]
        }
        return packet(pid: pid, unitStart: true, payload: section(tableID: 0x02, body: body))
    }

    static func pes(pid: UInt16, pts: Int64, dts: Int64? = nil, streamID: UInt8 = 0xE0) -> [UInt8] {
        func timestamp(_ value: Int64, prefix: UInt8) -> [UInt8] {
            let p = UInt64(value)
            return [
                prefix << 4 | UInt8((p >> 29) & 0x0E) | 1,  // prefix, [32..30], marker
                UInt8((p >> 22) & 0xFF),  // [29..22]
                UInt8((p >> 14) & 0xFE) | 1,  // [21..15], marker
                UInt8((p >> 7) & 0xFF),  // [14..7]
                UInt8((p << 1) & 0xFE) | 1,  // [6..0], marker
            ]
        }
        let stamps = dts.map { timestamp(pts, prefix: 0x3) + timestamp($0, prefix: 0x1) } ?? timestamp(pts, prefix: 0x2)
        let header: [UInt8] =
            [
                0, 0, 1, streamID,  // start code, stream_id
                0, 0,  // PES_packet_length (unbounded)
                0x80,  // '10', no scrambling
                dts == nil ? 0x80 : 0xC0,  // PTS only, or PTS and DTS
                UInt8(stamps.count),  // PES_header_data_length
            ] + stamps
        return packet(pid: pid, unitStart: true, payload: header + [0, 0, 0, 1, 0x09, 0xF0])
    }
}
