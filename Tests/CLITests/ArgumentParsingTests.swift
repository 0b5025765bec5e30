import Testing
@testable import SubweaveCLI

/// The argument parser is a pure function: tested without a process.
struct ArgumentParsingTests {
    @Test func optionValuesWithSpaceOrEquals() throws {
        let a = try Invocation.parse(["package", "m.m3u8", "--subtitle", "url=a.srt", "--subtitle=url=b.vtt,language=fr", "--preferred-language=fr", "--json"])
        guard case .package(let options) = a else { Issue.record("expected package"); return }
        #expect(options.master == "m.m3u8")
        #expect(options.subtitles == ["url=a.srt", "url=b.vtt,language=fr"])
        #expect(options.preferredLanguage == "fr")
        #expect(options.json)
        #expect(!options.dryRun)
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

    @Test func packageNeedsAMasterAndTracks() {
        #expect(throws: UsageError.self) { try Invocation.parse(["package", "--subtitle", "url=a.srt"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["package", "m.m3u8", "--captions", "off"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["package", "m.m3u8", "--subtitle"]) }
        #expect(throws: UsageError.self) { try Invocation.parse(["package", "m.m3u8", "--subtitle", "url=a.srt", "--closed-captions", "maybe"]) }
    }

    @Test func helpAndVersion() throws {
        #expect(try Invocation.parse([]) == .help(nil))
        #expect(try Invocation.parse(["--help"]) == .help(nil))
        #expect(try Invocation.parse(["package", "--help"]) == .help("package"))
        #expect(try Invocation.parse(["help", "cues"]) == .help("cues"))
        #expect(try Invocation.parse(["--version"]) == .version)
    }

    @Test func dashIsAPositional() throws {
        #expect(try Invocation.parse(["cues", "-", "--json"]) == .cues(CuesOptions(input: "-", format: nil, encoding: nil, json: true)))
        #expect(try Invocation.parse(["convert", "in.srt", "-o", "out.vtt"]) == .convert(ConvertOptions(input: "in.srt", output: "out.vtt", format: nil, encoding: nil)))
    }

    @Test func flagsTakeNoValue() {
        #expect(throws: UsageError.self) { try Invocation.parse(["package", "m", "--subtitle", "url=a.srt", "--json=yes"]) }
    }
}
