import Foundation
import TestSupport
import Testing

/// A catalogue packaged on a real Slurm cluster (one node, `Scripts/slurm-local.sh start`) through
/// `Examples/batch/slurm/subweave-array.sbatch`: 24 titles as an 8-task array, one task cancelled
/// mid-run and requeued, then the same catalogue submitted again.
///
/// The cancelled task is held mid-run whatever the machine's load: the test holds the lock of
/// its second title's folder (as another run on that title would), so the task has packaged its
/// first title and is waiting, inside `subweave batch`, when it is cancelled.
@Suite(.enabled(if: SlurmCluster.ready, "no Slurm cluster answers: run Scripts/slurm-local.sh start (apt-get install -y slurm-wlm munge)"))
struct SlurmBatchTests {
    static let titles = 24
    static let tasks = 8
    /// The task cancelled mid-run (titles 3, 11 and 19; it is held at title 11).
    static let killed = 3

    @Test(.timeLimit(.minutes(5))) func aCatalogueRunsAsAnArrayJob() async throws {
        let binary = try #require(BuiltTool.subweave)
        let root = try Scratch.make().path
        let catalogue = try Self.makeCatalogue(in: root)
        let logs = root + "/logs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)

        // First submission: task 3 packages title 3, waits for title 11's lock, is cancelled
        // there, and is requeued once the lock is free.
        let held = open(root + "/titles/title-\(Self.killed + Self.tasks)", O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let job = try SlurmCluster.submit(catalogue: catalogue, binary: binary, logs: logs, wait: false)
        let task = "\(job)_\(Self.killed)"
        try await SlurmCluster.waitFor(task, state: "RUNNING", timeout: 120)
        try await Self.waitForResult("title-\(Self.killed)", in: logs + "/task-\(Self.killed).out", timeout: 120)
        try SlurmCluster.control("scancel", [task])
        let cancelled = try await SlurmCluster.waitFor(task, states: ["CANCELLED", "COMPLETED", "FAILED"], timeout: 60)
        #expect(cancelled == "CANCELLED", "task \(Self.killed) ended \(cancelled) while it waited for a lock")
        close(held)
        try SlurmCluster.control("scontrol", ["requeue", task])
        // A requeued job waits two minutes (cred_expire) before it is eligible again; it starts in
        // two seconds instead. Not at once: slurmd refuses a credential made in the second (or
        // before) its cancel revoked the job's, and the task would fail "Job credential revoked"
        // (seen once in CI, when the requeue and the cancel fell in the same second).
        try SlurmCluster.control("scontrol", ["update", "jobid=\(task)", "StartTime=now+2"])
        try await SlurmCluster.waitUntilGone(job, timeout: 240)
        let states = try SlurmCluster.taskStates(job)
        #expect(states.count == Self.tasks, "\(states)")
        for (index, state) in states.sorted(by: { $0.key < $1.key }) {
            // The task's own output (its results and its errors) says why, when it did not complete.
            let output = (try? String(contentsOfFile: logs + "/task-\(index).out", encoding: .utf8)) ?? "(no output file)"
            #expect(state.state == "COMPLETED" && state.exitCode == "0:0", "task \(index): \(state)\n\(output)")
        }
        #expect(states[Self.killed]?.restarts == 1, "task \(Self.killed) was not run again: \(String(describing: states[Self.killed]))")

        let results = try Self.results(logs)
        for title in 0..<Self.titles {
            let id = "title-\(title)"
            let statuses = results.filter { $0.id == id }.map(\.status)
            #expect(statuses.filter { $0 == "failed" }.isEmpty, "\(id): \(statuses)")
            #expect(statuses.filter { $0 == "ok" }.count <= 1, "\(id) packaged twice: \(statuses)")
            // The cancelled task packaged its first title before the cancel; its rerun skips it.
            let expected = title == Self.killed ? ["ok", "skipped"] : ["ok"]
            #expect(statuses == expected, "\(id): \(statuses)")
            try Self.expectPackagedOnce(root + "/titles/\(id)")
        }

        // Second submission: every title is skipped.
        let again = root + "/logs-again"
        try FileManager.default.createDirectory(atPath: again, withIntermediateDirectories: true)
        let second = try SlurmCluster.submit(catalogue: catalogue, binary: binary, logs: again, wait: true)
        #expect(second >= 0)
        let repeated = try Self.results(again)
        #expect(repeated.count == Self.titles, "\(repeated)")
        #expect(repeated.allSatisfy { $0.status == "skipped" }, "\(repeated.filter { $0.status != "skipped" })")
    }

    /// 24 titles, each a copy of one real 2 s segment repeated 360 times (12 minutes), with two
    /// SubRip languages.
    static func makeCatalogue(in root: String) throws -> String {
        let segment = Fixtures.repository.appendingPathComponent("Examples/basic/video/high/seg_000.ts").path
        var lines: [String] = []
        for title in 0..<titles {
            let folder = root + "/titles/title-\(title)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let segments = 360
            var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            for index in 0..<segments {
                let name = "seg_\(index).ts"
                if index == 0 {
                    try FileManager.default.copyItem(atPath: segment, toPath: folder + "/" + name)
                } else {
                    try FileManager.default.linkItem(atPath: folder + "/seg_0.ts", toPath: folder + "/" + name)
                }
                playlist += "#EXTINF:2.000000,\n\(name)\n"
            }
            playlist += "#EXT-X-ENDLIST\n"
            try playlist.write(toFile: folder + "/prog.m3u8", atomically: true, encoding: .utf8)
            try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000\nprog.m3u8\n".write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
            for language in ["en", "fr"] {
                let cues = (0..<(segments * 2)).map { (Double($0) + 0.1, Double($0) + 0.9, "\(language) line \($0)") }
                try SubtitleText.srt(cues).write(toFile: folder + "/\(language).srt", atomically: true, encoding: .utf8)
            }
            lines.append(
                #"{"id": "title-\#(title)", "master": "titles/title-\#(title)/master.m3u8", "captions": "off", "closed_captions": "none", "#
                    + #""tracks": [{"url": "titles/title-\#(title)/en.srt", "language": "en"}, {"url": "titles/title-\#(title)/fr.srt", "language": "fr"}]}"#)
        }
        let path = root + "/catalogue.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Polls a task's output until it holds the result line of title `id`.
    static func waitForResult(_ id: String, in file: String, timeout: TimeInterval) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), text.contains("\"id\":\"\(id)\"") { return }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw SlurmFailure(command: "waiting for \(id)'s result in \(file)", output: (try? String(contentsOfFile: file, encoding: .utf8)) ?? "no output")
    }

    struct Result: Decodable {
        let id: String
        let status: String
    }

    /// Every result line the tasks printed (their outputs are appended to, across a requeue).
    static func results(_ logs: String) throws -> [Result] {
        var results: [Result] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: logs) {
            let text = try String(contentsOfFile: logs + "/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("{") {
                results.append(try JSONDecoder().decode(Result.self, from: Data(line.utf8)))
            }
        }
        return results
    }

    /// The title's master names each language once, each rendition has one generation, and
    /// nothing half-written is left in the folder.
    static func expectPackagedOnce(_ folder: String) throws {
        let master = try String(contentsOfFile: folder + "/master.m3u8", encoding: .utf8)
        for language in ["en", "fr"] {
            #expect(master.components(separatedBy: "LANGUAGE=\"\(language)\"").count == 2, "\(folder): \(master)")
            let rendition = folder + "/subtitles/\(language)-\(language)"
            let generations = try FileManager.default.contentsOfDirectory(atPath: rendition).filter { !$0.hasPrefix(".") }
            #expect(generations.count == 1, "\(rendition): \(generations)")
        }
        let leftovers = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter {
            $0.split(separator: "/").contains { $0.hasPrefix(".subweave-") && !$0.hasPrefix(".subweave-batch") }
        }
        #expect(leftovers.isEmpty, "\(folder): \(leftovers)")
    }
}

/// CI sets `SUBWEAVE_REQUIRE_SLURM`: there the scheduler test must run, never skip.
struct SlurmRequirementTests {
    @Test func theClusterAnswersWhereItIsRequired() {
        let required = ProcessInfo.processInfo.environment["SUBWEAVE_REQUIRE_SLURM"] != nil
        #expect(!required || SlurmCluster.ready, "SUBWEAVE_REQUIRE_SLURM is set but no Slurm cluster answers `scontrol ping`; see Scripts/slurm-local.sh")
    }
}

/// The local Slurm cluster `Scripts/slurm-local.sh` starts.
enum SlurmCluster {
    static let configuration: String? = {
        if let conf = ProcessInfo.processInfo.environment["SLURM_CONF"], FileManager.default.fileExists(atPath: conf) { return conf }
        let conf = (ProcessInfo.processInfo.environment["SUBWEAVE_SLURM_DIR"] ?? "/tmp/subweave-slurm") + "/slurm.conf"
        return FileManager.default.fileExists(atPath: conf) ? conf : nil
    }()

    static let ready: Bool = {
        guard configuration != nil, Tools.which("sbatch") != nil, let ping = try? run("scontrol", ["ping"], timeout: 20) else { return false }
        return ping.status == 0 && ping.stdout.contains("UP")
    }()

    static func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> Tools.Outcome {
        guard let path = Tools.which(tool) else { throw MissingTool(name: tool) }
        var environment = ProcessInfo.processInfo.environment
        environment["SLURM_CONF"] = configuration
        return try Tools.run(path, arguments, environment: environment, timeout: timeout)
    }

    static func control(_ tool: String, _ arguments: [String]) throws {
        let outcome = try run(tool, arguments)
        guard outcome.status == 0 else { throw SlurmFailure(command: ([tool] + arguments).joined(separator: " "), output: outcome.stderr) }
    }

    /// Submits the example's array script over the catalogue; the job's ID, or with `wait` the
    /// exit status `sbatch --wait` gives (0 when every task exited 0).
    static func submit(catalogue: String, binary: String, logs: String, wait: Bool) throws -> Int {
        let script = Fixtures.repository.appendingPathComponent("Examples/batch/slurm/subweave-array.sbatch").path
        let arguments =
            ["--parsable", "--array=0-\(SlurmBatchTests.tasks - 1)", "--output=\(logs)/task-%a.out", "--chdir=\(logs)"]
            + ["--export=ALL,CATALOGUE=\(catalogue),SUBWEAVE=\(binary)"] + (wait ? ["--wait"] : []) + [script]
        let outcome = try run("sbatch", arguments, timeout: 240)
        if wait { return Int(outcome.status) == 0 ? 0 : -Int(outcome.status) }
        guard outcome.status == 0, let id = Int(outcome.stdout.split(separator: ";").first?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") else {
            throw SlurmFailure(command: "sbatch", output: outcome.stdout + outcome.stderr)
        }
        return id
    }

    /// The task's state (`scontrol show job`), polled until it is one of `states`.
    @discardableResult
    static func waitFor(_ task: String, states: Set<String>, timeout: TimeInterval) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var state = ""
        while Date() < deadline {
            let shown = try run("scontrol", ["show", "job", task]).stdout
            state = field("JobState", in: shown) ?? ""
            if states.contains(state) { return state }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw SlurmFailure(command: "waiting for \(task) to be \(states.sorted())", output: "still \(state)")
    }

    static func waitFor(_ task: String, state: String, timeout: TimeInterval) async throws {
        try await waitFor(task, states: [state], timeout: timeout)
    }

    /// Polls until no task of `job` is pending or running.
    static func waitUntilGone(_ job: Int, timeout: TimeInterval) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try run("squeue", ["-h", "-j", "\(job)"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        throw SlurmFailure(command: "waiting for job \(job) to end", output: try run("squeue", ["-j", "\(job)"]).stdout)
    }

    struct TaskState: CustomStringConvertible {
        let state: String
        let exitCode: String
        let restarts: Int
        var description: String { "\(state), exit \(exitCode), \(restarts) restart(s)" }
    }

    /// Each array task's final state as slurmctld still holds it (no accounting database).
    static func taskStates(_ job: Int) throws -> [Int: TaskState] {
        let shown = try run("scontrol", ["show", "job", "\(job)"]).stdout
        var states: [Int: TaskState] = [:]
        for record in shown.components(separatedBy: "\n\n") {
            guard let task = field("ArrayTaskId", in: record).flatMap(Int.init), let state = field("JobState", in: record) else { continue }
            states[task] = TaskState(
                state: state, exitCode: field("ExitCode", in: record) ?? "?", restarts: field("Restarts", in: record).flatMap(Int.init) ?? 0)
        }
        return states
    }

    /// `Name=value` in `scontrol show` output.
    static func field(_ name: String, in text: String) -> String? {
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) where token.hasPrefix(name + "=") {
            return String(token.dropFirst(name.count + 1))
        }
        return nil
    }
}

struct SlurmFailure: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command): \(output)" }
}
