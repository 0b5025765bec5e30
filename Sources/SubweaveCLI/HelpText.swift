import Foundation

/// Usage lines, help, the manual page, the README's usage block and shell completions, all made
/// from ``CommandTable``, so they cannot disagree.
enum HelpText {
    /// The usage line: `subweave package <master.m3u8> [--subtitle DESCRIPTOR ...] …`; when
    /// every option would make it longer than 100 characters, the main ones and `[<options>]`
    /// (never longer than 120).
    static func usage(_ spec: CommandSpec) -> String {
        let head = ["subweave", spec.name] + spec.positionals.map { "<\($0.name)>" + ($0.many ? " ..." : "") }
        func shown(_ option: OptionSpec) -> String {
            var text = option.name
            if let allowed = option.allowed { text += " " + allowed.joined(separator: "|") } else if let value = option.value { text += " " + value }
            if option.repeatable { text += " ..." }
            return "[\(text)]"
        }
        let full = (head + spec.options.map(shown)).joined(separator: " ")
        guard full.count > 100, spec.options.contains(where: { $0.group != nil }) else { return full }
        return (head + spec.options.filter { $0.group == nil }.map(shown) + ["[<options>]"]).joined(separator: " ")
    }

    /// The options under their headings: the main ones first (`OPTIONS`), then each group in
    /// the order it first appears.
    static func groups(_ spec: CommandSpec) -> [(heading: String, options: [OptionSpec])] {
        var order: [String] = []
        for option in spec.options where !order.contains(option.group ?? "OPTIONS") { order.append(option.group ?? "OPTIONS") }
        return order.map { heading in (heading, spec.options.filter { ($0.group ?? "OPTIONS") == heading }) }
    }

    /// `subweave --help`.
    static var general: String {
        var lines = ["subweave: side-load subtitles and captions into HLS as segmented WebVTT renditions.", "", "USAGE:"]
        lines += CommandTable.all.map { "  " + usage($0) }
        lines += ["  subweave --help | --version | --manual", "", "COMMANDS:"]
        let width = (CommandTable.all.map(\.name.count).max() ?? 0) + 2
        lines += CommandTable.all.map { "  " + pad($0.name, width) + $0.summary }
        lines += [
            "", "Run `subweave help <command>` or `subweave <command> --help` for details.",
            "Exit status: 0 success, 1 bad input or a file that cannot be read or written, 64 a usage error.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `subweave <command> --help`.
    static func help(_ spec: CommandSpec) -> String {
        var lines = ["USAGE: " + usage(spec), "", spec.summary.prefix(1).uppercased() + spec.summary.dropFirst() + ".", "", spec.discussion]
        if !spec.positionals.isEmpty {
            lines += ["", "ARGUMENTS:"] + spec.positionals.map { "  " + pad("<\($0.name)>", 28) + $0.help }
        }
        for (heading, options) in groups(spec) {
            lines +=
                ["", heading + ":"]
                + options.map { option in
                    let names = ([option.name] + option.aliases).joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
                    let values = option.allowed.map { " (\($0.joined(separator: ", ")))" } ?? ""
                    return "  " + pad(names, 28) + option.help + values
                }
        }
        if !spec.examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            for example in spec.examples { lines += ["  " + example.command, "      " + example.does] }
        }
        return lines.joined(separator: "\n")
    }

    /// The block the README's Usage section shows, checked by a test.
    static var readmeBlock: String {
        (["```"] + CommandTable.all.map(usage) + ["```"]).joined(separator: "\n")
    }

    /// A manual page (man(7) roff) with every command, argument and option.
    static var manual: String {
        var out = [".TH SUBWEAVE 1", ".SH NAME", "subweave \\- side-load subtitles and captions into HLS", ".SH SYNOPSIS"]
        out += CommandTable.all.map { ".B " + roff(usage($0)) + "\n.br" }
        out += [
            ".SH DESCRIPTION",
            "Subweave writes subtitle tracks and CEA-608 captions as segmented WebVTT renditions of an HLS presentation, on the video's own timeline.",
        ]
        for spec in CommandTable.all {
            out += [".SH " + spec.name.uppercased(), roff(spec.summary) + ".", ".PP", roff(spec.discussion)]
            for positional in spec.positionals { out += [".TP", ".I \(roff(positional.name))", roff(positional.help)] }
            for (heading, options) in groups(spec) {
                if heading != "OPTIONS" { out += [".SS " + roff(heading)] }
                for option in options {
                    out += [
                        ".TP", ".B " + roff(([option.name] + option.aliases).joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")),
                        roff(option.help + (option.allowed.map { " (" + $0.joined(separator: ", ") + ")" } ?? "")),
                    ]
                }
            }
            if !spec.examples.isEmpty {
                out += [".SS EXAMPLES"]
                for example in spec.examples { out += [".PP", roff(example.does) + ":", ".EX", roff(example.command), ".EE"] }
            }
        }
        out += [".SH EXIT STATUS", "0 success, 1 bad input or a file that cannot be read or written, 64 a usage error."]
        return out.joined(separator: "\n") + "\n"
    }

    /// A completion script for `shell` (bash or zsh).
    static func completions(_ shell: String) -> String {
        let commands = CommandTable.all.map(\.name).joined(separator: " ")
        if shell == "zsh" {
            var lines = [
                "#compdef subweave", "_subweave() {", "  local -a commands",
                "  commands=(" + CommandTable.all.map { "'\($0.name):\(zsh($0.summary))'" }.joined(separator: " ") + ")",
                "  if (( CURRENT == 2 )); then _describe 'command' commands; return; fi", "  case $words[2] in",
            ]
            for spec in CommandTable.all {
                let options = spec.options.map { option -> String in
                    let values =
                        option.allowed.map { ":\(option.value ?? "value"):(" + $0.joined(separator: " ") + ")" }
                        ?? (option.takesValue ? ":\(option.value ?? "value"):_files" : "")
                    return "'\(option.name)[\(zsh(option.help))]\(values)'"
                }
                lines.append("    \(spec.name)) _arguments \(options.joined(separator: " ")) '*:file:_files' ;;")
            }
            lines += ["  esac", "}", "_subweave \"$@\""]
            return lines.joined(separator: "\n") + "\n"
        }
        var lines = [
            "# bash completion for subweave: source <(subweave completions bash)", "_subweave() {",
            "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "  if [ \"$COMP_CWORD\" -eq 1 ]; then COMPREPLY=($(compgen -W \"\(commands) --help --version\" -- \"$cur\")); return; fi",
            "  case \"${COMP_WORDS[1]}\" in",
        ]
        for spec in CommandTable.all {
            let valueCases = spec.options.compactMap { option -> String? in
                guard let allowed = option.allowed else { return nil }
                return "\(option.name)) COMPREPLY=($(compgen -W \"\(allowed.joined(separator: " "))\" -- \"$cur\")); return;;"
            }
            lines.append("    \(spec.name))")
            if !valueCases.isEmpty { lines.append("      case \"$prev\" in " + valueCases.joined(separator: " ") + " esac") }
            lines.append("      COMPREPLY=($(compgen -W \"\(spec.options.map(\.name).joined(separator: " "))\" -f -- \"$cur\"));;")
        }
        lines += ["  esac", "}", "complete -o default -F _subweave subweave"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func roff(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "\\&" + $0 : String($0) }.joined(separator: "\n")
    }

    private static func zsh(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "[", with: "(").replacingOccurrences(of: "]", with: ")")
            .replacingOccurrences(of: ":", with: " -")
    }
}
