import Foundation
import Subweave
import Synchronization
import TestSupport
import Testing

/// `subweave batch`: a catalogue of titles, bounded parallelism, one result per title, skipping
/// what is already packaged, and shards that together take every title once.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct BatchCommandTests {
    /// A folder with `count` copies of the example title (`t0` …) and a catalogue naming them
    /// with paths relative to the catalogue; `extra` lines are appended.
    func catalogue(_ count: Int, extra: [String] = []) throws -> (folder: String, path: String) {
        let folder = try Scratch.make().path
        var lines = ["# a catalogue"]
        for i in 0..<count {
            try FileManager.default.copyItem(atPath: Fixtures.repository.appendingPathComponent("Examples/basic").path, toPath: folder + "/t\(i)")
            lines.append(#"{"id": "t\#(i)", "master": "t\#(i)/master.m3u8", "tracks": [{"url": "t\#(i)/subs/en.srt", "language": "en"}]}"#)
        }
        let path = folder + "/catalogue.jsonl"
        try (lines + extra).joined(separator: "\n").appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    func results(_ outcome: Tools.Outcome) throws -> [[String: Any]] {
        try outcome.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["schema"] as? String == "subweave.batch-result/1")
            return object
        }
    }

    func status(_ results: [[String: Any]]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: results.map { ($0["id"] as? String ?? "?", $0["status"] as? String ?? "?") })
    }

    @Test func packagesReportsEachTitleAndSkipsWhatIsDone() throws {
        let (folder, path) = try catalogue(
            3, extra: [#"{"id": "broken", "master": "t0/master.m3u8", "tracks": [{"url": "nowhere.srt", "language": "en"}]}"#, "not json"])
        let first = try BuiltTool.run(["batch", path, "--jobs", "2"])
        #expect(first.status == 1, "a failed title makes the batch fail")
        let firstResults = try results(first)
        #expect(status(firstResults) == ["t0": "ok", "t1": "ok", "t2": "ok", "broken": "failed", "line 6": "failed"])
        #expect(
            firstResults.first { $0["id"] as? String == "broken" }.flatMap { ($0["error"] as? [String: Any])?["message"] as? String }?.contains("nowhere.srt")
                == true)
        for i in 0..<3 {
            #expect(try String(contentsOfFile: folder + "/t\(i)/master.m3u8", encoding: .utf8).contains("TYPE=SUBTITLES"))
        }
        // Nothing changed: every packaged title is skipped.
        let second = try results(try BuiltTool.run(["batch", path, "--jobs", "2"]))
        #expect(status(second).filter { $0.value != "failed" } == ["t0": "skipped", "t1": "skipped", "t2": "skipped"])
        // A changed subtitle file and a re-encoded variant playlist run their titles again.
        try "1\n00:00:01,000 --> 00:00:02,000\nChanged\n".write(toFile: folder + "/t1/subs/en.srt", atomically: true, encoding: .utf8)
        let playlist = folder + "/t2/video/low/prog.m3u8"
        try (try String(contentsOfFile: playlist, encoding: .utf8) + "\n").write(toFile: playlist, atomically: true, encoding: .utf8)
        let third = try results(try BuiltTool.run(["batch", path]))
        #expect(status(third).filter { $0.value != "failed" } == ["t0": "skipped", "t1": "ok", "t2": "ok"])
    }

    @Test func shardsTogetherPackageEveryTitleOnce() throws {
        let (folder, path) = try catalogue(7)
        var seen: [String: Int] = [:]
        for i in 0..<3 {
            let outcome = try BuiltTool.run(["batch", path, "--shard", "\(i)/3"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            for result in try results(outcome) {
                #expect(result["status"] as? String == "ok")
                seen[result["id"] as? String ?? "?", default: 0] += 1
            }
        }
        #expect(seen == Dictionary(uniqueKeysWithValues: (0..<7).map { ("t\($0)", 1) }))
        for i in 0..<7 { #expect(try String(contentsOfFile: folder + "/t\(i)/master.m3u8", encoding: .utf8).contains("TYPE=SUBTITLES")) }
        #expect(try BuiltTool.run(["batch", path, "--shard", "3/3"]).status == 64)
    }

    /// The catalogue shipped in Examples/batch runs as it is (here on a copy of Examples): its
    /// output goes to batch/out, valid, and the example title it reads is left as it was.
    @Test func theExampleCatalogueRunsAndLeavesTheExampleAlone() throws {
        let copy = try Scratch.make().path + "/examples"
        try FileManager.default.copyItem(atPath: Fixtures.repository.appendingPathComponent("Examples").path, toPath: copy)
        try? FileManager.default.removeItem(atPath: copy + "/batch/out")
        let before = try Data(contentsOf: URL(fileURLWithPath: copy + "/basic/master.m3u8"))
        let outcome = try BuiltTool.run(["batch", copy + "/batch/catalogue.jsonl", "--jobs", "2"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(status(try results(outcome)) == ["basic": "ok"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy + "/basic/master.m3u8")) == before, "the example's master was rewritten")
        #expect(!FileManager.default.fileExists(atPath: copy + "/basic/subtitles"), "renditions were written into the example")
        #expect(try String(contentsOfFile: copy + "/batch/out/master.m3u8", encoding: .utf8).contains("LANGUAGE=\"fr\""))
        let validated = try BuiltTool.run(["validate", copy + "/batch/out/master.m3u8"])
        #expect(validated.status == 0 && (validated.stdout + validated.stderr).contains("0 errors, 0 warnings"), "\(validated.stdout)\(validated.stderr)")
    }

    /// The shard arithmetic alone: for every N, the N shards partition any catalogue.
    @Test func shardsPartitionTheCatalogue() throws {
        for count in 1...9 {
            var taken = Array(repeating: 0, count: 100)
            for index in 0..<count {
                let shard = try #require(Shard(parsing: "\(index)/\(count)"))
                for position in 0..<100 where shard.takes(position) { taken[position] += 1 }
            }
            #expect(taken.allSatisfy { $0 == 1 }, "N = \(count)")
        }
        for bad in ["1/1", "-1/2", "2", "a/b", "0/0", "1/2/3"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
    }
}

/// `batch --root`: a catalogue from elsewhere may name only files inside one folder.
@Suite(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
struct BatchRootTests {
    /// A line naming `file://host` (a file URL whose path is empty) is outside any root, said at
    /// once: resolving it walked up for ever (found by the catalogue fuzzer).
    @Test func aFileURLWithAHostIsOutsideTheRoot() throws {
        let text = #"{"master": "file://ster.m6u8", "tracks": []}"# + "\n"
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<[Result<CatalogueTitle, CatalogueLineError>]>([])
        DispatchQueue.global().async {
            let titles = Catalogue.titles(text, path: "/tmp/c.jsonl", root: URL(fileURLWithPath: "/tmp"))
            result.withLock { $0 = titles }
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success else {
            Issue.record("resolving file://ster.m6u8 under a root did not end in 60 s")
            return
        }
        let titles = result.withLock { $0 }
        guard case .failure(let error)? = titles.first else {
            Issue.record("accepted: \(titles)")
            return
        }
        #expect(error.line == 1 && "\(error)".contains("outside the root"), "\(error)")
    }

    @Test func pathsOutsideTheRootAreRefusedAndNothingOfThemIsRead() throws {
        let (folder, path) = try BatchCommandTests().catalogue(1)
        let outside = try Scratch.make().path
        try FileManager.default.copyItem(atPath: folder + "/t0", toPath: outside + "/t9")
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: outside + "/t9")
        let lines = [
            #"{"id": "dotdot", "master": "../\#(URL(fileURLWithPath: outside).lastPathComponent)/t9/master.m3u8", "tracks": [{"url": "t0/subs/en.srt", "language": "en"}]}"#,
            #"{"id": "absolute", "master": "\#(outside)/t9/master.m3u8", "tracks": [{"url": "t0/subs/en.srt", "language": "en"}]}"#,
            #"{"id": "link", "master": "linked/master.m3u8", "tracks": [{"url": "t0/subs/en.srt", "language": "en"}]}"#,
            #"{"id": "track", "master": "t0/master.m3u8", "tracks": [{"url": "\#(outside)/t9/subs/en.srt", "language": "en"}]}"#,
            #"{"id": "url", "master": "t0/master.m3u8", "tracks": [{"url": "https://example.com/en.srt", "language": "en"}]}"#,
            #"{"id": "output", "master": "t0/master.m3u8", "tracks": [{"url": "t0/subs/en.srt", "language": "en"}], "output": "../elsewhere.m3u8"}"#,
        ]
        let hostile = folder + "/hostile.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: hostile, atomically: true, encoding: .utf8)
        let before = try FolderSnapshot(outside)
        let run = try BuiltTool.run(["batch", hostile, "--root", folder])
        #expect(run.status == 1)
        let results = try BatchCommandTests().results(run)
        #expect(results.count == lines.count)
        for result in results {
            let message = (result["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(result["status"] as? String == "failed", "\(result)")
            #expect(message.contains("outside the root") || message.contains("is a URL"), "\(result["id"] ?? "?"): \(message)")
        }
        #expect(try FolderSnapshot(outside) == before, "a file outside the root changed")
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: folder).deletingLastPathComponent().path + "/elsewhere.m3u8"))
        // The same catalogue's good line packages inside the root, and without --root the
        // outside title is reachable (the option is what refuses it).
        #expect(try BuiltTool.run(["batch", path, "--root", folder]).status == 0)
        let unconfined = BatchCommandTests().status(try BatchCommandTests().results(try BuiltTool.run(["batch", hostile])))
        #expect(unconfined["absolute"] == "ok", "\(unconfined)")
    }
}

/// `--root` confines what a title reads and writes while it runs, not only the paths its line
/// names when the catalogue is read.
struct BatchRootWhileRunningTests {
    /// The root, with the example title at `t0` and a catalogue naming it; a copy of the title
    /// outside the root.
    static func setUp() throws -> (root: String, titles: [Result<CatalogueTitle, CatalogueLineError>], outside: String) {
        let root = try Scratch.make().path
        try FileManager.default.copyItem(atPath: Fixtures.repository.appendingPathComponent("Examples/basic").path, toPath: root + "/t0")
        let outside = try Scratch.make().path + "/t9"
        try FileManager.default.copyItem(atPath: root + "/t0", toPath: outside)
        let line = #"{"id": "t0", "master": "t0/master.m3u8", "tracks": [{"url": "t0/subs/en.srt", "language": "en"}]}"#
        let titles = Catalogue.titles(line + "\n", path: root + "/catalogue.jsonl", root: URL(fileURLWithPath: root))
        return (root, titles, outside)
    }

    static func run(_ titles: [Result<CatalogueTitle, CatalogueLineError>], root: String) async -> TitleResult? {
        var loader = ResourceLoader()
        loader.root = URL(fileURLWithPath: root)
        return await BatchRunner(loader: loader).run(titles).first
    }

    /// The title folder is replaced by a link to a folder outside the root after the catalogue
    /// was checked (it was written through).
    @Test func aTitleFolderSwappedForALinkIsNeitherReadNorWritten() async throws {
        let (root, titles, outside) = try Self.setUp()
        let before = try FolderSnapshot(outside)
        #expect(rename(root + "/t0", root + "/t0-moved") == 0)
        #expect(symlink(outside, root + "/t0") == 0)
        let result = await Self.run(titles, root: root)
        #expect(result?.status == .failed, "\(String(describing: result))")
        #expect(result?.error?.message.contains("outside the root") == true, "\(String(describing: result?.error))")
        #expect(try FolderSnapshot(outside) == before, "a file outside the root changed")
    }

    /// A master inside the root that names a variant outside it, or on a URL.
    @Test(arguments: ["../OUTSIDE/video/high/prog.m3u8", "http://127.0.0.1:9/prog.m3u8"])
    func aVariantOutsideTheRootIsNotRead(_ uri: String) async throws {
        let (root, titles, outside) = try Self.setUp()
        let master = root + "/t0/master.m3u8"
        let relative = uri.replacingOccurrences(
            of: "OUTSIDE", with: "../" + URL(fileURLWithPath: outside).deletingLastPathComponent().lastPathComponent + "/t9")
        let text = try String(contentsOfFile: master, encoding: .utf8).replacingOccurrences(of: "video/high/prog.m3u8", with: relative)
        try text.write(toFile: master, atomically: true, encoding: .utf8)
        let result = await Self.run(titles, root: root)
        #expect(result?.status == .failed, "\(String(describing: result))")
        let message = result?.error?.message ?? ""
        #expect(message.contains("outside the root") || message.contains("is a URL"), "\(message)")
        #expect(try String(contentsOfFile: master, encoding: .utf8) == text, "the master was rewritten")
    }
}
