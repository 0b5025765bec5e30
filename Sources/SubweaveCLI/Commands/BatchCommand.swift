import Foundation
import Subweave

/// `subweave batch`: a catalogue's titles, a JSON result per title on stdout as each ends.
enum BatchCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let path = context.arguments.positionals[0]
        let text: String
        do {
            text = String(decoding: try ResourceLoader.readFile(path, limit: ReadLimits().playlist, kind: .playlist), as: UTF8.self)
        } catch {
            throw SubweaveError.unreadable(path: path, what: "the catalogue", error)
        }
        var root: URL?
        if let folder = context.arguments.value(Option.root) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw CommandError(message: "--root \(folder): not a folder")
            }
            root = URL(fileURLWithPath: folder)
        }
        let titles = Catalogue.titles(text, path: path, root: root)
        var loader = Commands.loader(context)
        // Every read and write of every title, not only the paths the catalogue names.
        loader.root = root
        var runner = BatchRunner(
            jobs: context.arguments.value(Option.jobs).flatMap(Int.init) ?? 1,
            shard: context.arguments.value(Option.shard).flatMap(Shard.init(parsing:)) ?? .all, loader: loader)
        if let timeout = context.arguments.value(Option.lockTimeout).flatMap(Double.init) { runner.lockTimeout = timeout }
        let total = titles.indices.filter { runner.shard.takes($0) }.count
        let progress = ProgressLine(context)
        let counter = Counter()
        let verbose = context.verbose
        let results = await runner.run(titles) { result in
            try? Output.json(result, schema: "subweave.batch-result/1", pretty: false)
            if verbose {
                for warning in result.warnings { context.note("\(result.id): warning [\(warning.code.rawValue)]: \(Vocabulary.render(warning.message))") }
            }
            let done = counter.increment()
            progress.count(done, of: total, "titles")
        }
        progress.done()
        let failed = results.filter { $0.status == .failed }.count
        let skipped = results.filter { $0.status == .skipped }.count
        let warned = results.filter { !$0.warnings.isEmpty }.count
        context.note(
            "\(results.count.counted("title")) (shard \(runner.shard)): \(results.count - failed - skipped) packaged, \(skipped) skipped, \(failed) failed"
                + (warned == 0 ? "" : "; \(warned.counted("title")) with warnings (in each result line; --verbose prints them)"))
        return failed == 0 ? 0 : 1
    }
}

/// A count shared by the result callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
