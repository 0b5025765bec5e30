import Foundation
import TestSupport
import Testing

/// In-band captions read on the smallest video variant of a ladder, confirmed on the reference,
/// through the binary: the same renditions as reading the reference in full, without reading it;
/// and a ladder whose variants carry different captions is read in full, with a warning.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct CaptionVariantCommandTests {
    /// CC1 pop-on captions from frame 10 and a CC3 one from frame 80 (2.7 s), in 12 s of video.
    static func script(cc1: Bool = true, cc3: Bool = true) -> CaptionScript {
        var script = CaptionScript()
        if cc1 {
            script.popOn(["First caption"], at: 10)
            script.send([CC608.command(0x2C)], at: 50)
            script.popOn(["Later on"], at: 200)
            script.send([CC608.command(0x2C)], at: 260)
        }
        if cc3 {
            script.popOn(["Tercero"], at: 80, field: 2)
            script.send([CC608.command(0x2C, field: 2)], at: 150, field: 2)
        }
        return script
    }

    /// A two-variant ladder: `big` first (the reference, 3 Mbit/s declared), `small` second
    /// (300 kbit/s declared), each 12 s in 2 s segments; `bigOnly` lists the big variant alone.
    static func ladder(big: CaptionScript?, small: CaptionScript?) throws -> (folder: String, master: String, bigOnly: String) {
        let folder = try Scratch.make().path
        try FileManager.default.copyItem(atPath: try CaptionedStream.hls(script: big, frames: 360), toPath: folder + "/big")
        try FileManager.default.copyItem(atPath: try CaptionedStream.hls(script: small, frames: 360), toPath: folder + "/small")
        let big = "#EXT-X-STREAM-INF:BANDWIDTH=3000000,CODECS=\"avc1.64001f\",RESOLUTION=1280x720\nbig/prog.m3u8\n"
        let small = "#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.64000d\",RESOLUTION=320x180\nsmall/prog.m3u8\n"
        try ("#EXTM3U\n" + big + small).write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        try ("#EXTM3U\n" + big).write(toFile: folder + "/big-only.m3u8", atomically: true, encoding: .utf8)
        return (folder, folder + "/master.m3u8", folder + "/big-only.m3u8")
    }

    static func report(_ outcome: Tools.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any], "\(outcome.stdout)\(outcome.stderr)")
    }

    /// The cues of every caption rendition under `folder`, by service folder name.
    static func captionCues(_ folder: String) throws -> [String: String] {
        var cues: [String: String] = [:]
        let subtitles = folder + "/captions"
        for rendition in try FileManager.default.contentsOfDirectory(atPath: subtitles) {
            for generation in try FileManager.default.contentsOfDirectory(atPath: subtitles + "/" + rendition) {
                let path = "\(subtitles)/\(rendition)/\(generation)/cues.vtt"
                if FileManager.default.fileExists(atPath: path) { cues[rendition] = try String(contentsOfFile: path, encoding: .utf8) }
            }
        }
        return cues
    }

    /// Variants that carry the same captions: the small one is read in full, the reference only
    /// where the captions begin (a segment past them is deleted, and the run never misses it),
    /// and the renditions are those of a full read of the reference.
    @Test func theSmallestVariantIsReadAndTheReferenceOnlyWhereCaptionsBegin() throws {
        let ladder = try Self.ladder(big: Self.script(), small: Self.script())
        let full = try BuiltTool.run(["package", ladder.bigOnly, "--output", ladder.folder + "/full/master.m3u8", "--json"])
        #expect(full.status == 0, "\(full.stderr)")
        let fullReport = try Self.report(full)
        #expect((fullReport["captions_read_from"] as? [String: Any])?["playlist"] as? String == ladder.folder + "/big/prog.m3u8", "\(fullReport)")

        try FileManager.default.removeItem(atPath: ladder.folder + "/big/seg_004.ts")
        let run = try BuiltTool.run(["package", ladder.master, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        let read = try #require(report["captions_read_from"] as? [String: Any], "\(report)")
        #expect(read["playlist"] as? String == ladder.folder + "/small/prog.m3u8", "\(read)")
        #expect((read["reason"] as? String ?? "").contains("fewest bytes a second"), "\(read)")
        #expect(read["confirmed_reference_segments"] as? [Int] == [0, 1, 2], "\(read)")
        let codes = (report["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(!codes.contains("caption_variants_disagree"), "\(codes)")
        let services = (report["captions"] as? [[String: Any]] ?? []).compactMap { $0["service"] as? String }
        #expect(services == ["CC1", "CC3"], "\(report)")

        let fromSmall = try Self.captionCues(ladder.folder), fromFull = try Self.captionCues(ladder.folder + "/full")
        #expect(fromSmall.count == 2 && fromSmall == fromFull, "small: \(fromSmall)\nfull: \(fromFull)")
        #expect(fromSmall.values.joined().contains("Later on"), "\(fromSmall)")
    }

    /// Captions that begin in the first segment are confirmed on the reference's first two.
    ///
    /// Those are looked at while the small variant is read, and the renditions are those of a
    /// full read of the reference. The disagreement below is found on the same two segments.
    @Test func captionsThatBeginInTheFirstSegmentAreConfirmedOnTheFirstTwo() throws {
        var script = CaptionScript()
        script.popOn(["Right away"], at: 5)
        script.send([CC608.command(0x2C)], at: 40)
        script.popOn(["Tres"], at: 20, field: 2)
        script.send([CC608.command(0x2C, field: 2)], at: 45, field: 2)
        script.popOn(["Much later"], at: 300)
        script.send([CC608.command(0x2C)], at: 340)
        let ladder = try Self.ladder(big: script, small: script)
        let full = try BuiltTool.run(["package", ladder.bigOnly, "--output", ladder.folder + "/full/master.m3u8"])
        #expect(full.status == 0, "\(full.stderr)")
        let run = try BuiltTool.run(["package", ladder.master, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        let read = try #require(report["captions_read_from"] as? [String: Any], "\(report)")
        #expect(read["playlist"] as? String == ladder.folder + "/small/prog.m3u8", "\(read)")
        #expect(read["confirmed_reference_segments"] as? [Int] == [0, 1], "\(read)")
        let fromSmall = try Self.captionCues(ladder.folder), fromFull = try Self.captionCues(ladder.folder + "/full")
        #expect(fromSmall.count == 2 && fromSmall == fromFull, "small: \(fromSmall)\nfull: \(fromFull)")
        #expect(fromSmall.values.joined().contains("Much later"), "\(fromSmall)")
    }

    /// The reference carries a service the smallest variant lacks (CC3), where the captions
    /// begin: a warning names it, the reference is read in full and CC3 is published.
    @Test func variantsThatDisagreeAreReadOnTheReference() throws {
        let ladder = try Self.ladder(big: Self.script(), small: Self.script(cc3: false))
        let run = try BuiltTool.run(["package", ladder.master, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        let warnings = (report["warnings"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "caption_variants_disagree" }
        #expect(warnings.count == 1 && (warnings.first?["message"] as? String ?? "").contains("CC3 in the reference and not in variant 2"), "\(report)")
        #expect((report["captions_read_from"] as? [String: Any])?["playlist"] as? String == ladder.folder + "/big/prog.m3u8", "\(report)")
        let services = (report["captions"] as? [[String: Any]] ?? []).compactMap { $0["service"] as? String }
        #expect(services == ["CC1", "CC3"], "\(report)")
        let strict = try BuiltTool.run(["package", ladder.master, "--strict", "--dry-run"])
        #expect(strict.status == 1 && strict.stderr.contains("the variants carry different captions"), "\(strict.stderr)")
    }

    /// A rung of another frame rate (its master says so) is not read for the reference: its
    /// captions are carried over other frames.
    @Test func aRungOfAnotherFrameRateIsNotTheOneRead() throws {
        let ladder = try Self.ladder(big: Self.script(), small: Self.script())
        let master = try String(contentsOfFile: ladder.master, encoding: .utf8)
        try master.replacingOccurrences(of: "RESOLUTION=1280x720", with: "RESOLUTION=1280x720,FRAME-RATE=59.940")
            .replacingOccurrences(of: "RESOLUTION=320x180", with: "RESOLUTION=320x180,FRAME-RATE=29.970")
            .write(toFile: ladder.master, atomically: true, encoding: .utf8)
        let run = try BuiltTool.run(["package", ladder.master, "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        #expect((report["captions_read_from"] as? [String: Any])?["playlist"] as? String == ladder.folder + "/big/prog.m3u8", "\(report)")
    }

    /// A low rung encoded without captions: the reference's caption data gives it away; read in
    /// full on the reference, its captions are published.
    @Test func aRungWithoutCaptionsIsNotTheOneRead() throws {
        let ladder = try Self.ladder(big: Self.script(), small: nil)
        let run = try BuiltTool.run(["package", ladder.master, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try Self.report(run)
        let codes = (report["warnings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("caption_variants_disagree"), "\(codes)")
        let services = (report["captions"] as? [[String: Any]] ?? []).compactMap { $0["service"] as? String }
        #expect(services == ["CC1", "CC3"], "\(report)")
    }
}
