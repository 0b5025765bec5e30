import Foundation
import TestSupport
import Testing

/// What Subweave writes reads back as written, in Subweave and in another reader, and what it
/// prints cannot hurt a terminal.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct ReadsBackTests {
    /// SubRip has no escape: tag-shaped text (an SCC's `<LAUGHING & WHOOPS!>`) is written with
    /// look-alike angle brackets that every reader shows, here Subweave and ffmpeg.
    @Test func tagShapedTextSurvivesSubRip() throws {
        let dir = try Scratch.make().path
        try "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n&lt;LAUGHING &amp; WHOOPS!&gt;\n\n00:00:03.000 --> 00:00:04.000\n<i>kept</i> {\\an8}\n"
            .write(toFile: dir + "/in.vtt", atomically: true, encoding: .utf8)
        let converted = try BuiltTool.run(["convert", dir + "/in.vtt", "--to", "srt", "-o", dir + "/out.srt"])
        #expect(converted.status == 0, "\(converted.stderr)")
        let srt = try String(contentsOfFile: dir + "/out.srt", encoding: .utf8)
        #expect(srt.contains("‹LAUGHING & WHOOPS!›") && srt.contains("<i>kept</i>"), "\(srt)")
        let back = try BuiltTool.run(["cues", dir + "/out.srt", "--json"])
        #expect(back.stdout.contains("‹LAUGHING &amp; WHOOPS!›"), "cue text as WebVTT writes it: \(back.stdout)")
        if let ffmpeg = Tools.ffmpeg {
            let read = try Tools.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-i", dir + "/out.srt", "-f", "webvtt", "-"])
            #expect(read.stdout.contains("‹LAUGHING & WHOOPS!›") && read.stdout.contains("an8"), "ffmpeg shows it: \(read.stdout)")
        }
    }

    /// A conversion with no cue writes no SubRip file (an empty one is refused by readers).
    @Test func noCueMeansNoSubRipFile() throws {
        let dir = try Scratch.make().path
        try "WEBVTT\n\nNOTE nothing here\n".write(toFile: dir + "/empty.vtt", atomically: true, encoding: .utf8)
        let converted = try BuiltTool.run(["convert", dir + "/empty.vtt", "--to", "srt", "-o", dir + "/out.srt"])
        #expect(converted.status == 1 && converted.stderr.contains("no cue to write"), "\(converted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.srt"))
    }

    /// WebVTT settings as the spec parses them: a region's `lines` of any length kept, a `line:`
    /// that rounds to infinity an error (ignored), so the cue keeps its region.
    @Test func webVTTSettingsByTheLetter() throws {
        let dir = try Scratch.make().path
        let huge = String(repeating: "9", count: 400)
        try """
        WEBVTT

        REGION
        id:r lines:12345678901 width:40%

        00:00:01.000 --> 00:00:02.000 region:r line:\(huge)
        in the region
        """
        .write(toFile: dir + "/in.vtt", atomically: true, encoding: .utf8)
        let cues = try BuiltTool.run(["cues", dir + "/in.vtt", "--json"])
        #expect(cues.status == 0, "\(cues.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(cues.stdout.utf8)) as? [String: Any])
        let cue = try #require((object["cues"] as? [[String: Any]])?.first)
        #expect(cue["line"] as? String == "auto", "\(cue)")
        let region = try #require(cue["region"] as? [String: Any], "the cue keeps its region: \(cue)")
        #expect((region["lines"] as? Double) == 12_345_678_901, "\(region)")
    }

    /// A SubRip file named `.vtt` is read by its content in `cues` and in `package` alike, with
    /// the same warning.
    @Test func aMisnamedFileIsReadTheSameEverywhere() throws {
        let dir = try Fixtures.copyExample()
        try "1\n00:00:01,000 --> 00:00:02,000\nSRT really\n".write(toFile: dir + "/subs/misnamed.vtt", atomically: true, encoding: .utf8)
        let cues = try BuiltTool.run(["cues", dir + "/subs/misnamed.vtt"])
        #expect(cues.status == 0 && cues.stdout.contains("SRT really"), "\(cues.stdout) \(cues.stderr)")
        #expect(cues.stderr.contains("named as vtt but its content is srt"), "\(cues.stderr)")
        let package = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/misnamed.vtt,language=de"])
        #expect(package.status == 0 && package.stderr.contains("named as vtt but its content is srt"), "\(package.stderr)")
    }

    /// `validate` quotes a segment's cue text: an escape sequence in it is shown, not obeyed.
    @Test func validateShowsEscapesVisibly() throws {
        let dir = try Fixtures.copyExample()
        #expect(try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en"]).status == 0)
        let generation = try Packaged.generation(master: dir + "/master.m3u8", folder: "subtitles/en-en")
        // The first cue, shown in segments 0 and 1, gets an escape sequence in segment 0 and is
        // taken out of segment 1: validate quotes it from segment 0.
        let first = try String(contentsOfFile: generation + "/00000.vtt", encoding: .utf8)
        try first.replacingOccurrences(of: "Hello, <i>world</i>!", with: "\u{1B}[31mHello")
            .write(toFile: generation + "/00000.vtt", atomically: true, encoding: .utf8)
        let second = try String(contentsOfFile: generation + "/00001.vtt", encoding: .utf8)
        let hello = try #require(second.range(of: "1\n00:00:01.980 --> 00:00:03.980\nHello, <i>world</i>!\n\n"))
        try second.replacingCharacters(in: hello, with: "").write(toFile: generation + "/00001.vtt", atomically: true, encoding: .utf8)
        let validate = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(!validate.stdout.contains("\u{1B}") && !validate.stderr.contains("\u{1B}"), "a raw ESC was printed")
        #expect(validate.stdout.contains(#"\u{1B}[31mHello"#), "\(validate.stdout)")
    }
}
