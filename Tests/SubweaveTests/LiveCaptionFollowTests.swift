import Foundation
import HLS
import Subweave
import Synchronization
import TestSupport
import Testing

/// Following live presentations whose video carries CEA-608 captions.
extension LiveFollowTests {
    /// CEA-608 in a live TS: decoded segment by segment with the decoder's state carried over;
    /// the CC1 rendition holds the captions the VOD decode of the same stream finds, placed where
    /// the stream put them (or with no placement when asked).
    @Test(arguments: [true, false])
    func decodesLiveCaptions(placement: Bool) async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        script.popOn(["Live caption"], at: 10)  // RCL 10, ENM 12, PAC 14, 6 pairs 16-21, EOC 22
        script.send([CC608.command(0x2C)], at: 80)
        script.popOn(["Across segments"], at: 100)  // 8 pairs 106-113, EOC 114, erased at 200 (6.7 s)
        script.send([CC608.command(0x2C)], at: 200)
        let ts = try CaptionedStream.make(script: script, frames: 300, folder: folder)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 10, input: ["-i", ts, "-map", "0:v", "-c", "copy"])
        defer { encoder.terminate() }
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 20
        var request = PackageRequest(tracks: [])
        request.captionPlacement = placement
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), request)
        #expect(report.reason == "ended")
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/cc1")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/v000.ts"))
        // Pieces of one caption (published while it was still on screen) join up: first start, last end.
        var spans: [String: (Double, Double)] = [:]
        var pieces: [String: Set<[Double]>] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            // Every piece keeps where the caption was put (row 15, column 0), open ones too.
            for timing in text.split(separator: "\n") where timing.contains("-->") {
                let settings = timing.split(separator: " ").dropFirst(3).joined(separator: " ")
                #expect(settings == (placement ? "line:84.67%,start position:10%,line-left align:left" : ""), "\(segment.uri): \(timing)")
            }
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues {
                let old = spans[cue.text]
                spans[cue.text] = (min(old?.0 ?? cue.start, cue.start), max(old?.1 ?? cue.end, cue.end))
                pieces[cue.text, default: []].insert([cue.start, cue.end])
            }
        }
        // The pieces of a caption follow one another: never two on screen at once.
        for (text, set) in pieces {
            let sorted = set.sorted { $0[0] < $1[0] }
            for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(b[0] >= a[1] - 0.0011, "\(text): pieces \(a) and \(b) overlap") }
        }
        let frame = 1001.0 / 30000
        let live = try #require(spans["Live caption"], "\(spans)"), across = try #require(spans["Across segments"], "\(spans)")
        #expect(abs(live.0 - 22 * frame) <= frame && abs(live.1 - 80 * frame) <= frame, "\(live) in frames: \(live.0 / frame), \(live.1 / frame)")
        #expect(abs(across.0 - 114 * frame) <= frame && abs(across.1 - 200 * frame) <= frame, "\(across)")
    }

    /// Roll-up captions typed word by word through a live event, lines starting anywhere, some in
    /// a segment's last frames: a line still being gathered when its segment is published shows
    /// from the next segment's start, so every published segment carries every cue shown during
    /// it (validate rejected 6 segments of a 36 s event).
    @Test func rollUpCaptionsThroughALiveEventStayValid() async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        script.send([CC608.command(0x25), CC608.command(0x2D), CC608.pac(row: 15)], at: 10)
        var generator = SeededGenerator(seed: 36)
        var frame = 20
        let words = ["live", "captions", "roll", "up", "word", "by", "word", "as", "they", "are", "spoken", "here"]
        while frame < 1_000 {
            for _ in 0..<Int.random(in: 2...5, using: &generator) {
                frame = script.send(CC608.text(words.randomElement(using: &generator)! + " "), at: frame) + Int.random(in: 0...6, using: &generator)
            }
            // A carriage return starts a new line, at a random frame (some in a segment's last ones).
            frame = script.send([CC608.command(0x2D)], at: frame + Int.random(in: 0...20, using: &generator))
        }
        let ts = try CaptionedStream.make(script: script, frames: 1_080, folder: folder)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 36, input: ["-i", ts, "-map", "0:v", "-c", "copy"])
        defer { encoder.terminate() }
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 30
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(report.reason == "ended")
        let validated = await PresentationValidator().validate(master: URL(fileURLWithPath: folder + "/master.m3u8"))
        #expect(validated.errors == 0 && validated.warnings == 0, "\(validated.findings.map(\.message))")
    }

    /// A caption service that first appears 32 s into the event gets its rendition (covering
    /// every segment from the start) and its declaration: the master is written again.
    @Test func aServiceThatAppearsMidEventIsDeclared() async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        let eoc = script.popOn(["Thirty-two seconds in"], at: 959 - 15) - 2
        script.send([CC608.command(0x2C)], at: eoc + 60)
        let ts = try CaptionedStream.make(script: script, frames: 40 * 30, folder: folder)
        let encoder = try LiveSimulator(folder: folder, seconds: 40, input: ts)
        var follower = LiveFollower()
        follower.pollInterval = 0.05
        follower.idleTimeout = 30
        let masters = Mutex<[String]>([])
        follower.onUpdate = { _ in
            if let text = try? String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8) { masters.withLock { $0.append(text) } }
            encoder.publishNext()
        }
        var request = PackageRequest(tracks: [])
        request.captionServices.services["CC1"] = CaptionServiceSetting(language: LanguageTag(parsing: "en"))
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), request)
        #expect(report.reason == "ended")
        let seen = masters.withLock { $0 }
        #expect(seen.contains { !$0.contains("captions/cc1") }, "no caption rendition before the caption")
        let final = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        #expect(final.contains(#"LANGUAGE="en",NAME="English (CC1)""#), "\(final)")
        #expect(final.contains("CLOSED-CAPTIONS=NONE"))
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/cc1")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let video = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/prog.m3u8"))), source: "v")
        #expect(subtitles.segments.count == video.segments.count && subtitles.hasEndList)
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/v000.ts"))
        var span: (Double, Double)?
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues where cue.text == "Thirty-two seconds in" {
                span = (min(span?.0 ?? cue.start, cue.start), max(span?.1 ?? cue.end, cue.end))
            }
        }
        let frame = 1001.0 / 30000
        let placed = try #require(span)
        #expect(abs(placed.0 - Double(eoc) * frame) <= frame && abs(placed.1 - Double(eoc + 60) * frame) <= frame, "\(placed)")
    }

    /// A follow killed while a caption is on screen, then restarted: the caption keeps its whole
    /// span (the restarted decoder rebuilds the screen from the segments before the kill).
    @Test(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
    func aCaptionOnScreenAtAKillIsKept() async throws {
        let folder = try Scratch.make().path
        var script = CaptionScript()
        let eoc = script.popOn(["On screen at the kill"], at: 80) - 2  // shown at 3.3 s
        script.send([CC608.command(0x2C)], at: 300)  // erased at 10 s
        let ts = try CaptionedStream.make(script: script, frames: 420, folder: folder)
        let encoder = try Self.liveEncoder(folder: folder, seconds: 14, input: ["-i", ts, "-map", "0:v", "-c", "copy"])
        defer { encoder.terminate() }
        let binary = try #require(BuiltTool.subweave)
        let arguments = ["package", folder + "/master.m3u8", "--caption-language", "en", "--follow", "--poll", "0.25"]
        // Killed once the caption is on screen and published (segment 2, 4-6 s, is out).
        try await Self.killOncePublished(binary, arguments, master: folder + "/master.m3u8", rendition: "captions/cc1", segments: 2)
        let second = try Tools.run(binary, arguments + ["--idle-timeout", "20"], timeout: 60)
        #expect(second.status == 0, "\(second.stderr)")
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/cc1")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/v000.ts"))
        var pieces: [(Double, Double)] = []
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues where cue.text == "On screen at the kill" {
                if !pieces.contains(where: { $0 == (cue.start, cue.end) }) { pieces.append((cue.start, cue.end)) }
            }
        }
        pieces.sort { $0.0 < $1.0 }
        let frame = 1001.0 / 30000
        #expect(abs((pieces.first?.0 ?? -1) - Double(eoc) * frame) <= frame, "\(pieces)")
        #expect(abs((pieces.last?.1 ?? -1) - 300 * frame) <= frame, "\(pieces)")
        for (a, b) in zip(pieces, pieces.dropFirst()) { #expect(abs(b.0 - a.1) <= 0.0011, "a gap or an overlap between \(a) and \(b)") }
    }

    /// DVB teletext pages in a live TS: decoded segment by segment; the page's rendition holds
    /// each page from its PES's PTS to the one that clears it, named from the descriptor, and the
    /// validator accepts what the follow wrote.
    @Test func followsTeletextPages() async throws {
        let folder = try Scratch.make().path
        var stream = TeletextStream(transmissions: [
            .init(seconds: 1, rows: [(21, TeletextStream.boxedRow(Array("Live teletext".utf8)))]),
            .init(seconds: 5, rows: [], national: 0),
            .init(seconds: 6, rows: [(22, TeletextStream.boxedRow(Array("Across segments".utf8)))]),
            .init(seconds: 9, rows: []),
        ])
        stream.language = "eng"
        let encoder = try #require(try TeletextProgramme.make(stream, seconds: 12, folder: folder, live: true))
        defer { encoder.terminate() }
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 20
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(report.reason == "ended")
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        #expect(master.contains(#"LANGUAGE="en",NAME="English (888)""#) && !master.contains("INSTREAM-ID"), "\(master)")
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/teletext-888")
        let subtitles = try MediaPlaylist(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: generation + "/index.m3u8"))), source: "s")
        let segments = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("v") && $0.hasSuffix(".ts") }.sorted()
        let firstPTS = try #require(try Tools.lowestVideoPTS(folder + "/" + segments[0]))
        let sent = try TeletextProgramme.pagePTS(segments.map { folder + "/" + $0 }).map { Double($0 - firstPTS) / 90_000 }
        try #require(sent.count == 4, "\(sent)")
        var spans: [String: (Double, Double)] = [:]
        for segment in subtitles.segments {
            let text = try String(contentsOfFile: generation + "/" + segment.uri, encoding: .utf8)
            for cue in PlayerClock.place(segment: text, firstPTS: firstPTS, sequenceStart: 0).cues {
                let old = spans[cue.text]
                spans[cue.text] = (min(old?.0 ?? cue.start, cue.start), max(old?.1 ?? cue.end, cue.end))
            }
        }
        let live = try #require(spans["Live teletext"], "\(spans)"), across = try #require(spans["Across segments"], "\(spans)")
        #expect(abs(live.0 - sent[0]) < 0.0011 && abs(live.1 - sent[1]) < 0.0011, "\(live) against \(sent)")
        #expect(abs(across.0 - sent[2]) < 0.0011 && abs(across.1 - sent[3]) < 0.0011, "\(across) against \(sent)")
        let validate = try Tools.run(try #require(BuiltTool.subweave), ["validate", folder + "/master.m3u8"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    }

    /// A teletext character whose parity fails in a live stream is said in the follow's report
    /// (a space stands in its cell): a live follow never ends the caption reader, which used to be
    /// the only place the count was said.
    @Test func aDamagedTeletextCharacterIsReportedLive() async throws {
        let folder = try Scratch.make().path
        var stream = TeletextStream(transmissions: [
            .init(seconds: 1, rows: [(21, TeletextStream.boxedRow(Array("Damaged".utf8)))]),
            .init(seconds: 3, rows: []),
        ])
        stream.language = "eng"
        let encoder = try #require(
            try TeletextProgramme.make(stream, seconds: 6, folder: folder, live: true) { bytes in
                let pattern = TeletextStream.sent(Array("Damaged".utf8))
                if let at = (0...(bytes.count - pattern.count)).first(where: { Array(bytes[$0..<($0 + pattern.count)]) == pattern }) {
                    bytes[at] ^= 0x01  // the parity bit, as sent (bit-reversed)
                }
            })
        defer { encoder.terminate() }
        var follower = LiveFollower()
        follower.pollInterval = 0.25
        follower.idleTimeout = 20
        let report = try await follower.follow(master: URL(fileURLWithPath: folder + "/master.m3u8"), PackageRequest(tracks: []))
        #expect(report.reason == "ended")
        #expect(report.notes.contains { $0.contains("teletext: 1 byte(s) failed their parity") }, "\(report.notes)")
        let generation = try Packaged.generation(master: folder + "/master.m3u8", folder: "captions/teletext-888")
        let cues = try String(contentsOfFile: generation + "/cues.vtt", encoding: .utf8)
        #expect(cues.contains("amaged") && !cues.contains("Damaged"), "\(cues)")
    }
}
