import Subweave
import Timebase

/// A parsed command line: which command, with its checked options.
enum Command: Equatable {
    case help(String?)
    case version
    case package(PackageOptions)
    case cues(CuesOptions)
    case convert(ConvertOptions)
    case validate(ValidateOptions)
    case inspect(InspectOptions)
    case captions(CaptionsOptions)
}

struct CaptionsOptions: Equatable {
    var input: String
    var json = false
    var detectOnly = false
}

struct ValidateOptions: Equatable {
    var master: String
    var json = false
}

struct InspectOptions: Equatable {
    var master: String
    var locales: [String] = []
    var json = false
}

struct PackageOptions: Equatable {
    var master: String
    var subtitles: [String] = []
    var tracksFile: String?
    var preferredLanguage: String?
    var output: String?
    var dryRun = false
    var json = false
    var closedCaptions: String = "auto"
    var captions: String = "auto"
}

struct CuesOptions: Equatable {
    var input: String
    var format: String?
    var encoding: String?
    var json = false
}

struct ConvertOptions: Equatable {
    var input: String
    var output: String?
    var format: String?
    var encoding: String?
}

enum Invocation {
    static let version = "subweave 0.1.0"

    /// The usage line of `command`.
    static func usage(_ command: String) -> String { usages[command] ?? "subweave \(command)" }

    static let usages: [String: String] = [
        "package": "subweave package <master.m3u8> --subtitle <descriptor> [--subtitle <descriptor> ...] [--tracks tracks.json] [--preferred-language TAG] [--captions auto|off] [--closed-captions auto|none|in-band] [--output FILE] [--dry-run] [--json]",
        "cues": "subweave cues <file|url|-> [--format vtt|srt] [--encoding NAME] [--json]",
        "convert": "subweave convert <in.srt> [-o out.vtt] [--encoding NAME]",
        "validate": "subweave validate <master.m3u8> [--json]",
        "inspect": "subweave inspect <master.m3u8> [--locale TAG ...] [--json]",
        "captions": "subweave captions <file.ts | master.m3u8> [--detect] [--json]",
    ]

    static let generalHelp = """
    subweave: side-load subtitles and captions into HLS as segmented WebVTT renditions.

    USAGE:
      \(usage("package"))
      \(usage("cues"))
      \(usage("convert"))
      \(usage("validate"))
      \(usage("inspect"))
      \(usage("captions"))
      subweave --help | --version

    Run `subweave help <command>` or `subweave <command> --help` for details.
    """

    static let help: [String: String] = [
        "package": """
        USAGE: \(usage("package"))

        Writes each subtitle track as a WebVTT rendition segmented along the first variant's
        segments, with X-TIMESTAMP-MAP from the media's own timestamps, and declares it in the
        master (rewritten in place unless --output is given; the master is written last).

        A descriptor is comma-separated key=value (quote a value containing a comma):
          url=PATH|file://…|http(s)://…   the subtitle file (required)
          id=ID              source ID (default: the file name without its extension)
          language=TAG       BCP 47 language tag, or und
          name=LABEL         menu label (default: derived from the language)
          format=vtt|srt|scc default: from the URL path's extension (.vtt .webvtt .srt .scc)
          encoding=NAME      force a text encoding (utf-8, windows-1252, …)
          delay=SECONDS      shift every cue (positive: later), at most ±10
          forced, sdh, default   flags
        Example: --subtitle url=subs/en.srt,language=en,name=English

        OPTIONS:
          --subtitle DESC            a track (repeatable)
          --tracks FILE              tracks as a JSON array of objects with the same keys
          --preferred-language TAG   the matching rendition becomes the group's only DEFAULT
          --captions MODE            auto (default): CEA-608 services found in the video (H.264/HEVC
                                     in MPEG-TS) become WebVTT renditions "English (CC1)"; off
          --closed-captions MODE     auto (default): CLOSED-CAPTIONS=NONE unless the master already
                                     declares caption groups; none: always NONE; in-band: declare
                                     the CEA-608 services found in the video
          --output FILE              write the new master here instead of in place
          --dry-run                  print the new master; write nothing
          --json                     print a machine-readable report on stdout
        """,
        "cues": """
        USAGE: \(usage("cues"))

        Prints the cues a subtitle file yields, as the packager will use them: as WebVTT, or with
        --json as {"cues": [...]} using the W3C VTTCue attribute names. `-` reads standard input.
        """,
        "convert": """
        USAGE: \(usage("convert"))

        Converts SubRip to WebVTT (standard output unless -o is given).
        """,
        "validate": """
        USAGE: \(usage("validate"))

        Checks the subtitle and caption rules of RFC 8216bis and Apple's HLS Authoring Spec on a
        master and the playlists and WebVTT segments it names. Each finding has a severity, the file
        and line, and the rule it enforces. Exit status 1 when there is an error.
        """,
        "inspect": """
        USAGE: \(usage("inspect"))

        Lists the media selection groups as AVFoundation presents them (audible, legible, visual)
        and, for the viewer locales given, which subtitles a player selects at load and which
        forced subtitles show with which audio.
        """,
        "captions": """
        USAGE: \(usage("captions"))

        Decodes the CEA-608 captions (CC1-CC4) carried in H.264/HEVC SEI of an MPEG-TS file, or of
        a master's first variant, and prints the cues per service, timed from the first video frame
        of the file or programme. --json prints {"services": [{"service", "language", "cues"}]}.
        --detect runs only the bounded scan the packager runs first (at most 28 video access units,
        stopping at the first printable character) and says whether captions were found.
        """,
    ]

    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let first = arguments.first else { return .help(nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h", "help":
            if let topic = rest.first {
                guard help[topic] != nil else { throw UsageError(message: "no help for unknown command \"\(topic)\"", command: nil) }
                return .help(topic)
            }
            return .help(nil)
        case "--version", "-V", "version":
            return .version
        default:
            break
        }
        if rest.contains("--help") || rest.contains("-h"), help[first] != nil { return .help(first) }
        switch first {
        case "package":
            let parsed = try ArgumentParser.parse(rest, options: [
                OptionSpec(name: "--subtitle", takesValue: true), OptionSpec(name: "--tracks", takesValue: true),
                OptionSpec(name: "--preferred-language", takesValue: true), OptionSpec(name: "--output", takesValue: true, aliases: ["-o"]),
                OptionSpec(name: "--dry-run", takesValue: false), OptionSpec(name: "--json", takesValue: false),
                OptionSpec(name: "--closed-captions", takesValue: true), OptionSpec(name: "--captions", takesValue: true),
            ], command: first)
            guard parsed.positionals.count == 1 else {
                throw UsageError(message: parsed.positionals.isEmpty ? "missing the master playlist" : "expected one master playlist, found \(parsed.positionals.count) arguments: \(parsed.positionals.joined(separator: " "))", command: first)
            }
            guard !parsed.all("--subtitle").isEmpty || parsed.value("--tracks") != nil || parsed.value("--captions") != "off" else {
                throw UsageError(message: "nothing to package: give --subtitle <descriptor> or --tracks FILE (or leave --captions on auto)", command: first)
            }
            let cc = parsed.value("--closed-captions") ?? "auto"
            guard ["auto", "none", "in-band"].contains(cc) else {
                throw UsageError(message: "--closed-captions must be auto, none or in-band (found \"\(cc)\")", command: first)
            }
            let captions = parsed.value("--captions") ?? "auto"
            guard ["auto", "off"].contains(captions) else {
                throw UsageError(message: "--captions must be auto or off (found \"\(captions)\")", command: first)
            }
            return .package(PackageOptions(master: parsed.positionals[0], subtitles: parsed.all("--subtitle"), tracksFile: parsed.value("--tracks"),
                                           preferredLanguage: parsed.value("--preferred-language"), output: parsed.value("--output"),
                                           dryRun: parsed.flag("--dry-run"), json: parsed.flag("--json"), closedCaptions: cc, captions: captions))
        case "cues":
            let parsed = try ArgumentParser.parse(rest, options: [
                OptionSpec(name: "--format", takesValue: true), OptionSpec(name: "--encoding", takesValue: true),
                OptionSpec(name: "--json", takesValue: false),
            ], command: first)
            guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one file, URL or -", command: first) }
            if let f = parsed.value("--format"), SubtitleFormat(rawValue: f) == nil {
                throw UsageError(message: "--format must be vtt or srt (found \"\(f)\")", command: first)
            }
            return .cues(CuesOptions(input: parsed.positionals[0], format: parsed.value("--format"), encoding: parsed.value("--encoding"), json: parsed.flag("--json")))
        case "convert":
            let parsed = try ArgumentParser.parse(rest, options: [
                OptionSpec(name: "--output", takesValue: true, aliases: ["-o"]), OptionSpec(name: "--format", takesValue: true),
                OptionSpec(name: "--encoding", takesValue: true),
            ], command: first)
            guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one input file", command: first) }
            return .convert(ConvertOptions(input: parsed.positionals[0], output: parsed.value("--output"), format: parsed.value("--format"), encoding: parsed.value("--encoding")))
        case "validate":
            let parsed = try ArgumentParser.parse(rest, options: [OptionSpec(name: "--json", takesValue: false)], command: first)
            guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one master playlist", command: first) }
            return .validate(ValidateOptions(master: parsed.positionals[0], json: parsed.flag("--json")))
        case "inspect":
            let parsed = try ArgumentParser.parse(rest, options: [OptionSpec(name: "--locale", takesValue: true), OptionSpec(name: "--json", takesValue: false)], command: first)
            guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one master playlist", command: first) }
            return .inspect(InspectOptions(master: parsed.positionals[0], locales: parsed.all("--locale"), json: parsed.flag("--json")))
        case "captions":
            let parsed = try ArgumentParser.parse(rest, options: [OptionSpec(name: "--json", takesValue: false), OptionSpec(name: "--detect", takesValue: false)], command: first)
            guard parsed.positionals.count == 1 else { throw UsageError(message: "expected one .ts file or master playlist", command: first) }
            return .captions(CaptionsOptions(input: parsed.positionals[0], json: parsed.flag("--json"), detectOnly: parsed.flag("--detect")))
        default:
            let hint = EditDistance.suggestion(for: first, among: help.keys.sorted()).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(message: "unknown command \"\(first)\"\(hint)", command: nil)
        }
    }
}
