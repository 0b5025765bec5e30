import Captions
import Containers
import Foundation
import TestSupport
import Testing
import Timebase
import TimedText

/// Real MPEG-TS media with composed captions (CaptionedStream: x264 with B-frames made by ffmpeg,
/// SEI inserted per access unit in presentation order, remuxed by ffmpeg), decoded by Subweave and
/// by ffmpeg's own decoder in the same test: texts equal, times within one frame.
@Suite(.enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is not installed (apt-get install -y ffmpeg)"))
struct CaptionMediaTests {
    static let frame = 1001.0 / 30000

    /// A case: its script, and where ffmpeg is known to differ.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var codec: CaptionedStream.Codec = .h264
        let frames: Int
        let script: @Sendable () -> CaptionScript
        /// Expected Subweave cues per service, written by hand: (start frame, end frame, text).
        let expected: [CaptionService: [(Int, Int, String)]]
        /// ffmpeg shows each roll-up or paint-on screen from the previous event, before its text is
        /// sent (its decoder reports the screen as of the next control code); compared screen by
        /// screen instead of cue by cue (see ``compareScreens``).
        var ffmpegShowsEarly = false
        /// ffmpeg's texts where they differ from Subweave's, documented per case.
        var ffmpegText: [String]? = nil
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "pop-on", frames: 150,
            script: {
                var s = CaptionScript()
                s.popOn(["Hello, world!"], at: 5)  // EOC at frame 14
                s.send([CC608.command(0x2C)], at: 60)
                s.popOn(["Second caption", "two rows"], at: 70)  // RCL 70, ENM 72, PAC 74, 7 pairs, PAC 83, 4 pairs, EOC 89
                s.send([CC608.command(0x2C)], at: 120)
                return s
            }, expected: [.cc1: [(18, 60, "Hello, world!"), (89, 120, "Second caption\ntwo rows")]]),
        Case(
            name: "roll-up 2", frames: 150,
            script: {
                var s = CaptionScript()
                var f = s.send([CC608.command(0x25), CC608.pac(row: 15)], at: 5)  // RU2 5-6, PAC 7-8
                f = s.send(CC608.text("first line") + [CC608.command(0x2D)], at: f)  // text 9-13, CR 14
                f = s.send(CC608.text("second line") + [CC608.command(0x2D)], at: 30)  // text 30-35, CR 36
                f = s.send(CC608.text("third line") + [CC608.command(0x2D)], at: 60)  // text 60-64, CR 65
                s.send([CC608.command(0x2C)], at: 100)
                return s
            },
            expected: [
                .cc1: [
                    (13, 35, "first line"), (35, 36, "first line\nsecond line"), (36, 64, "second line"), (64, 65, "second line\nthird line"),
                    (65, 100, "third line"),
                ]
            ],
            ffmpegShowsEarly: true),
        Case(
            name: "roll-up 3", frames: 120,
            script: {
                var s = CaptionScript()
                var f = s.send([CC608.command(0x26)], at: 2)  // RU3 2-3
                for (i, word) in ["one", "two", "three", "four"].enumerated() { f = s.send(CC608.text(word) + [CC608.command(0x2D)], at: 10 + i * 20) }
                s.send([CC608.command(0x2C)], at: 100)
                return s
            },
            expected: [
                .cc1: [
                    (11, 31, "one"), (31, 52, "one\ntwo"), (52, 53, "one\ntwo\nthree"), (53, 71, "two\nthree"), (71, 72, "two\nthree\nfour"),
                    (72, 100, "three\nfour"),
                ]
            ],
            ffmpegShowsEarly: true),
        Case(
            name: "roll-up 4", frames: 150,
            script: {
                var s = CaptionScript()
                s.send([CC608.command(0x27)], at: 2)
                for (i, word) in ["a1", "b2", "c3", "d4", "e5"].enumerated() { s.send(CC608.text(word) + [CC608.command(0x2D)], at: 10 + i * 20) }
                s.send([CC608.command(0x2C)], at: 120)
                return s
            },
            expected: [
                .cc1: [
                    (10, 30, "a1"), (30, 50, "a1\nb2"), (50, 70, "a1\nb2\nc3"), (70, 71, "a1\nb2\nc3\nd4"), (71, 90, "b2\nc3\nd4"), (90, 91, "b2\nc3\nd4\ne5"),
                    (91, 120, "c3\nd4\ne5"),
                ]
            ],
            ffmpegShowsEarly: true),
        Case(
            name: "paint-on", frames: 120,
            script: {
                var s = CaptionScript()
                s.send([CC608.command(0x29), CC608.pac(row: 14)] + CC608.text("Painted"), at: 10)  // RDC 10-11, PAC 12-13, text 14-17
                s.send([CC608.command(0x2C)], at: 80)
                return s
            }, expected: [.cc1: [(17, 80, "Painted")]], ffmpegShowsEarly: true),
        Case(
            name: "CC1 and CC3", frames: 120,
            script: {
                var s = CaptionScript()
                s.popOn(["English"], at: 5)  // RCL 5, ENM 7, PAC 9, text 11-14, EOC 15
                s.popOn(["Espa~ol"], at: 20, field: 2)  // '~' is ñ in the 608 basic set; EOC 30
                s.send([CC608.command(0x2C)], at: 90)
                s.send([CC608.command(0x2C, field: 2)], at: 95, field: 2)
                return s
            }, expected: [.cc1: [(15, 90, "English")], .cc3: [(30, 95, "Español")]]),
        Case(
            name: "specials and extended", frames: 90,
            script: {
                var s = CaptionScript()
                // RCL 5, PAC 7, "Grus" 9-10, ß (replaces the s) 11, ♪ 13, ® 15, " *\\" 17-18, EOC 19.
                s.send(
                    [CC608.command(0x20), CC608.pac(row: 15)] + CC608.text("Grus") + [CC608.code(0x13, 0x34), CC608.code(0x11, 0x37), CC608.code(0x11, 0x30)]
                        + CC608.text(" *\\") + [CC608.command(0x2F)], at: 5)
                s.send([CC608.command(0x2C)], at: 70)
                return s
            }, expected: [.cc1: [(19, 70, "Gruß♪® áé")]]),
        Case(
            name: "parity errors", frames: 90,
            script: {
                var s = CaptionScript()
                var f = s.send([CC608.command(0x20)] + CC608.text("ok"), at: 5)  // RCL 5-6, text 7
                s.put((0x58 | 0x80, CC608.parity(0x21)), at: f)  // 'X' with even parity, then '!'
                s.put((0x14, 0x2F), at: f + 1)  // EOC without its parity bit: dropped
                s.put(CC608.command(0x2F), at: f + 2)  // its repeat is obeyed
                f += 3
                s.send([CC608.command(0x2C)], at: 60)
                return s
            }, expected: [.cc1: [(10, 60, "ok█!")]],
            // ffmpeg shows a control code whose first byte fails parity as a block and a character
            // (CTA-608 says to ignore the pair; its repeat is what takes effect).
            ffmpegText: ["ok█!█/"]),
        Case(
            name: "HEVC", codec: .hevc, frames: 90,
            script: {
                var s = CaptionScript()
                s.popOn(["HEVC captions"], at: 5)  // RCL 5, ENM 7, PAC 9, text 11-17, EOC 18
                s.send([CC608.command(0x2C)], at: 70)
                return s
            }, expected: [.cc1: [(18, 70, "HEVC captions")]]),
    ]

    @Test(arguments: cases)
    func decodesLikeFFmpeg(_ c: Case) throws {
        let dir = try Scratch.make().path
        let file = try CaptionedStream.make(script: c.script(), frames: c.frames, codec: c.codec, folder: dir)
        let ours = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: file)))])
        #expect(ours.services.map(\.service) == c.expected.keys.sorted())
        for (service, cues) in ours.services {
            let expected = c.expected[service] ?? []
            let frames = cues.map { (Int(($0.start.seconds / Self.frame).rounded()), Int(($0.end.seconds / Self.frame).rounded()), CueText.plainText($0.text)) }
            #expect(frames.map(\.2) == expected.map(\.2), "\(service) texts")
            #expect(frames.map(\.0) == expected.map(\.0), "\(service) starts (frames)")
            #expect(frames.map(\.1) == expected.map(\.1), "\(service) ends (frames)")
            // ffmpeg decodes field 1 (CC1, and CC2 mixed in: it does not separate them) or field 2.
            guard service == .cc1 || service == .cc3 else { continue }
            let theirs = try FFmpegCaptions.decode(file, dataField: service == .cc1 ? 0 : 1)
            if c.ffmpegShowsEarly {
                Self.compareScreens(ours: cues, theirs: theirs, frames: c.frames, service: service)
                continue
            }
            #expect(theirs.map(\.text) == (c.ffmpegText ?? cues.map { CueText.plainText($0.text) }), "ffmpeg's \(service) texts: \(theirs)")
            for (index, (mine, reference)) in zip(cues, theirs).enumerated() {
                #expect(
                    abs(mine.start.seconds - reference.start) <= Self.frame,
                    "\(service) cue \(index) start: ours \(mine.start.seconds), ffmpeg \(reference.start)")
                #expect(abs(mine.end.seconds - reference.end) <= Self.frame, "\(service) cue \(index) end: ours \(mine.end.seconds), ffmpeg \(reference.end)")
            }
        }
    }

    /// Roll-up and paint-on, where ffmpeg shows a screen from the previous event on: frame by
    /// frame (away from changes by a frame), every line Subweave shows, ffmpeg shows too — Subweave
    /// never shows text ffmpeg does not — and every screen ffmpeg shows, Subweave shows within
    /// the time ffmpeg shows it (ffmpeg is early, never holds text Subweave misses).
    static func compareScreens(ours: [Cue], theirs: [FFmpegCaptions.Cue], frames: Int, service: CaptionService) {
        func screen(_ cues: [(Double, Double, String)], at t: Double) -> String? { cues.last { $0.0 <= t && t < $0.1 }?.2 }
        let mine = ours.map { ($0.start.seconds, $0.end.seconds, CueText.plainText($0.text)) }
        let reference = theirs.map { ($0.start, $0.end, $0.text) }
        let changes = (mine + reference).flatMap { [$0.0, $0.1] }
        for f in 0..<frames {
            let t = (Double(f) + 0.5) * frame
            guard !changes.contains(where: { abs($0 - t) < 1.5 * frame }) else { continue }
            let ourLines = Set((screen(mine, at: t) ?? "").split(separator: "\n"))
            let theirLines = Set((screen(reference, at: t) ?? "").split(separator: "\n"))
            #expect(ourLines.isSubset(of: theirLines), "\(service) frame \(f): Subweave shows \(ourLines), ffmpeg \(theirLines)")
        }
        for cue in reference {
            let shown = mine.contains { $0.2 == cue.2 && $0.0 < cue.1 + frame && $0.1 > cue.0 - frame }
            #expect(shown, "\(service): ffmpeg shows \"\(cue.2)\" from \(cue.0) to \(cue.1) s; Subweave never does then: \(mine)")
        }
    }

    /// The same captioned video in fragmented MP4 (H.264 and HEVC): read from the samples'
    /// length-prefixed SEI, the cues equal the TS decode's and ffmpeg's decode of the MP4 file.
    @Test(arguments: [CaptionedStream.Codec.h264, .hevc])
    func fragmentedMP4DecodesLikeFFmpeg(_ codec: CaptionedStream.Codec) throws {
        let dir = try Scratch.make().path
        var script = CaptionScript()
        script.popOn(["From fMP4"], at: 5)  // RCL 5, ENM 7, PAC 9, 5 pairs 11-15, EOC 16
        script.send([CC608.command(0x2C)], at: 45)
        script.popOn(["Second", "caption"], at: 50)
        script.send([CC608.command(0x2C)], at: 85)
        script.popOn(["Field two"], at: 20, field: 2)
        script.send([CC608.command(0x2C, field: 2)], at: 70, field: 2)
        let ts = try CaptionedStream.make(script: script, frames: 90, codec: codec, folder: dir)
        let mp4 = try CaptionedStream.fragmentedMP4(from: ts, folder: dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4)))
        var reader = try #require(try FragmentedCaptionReader(initialization: bytes, timeOf: { MediaTime(ticks: $0) }))
        #expect(try reader.feed(segment: bytes))
        reader.finish()
        let origin = MediaTime(ticks: try #require(reader.origin))
        let fromTS = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: ts)))])
        #expect(fromTS.services.map(\.service) == [.cc1, .cc3])
        for (service, tsCues) in fromTS.services {
            let cues = (reader.decoder.collector.cues[service] ?? []).map { cue -> Cue in
                var c = cue
                c.start -= origin
                c.end -= origin
                return c
            }
            #expect(cues.map(\.text) == tsCues.map(\.text), "\(service)")
            for (a, b) in zip(cues, tsCues) {
                #expect(abs(a.start.seconds - b.start.seconds) < 0.002 && abs(a.end.seconds - b.end.seconds) < 0.002, "\(service): \(a) vs \(b)")
            }
            let theirs = try FFmpegCaptions.decode(mp4, dataField: service == .cc1 ? 0 : 1)
            #expect(theirs.map(\.text) == cues.map { CueText.plainText($0.text) }, "ffmpeg's \(service) from the MP4: \(theirs)")
            for (mine, reference) in zip(cues, theirs) {
                #expect(abs(mine.start.seconds - reference.start) <= Self.frame, "\(service) start: ours \(mine.start.seconds), ffmpeg \(reference.start)")
                #expect(abs(mine.end.seconds - reference.end) <= Self.frame, "\(service) end: ours \(mine.end.seconds), ffmpeg \(reference.end)")
            }
        }
    }

    /// MPEG-2 video (a broadcast capture): ffmpeg re-encodes the captioned H.264 stream with
    /// B-frames and writes the A/53 data into picture user data; Subweave reads it from there
    /// equal to its H.264 decode and to ffmpeg's decode of the MPEG-2 file.
    @Test func mpeg2UserDataDecodesLikeFFmpeg() throws {
        let dir = try Scratch.make().path
        var script = CaptionScript()
        script.popOn(["MPEG-2 captions"], at: 5)
        script.send([CC608.command(0x2C)], at: 45)
        script.popOn(["Second"], at: 50)
        script.send([CC608.command(0x2C)], at: 85)
        let ts = try CaptionedStream.make(script: script, frames: 90, folder: dir)
        let mpeg2 = try CaptionedStream.mpeg2(from: ts, folder: dir)
        let ours = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: mpeg2)))])
        #expect(ours.videoStreamType == 0x02)
        let fromH264 = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: ts)))])
        let cues = try #require(ours.services.first { $0.service == .cc1 }?.cues)
        let reference = try #require(fromH264.services.first { $0.service == .cc1 }?.cues)
        #expect(cues.map(\.text) == ["MPEG-2 captions", "Second"])
        #expect(cues.map(\.text) == reference.map(\.text))
        for (a, b) in zip(cues, reference) { #expect(abs(a.start.seconds - b.start.seconds) <= Self.frame, "\(a) vs \(b)") }
        let theirs = try FFmpegCaptions.decode(mpeg2)
        #expect(theirs.map(\.text) == cues.map(\.text), "ffmpeg's decode of the MPEG-2 file: \(theirs)")
        for (mine, other) in zip(cues, theirs) {
            #expect(abs(mine.start.seconds - other.start) <= Self.frame && abs(mine.end.seconds - other.end) <= Self.frame, "\(mine) vs ffmpeg \(other)")
        }
    }

    @Test func noCaptionsAtAll() throws {
        let dir = try Scratch.make().path
        let file = try CaptionedStream.make(script: nil, frames: 60, folder: dir)
        let ours = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: file)))])
        #expect(ours.services.isEmpty)
        #expect(try FFmpegCaptions.decode(file).isEmpty)
    }

    @Test func decodeOrderWouldScrambleTheText() throws {
        // The same pairs fed in decode order (no reordering) do not give the caption: this is what
        // the reorder buffer prevents, on media whose B-frames really are reordered.
        let dir = try Scratch.make().path
        var script = CaptionScript()
        script.popOn(["Reordered text"], at: 5)
        let file = try CaptionedStream.make(script: script, frames: 60, folder: dir)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var demuxer = TransportStreamDemuxer()
        var units: [[UInt8]] = []
        demuxer.feed(bytes[...]) { units.append(Array($0.payload)) }
        demuxer.finish { units.append(Array($0.payload)) }
        var decoder = CEA608FieldDecoder(field: 1)
        var collector = CaptionCollector()
        for (i, unit) in units.enumerated() {
            for d in CaptionDecoder.captionData(accessUnit: unit, codec: .h264) where d.type == 0 {
                decoder.decode(d.byte1, d.byte2, at: MediaTime(ticks: Int64(i) * 3003), into: &collector)
            }
        }
        decoder.finish(at: MediaTime(seconds: 3), into: &collector)
        #expect(collector.cues[.cc1]?.first?.text != "Reordered text")
        let ours = TransportStreamCaptions.decode([bytes[...]])
        #expect(ours.services.first?.cues.first?.text == "Reordered text")
    }

    @Test func videoLanguageFromThePMT() throws {
        let dir = try Scratch.make().path
        var script = CaptionScript()
        script.popOn(["Hi"], at: 2)
        let file = try CaptionedStream.make(script: script, frames: 30, folder: dir, language: "spa", remux: false)
        let ours = TransportStreamCaptions.decode([ArraySlice(try Data(contentsOf: URL(fileURLWithPath: file)))])
        #expect(ours.language == "spa")
    }
}
