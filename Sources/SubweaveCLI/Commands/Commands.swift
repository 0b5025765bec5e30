import Foundation
import Subweave

/// Runs a parsed command: each reads its arguments, calls the library, and prints the result.
enum Commands {
    static func run(_ name: String, _ context: Context) async throws -> Int32 {
        guard let command = CommandTable.named(name) else { throw CommandError(message: "unknown command \(name)") }
        return try await command.run.call(context)
    }

    /// The presentation at `master`, read with the title's key when its intent names one (an
    /// AES-128 title packaged with its key reads the same for every command).
    static func presentation(_ master: URL, _ context: Context) async throws -> Presentation {
        let loader = loader(context)
        let key = try ContentKey.forRun(master: master, PackageRequest(tracks: []), loader: loader)
        return try await Presentation(master: master, loader: loader, key: key)
    }

    /// A resource loader with the `--limit` options applied.
    static func loader(_ context: Context) -> ResourceLoader {
        var limits = ReadLimits()
        for text in context.arguments.all(Option.limit) {
            if let (kind, size) = ReadLimitsOption.parse(text) { limits[kind] = size }
        }
        return ResourceLoader(limits: limits)
    }

    /// A file path or URL argument as a URL.
    static func url(_ text: String) -> URL {
        if text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text) { return url }
        return URL(fileURLWithPath: text)
    }
}

/// `--limit KIND=SIZE`.
enum ReadLimitsOption {
    static func parse(_ text: String) -> (ResourceKind, Int)? {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let kind = ResourceKind(rawValue: String(parts[0])), let size = ReadLimits.parseSize(String(parts[1])) else { return nil }
        return (kind, size)
    }
}

/// `subweave completions`.
enum CompletionsCommand {
    static func run(_ context: Context) async throws -> Int32 {
        Output.raw(HelpText.completions(context.arguments.positionals[0]))
        return 0
    }
}
