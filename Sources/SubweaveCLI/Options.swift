import Subweave
import Timebase

/// Every option of every command, declared once: the command table lists them (help, the man
/// page and completions come from it) and the commands read them by these names, so a
/// misspelt option does not compile.
enum Option {
    static let json = OptionSpec(name: "--json", help: "print a machine-readable result on stdout (with a \"schema\" field)")
    static let quiet = OptionSpec(name: "--quiet", aliases: ["-q"], help: "print nothing on stderr but errors (no progress or status lines)")
    static let verbose = OptionSpec(name: "--verbose", aliases: ["-v"], help: "print more detail on stderr")
    static let limit = OptionSpec(
        name: "--limit", value: "KIND=SIZE", repeatable: true,
        help: "raise or lower a read limit: playlist (64MiB), subtitle (512MiB) or segment (2GiB), such as --limit subtitle=1GiB")
    static let encoding = OptionSpec(name: "--encoding", value: "NAME", help: "force a text encoding (utf-8, windows-1252, …)")
    static let format = OptionSpec(
        name: "--format", value: "FORMAT", allowed: SubtitleFormat.allCases.map(\.rawValue),
        help: "the input's format (default: from its content, then its extension)")
    static let html = OptionSpec(name: "--html", value: "FILE", help: "write one self-contained HTML page (inline SVG, no script or network needed)")
    static let speech = OptionSpec(name: "--speech", help: "listen to the programme's sound (ffmpeg): draw its speech and check each rendition's sync")
    static let subtitle = OptionSpec(
        name: "--subtitle", value: "DESCRIPTOR", repeatable: true, help: "a track, as for package (its rate=, offset= and delay= are applied first)")
    static let tracks = OptionSpec(name: "--tracks", value: "FILE", help: "tracks as a JSON array of objects with the descriptor keys")
    static let output = OptionSpec(
        name: "--output", aliases: ["-o"], value: "FILE",
        help: "write the new master here instead of in place (its relative URIs are rewritten to resolve from there)")
    static let baseUrl = OptionSpec(name: "--base-url", value: "URL", help: "with --output: make the master's relative URIs absolute against this URL")
    static let dryRun = OptionSpec(name: "--dry-run", help: "print the new master; write nothing")
    static let strict = OptionSpec(name: "--strict", help: "fail (exit 1, nothing written) on any warning")
    static let keepPrevious = OptionSpec(name: "--keep-previous", help: "keep each rendition's previous generation for players that read the old master")
    static let retireAfter = OptionSpec(
        name: "--retire-after", value: "SECONDS",
        help: "how long a generation the master no longer names stays for players mid-playback (default 86400, a day; 0: remove at once)")
    static let lockTimeout = OptionSpec(
        name: "--lock-timeout", value: "SECONDS",
        help: "how long to wait for another run on the same folder (default \(Int(OutputWriter.defaultLockTimeout)))")
    static let captions = OptionSpec(
        name: "--captions", value: "MODE", allowed: ["auto", "off"],
        help: "auto (default): CEA-608 and CEA-708 services found in the video become WebVTT renditions; off: leave them alone")
    static let closedCaptions = OptionSpec(
        name: "--closed-captions", value: "MODE", allowed: ["auto", "none", "in-band"],
        help:
            "auto (default): CLOSED-CAPTIONS=NONE unless the master declares caption groups or captions would be hidden; none; in-band: declare the services the video carries (instead of renditions)"
    )
    static let captionService = OptionSpec(
        name: "--caption-service", value: "SERVICE:KEYS", repeatable: true,
        help: "say what a caption service, teletext page or DVB stream is: CC1:language=en,name=English CC (keys language, name, publish=yes|no)")
    static let captionLanguage = OptionSpec(
        name: "--caption-language", value: "TAG", help: "the language of caption services neither the stream nor --caption-service names")
    static let captionPlacement = OptionSpec(
        name: "--caption-placement", value: "MODE", allowed: ["auto", "none"],
        help: "auto (default): decoded captions keep their place on screen (608 rows, 708 anchors) as WebVTT line/position; none: every cue at the bottom")
    static let fps = OptionSpec(
        name: "--fps", value: "RATE",
        help: "an SCC or MCC file's timecode rate: \(TimecodeRate.labels.joined(separator: ", ")) (default: the file's, else 29.97)",
        group: "TIMING")
    static let service = OptionSpec(
        name: "--service", value: "NAME", help: "the caption service an SCC or MCC file is read for (CC1-CC4, SERVICE1-63; default: the first with text)",
        group: "TIMING")
    static let rate = OptionSpec(
        name: "--rate", value: "RATIO", help: "divide every cue time by this clock rate first (25/23.976, 24/25, 1.0427)", group: "TIMING")
    static let offset = OptionSpec(name: "--offset", value: "TIME", help: "then add this to every cue time (seconds, or [-]HH:MM:SS[.mmm])", group: "TIMING")
    static let preferredLanguage = OptionSpec(
        name: "--preferred-language", value: "TAG",
        help: "the matching rendition becomes the group's only DEFAULT=YES (kept for later commands; none: no preference)")
    static let subtitleGroup = OptionSpec(
        name: "--subtitle-group", value: "ID",
        help: "the GROUP-ID of the SUBTITLES group to make (default subs; kept for later commands; refused when the variants name another)")
    static let textFormat = OptionSpec(
        name: "--text-format", value: "FORMAT", allowed: ["webvtt", "imsc1"],
        help: "webvtt (default): WebVTT text segments; imsc1: IMSC1 (TTML) in fragmented MP4, CODECS stpp.ttml.im1t (kept for later commands)")
    static let segmentNames = OptionSpec(
        name: "--segment-names", value: "TEMPLATE",
        help: "name segment files by this template, {n} where the number goes (seg-{n} gives seg-00000.vtt; default {n}; kept for later commands)")
    static let renditionFolder = OptionSpec(
        name: "--rendition-folder", value: "TEMPLATE",
        help:
            "put each side-loaded track's rendition in this folder, {id} and {language} filled in (default subtitles/{id}-{language}; kept for later commands)")
    static let encryptSubtitles = OptionSpec(
        name: "--encrypt-subtitles", value: "KEYFILE",
        help:
            "encrypt subtitle segments with AES-128 under the video's EXT-X-KEY, with the 16-byte key in KEYFILE (also used to read the encrypted video; kept for later commands; none: stop)"
    )
    static let checkSync = OptionSpec(
        name: "--check-sync",
        help:
            "check each track against the programme's speech (ffmpeg decodes the sound); warn when one is off by more than \(SyncCheck.tolerance) s, fits nothing, or cannot be told (ambiguous, partial)",
        group: "SYNC")
    static let fixSync = OptionSpec(
        name: "--fix-sync",
        help:
            "as --check-sync, and retime a track that one fit clearly places, as `subweave sync` suggests (the report says so); an ambiguous or partial track is left as it is",
        group: "SYNC")
    static let replace = OptionSpec(name: "--replace", help: "the tracks given are the whole set: remove every other rendition Subweave created")
    static let noRefresh = OptionSpec(
        name: "--no-refresh", help: "leave renditions of earlier runs as they are (default: segment them again against the video)")
    static let retimeExisting = OptionSpec(name: "--retime-existing", help: "write other tools' subtitle renditions that lack X-TIMESTAMP-MAP again, with one")
    static let allowEmpty = OptionSpec(name: "--allow-empty", help: "write a track that ends with no cue instead of failing")
    static let follow = OptionSpec(
        name: "--follow",
        help:
            "follow a live (EVENT or sliding-window) playlist: write each new segment as it appears, until ENDLIST; a status line per pass on stderr"
    )
    static let poll = OptionSpec(name: "--poll", value: "SECONDS", help: "with --follow: seconds between reloads (default: half the target duration)")
    static let idleTimeout = OptionSpec(
        name: "--idle-timeout", value: "SECONDS",
        help: "with --follow: stop when the playlist has not changed for this long (default: 30 target durations)")
    static let id = OptionSpec(
        name: "--id", value: "SOURCE_ID", help: "the source ID the track was added with (CC1 … for captions, as renditions or declared in-band)")
    static let language = OptionSpec(name: "--language", value: "TAG", help: "the renditions in this language (with --id: only that source's)")
    static let force = OptionSpec(name: "--force", help: "also take out a rendition another tool wrote, matched by NAME (its line only; its files stay)")
    static let jobs = OptionSpec(name: "--jobs", aliases: ["-j"], value: "N", help: "titles packaged at once (default 1)")
    static let shard = OptionSpec(name: "--shard", value: "I/N", help: "take every N-th title from the I-th (0-based): one worker of an array job")
    static let root = OptionSpec(
        name: "--root", value: "FOLDER",
        help: "every path the catalogue names must resolve inside FOLDER (links followed); URLs are refused")
    static let to = OptionSpec(name: "--to", value: "FORMAT", allowed: ["vtt", "srt"], help: "the output format (default vtt)")
    static let pictureLanguage = OptionSpec(
        name: "--language", value: "TAG", help: "the language of subtitle pictures (VobSub), for OCR (default: the file's, else English)")
    static let crops = OptionSpec(
        name: "--crops", value: "FOLDER",
        help: "write each subtitle picture (PNG) and index.html, a page showing it beside the text OCR read and its confidence")
    static let locale = OptionSpec(name: "--locale", value: "TAG", repeatable: true, help: "a viewer locale, most preferred first")
    static let detect = OptionSpec(name: "--detect", help: "run only the bounded scan the packager runs first")
}
