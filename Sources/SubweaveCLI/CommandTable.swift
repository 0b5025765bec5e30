import Subweave
import Timebase

/// An option a command accepts.
struct OptionSpec: Equatable, Sendable {
    let name: String
    var aliases: [String] = []
    /// The value's placeholder (`TAG`), or nil for a flag.
    var value: String?
    /// The values accepted, when they are a closed set.
    var allowed: [String]?
    var repeatable = false
    let help: String
    /// The heading it is listed under in help (nil: the command's main options, also shown in
    /// a shortened usage line).
    var group: String?

    var takesValue: Bool { value != nil }

    /// The same option with the help a command gives it (`--output` writes a master for
    /// `package`, a subtitle file for `convert`).
    func explained(_ text: String) -> OptionSpec {
        OptionSpec(name: name, aliases: aliases, value: value, allowed: allowed, repeatable: repeatable, help: text, group: group)
    }

    /// The same option listed under `heading`.
    func grouped(_ heading: String) -> OptionSpec {
        var copy = self
        copy.group = heading
        return copy
    }
}

extension Array where Element == OptionSpec {
    /// Every option listed under `heading`.
    func grouped(_ heading: String) -> [OptionSpec] { map { $0.grouped(heading) } }
}

/// A worked example for help and the manual: the command line and what it does.
struct Example: Equatable, Sendable {
    let command: String
    let does: String
}

/// A positional argument.
struct PositionalSpec: Equatable, Sendable {
    let name: String
    let help: String
    /// True when it may be given more than once (`FILE...`).
    var many = false
}

/// A command: everything usage lines, help, the manual page, the README's usage block and the
/// shell completions are made from.
struct CommandSpec: Equatable, Sendable {
    let name: String
    let summary: String
    let positionals: [PositionalSpec]
    let options: [OptionSpec]
    /// Paragraphs for `--help` and the manual.
    let discussion: String
    /// What runs the command: declared with it, so no command lacks one.
    let run: Handler
    /// Worked examples, shown in help and the manual.
    var examples: [Example] { CommandTable.examples[name] ?? [] }

    func option(_ name: String) -> OptionSpec? {
        options.first { $0.name == name || $0.aliases.contains(name) }
    }
}

/// A command's implementation: reads its arguments, calls the library, prints the result, and
/// returns the exit status.
struct Handler: Equatable, Sendable {
    let call: @Sendable (Context) async throws -> Int32

    init(_ call: @escaping @Sendable (Context) async throws -> Int32) { self.call = call }

    /// Handlers are not compared: a command is its declaration.
    static func == (a: Handler, b: Handler) -> Bool { true }
}

/// Every command of `subweave`, declared once.
enum CommandTable {
    static let version = "subweave 0.2.0"

    static let all: [CommandSpec] = [package, list, remove, refresh, batch, cues, convert, validate, inspect, captions, sync, report, completions]

    static let report = CommandSpec(
        name: "report", summary: "the presentation at a glance: segments, speech, every rendition's cues and what is wrong where",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [
            Option.html,
            Option.speech,
            Option.json, Option.limit,
        ],
        discussion: """
            Draws the programme's timeline with its segments, a lane per subtitle and caption rendition with its cues, the speech
            (with --speech), and marks what a person should look at: cues past the end, a minute or more without a cue, segments
            without a cue, a rendition out of sync (its measured offset and rate in its label).
            """,
        run: Handler(ReportCommand.run))

    static let sync = CommandSpec(
        name: "sync", summary: "check each subtitle file against the programme's speech: offset, drift, fix",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [
            Option.subtitle,
            Option.tracks, Option.json, Option.limit,
        ],
        discussion: """
            Decodes the sound of the reference variant (its AUDIO rendition, else its own audio) with ffmpeg, finds the speech in 10 ms
            frames, and lines each track's cues up with it over every offset and the standard speed changes (24000/1001, 24, 25 fps,
            each way), then checks each alignment cue by cue (a cue lands when speech starts within 0.1 s of it). Reports sidecar
            time = rate × programme time + offset_s, how many cues land, a confidence, a verdict and the descriptor keys that fix
            the track: in_sync, offset, rate or rate_and_offset (one fit beats every other clearly); ambiguous (several fit about
            as well: the candidates are listed, nothing is suggested); partial (one fits part of the file only: a file for another
            cut); no_match (a file for another programme). Writes nothing.
            """,
        run: Handler(SyncCommand.run))

    /// Options every command that writes a master takes.
    static let writing: [OptionSpec] = [
        Option.output,
        Option.baseUrl,
        Option.dryRun,
        Option.strict,
        Option.keepPrevious,
        Option.retireAfter,
        Option.lockTimeout,
    ]

    /// What becomes of the video's captions: said once, kept for every later command.
    static let captionModeOptions: [OptionSpec] = [
        Option.captions,
        Option.closedCaptions,
    ]

    /// What the operator says of the caption services (`package`, `refresh`, `remove`).
    static let captionServiceOptions: [OptionSpec] = [
        Option.captionService,
        Option.captionLanguage,
        Option.captionPlacement,
    ]

    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// A subtitle file's clock (`cues`, `convert`), as the descriptor keys rate= and offset= set it.
    static let timing: [OptionSpec] = [
        Option.fps,
        Option.service,
        Option.rate,
        Option.offset,
    ]

    static let package = CommandSpec(
        name: "package", summary: "side-load subtitle tracks (and in-band captions) into an HLS presentation",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [
            Option.subtitle.explained(
                "a track: url=…,language=…[,name=…][,id=…][,format=…][,encoding=…][,delay=…][,offset=…][,rate=…][,fps=…][,service=…][,forced][,sdh][,generated][,translated][,easy-to-read][,characteristics=\"uti,…\"][,default]"
            ),
            Option.tracks.explained("tracks as a JSON array of objects with the descriptor keys; relative urls are taken from the file's folder"),
            Option.preferredLanguage,
            Option.checkSync,
            Option.fixSync,
        ]
            + (captionModeOptions + captionServiceOptions).grouped("CAPTIONS")
            + [
                Option.replace,
                Option.noRefresh,
                Option.retimeExisting,
                Option.allowEmpty,
            ].grouped("EARLIER RUNS AND EMPTY TRACKS")
            + [Option.textFormat, Option.subtitleGroup, Option.renditionFolder, Option.segmentNames, Option.encryptSubtitles].grouped("LAYOUT")
            + [
                Option.follow,
                Option.poll,
                Option.idleTimeout,
            ].grouped("LIVE") + writing.grouped("OUTPUT") + [Option.limit, Option.json, Option.quiet, Option.verbose].grouped("READING AND REPORTING"),
        discussion: """
            Writes each subtitle track as a WebVTT rendition segmented along the video variant's segments,
            with cue times on the media timeline and an X-TIMESTAMP-MAP read from the media itself, and
            declares it in the master (rewritten in place unless --output is given; the master is written
            last, after every file it names is complete and durable). Renditions of earlier runs not named
            again are segmented again against the video as it is now, from the cues kept beside them. A
            track with no cue on the programme fails the run unless --allow-empty. Runs on one folder wait
            for each other. A value containing a comma is quoted: name="English, SDH". On a terminal,
            stderr shows how far the run is (video read for captions, tracks made); with --follow, a status
            line per publication pass (rewritten in place on a terminal, a line per pass otherwise).
            """,
        run: Handler(PackageCommand.run))

    static let remove = CommandSpec(
        name: "remove", summary: "take renditions Subweave added out of a presentation",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [
            Option.id,
            Option.language,
            Option.force,
        ] + (captionModeOptions + captionServiceOptions).grouped("CAPTIONS") + writing.grouped("OUTPUT")
            + [Option.limit, Option.json, Option.quiet, Option.verbose].grouped("READING AND REPORTING"),
        discussion: """
            Removes the EXT-X-MEDIA line, applies the DEFAULT/AUTOSELECT rules to the renditions that remain, and
            drops SUBTITLES from the variants when the group ends empty; written as package writes (the master
            last). The rendition's files are retired, not deleted: viewers who loaded the old master finish
            playing, and a run --retire-after seconds later (a day by default) deletes them. Everything else the
            operator said of the title (caption services, preferred language, CLOSED-CAPTIONS) is kept; a caption
            service taken out is recorded as not to be published (CC3:publish=no), so refresh does not bring it
            back. When nothing Subweave added remains, the master is its input again, the variants' CLOSED-CAPTIONS
            as they were.
            Renditions Subweave did not create are refused unless --force.
            """,
        run: Handler(PackageCommand.remove))

    static let refresh = CommandSpec(
        name: "refresh", summary: "segment Subweave's renditions again against the video as it is now",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [
            Option.retimeExisting.explained("also write other tools' subtitle renditions that lack X-TIMESTAMP-MAP again, with one")
        ] + (captionModeOptions + captionServiceOptions).grouped("CAPTIONS") + writing.grouped("OUTPUT")
            + [Option.limit, Option.json, Option.quiet, Option.verbose].grouped("READING AND REPORTING"),
        discussion: """
            After the video is re-encoded (longer, shorter, segmented anew, with new discontinuities), writes
            every rendition Subweave manages again from the cues kept beside it, aligned to the new segments and
            timed from the new media, with every setting the operator gave earlier commands (caption services,
            preferred language, CLOSED-CAPTIONS), as kept beside the master. With --retime-existing, other tools'
            renditions without a timestamp map (ffmpeg's, for one) are written again in Subweave's layout with the
            map, in the same place in the master.
            """,
        run: Handler(PackageCommand.refresh))

    static let list = CommandSpec(
        name: "list", summary: "list the subtitle and caption renditions of a master, Subweave's and others'",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [Option.json],
        discussion: """
            Each rendition with its identity (external:<source ID>:<language> or cea608:CCn), source ID,
            language, name, flags, cue count and folder; renditions Subweave did not create are marked as such.
            """,
        run: Handler(ListCommand.run))

    static let batch = CommandSpec(
        name: "batch", summary: "package every title of a catalogue (JSON lines), several at once",
        positionals: [PositionalSpec(name: "catalogue.jsonl", help: "one title per line: {\"master\": …, \"tracks\": [...], …}")],
        options: [
            Option.jobs,
            Option.shard,
            Option.root,
        ]
            + [
                Option.lockTimeout.explained("how long a title waits for another run on its folder (default \(Int(OutputWriter.defaultLockTimeout)))"),
                Option.limit, Option.quiet, Option.verbose,
            ].grouped("READING AND REPORTING"),
        discussion: """
            Each line is a title: "master" (required), "tracks" (the objects of --tracks), and optionally "id",
            "preferred_language", "captions", "closed_captions", "replace", "allow_empty", "strict", "output";
            relative paths are relative to the catalogue's folder. Prints one JSON result per title on stdout
            as it ends ({"schema", "index", "line", "id", "status": "ok"|"skipped"|"failed", "error", ...});
            exit status 1 when any title failed. A title packaged before with the same inputs is skipped
            (a fingerprint is kept beside its master). --shard I/N with JOB_COMPLETION_INDEX (Kubernetes
            Indexed Job), AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job) or SLURM_ARRAY_TASK_ID (Slurm array
            job) splits one catalogue over N workers. --root confines a catalogue that comes from elsewhere:
            a line naming a path outside the folder, or a URL, fails with the reason and nothing of it is read.
            """,
        run: Handler(BatchCommand.run))

    static let cues = CommandSpec(
        name: "cues", summary: "print the cues a subtitle file yields, as the packager uses them",
        positionals: [PositionalSpec(name: "file|url|-", help: "the subtitle file, an http(s) URL, or - for standard input")],
        options: [Option.encoding, Option.json] + timing + [Option.format, Option.pictureLanguage, Option.crops, Option.limit].grouped("READING"),
        discussion: """
            Prints WebVTT, or with --json {"schema", "cues": [...]} using the W3C VTTCue attribute names. A file
            with no cue prints an empty list.
            """,
        run: Handler(CuesCommand.run))

    static let convert = CommandSpec(
        name: "convert", summary: "convert a subtitle file to WebVTT (or SubRip)",
        positionals: [PositionalSpec(name: "input", help: "the subtitle file, an http(s) URL, or -")],
        options: [
            Option.output.explained("write here instead of stdout"),
            Option.to,
        ] + timing + [Option.format, Option.encoding, Option.pictureLanguage, Option.crops, Option.limit].grouped("READING"),
        discussion: "Reads the input as `cues` does (format from the content, then the extension) and writes it back.",
        run: Handler(ConvertCommand.run))

    static let validate = CommandSpec(
        name: "validate", summary: "check a presentation's subtitle and caption rules",
        positionals: [PositionalSpec(name: "master.m3u8|url", help: "the master playlist (a path or an http(s) URL)")],
        options: [Option.json, Option.limit],
        discussion: """
            Checks the subtitle and caption rules of RFC 8216bis and Apple's HLS Authoring Spec on a master and
            on the playlists and WebVTT segments it names, with the video's own timestamps. Each finding has a
            severity, the file and line, the rule and its identifier. Exit status 1 when there is an error.
            """,
        run: Handler(ValidateCommand.run))

    static let inspect = CommandSpec(
        name: "inspect", summary: "list the media selection as AVFoundation presents it",
        positionals: [PositionalSpec(name: "master.m3u8", help: "the master playlist")],
        options: [Option.locale, Option.json],
        discussion: "Lists the audible, legible and visual groups and, for the locales given, what a player selects at load.",
        run: Handler(InspectCommand.run))

    static let captions = CommandSpec(
        name: "captions", summary: "decode the CEA-608 and CEA-708 captions of a TS, fMP4 or MCC file or a master's video",
        positionals: [PositionalSpec(name: "file.ts|file.mcc|master.m3u8", help: "an MPEG-TS, fragmented MP4 or MCC file, or a master playlist")],
        options: [Option.detect, Option.json, Option.limit],
        discussion: """
            Prints the cues per service (CC1-CC4, SERVICE1-SERVICE63, teletext pages such as 888, DVB subtitle streams by PID such as DVB0104, read by OCR), timed from the first video frame. --detect scans at most \(CaptionScanner.detectionAccessUnits)
            video access units, stopping at the first printable character.
            """,
        run: Handler(CaptionsCommand.run))

    static let completions = CommandSpec(
        name: "completions", summary: "print a shell completion script",
        positionals: [PositionalSpec(name: "bash|zsh", help: "the shell")],
        options: [],
        discussion: "bash: `source <(subweave completions bash)`; zsh: `subweave completions zsh > ~/.zfunc/_subweave`.",
        run: Handler(CompletionsCommand.run))
}
