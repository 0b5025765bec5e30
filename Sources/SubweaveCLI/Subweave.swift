import Foundation
import Subweave
import TimedText
import Timebase

/// The `subweave` command. Results go to stdout; diagnostics and progress to stderr.
/// Exit status: 0 success, 1 a runtime error (bad input, unreadable file), 64 a usage error.
@main
struct SubweaveMain {
    static func main() async {
        // A file-size limit (or a full quota) makes write(2) fail with EFBIG, handled like ENOSPC,
        // instead of killing the process mid-run.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(Swift.CommandLine.arguments.dropFirst())
        let status = await run(arguments)
        exit(status)
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let command: Command
        do {
            command = try Invocation.parse(arguments)
        } catch {
            Output.error("Error: \(error.message)")
            if let name = error.command { Output.error("Usage: \(Invocation.usage(name))") }
            Output.error("See 'subweave \(error.command.map { "\($0) " } ?? "")--help'.")
            return 64
        }
        do {
            switch command {
            case .help(let topic):
                Output.out(topic.flatMap { Invocation.help[$0] } ?? Invocation.generalHelp)
            case .version:
                Output.out(Invocation.version)
            case .package(let options):
                try await PackageCommand.run(options)
            case .cues(let options):
                try await CuesCommand.run(options)
            case .convert(let options):
                try await ConvertCommand.run(options)
            case .validate(let options):
                return try await ValidateCommand.run(options)
            case .inspect(let options):
                try InspectCommand.run(options)
            case .captions(let options):
                try await CaptionsCommand.run(options)
            }
            return 0
        } catch let error as SubweaveError {
            Output.error("Error: \(error.description)")
            return 1
        } catch let error as CommandError {
            Output.error("Error: \(error.message)")
            return 1
        } catch {
            Output.error("Error: \(error)")
            return 1
        }
    }
}

/// A runtime error raised by a command itself (not the library).
struct CommandError: Error {
    let message: String
}

enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        out(String(decoding: data, as: UTF8.self))
    }
}
