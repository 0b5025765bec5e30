/// The worked examples `--help` and the manual show, per command.
extension CommandTable {
    static let examples: [String: [Example]] = [
        "package": [
            Example(
                command: "subweave package master.m3u8 --subtitle url=subs/en.srt,language=en --subtitle url=subs/fr.vtt,language=fr --preferred-language en",
                does: "add English and French renditions; English is the default"),
            Example(command: "subweave package master.m3u8 --tracks subs/tracks.json --dry-run", does: "print the master the tracks of a file would make"),
            Example(
                command: "subweave package master.m3u8 --caption-service CC1:language=en,name=\"English CC\"",
                does: "publish the video's CEA-608 CC1 captions as an English rendition"),
            Example(
                command: "subweave package live/master.m3u8 --subtitle url=live/en.srt,language=en --follow",
                does: "follow a live event, writing each subtitle segment as the video's appears"),
        ],
        "remove": [
            Example(command: "subweave remove master.m3u8 --language de", does: "take out every rendition Subweave added in German"),
            Example(command: "subweave remove master.m3u8 --id en-sdh", does: "take out the renditions of one source"),
        ],
        "refresh": [Example(command: "subweave refresh master.m3u8", does: "re-segment Subweave's renditions after the video was re-encoded")],
        "list": [Example(command: "subweave list master.m3u8 --json", does: "every subtitle and caption rendition, Subweave's and others'")],
        "batch": [
            Example(command: "subweave batch catalogue.jsonl --jobs 2", does: "package a catalogue, two titles at a time"),
            Example(
                command: "subweave batch catalogue.jsonl --shard \"$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT\" --root /library",
                does: "one task of a Slurm array job, every path kept inside /library"),
        ],
        "cues": [Example(command: "subweave cues vendor.srt --json", does: "the cues a file yields, with the W3C VTTCue names")],
        "convert": [Example(command: "subweave convert vendor.scc --output en.vtt", does: "an SCC file as WebVTT")],
        "validate": [Example(command: "subweave validate https://cdn.example.com/title/master.m3u8", does: "check a published title's subtitle rules")],
        "inspect": [
            Example(command: "subweave inspect master.m3u8 --locale fr-CA --locale en", does: "what AVFoundation selects for a French-Canadian viewer")
        ],
        "captions": [
            Example(command: "subweave captions master.m3u8", does: "decode the CEA-608 captions of the title's video"),
            Example(command: "subweave captions --detect init.mp4", does: "a bounded look for captions in the first minute"),
        ],
        "sync": [
            Example(
                command: "subweave sync master.m3u8 --subtitle url=subs/en.srt,language=en", does: "say whether en.srt fits the programme's speech, and the fix"
            ),
            Example(
                command: "subweave sync master.m3u8 --subtitle url=en.srt,language=en,rate=25/23.976 --json",
                does: "check the file as a 25 fps version, as JSON"),
        ],
        "report": [
            Example(command: "subweave report master.m3u8 --speech --html report.html", does: "a page showing every rendition against the speech"),
            Example(command: "subweave report master.m3u8 --json", does: "the findings per rendition, as JSON"),
        ],
        "completions": [Example(command: "subweave completions bash > /etc/bash_completion.d/subweave", does: "install bash completion")],
    ]
}
