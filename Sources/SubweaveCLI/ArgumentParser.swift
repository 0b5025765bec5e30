import Foundation
import Subweave
import Timebase
import TimedText

/// A command line split into options and positionals, by a command's declared options.
struct ParsedArguments: Equatable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The last value given to `option` (an ``Option``: a name that is not one does not compile).
    func value(_ option: OptionSpec) -> String? { values[option.name]?.last }
    /// Every value given to a repeatable `option`, in order.
    func all(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }
    /// Whether the flag `option` was given.
    func flag(_ option: OptionSpec) -> Bool { flags.contains(option.name) }
}

/// A usage error: printed with the command's usage line, exit status 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    let command: String?
    var description: String { message }
}

/// What the command line asks for.
enum Invocation: Equatable {
    case help(String?)
    case version
    case manual
    case run(String, ParsedArguments)

    /// Parses the whole command line: a pure function of the arguments.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h", "help":
            guard let topic = rest.first else { return .help(nil) }
            guard CommandTable.named(topic) != nil else { throw UsageError(message: "no help for unknown command \"\(topic)\"", command: nil) }
            return .help(topic)
        case "--version": return .version
        case "--manual", "manual": return .manual
        default: break
        }
        guard let spec = CommandTable.named(first) else {
            let hint = EditDistance.suggestion(for: first, among: CommandTable.all.map(\.name)).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(message: "unknown command \"\(LabelText.excerpt(first))\"\(hint)", command: nil)
        }
        if rest.contains("--help") || rest.contains("-h") { return .help(first) }
        let parsed = try ArgumentParser.parse(rest, spec: spec)
        try CommandRules.check(spec.name, parsed)
        return .run(spec.name, parsed)
    }
}

/// Splits arguments by a command's declared options.
///
/// `--opt value` and `--opt=value` both work; `--` ends options; `-` alone is a positional
/// (standard input). An unknown option suggests the closest known one; a value that is itself a
/// known option (`--output --json`) is refused; a value outside a closed set is refused; every
/// error is a usage error (exit 64).
enum ArgumentParser {
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: spec.name) }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.option(name) else {
                let known = spec.options.map(\.name)
                let hint = EditDistance.suggestion(for: name, among: known).map { " (did you mean \($0)?)" } ?? ""
                throw fail("unknown option \(LabelText.excerpt(name))\(hint)")
            }
            guard option.takesValue else {
                if let inline { throw fail("\(name) takes no value (found \"\(LabelText.excerpt(inline))\")") }
                result.flags.insert(option.name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw fail("\(name) needs a value (\(option.value ?? "VALUE"))") }
                value = arguments[index]
                index += 1
                // `--output --json` is a forgotten value, not a file named "--json" (any command's
                // option, or anything shaped like one; `--output=--x` or `./--x` says it is meant).
                if value.hasPrefix("--") && value.count > 2 {
                    throw fail(
                        "\(name) needs a value (\(option.value ?? "VALUE")), found the option \(LabelText.excerpt(value)); write \(name)=\(LabelText.excerpt(value)) if that is the value"
                    )
                }
            }
            if let allowed = option.allowed, !allowed.contains(value) {
                throw fail("\(option.name) must be \(allowed.joined(separator: ", ")) (found \"\(LabelText.excerpt(value))\")")
            }
            if !option.repeatable, result.values[option.name] != nil { throw fail("\(option.name) is given twice") }
            result.values[option.name, default: []].append(value)
        }
        if spec.positionals.contains(where: \.many) {
            if result.positionals.isEmpty { throw fail("missing \(spec.positionals[0].name)") }
        } else if result.positionals.count != spec.positionals.count {
            let expected = spec.positionals.map(\.name).joined(separator: " ")
            throw fail(result.positionals.isEmpty ? "missing \(expected)" : "expected \(expected), found \(result.positionals.count) arguments")
        }
        return result
    }
}

/// Checks that go beyond one option: what a command needs as a whole, and values with a syntax.
enum CommandRules {
    static func check(_ command: String, _ parsed: ParsedArguments) throws(UsageError) {
        try checkValues(command, parsed)
        try checkCombinations(command, parsed)
    }

    /// Values with a syntax: limits, languages, encodings, rates, services, seconds, URLs, counts.
    static func checkValues(_ command: String, _ parsed: ParsedArguments) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: command) }
        for text in parsed.all(Option.limit) where ReadLimitsOption.parse(text) == nil {
            throw fail("--limit \(LabelText.excerpt(text)) is not KIND=SIZE with KIND playlist, subtitle or segment (for example subtitle=1GiB)")
        }
        if let text = parsed.value(Option.preferredLanguage), LanguageTag(parsing: text) == nil {
            throw fail("--preferred-language \(LabelText.excerpt(text)) is not a BCP 47 language tag (such as en, pt-BR)")
        }
        if let text = parsed.value(Option.segmentNames), let what = SegmentNameTemplate.problem(text) {
            throw fail("--segment-names \"\(LabelText.excerpt(text))\" cannot name segments: \(what)")
        }
        if let text = parsed.value(Option.renditionFolder), let what = RenditionFolderTemplate.problem(text) {
            throw fail("--rendition-folder \"\(LabelText.excerpt(text))\" cannot name rendition folders: \(what)")
        }
        if let text = parsed.value(Option.subtitleGroup), let what = GroupConflict.unusable(text) {
            throw fail("--subtitle-group \"\(LabelText.excerpt(text))\" cannot be a GROUP-ID: \(what)")
        }
        for text in parsed.all(Option.locale) where LanguageTag(parsing: text) == nil {
            throw fail("--locale \(LabelText.excerpt(text)) is not a BCP 47 language tag (such as en, pt-BR)")
        }
        if let label = parsed.value(Option.encoding), TextEncoding(label: label) == nil {
            throw fail("unknown encoding \"\(LabelText.excerpt(label))\"; use one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let label = parsed.value(Option.fps), TimecodeRate(label: label) == nil {
            throw fail("--fps \(LabelText.excerpt(label)) is not a timecode rate; use one of \(TimecodeRate.labels.joined(separator: ", "))")
        }
        if let name = parsed.value(Option.service), CaptionService(rawValue: name).map({ $0.isDeclarable }) != true {
            throw fail("--service \(LabelText.excerpt(name)) is not a caption service; write CC1 to CC4 or SERVICE1 to SERVICE63")
        }
        // Seconds are finite and sane: `inf` or 1e300 would overflow the timers built from them.
        for (option, maximum, what) in [
            (Option.lockTimeout, 86_400.0, "a day"), (Option.retireAfter, 10 * 365 * 86_400.0, "ten years"), (Option.poll, 3_600.0, "an hour"),
            (Option.idleTimeout, 7 * 86_400.0, "a week"),
        ] {
            if let text = parsed.value(option), Double(text).map({ $0.isFinite && $0 >= 0 && $0 <= maximum }) != true {
                throw fail("\(option.name) \(LabelText.excerpt(text)) is not a number of seconds from 0 to \(Int(maximum)) (\(what))")
            }
        }
        if let text = parsed.value(Option.language), LanguageTag(parsing: text) == nil {
            throw fail("--language \(LabelText.excerpt(text)) is not a BCP 47 language tag (such as en, pt-BR)")
        }
        if let text = parsed.value(Option.jobs), Int(text).map({ (1...256).contains($0) }) != true {
            throw fail("--jobs \(LabelText.excerpt(text)) is not a number of titles from 1 to 256")
        }
        if let text = parsed.value(Option.shard), Shard(parsing: text) == nil {
            throw fail("--shard \(LabelText.excerpt(text)) is not I/N with 0 ≤ I < N (such as 0/4)")
        }
    }

    /// What a command needs as a whole, and options that go (or cannot go) together.
    static func checkCombinations(_ command: String, _ parsed: ParsedArguments) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: command) }
        if command == "package", parsed.all(Option.subtitle).isEmpty, parsed.value(Option.tracks) == nil, parsed.value(Option.captions) == "off" {
            throw fail("nothing to package: give --subtitle <descriptor> or --tracks FILE (or leave --captions on auto)")
        }
        if command == "remove", parsed.value(Option.id)?.isEmpty ?? true, parsed.value(Option.language)?.isEmpty ?? true {
            throw fail("say what to remove: --id SOURCE_ID, --language TAG, or both (see `subweave list`)")
        }
        if let text = parsed.value(Option.baseUrl) {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw fail("--base-url \(LabelText.excerpt(text)) is not an absolute http(s) URL")
            }
            if parsed.value(Option.output) == nil { throw fail("--base-url needs --output (the master written elsewhere)") }
        }
        if command == "package", parsed.flag(Option.replace), parsed.flag(Option.noRefresh) {
            throw fail("--replace and --no-refresh cannot go together")
        }
        for option in [Option.poll, Option.idleTimeout] {
            if let text = parsed.value(option) {
                guard parsed.flag(Option.follow) else { throw fail("\(option.name) goes with --follow") }
                guard Double(text).map({ $0 > 0 && $0 < 86400 }) == true else {
                    throw fail("\(option.name) \(LabelText.excerpt(text)) is not a number of seconds")
                }
            }
        }
        if parsed.flag(Option.follow), parsed.flag(Option.dryRun) || parsed.flag(Option.replace) {
            throw fail("--follow cannot go with --dry-run or --replace")
        }
        if command == "completions", !["bash", "zsh"].contains(parsed.positionals.first ?? "") {
            throw fail("completions are for bash or zsh")
        }
    }
}
