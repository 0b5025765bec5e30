import Timebase

/// A command line split into options and positionals, by a declared set of options.
///
/// `--opt value` and `--opt=value` both work; `--` ends options; `-` alone is a positional
/// (standard input). An unknown option is a usage error that suggests the closest known one.
struct ParsedArguments: Equatable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
}

/// An option a command accepts.
struct OptionSpec: Equatable {
    let name: String
    let takesValue: Bool
    var aliases: [String] = []
}

/// A usage error: printed with the command's usage line, exit status 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    let command: String?
    var description: String { message }
}

enum ArgumentParser {
    static func parse(_ arguments: [String], options: [OptionSpec], command: String) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func spec(_ name: String) -> OptionSpec? {
            options.first { $0.name == name || $0.aliases.contains(name) }
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec(name) else {
                let known = options.flatMap { [$0.name] + $0.aliases }.filter { $0.hasPrefix("--") }
                let hint = EditDistance.suggestion(for: name, among: known).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(message: "unknown option \(name)\(hint)", command: command)
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "\(name) needs a value", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                result.values[option.name, default: []].append(value)
            } else {
                if let inlineValue {
                    throw UsageError(message: "\(name) takes no value (found \"\(inlineValue)\")", command: command)
                }
                result.flags.insert(option.name)
            }
        }
        return result
    }
}
