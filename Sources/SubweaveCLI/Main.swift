import Foundation
import Subweave
import Synchronization

/// The `subweave` command: a thin shell over the library.
///
/// Results go to stdout; diagnostics and
/// progress to stderr. Exit status: 0 success, 1 a runtime error (bad input, unreadable file),
/// 64 a usage error.
@main
struct SubweaveMain {
    static func main() async {
        // A file-size limit (or a full quota) makes write(2) fail with EFBIG, handled like ENOSPC,
        // instead of killing the process mid-run.
        signal(SIGXFSZ, SIG_IGN)
        // A reader that goes away (`| head`) makes write(2) fail with EPIPE, said and exit 1,
        // instead of killing the process by a signal.
        signal(SIGPIPE, SIG_IGN)
        exit(Output.exitStatus(await run(Array(CommandLine.arguments.dropFirst()))))
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            Output.error("Error: \(error.message)")
            if let name = error.command, let spec = CommandTable.named(name) { Output.error("Usage: \(HelpText.usage(spec))") }
            Output.error("See 'subweave \(error.command.map { "\($0) " } ?? "")--help'.")
            return 64
        }
        switch invocation {
        case .help(let topic):
            Output.out(topic.flatMap(CommandTable.named).map(HelpText.help) ?? HelpText.general)
            return 0
        case .version:
            Output.out(CommandTable.version)
            return 0
        case .manual:
            Output.raw(HelpText.manual)
            return 0
        case .run(let name, let arguments):
            let context = Context(arguments: arguments)
            do {
                return try await Commands.run(name, context)
            } catch let error as SubweaveError {
                context.fail(Vocabulary.render(error.message), code: error.code)
                return 1
            } catch let error as CommandError {
                context.fail(error.message, code: "command")
                return 1
            } catch let error as UsageError {
                // A value only the command can judge (a rate, an offset): a usage error all the same.
                Output.error("Error: \(error.message)")
                if let spec = CommandTable.named(name) { Output.error("Usage: \(HelpText.usage(spec))") }
                Output.error("See 'subweave \(name) --help'.")
                return 64
            } catch {
                context.fail("\(error)", code: "unexpected")
                return 1
            }
        }
    }
}

/// A runtime error raised by a command itself (not the library).
struct CommandError: Error {
    let message: String
}

/// What a command runs with: its arguments and how loud to be.
struct Context {
    let arguments: ParsedArguments
    var json: Bool { arguments.flag(Option.json) }
    var quiet: Bool { arguments.flag(Option.quiet) }
    var verbose: Bool { arguments.flag(Option.verbose) }

    /// A diagnostic line for stderr, unless `--quiet`.
    func note(_ text: String) {
        if !quiet { Output.error(text) }
    }

    /// The failure: `Error: …` on stderr, and with `--json` an error object on stdout.
    func fail(_ message: String, code: String) {
        Output.error("Error: \(message)")
        if json { try? Output.json(ErrorJSON(error: ErrorJSON.Body(code: code, message: message)), schema: "subweave.error/1") }
    }

    struct ErrorJSON: Encodable {
        struct Body: Encodable { let code: String; let message: String }
        let error: Body
    }
}

/// stdout and stderr, with terminal escapes in diagnostics made harmless.
///
/// Written with `write(2)`, never a call that traps: a full disk, a closed pipe or
/// `/dev/full` behind stdout is remembered (the first errno), said once on stderr, and the run
/// finishes what it can without its output and exits 1 (``exitStatus(_:)``).
enum Output {
    /// The errno of the first failed write to stdout; 0 while every write succeeded.
    private static let stdoutFailure = Atomic<Int32>(0)

    /// A human-readable line on stdout (a finding, a listing), made harmless to a terminal.
    static func out(_ text: String) {
        let safe = LabelText.visible(text)
        raw(safe.hasSuffix("\n") ? safe : safe + "\n")
    }

    static func raw(_ text: String) {
        var text = text
        text.withUTF8 { toStandardOutput($0) }
    }

    /// UTF-8 bytes on stdout, as they are.
    static func raw(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { toStandardOutput($0) }
    }

    /// A line on stderr, made harmless to a terminal (``LabelText/visible(_:)``).
    static func error(_ text: String) {
        let safe = LabelText.visible(text)
        toStandardError(safe.hasSuffix("\n") ? safe : safe + "\n")
    }

    /// `text` on stderr as it is (a progress line's escapes); a failure is ignored: there is
    /// nowhere left to say it.
    static func toStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = writeAll(STDERR_FILENO, $0) }
    }

    /// The status a run ends with: `status`, or 1 when stdout could not be written.
    static func exitStatus(_ status: Int32) -> Int32 {
        status == 0 && stdoutFailure.load(ordering: .relaxed) != 0 ? 1 : status
    }

    private static func toStandardOutput(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard stdoutFailure.load(ordering: .relaxed) == 0 else { return }
        if let code = writeAll(STDOUT_FILENO, bytes),
            stdoutFailure.compareExchange(expected: 0, desired: code, ordering: .relaxed).exchanged
        {
            toStandardError(
                "Error: cannot write to standard output (errno \(code): \(String(cString: strerror(code)))); the run goes on without it and exits 1\n")
        }
    }

    /// Writes all of `bytes` to `fd`; the errno when a write fails.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard var next = bytes.baseAddress else { return nil }
        var left = bytes.count
        while left > 0 {
            let n = Foundation.write(fd, next, left)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            next += n
            left -= n
        }
        return nil
    }

    /// `value` as pretty JSON with a `"schema"` field naming its shape and version.
    ///
    /// With `pretty` false, one line (JSON Lines: a stream of results).
    ///
    /// The text is written as encoded (no setting renamed, no character replaced), with the
    /// characters a terminal would act on escaped the JSON way (``PrettyJSON/escapingInvisible(_:)``).
    static func json<T: Encodable>(_ value: T, schema: String, pretty: Bool = true) throws {
        raw(PrettyJSON.escapingInvisible(try jsonData(value, schema: schema, pretty: pretty)) + [0x0A])
    }

    /// JSON bytes made elsewhere (``PrettyJSON``, ``jsonData(_:schema:pretty:)``), on stdout as
    /// ``json(_:schema:pretty:)`` writes them.
    static func jsonBytes(_ bytes: some Collection<UInt8>) {
        raw(PrettyJSON.escapingInvisible(bytes))
    }

    /// What ``json(_:schema:pretty:)`` writes, without the final line break.
    static func jsonData<T: Encodable>(_ value: T, schema: String, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        // Messages name settings as the command line spells them.
        encoder.userInfo[MessageText.spellingKey] = Vocabulary.spelling
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        // Insert the schema as the first key: every JSON output says what it is.
        if data.first == UInt8(ascii: "{") {
            let rest = data.dropFirst()
            let isEmpty = rest.drop { $0 == 0x20 || $0 == 0x0A }.first == UInt8(ascii: "}")
            let head = pretty ? "{\n  \"schema\" : \"\(schema)\"" : "{\"schema\":\"\(schema)\""
            data = Data((head + (isEmpty ? "" : ",")).utf8) + rest
        }
        return data
    }
}
