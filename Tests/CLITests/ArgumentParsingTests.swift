import Foundation
import Subweave
import TestSupport
import Testing

@testable import SubweaveCLI

/// The argument parser is a pure function of the command table: tested without a process.
struct ArgumentParsingTests {
    func parsed(_ arguments: [String]) throws -> (String, ParsedArguments) {
        guard case .run(let name, let parsed) = try Invocation.parse(arguments) else { throw MissingTool(name: "a command") }
        return (name, parsed)
    }

    @Test func optionValuesWithSpaceOrEquals() throws {
        let (name, a) = try parsed(["package", "m.m3u8", "--subtitle", "url=a.srt", "--subtitle=url=b.vtt,language=fr", "--preferred-language=fr", "--json"])
        #expect(name == "package")
        #expect(a.positionals == ["m.m3u8"])
        #expect(a.all(Option.subtitle) == ["url=a.srt", "url=b.vtt,language=fr"])
        #expect(a.value(Option.preferredLanguage) == "fr")
        #expect(a.flag(Option.json) && !a.flag(Option.dryRun))
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(throws: UsageError(message: "unknown option --subtitles (did you mean --subtitle?)", command: "package")) {
            try Invocation.parse(["package", "m.m3u8", "--subtitles", "url=a.srt"])
        }
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect(throws: UsageError(message: "unknown command \"pakage\" (did you mean package?)", command: nil)) {
            try Invocation.parse(["pakage"])
        }
    }

    static let usageErrors: [SourceRow<[String]>] = [
        SourceRow(["package", "--subtitle", "url=a.srt"]),  // no master
        SourceRow(["package", "m.m3u8", "--captions", "off"]),  // nothing to package
        SourceRow(["package", "m.m3u8", "--subtitle"]),  // a value is missing
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--closed-captions", "maybe"]),
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--output", "--json"]),  // an option is not a value
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--preferred-language", "english please"]),
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--limit", "subtitles=1"]),
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--json=yes"]),  // a flag takes no value
        SourceRow(["cues", "a.srt", "--format", "xyz"]),
        SourceRow(["cues", "a.srt", "--encoding", "ebcdic"]),
        SourceRow(["inspect", "m.m3u8", "--locale", "!!"]),
        SourceRow(["convert", "a.srt", "--to", "ass"]),
        SourceRow(["completions", "fish"]),
        SourceRow(["convert", "a.srt", "--output", "--json"]),  // convert has no --json: still not a file name
        SourceRow(["remove", "m.m3u8"]),  // remove what?
        SourceRow(["remove", "m.m3u8", "--id", "en", "--language", "english please"]),
        SourceRow(["refresh", "m.m3u8", "--base-url", "https://cdn.example/"]),  // a base URL without --output
        SourceRow(["refresh", "m.m3u8", "--output", "o.m3u8", "--base-url", "cdn.example/x"]),  // not absolute
        SourceRow(["package", "m.m3u8", "--subtitle", "url=a.srt", "--replace", "--no-refresh"]),
    ]

    @Test func usageErrorsAreFoundBeforeAnythingRuns() {
        for row in Self.usageErrors {
            #expect(throws: UsageError.self, "line \(row.line)") { try Invocation.parse(row.value) }
        }
    }

    @Test func helpVersionAndManual() throws {
        #expect(try Invocation.parse([]) == .help(nil))
        #expect(try Invocation.parse(["--help"]) == .help(nil))
        #expect(try Invocation.parse(["package", "--help"]) == .help("package"))
        #expect(try Invocation.parse(["help", "cues"]) == .help("cues"))
        #expect(try Invocation.parse(["--version"]) == .version)
        #expect(try Invocation.parse(["--manual"]) == .manual)
    }

    @Test func dashIsAPositional() throws {
        #expect(try parsed(["cues", "-", "--json"]).1.positionals == ["-"])
        #expect(try parsed(["convert", "in.srt", "-o", "out.vtt"]).1.value(Option.output) == "out.vtt")
    }

    /// The README's usage block is the one the command table makes.
    @Test func readmeShowsTheGeneratedUsage() throws {
        let readme = try String(contentsOf: Fixtures.repository.appendingPathComponent("README.md"), encoding: .utf8)
        // The block as it should be, for whoever updates the README after changing the table.
        try? HelpText.readmeBlock.write(to: Fixtures.repository.appendingPathComponent(".build/readme-usage-block.md"), atomically: true, encoding: .utf8)
        #expect(readme.contains(HelpText.readmeBlock), "README.md must contain, verbatim:\n\(HelpText.readmeBlock)")
    }

    /// Every option of every command is in its help, the manual and both completion scripts.
    @Test func helpManualAndCompletionsCoverEveryOption() {
        let manual = HelpText.manual, bash = HelpText.completions("bash"), zsh = HelpText.completions("zsh")
        for spec in CommandTable.all {
            let help = HelpText.help(spec)
            #expect(manual.contains(".SH " + spec.name.uppercased()))
            #expect(bash.contains(" \(spec.name))") && zsh.contains(" \(spec.name))"))
            for option in spec.options {
                #expect(help.contains(option.name), "\(spec.name) help lacks \(option.name)")
                #expect(manual.contains(option.name.replacingOccurrences(of: "-", with: "\\-")), "manual lacks \(option.name)")
                #expect(bash.contains(option.name) && zsh.contains(option.name), "completions lack \(option.name)")
            }
        }
    }
}

/// The library's messages name its settings (`PackageRequest.allowEmpty`); the command line
/// shows each as its option.
struct VocabularyTests {
    @Test func everySettingHasAnOption() {
        for setting in Setting.allCases { #expect(Vocabulary.options[setting] != nil, "\(setting.rawValue) has no option") }
    }

    @Test func messagesAreSpeltWithOptions() {
        let written: MessageText = "nothing was written. Use \(Setting.allowEmpty) to write it"
        #expect(Vocabulary.render(written) == "nothing was written. Use --allow-empty to write it")
        #expect(written.description == "nothing was written. Use `PackageRequest.allowEmpty` to write it")
        let removal: MessageText = "Take it out with \(removal: "fr, x", language: "de"), or \(Setting.replace)"
        #expect(Vocabulary.render(removal) == "Take it out with `subweave remove --id fr, x --language de`, or --replace")
        let limit: MessageText = "raise it (\(Setting.limit(.subtitle)))"
        #expect(Vocabulary.render(limit) == "raise it (--limit subtitle=SIZE)")
        // Text from a file is never rewritten, even when it spells a setting the library's way.
        let name = "the track \"`PackageRequest.allowEmpty` `PackageRequest.removals(id: fr)`\""
        let quoted: MessageText = "\(name) is empty (\(Setting.allowEmpty))"
        #expect(Vocabulary.render(quoted) == name + " is empty (--allow-empty)")
    }

    /// What the library says through the built tool: the option, never the API name.
    @Test func theToolSaysOptions() throws {
        let dir = try Fixtures.copyExample()
        try "1\n00:10:00,000 --> 00:10:01,000\nlate\n".write(toFile: dir + "/late.srt", atomically: true, encoding: .utf8)
        let outcome = try BuiltTool.run(["package", dir + "/master.m3u8", "--subtitle", "url=\(dir)/late.srt,language=en"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("--allow-empty") && !outcome.stderr.contains("PackageRequest"), "\(outcome.stderr)")
    }
}

/// The examples help and the manual show are commands the parser takes, and one runs for real.
struct HelpExampleTests {
    /// Splits a command line as a shell would for these examples: spaces, double quotes, a
    /// redirection ends the command, and the array-task variables take the values a task has.
    static func words(_ line: String) -> [String] {
        let line = line.replacingOccurrences(of: "$SLURM_ARRAY_TASK_ID", with: "3").replacingOccurrences(of: "$SLURM_ARRAY_TASK_COUNT", with: "8")
            .components(separatedBy: " > ")[0]
        var words: [String] = []
        var current = ""
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    @Test func everyExampleParses() throws {
        for spec in CommandTable.all {
            for example in spec.examples {
                let words = Self.words(example.command)
                #expect(words.first == "subweave" && words.dropFirst().first == spec.name, "\(example.command)")
                #expect(throws: Never.self, "\(example.command)") { _ = try Invocation.parse(Array(words.dropFirst())) }
            }
        }
        #expect(CommandTable.all.allSatisfy { !$0.examples.isEmpty }, "every command has an example")
        #expect(HelpText.help(CommandTable.package).contains("EXAMPLES:"))
        #expect(HelpText.manual.contains(".SS EXAMPLES"))
    }

    @Test func usageLinesAreShortAndHelpIsGrouped() {
        for spec in CommandTable.all {
            #expect(HelpText.usage(spec).count <= 120, "\(HelpText.usage(spec))")
        }
        #expect(HelpText.usage(CommandTable.package).hasSuffix("[<options>]"))
        let help = HelpText.help(CommandTable.package)
        for heading in ["OPTIONS:", "CAPTIONS:", "LIVE:", "OUTPUT:", "READING AND REPORTING:"] { #expect(help.contains("\n" + heading + "\n"), "\(heading)") }
        // Every option is still listed in help, whatever the usage line shows.
        for spec in CommandTable.all {
            for option in spec.options { #expect(HelpText.help(spec).contains("  " + option.name), "\(spec.name) \(option.name)") }
        }
    }

    /// The completion scripts load in the shells they are for (Scripts/install.sh installs them).
    @Test(.enabled(if: BuiltTool.subweave != nil && Tools.which("bash") != nil, "the subweave binary or bash is missing"))
    func theBashCompletionLoads() throws {
        let binary = try #require(BuiltTool.subweave)
        let bash = try #require(Tools.which("bash"))
        let loaded = try Tools.run(bash, ["-c", "source <(\"$0\" completions bash) && complete -p subweave", binary])
        #expect(loaded.status == 0 && loaded.stdout.contains("_subweave"), "\(loaded.stderr)")
        let install = try String(contentsOf: Fixtures.repository.appendingPathComponent("Scripts/install.sh"), encoding: .utf8)
        #expect(install.contains("completions bash >") && install.contains("completions zsh >"))
    }

    @Test(.enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"))
    func theFirstPackageExampleRuns() throws {
        let dir = try Fixtures.copyExample()
        let words = Self.words(try #require(CommandTable.package.examples.first).command)
        let run = try BuiltTool.run(Array(words.dropFirst()), directory: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: dir + "/master.m3u8", encoding: .utf8).contains("LANGUAGE=\"fr\""))
    }
}
