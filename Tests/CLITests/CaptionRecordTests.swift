import Foundation
import TestSupport
import Testing

/// The record of the captions a run read (`.<master>.subweave-captions.json`): a later run on
/// media whose files are as they were reads no segment for its captions; a changed segment is
/// read again.
struct CaptionRecordTests {
    /// The WebVTT files of the caption renditions the master names (the generations it names),
    /// by service folder and file name, with their text.
    static func captionFiles(_ master: String) throws -> [String: String] {
        let folder = (master as NSString).deletingLastPathComponent
        var files: [String: String] = [:]
        for line in try String(contentsOfFile: master, encoding: .utf8).split(separator: "\n") where line.hasPrefix("#EXT-X-MEDIA:") {
            guard let range = line.range(of: "URI=\"captions/") else { continue }
            let uri = line[range.upperBound...].prefix { $0 != "\"" }  // cc1/<generation>/index.m3u8
            let parts = uri.split(separator: "/")
            guard parts.count == 3 else { continue }
            let generation = folder + "/captions/\(parts[0])/\(parts[1])"
            for name in try FileManager.default.contentsOfDirectory(atPath: generation) where name.hasSuffix(".vtt") {
                files["\(parts[0])/\(name)"] = try String(contentsOfFile: generation + "/" + name, encoding: .utf8)
            }
        }
        return files
    }

    @Test(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is missing"))
    func unchangedMediaIsNotReadAgainAndChangedMediaIs() throws {
        let hls = try CaptionedStream.hls()
        let master = hls + "/master.m3u8"
        let first = try BuiltTool.run(["package", master, "--caption-service", "CC1:name=Words"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: hls + "/.master.m3u8.subweave-captions.json"))
        let before = try Self.captionFiles(master)
        #expect(before.values.contains { $0.contains("a boundary") }, "\(before)")

        // What the record gives is what reading gives: the whole report (services, coverage,
        // notes, which variant was read) of a dry run with it and without it.
        let record = hls + "/.master.m3u8.subweave-captions.json"
        let fromRecord = try BuiltTool.run(["package", master, "--caption-service", "CC3:name=Tres", "--dry-run", "--json"])
        try FileManager.default.moveItem(atPath: record, toPath: record + ".aside")
        let fromMedia = try BuiltTool.run(["package", master, "--caption-service", "CC3:name=Tres", "--dry-run", "--json"])
        try FileManager.default.moveItem(atPath: record + ".aside", toPath: record)
        #expect(fromRecord.status == 0 && fromRecord.stdout == fromMedia.stdout, "\(fromRecord.stdout)\n\(fromMedia.stdout)")

        // The second segment's bytes zeroed where they are, its size, modification time and inode
        // kept: a run that read it would lose the caption it ends ("Across a boundary").
        let segment = hls + "/seg_001.ts"
        var info = stat()
        #expect(stat(segment, &info) == 0)
        let size = Int(info.st_size)
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.write(contentsOf: Data(count: size))
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, segment, &times, 0) == 0)

        // A run that changes a setting (so no run record answers for it) takes the captions from
        // the caption record.
        let again = try BuiltTool.run(["package", master, "--caption-service", "CC1:name=Other words"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Self.captionFiles(master) == before, "the captions came from the record, not from the segment")
        #expect(try String(contentsOfFile: master, encoding: .utf8).contains("NAME=\"Other words\""))

        // Touched: another key, so the segment is read, and the caption it ended is gone.
        var later = [info.st_atim, timespec(tv_sec: info.st_mtim.tv_sec + 10, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, segment, &later, 0) == 0)
        let read = try BuiltTool.run(["refresh", master])
        #expect(read.status == 0, "\(read.stderr)")
        let after = try Self.captionFiles(master)
        #expect(after != before)
        #expect(!after.values.contains { $0.contains("a boundary") }, "\(after)")
    }
}
