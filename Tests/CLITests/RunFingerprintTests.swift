import Foundation
import TestSupport
import Testing

/// `package` run again on a title whose inputs did not change reads nothing more: it reports
/// what a full unchanged run reports, from the record the last run kept; any change to what the
/// run depends on (a segment, a sidecar, the arguments, the intent) makes it a full run again.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct RunFingerprintTests {
    static func package(_ dir: String, _ extra: [String] = []) throws -> [String: Any] {
        let text = try packageText(dir, extra)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func packageText(_ dir: String, _ extra: [String] = []) throws -> String {
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/subs/en.srt,language=en", "--json"] + extra)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return outcome.stdout
    }

    static func record(_ dir: String) -> String { dir + "/.master.m3u8.subweave-run.json" }

    /// Marks the kept report (its duration), so that a report printed from the record shows it.
    static func mark(_ dir: String) throws {
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record(dir)))) as? [String: Any])
        var report = try #require(record["report"] as? [String: Any])
        report["duration"] = 999.5
        record["report"] = report
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: Self.record(dir)))
    }

    @Test func anUnchangedRunReportsFromTheRecordAsAFullRunWould() throws {
        let dir = try Fixtures.copyExample()
        let first = try Self.package(dir)
        #expect(first["unchanged"] as? Bool == false)
        #expect(FileManager.default.fileExists(atPath: Self.record(dir)))
        // The record the first run kept (its renditions as it staged them) answers the next run.
        try Self.mark(dir)
        #expect(try Self.package(dir)["duration"] as? Double == 999.5, "the run after the first is answered by its record")

        // The full unchanged run (no record) and the run from the record say the same.
        try FileManager.default.removeItem(atPath: Self.record(dir))
        let full = try Self.packageText(dir)
        #expect(full.contains(#""unchanged" : true"#) || full.contains(#""unchanged":true"#), "\(full)")
        let fromRecord = try Self.packageText(dir)
        #expect(fromRecord == full, "record:\n\(fromRecord)\nfull:\n\(full)")
        // The record keeps a rendition's files as their generation, not as a list of segments.
        let kept = try String(contentsOfFile: Self.record(dir), encoding: .utf8)
        #expect(kept.contains("files_written_generation") && !kept.contains("00001.vtt"), "\(kept)")

        // The record is what answered: its marked report comes back.
        try Self.mark(dir)
        #expect(try Self.package(dir)["duration"] as? Double == 999.5)
        let validated = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(validated.status == 0 && (validated.stdout + validated.stderr).contains("0 errors, 0 warnings"), "\(validated.stdout)\(validated.stderr)")
    }

    /// Two full runs that keep the same record write the same bytes (keys in order, not in the
    /// order of each process's dictionaries), so that records can be compared as files.
    @Test func theSameRecordIsWrittenAsTheSameBytes() throws {
        let dir = try Fixtures.copyExample()
        _ = try Self.package(dir)
        var kept: [String] = []
        for _ in 0..<2 {
            // Without a record, the run is a full one, and keeps a record again.
            try FileManager.default.removeItem(atPath: Self.record(dir))
            _ = try Self.package(dir)
            kept.append(try String(contentsOfFile: Self.record(dir), encoding: .utf8))
        }
        #expect(kept[0] == kept[1], "first:\n\(kept[0])\nsecond:\n\(kept[1])")
        let fingerprint = try #require(kept[0].range(of: #""fingerprint""#)), report = try #require(kept[0].range(of: #""report""#))
        #expect(fingerprint.lowerBound < report.lowerBound, "\(kept[0].prefix(200))")
    }

    /// A segment re-encoded, a sidecar edited, other arguments, a changed intent record: each
    /// makes the run a full one.
    @Test(arguments: ["segment", "sidecar", "arguments", "intent", "subtitle segment deleted", "subtitle segment replaced"])
    func anyChangeReadsTheTitleAgain(_ change: String) throws {
        let dir = try Fixtures.copyExample()
        _ = try Self.package(dir)
        try Self.mark(dir)
        var extra: [String] = []
        var deleted: (path: String, bytes: Data)?
        switch change {
        case "segment":
            let segment = try #require(try FileManager.default.subpathsOfDirectory(atPath: dir + "/video").first { $0.hasSuffix(".ts") })
            let path = dir + "/video/" + segment
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        case "sidecar":
            let text = try String(contentsOfFile: dir + "/subs/en.srt", encoding: .utf8)
            try (text + "\n").write(toFile: dir + "/subs/en.srt", atomically: true, encoding: .utf8)
        case "arguments":
            extra = ["--preferred-language", "en"]
        case "intent":
            let path = dir + "/.master.m3u8.subweave.json"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: " \n").write(toFile: path, atomically: true, encoding: .utf8)
        case "subtitle segment replaced":
            // Another file put in a subtitle segment's place (renamed over it): the run is a
            // full one (it finds the generation complete and leaves it as it is).
            let segment = try #require(try FileManager.default.subpathsOfDirectory(atPath: dir + "/subtitles").first { $0.hasSuffix("00001.vtt") })
            let path = dir + "/subtitles/" + segment
            try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: path + ".new"))
            _ = rename(path + ".new", path)
        default:
            // A subtitle segment deleted by hand: the run puts the same bytes back.
            let segment = try #require(try FileManager.default.subpathsOfDirectory(atPath: dir + "/subtitles").first { $0.hasSuffix("00001.vtt") })
            deleted = (dir + "/subtitles/" + segment, try Data(contentsOf: URL(fileURLWithPath: dir + "/subtitles/" + segment)))
            try FileManager.default.removeItem(atPath: dir + "/subtitles/" + segment)
        }
        let again = try Self.package(dir, extra)
        #expect(again["duration"] as? Double != 999.5, "\(change): answered from the record")
        if let deleted {
            #expect(FileManager.default.contents(atPath: deleted.path) == deleted.bytes, "\(deleted.path) was not put back")
        }
        let validated = try BuiltTool.run(["validate", dir + "/master.m3u8"])
        #expect(validated.status == 0 && (validated.stdout + validated.stderr).contains("0 errors, 0 warnings"), "\(validated.stdout)\(validated.stderr)")
    }
}
