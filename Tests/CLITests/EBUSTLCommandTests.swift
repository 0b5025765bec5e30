import Foundation
import TestSupport
import Testing

/// EBU STL files through the binary: read by content or extension, packaged, converted.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct EBUSTLCommandTests {
    /// An archive's file: programme start 10:00:00:00 said to be for use (TCS 1), 25 fps.
    static var archive: STLFile {
        var file = STLFile(blocks: [
            .init(1, (10, 0, 1, 0), (10, 0, 3, 0), [0x0D, 0x0B, 0x0B] + Array("Guten Tag, Gr".utf8) + [0xC8] + Array("u".utf8) + [0xFB]),
            .init(2, (10, 0, 4, 0), (10, 0, 6, 0), [0x03] + Array("Zweite Zeile".utf8), verticalPosition: 22),
        ])
        file.timeCodeStatus = "1"
        file.programmeStart = "10000000"
        return file
    }

    @Test func packagesAnArchiveFile() throws {
        let dir = try Fixtures.copyExample()
        let master = dir + "/master.m3u8"
        try Data(Self.archive.bytes).write(to: URL(fileURLWithPath: dir + "/subs/de.stl"))
        let packaged = try BuiltTool.run(["package", master, "--subtitle", "url=\(dir)/subs/de.stl,language=de", "--json"])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(packaged.stdout.utf8)) as? [String: Any])
        let track = try #require((report["tracks"] as? [[String: Any]])?.first)
        #expect(track["ingest_format"] as? String == "stl_converted" && track["cue_count"] as? Int == 2, "\(track)")
        #expect(track["first_cue_start"] as? Double == 1, "the programme start 10:00:00:00 is time zero: \(track)")
        let validated = try BuiltTool.run(["validate", master])
        #expect(validated.status == 0 && validated.stderr.contains("0 errors"), "\(validated.stdout)\(validated.stderr)")

        // Named .dat: the content says EBU STL.
        try Data(Self.archive.bytes).write(to: URL(fileURLWithPath: dir + "/subs/archive.dat"))
        let converted = try BuiltTool.run(["convert", dir + "/subs/archive.dat", "--to", "srt"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout.contains("00:00:01,000 --> 00:00:03,000\nGuten Tag, Grüß"), "\(converted.stdout)")
        #expect(converted.stdout.contains("<font color=\"yellow\">Zweite Zeile</font>") || converted.stdout.contains("Zweite Zeile"), "\(converted.stdout)")

        var torn = Self.archive.bytes
        torn.replaceSubrange(3..<11, with: Array("XYZ25.01".utf8))
        try Data(torn).write(to: URL(fileURLWithPath: dir + "/subs/bad.stl"))
        let refused = try BuiltTool.run(["cues", dir + "/subs/bad.stl"])
        #expect(refused.status == 1 && refused.stderr.contains("bad.stl") && refused.stderr.contains("disk format code"), "\(refused.stderr)")
    }
}
