import Foundation
import TestSupport
import Testing

/// Seeded random sequences of commands over one title, as a pipeline runs them over a title's
/// life: package (with changed arguments), refresh after a shorter and a longer re-encode,
/// remove by id and by language, batch, a live event followed to its end, and kill -9 in the
/// middle of a command. After each step the title is checked against a model of what the
/// operator said, not against what Subweave wrote before:
///
/// - `validate` finds no error and no warning;
/// - the master is byte for byte its input outside the lines Subweave manages;
/// - every sidecar said is a rendition, every cue of it in the segment its start falls in, at
///   its time (read as hls.js reads segments: ``PlayerClock``), and nothing else;
/// - every caption service to publish is offered once (a rendition, or in-band), and never twice;
/// - `list --json` records the tracks said.
///
/// At the end everything Subweave added is taken out and the input master must come back.
/// CI runs a few fixed seeds; `Scripts/soak-lifecycle.sh` runs many more.
@Suite(
    .enabled(if: BuiltTool.subweave != nil, "the subweave binary is not built"),
    .enabled(if: Tools.ffmpeg != nil && Tools.ffprobe != nil, "ffmpeg is missing"))
struct LifecyclePropertyTests {
    /// `SUBWEAVE_LIFECYCLE_SEEDS` as `FIRST-LAST` or a comma list; three seeds by default (one of
    /// them starts as a live event).
    static var seeds: [UInt64] {
        let text = ProcessInfo.processInfo.environment["SUBWEAVE_LIFECYCLE_SEEDS"] ?? "1-3"
        let parts = text.split(separator: "-").compactMap { UInt64($0) }
        if parts.count == 2 { return Array(parts[0]...parts[1]) }
        return text.split(separator: ",").compactMap { UInt64($0) }
    }

    /// `SUBWEAVE_LIFECYCLE_STEPS`: commands per sequence (10 by default).
    static var steps: Int { Int(ProcessInfo.processInfo.environment["SUBWEAVE_LIFECYCLE_STEPS"] ?? "") ?? 10 }

    @Test func randomSequencesKeepTheTitleAsSaid() throws {
        let media = try LifecycleMedia.make()
        for seed in Self.seeds {
            var sequence = try LifecycleSequence(seed: seed, media: media)
            try sequence.run(steps: Self.steps)
        }
    }
}

/// The video of the title in three lengths (4, 6 and 9 s at 30000/1001 fps, 2 s segments), each
/// carrying the same CEA-608 captions: CC1 pop-ons and a CC3 one (a fourth CC1 caption only in
/// the long cut).
struct LifecycleMedia {
    struct Cut {
        let folder: String
        let frames: Int
        var seconds: Double { Double(frames) * 1001 / 30000 }
    }

    let cuts: [Cut]

    /// CC1's and CC3's texts in a cut of `frames`.
    static func captions(frames: Int) -> [String: [String]] {
        ["CC1": ["First caption", "Second caption"] + (frames > 230 ? ["Late caption"] : []), "CC3": ["Third"]]
    }

    static func make() throws -> LifecycleMedia {
        var script = CaptionScript()
        script.popOn(["First caption"], at: 10)
        script.send([CC608.command(0x2C)], at: 50)
        script.popOn(["Second caption"], at: 70)
        script.send([CC608.command(0x2C)], at: 110)
        script.popOn(["Third"], at: 40, field: 2)
        script.send([CC608.command(0x2C, field: 2)], at: 100, field: 2)
        script.popOn(["Late caption"], at: 200)
        script.send([CC608.command(0x2C)], at: 240)
        return LifecycleMedia(cuts: try [120, 180, 270].map { Cut(folder: try CaptionedStream.hls(script: script, frames: $0), frames: $0) })
    }
}

/// One sidecar the operator may give: its format, language and cues (programme seconds).
struct LifecycleSidecar {
    let language: String
    let file: String
    let bytes: [UInt8]
    let cues: [(start: Double, end: Double, text: String)]

    static func all() -> [LifecycleSidecar] {
        let fr: [(Double, Double, String)] = [
            (0.5, 1.5, "Bonjour, ça va très bien aujourd'hui."), (2.0, 3.0, "Ça fait plaisir à entendre, à demain."),
        ]
        let srt = fr.enumerated().map { i, c in "\(i + 1)\n\(srtTime(c.0)) --> \(srtTime(c.1))\n\(c.2)\n" }.joined(separator: "\n")
        let de: [(Double, Double, String)] = [(1.0, 2.0, "Guten Tag"), (3.2, 3.8, "Auf Wiedersehen")]
        let vtt = "WEBVTT\n\n" + de.map { "\(vttTime($0.0)) --> \(vttTime($0.1))\n\($0.2)\n" }.joined(separator: "\n")
        let it: [(Double, Double, String)] = [(0.8, 1.9, "Ciao a tutti"), (2.4, 3.4, "Arrivederci")]
        let ttml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="it"><body><div>
            \(it.map { "<p begin=\"\($0.0)s\" end=\"\($0.1)s\">\($0.2)</p>" }.joined(separator: "\n"))
            </div></body></tt>

            """
        let pt: [(Double, Double, String)] = [(1.2, 2.2, "Olá a todos"), (2.6, 3.6, "Tchau")]
        let ass = """
            [Script Info]
            ScriptType: v4.00+

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment
            Style: Default,Arial,20,&H00FFFFFF,0,0,2

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            \(pt.map { "Dialogue: 0,\(assTime($0.0)),\(assTime($0.1)),Default,,0,0,0,,\($0.2)" }.joined(separator: "\n"))

            """
        // SCC: each caption loaded ahead and shown by an EOC on a frame of its own, erased by EDM.
        let frame = 1001.0 / 30000
        let es: [(load: Int, show: Int, erase: Int, text: String)] = [(20, 45, 75, "Hola amigos"), (80, 90, 110, "Hasta luego")]
        var scc = "Scenarist_SCC V1.0\n"
        for caption in es {
            let load = [CC608.command(0x20), CC608.command(0x20), CC608.pac(row: 15), CC608.pac(row: 15)] + CC608.text(caption.text)
            scc += "\n\(sccTime(caption.load))\t\(hex(load))\n"
            scc += "\n\(sccTime(caption.show))\t\(hex([CC608.command(0x2F), CC608.command(0x2F)]))\n"
            scc += "\n\(sccTime(caption.erase))\t\(hex([CC608.command(0x2C), CC608.command(0x2C)]))\n"
        }
        // EBU STL at 25 fps: teletext rows, time codes in whole frames.
        let nl: [(Double, Double, String)] = [(1.0, 2.0, "Goedendag"), (2.4, 3.6, "Tot ziens")]
        let stl = STLFile(
            blocks: nl.enumerated().map { i, c in
                func code(_ t: Double) -> (UInt8, UInt8, UInt8, UInt8) {
                    let frames = Int((t * 25).rounded())
                    return (0, 0, UInt8(frames / 25), UInt8(frames % 25))
                }
                return STLFile.Block(UInt16(i + 1), code(c.0), code(c.1), [0x0D, 0x0B, 0x0B] + Array(c.2.utf8) + [0x0A, 0x0A])
            })
        return [
            LifecycleSidecar(language: "nl", file: "nl.stl", bytes: stl.bytes, cues: nl),
            LifecycleSidecar(language: "fr", file: "fr.srt", bytes: windows1252(srt), cues: fr),
            LifecycleSidecar(language: "de", file: "de.vtt", bytes: Array(vtt.utf8), cues: de),
            LifecycleSidecar(language: "it", file: "it.ttml", bytes: Array(ttml.utf8), cues: it),
            LifecycleSidecar(language: "pt", file: "pt.ass", bytes: Array(ass.utf8), cues: pt),
            LifecycleSidecar(
                language: "es", file: "es.scc", bytes: Array(scc.utf8),
                cues: es.map { (Double($0.show) * frame, Double($0.erase) * frame, $0.text) }),
        ]
    }

    static func srtTime(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        return String(format: "%02d:%02d:%02d,%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
    }

    static func vttTime(_ t: Double) -> String { srtTime(t).replacingOccurrences(of: ",", with: ".") }

    static func assTime(_ t: Double) -> String {
        let cs = Int((t * 100).rounded())
        return String(format: "%d:%02d:%02d.%02d", cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
    }

    /// A non-drop-frame SMPTE time code of frame `n` at 30 frames a "second".
    static func sccTime(_ n: Int) -> String { String(format: "00:00:%02d:%02d", n / 30, n % 30) }

    static func hex(_ pairs: [(UInt8, UInt8)]) -> String { pairs.map { String(format: "%02x%02x", $0.0, $0.1) }.joined(separator: " ") }

    static func windows1252(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { $0.value < 0x100 ? UInt8($0.value) : UInt8(ascii: "?") }
    }
}

/// What the operator has said of the title so far, and what the title must therefore show.
struct LifecycleModel {
    /// Sidecars given, by language, with the delay said.
    var tracks: [String: Double] = [:]
    var inBand = false
    /// Caption services the operator said not to publish.
    var unpublished: Set<String> = []
    var frames = 180

    var published: [String] { ["CC1", "CC3"].filter { !unpublished.contains($0) } }
}

/// One seeded sequence over a fresh copy of the title.
struct LifecycleSequence {
    let seed: UInt64
    let media: LifecycleMedia
    let title: String
    let master: String
    let input: String
    let sidecars: [LifecycleSidecar]
    var rng: SeededGenerator
    var model = LifecycleModel()
    var log: [String] = []

    static let inputMaster = """
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-INDEPENDENT-SEGMENTS
        # made by the test's encoder; kept as it is
        #EXT-X-SESSION-DATA:DATA-ID="com.example.title",VALUE="Lifecycle"
        #EXT-X-STREAM-INF:BANDWIDTH=400000,AVERAGE-BANDWIDTH=300000,RESOLUTION=160x90
        v1/prog.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=160x90
        v2/prog.m3u8

        """

    init(seed: UInt64, media: LifecycleMedia) throws {
        self.seed = seed
        self.media = media
        rng = SeededGenerator(seed: seed)
        title = try Scratch.make().path
        master = title + "/master.m3u8"
        input = Self.inputMaster
        sidecars = LifecycleSidecar.all()
        try FileManager.default.createDirectory(atPath: title + "/subs", withIntermediateDirectories: true)
        for sidecar in sidecars { try Data(sidecar.bytes).write(to: URL(fileURLWithPath: title + "/subs/" + sidecar.file)) }
        try input.write(toFile: master, atomically: true, encoding: .utf8)
    }

    /// Says what went wrong with the seed and the steps so far, to replay it.
    func context(_ what: String) -> Comment {
        Comment(
            rawValue: "seed \(seed) (SUBWEAVE_LIFECYCLE_SEEDS=\(seed) replays it): \(what)\n  after: "
                + log.suffix(12).joined(separator: "\n  then: "))
    }

    /// `arguments` as the log shows them: paths inside the title relative to it.
    func shown(_ arguments: some Sequence<String>) -> String {
        arguments.map { $0.replacingOccurrences(of: title + "/", with: "") }.joined(separator: " ")
    }

    // MARK: Steps

    mutating func run(steps: Int) throws {
        try install(frames: 180)
        if seed % 3 == 0 {
            guard try followLiveEvent() else { return }
        } else {
            guard try package(first: true) else { return }
        }
        for _ in 0..<steps {
            let ok: Bool
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25: ok = try package(first: false)
            case 25..<40: ok = try refresh()
            case 40..<55: ok = try removeByID()
            case 55..<67: ok = try removeByLanguage()
            case 67..<80: ok = try batch()
            default: ok = try killedThenRunAgain()
            }
            guard ok else { return }
        }
        try removeEverything()
    }

    /// Replaces both variants' files with the cut of `frames` frames.
    func install(frames: Int, live: Int? = nil) throws {
        let cut = try #require(media.cuts.first { $0.frames == frames })
        let manager = FileManager.default
        for variant in ["v1", "v2"] {
            let folder = title + "/" + variant
            try? manager.removeItem(atPath: folder)
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in try manager.contentsOfDirectory(atPath: cut.folder) where name.hasSuffix(".ts") {
                try manager.copyItem(atPath: cut.folder + "/" + name, toPath: folder + "/" + name)
            }
            var playlist = try String(contentsOfFile: cut.folder + "/prog.m3u8", encoding: .utf8)
            if let live { playlist = Self.event(playlist, segments: live) }
            try playlist.write(toFile: folder + "/prog.m3u8", atomically: true, encoding: .utf8)
        }
    }

    /// `playlist` as a live EVENT playlist holding its first `segments` segments (all of them:
    /// with ENDLIST).
    static func event(_ playlist: String, segments: Int) -> String {
        var lines: [String] = []
        var count = 0
        var pendingInf: String?
        let all = playlist.split(separator: "\n").map(String.init)
        let total = all.filter { $0.hasPrefix("#EXTINF") }.count
        for line in all {
            if line.hasPrefix("#EXT-X-PLAYLIST-TYPE") {
                lines.append("#EXT-X-PLAYLIST-TYPE:EVENT")
            } else if line == "#EXT-X-ENDLIST" {
                continue
            } else if line.hasPrefix("#EXTINF") {
                pendingInf = line
            } else if let inf = pendingInf, !line.hasPrefix("#") {
                pendingInf = nil
                guard count < segments else { continue }
                lines += [inf, line]
                count += 1
            } else if pendingInf == nil {
                lines.append(line)
            }
        }
        if segments >= total { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Some of the sidecars, each with a delay of 0 or 0.25 s (changed arguments).
    mutating func someTracks() -> [(LifecycleSidecar, Double)] {
        var chosen = sidecars.filter { _ in Bool.random(using: &rng) }
        if chosen.isEmpty { chosen = [sidecars.randomElement(using: &rng)!] }
        return chosen.map { ($0, Bool.random(using: &rng) ? 0.25 : 0) }
    }

    func descriptor(_ sidecar: LifecycleSidecar, delay: Double) -> String {
        "url=\(title)/subs/\(sidecar.file),language=\(sidecar.language),id=\(sidecar.language)" + (delay != 0 ? ",delay=\(delay)" : "")
    }

    /// Runs `arguments`, expecting success; false (and an issue) when it fails.
    mutating func command(_ arguments: [String]) throws -> Bool {
        log.append(shown(arguments))
        let outcome = try BuiltTool.run(arguments + ["--quiet"])
        guard outcome.status == 0 else {
            Issue.record(context("failed: \(outcome.stderr)"))
            return false
        }
        return try check()
    }

    mutating func packageArguments(first: Bool) -> (arguments: [String], apply: (inout LifecycleModel) -> Void) {
        let tracks = someTracks()
        var arguments = ["package", master] + tracks.flatMap { ["--subtitle", descriptor($0.0, delay: $0.1)] }
        let replace = !first && Int.random(in: 0..<6, using: &rng) == 0
        if replace { arguments.append("--replace") }
        if first { arguments += ["--caption-language", "en"] }
        var inBand: Bool?
        if Int.random(in: 0..<4, using: &rng) == 0 {
            inBand = Bool.random(using: &rng)
            arguments += ["--closed-captions", inBand! ? "in-band" : "auto"]
        }
        var publish: (String, Bool)?
        if Int.random(in: 0..<3, using: &rng) == 0 {
            publish = (Bool.random(using: &rng) ? "CC1" : "CC3", Bool.random(using: &rng))
            arguments += ["--caption-service", "\(publish!.0):publish=\(publish!.1 ? "yes" : "no")"]
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            arguments += ["--preferred-language", tracks.randomElement(using: &rng)!.0.language]
        }
        let apply: (inout LifecycleModel) -> Void = { model in
            if replace { model.tracks = [:] }
            for (sidecar, delay) in tracks { model.tracks[sidecar.language] = delay }
            if let inBand { model.inBand = inBand }
            if let (service, yes) = publish {
                if yes { model.unpublished.remove(service) } else { model.unpublished.insert(service) }
            }
        }
        return (arguments, apply)
    }

    mutating func package(first: Bool) throws -> Bool {
        let (arguments, apply) = packageArguments(first: first)
        apply(&model)
        if arguments[0] == "remove" {
            // The killed run may have finished: then there is nothing left to take out, and
            // saying so is right.
            log.append(shown(arguments) + " (again)")
            let again = try BuiltTool.run(arguments + ["--quiet"])
            guard again.status == 0 || again.stderr.contains("matches no subtitle rendition") else {
                Issue.record(context("run again: \(again.stderr)"))
                return false
            }
            return try check()
        }
        return try command(arguments)
    }

    mutating func refresh() throws -> Bool {
        let frames = [120, 180, 270].randomElement(using: &rng)!
        try install(frames: frames)
        model.frames = frames
        log.append("(re-encoded: \(frames) frames)")
        return try command(["refresh", master])
    }

    /// What there is to take out, by id: a sidecar, or a published caption service.
    var removableIDs: [String] { model.tracks.keys.sorted() + model.published }

    mutating func removeByID() throws -> Bool {
        guard let id = removableIDs.randomElement(using: &rng) else { return true }
        if model.tracks[id] != nil { model.tracks[id] = nil } else { model.unpublished.insert(id) }
        return try command(["remove", master, "--id", id])
    }

    mutating func removeByLanguage() throws -> Bool {
        let languages = model.tracks.keys.sorted() + (model.published.isEmpty ? [] : ["en"])
        guard let language = languages.randomElement(using: &rng) else { return true }
        if language == "en" { model.unpublished.formUnion(model.published) } else { model.tracks[language] = nil }
        return try command(["remove", master, "--language", language])
    }

    mutating func batch() throws -> Bool {
        let tracks = someTracks()
        var line: [String: Any] = [
            "master": master,
            "tracks": tracks.map { sidecar, delay -> [String: String] in
                var object = ["url": "\(title)/subs/\(sidecar.file)", "language": sidecar.language, "id": sidecar.language]
                if delay != 0 { object["delay"] = String(delay) }
                return object
            },
        ]
        if Int.random(in: 0..<4, using: &rng) == 0 { line["preferred_language"] = tracks[0].0.language }
        let catalogue = title + "/../catalogue-\(seed)-\(log.count).jsonl"
        try Data(try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])).write(to: URL(fileURLWithPath: catalogue))
        for (sidecar, delay) in tracks { model.tracks[sidecar.language] = delay }
        log.append("batch \(tracks.map { "\($0.0.language)+\($0.1)" }.joined(separator: ","))")
        let outcome = try BuiltTool.run(["batch", catalogue, "--quiet"])
        // Skipped: packaged before with the same inputs, and the title unchanged since (the
        // checks below hold either way).
        guard outcome.status == 0, outcome.stdout.contains("\"status\":\"ok\"") || outcome.stdout.contains("\"status\":\"skipped\"") else {
            Issue.record(context("batch: \(outcome.stdout) \(outcome.stderr)"))
            return false
        }
        return try check()
    }

    /// A package, refresh or remove killed (SIGKILL) after 0-400 ms: the title is still valid,
    /// then the same command run to its end gives what it would have.
    mutating func killedThenRunAgain() throws -> Bool {
        var arguments: [String]
        var apply: (inout LifecycleModel) -> Void = { _ in }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            (arguments, apply) = packageArguments(first: false)
        case 1:
            let frames = [120, 180, 270].randomElement(using: &rng)!
            try install(frames: frames)
            model.frames = frames
            arguments = ["refresh", master]
        default:
            guard let id = removableIDs.randomElement(using: &rng) else { return true }
            let isTrack = model.tracks[id] != nil
            apply = { model in if isTrack { model.tracks[id] = nil } else { model.unpublished.insert(id) } }
            arguments = ["remove", master, "--id", id]
        }
        let delay = Double(Int.random(in: 0...400, using: &rng)) / 1000
        log.append("kill -9 after \(delay) s of: " + shown(arguments))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BuiltTool.subweave))
        process.arguments = arguments + ["--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Whatever the kill left is served: it must validate (unless the video was re-encoded
        // under it and the refresh did not finish), and keep the input's own lines.
        let validated = try BuiltTool.run(["validate", master])
        let left = try String(contentsOfFile: master, encoding: .utf8)
        guard arguments[0] == "refresh" || Self.isClean(validated, master: left, input: input) else {
            Issue.record(context("after the kill, validate: \(validated.stdout)\(validated.stderr)"))
            return false
        }
        #expect(Self.unmanaged(try String(contentsOfFile: master, encoding: .utf8)) == Self.unmanaged(input), context("after the kill"))
        apply(&model)
        if arguments[0] == "remove" {
            // The killed run may have finished: then there is nothing left to take out, and
            // saying so is right.
            log.append(shown(arguments) + " (again)")
            let again = try BuiltTool.run(arguments + ["--quiet"])
            guard again.status == 0 || again.stderr.contains("matches no subtitle rendition") else {
                Issue.record(context("run again: \(again.stderr)"))
                return false
            }
            return try check()
        }
        return try command(arguments)
    }

    /// The title starts as a live event followed to its end: published a segment at a time while
    /// `package --follow` writes the renditions.
    mutating func followLiveEvent() throws -> Bool {
        let tracks = someTracks()
        try install(frames: 180, live: 1)
        let cut = try #require(media.cuts.first { $0.frames == 180 })
        let vod = try String(contentsOfFile: cut.folder + "/prog.m3u8", encoding: .utf8)
        let segments = vod.components(separatedBy: "#EXTINF").count - 1
        let arguments =
            ["package", master] + tracks.flatMap { ["--subtitle", descriptor($0.0, delay: $0.1)] }
            + ["--caption-language", "en", "--follow", "--poll", "0.1", "--idle-timeout", "30", "--quiet"]
        log.append("follow " + tracks.map { "\($0.0.language)+\($0.1)" }.joined(separator: ","))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BuiltTool.subweave))
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        for published in 2...segments {
            Thread.sleep(forTimeInterval: 0.4)
            for variant in ["v1", "v2"] {
                try Self.event(vod, segments: published).write(toFile: title + "/\(variant)/prog.m3u8", atomically: true, encoding: .utf8)
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            Issue.record(context("follow: status \(process.terminationStatus): \(stderr)"))
            return false
        }
        for (sidecar, delay) in tracks { model.tracks[sidecar.language] = delay }
        return try check()
    }

    /// Takes out, one command at a time, everything Subweave added: the input master comes back.
    mutating func removeEverything() throws {
        for id in removableIDs {
            if model.tracks[id] != nil { model.tracks[id] = nil } else { model.unpublished.insert(id) }
            guard try command(["remove", master, "--id", id]) else { return }
        }
        #expect(try String(contentsOfFile: master, encoding: .utf8) == input, context("everything taken out, the master is not its input"))
    }

    // MARK: Checks

    /// The master without what Subweave manages: its SUBTITLES and CLOSED-CAPTIONS renditions,
    /// and the variants' SUBTITLES and CLOSED-CAPTIONS attributes.
    static func unmanaged(_ text: String) -> String {
        text.components(separatedBy: "\n").filter {
            !$0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") && !$0.hasPrefix("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS")
        }.map { line in
            guard line.hasPrefix("#EXT-X-STREAM-INF:") else { return line }
            return line.replacingOccurrences(of: #",(SUBTITLES|CLOSED-CAPTIONS)=("[^"]*"|[^,]*)"#, with: "", options: .regularExpression)
        }.joined(separator: "\n")
    }

    static func attribute(_ name: String, _ line: String) -> String? {
        guard let range = line.range(of: #"[:,]\#(name)=("[^"]*"|[^,]*)"#, options: .regularExpression) else { return nil }
        let value = line[range].drop { $0 != "=" }.dropFirst()
        return value.hasPrefix("\"") ? String(value.dropFirst().dropLast()) : String(value)
    }

    /// Whether `validate` found nothing; the input master given back whole keeps its own
    /// warnings (no CLOSED-CAPTIONS on variants whose video carries captions): not Subweave's.
    static func isClean(_ validated: Tools.Outcome, master: String, input: String) -> Bool {
        validated.status == 0 && (validated.stderr.contains("0 errors, 0 warnings") || master == input)
    }

    /// Checks the title against the model; false (with issues) when it does not hold.
    mutating func check() throws -> Bool {
        var ok = true
        func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
            if !condition {
                ok = false
                Issue.record(context(what()))
            }
        }
        let validated = try BuiltTool.run(["validate", master])
        let text = try String(contentsOfFile: master, encoding: .utf8)
        expect(Self.isClean(validated, master: text, input: input), "validate: \(validated.stdout)\(validated.stderr)")
        expect(Self.unmanaged(text) == Self.unmanaged(input), "the master's own lines changed:\n\(text)")
        let lines = text.components(separatedBy: "\n")
        let subtitles = lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
        let declared = lines.filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS") }.compactMap { Self.attribute("INSTREAM-ID", $0) }
        let captionRenditions = subtitles.compactMap { Self.attribute("URI", $0) }.filter { $0.hasPrefix("captions/") }.map {
            String($0.split(separator: "/")[1]).uppercased()
        }
        let sidecarLanguages = subtitles.filter { Self.attribute("URI", $0)?.hasPrefix("subtitles/") ?? false }.compactMap {
            Self.attribute("LANGUAGE", $0)
        }
        expect(sidecarLanguages.sorted() == model.tracks.keys.sorted(), "sidecar renditions \(sidecarLanguages), said \(model.tracks.keys.sorted())")
        let offered = captionRenditions + declared
        expect(Set(offered).count == offered.count, "a caption service offered twice: \(offered)")
        expect(
            Set(model.inBand ? declared : captionRenditions) == Set(model.published) && (model.inBand ? captionRenditions : declared).isEmpty,
            "captions offered: renditions \(captionRenditions), in-band \(declared); said: \(model.inBand ? "in-band" : "renditions") \(model.published)")
        guard ok else { return false }

        let firstPTS = try #require(try Tools.lowestVideoPTS(title + "/v1/seg_000.ts"))
        let cut = try #require(media.cuts.first { $0.frames == model.frames })
        for line in subtitles {
            guard let uri = Self.attribute("URI", line) else { continue }
            let cues = try Self.placedCues(title + "/" + uri, firstPTS: firstPTS)
            if uri.hasPrefix("captions/") {
                let service = String(uri.split(separator: "/")[1]).uppercased()
                let texts = Set(cues.map { $0.cue.text.replacingOccurrences(of: "\n", with: " ") })
                let want = Set(LifecycleMedia.captions(frames: cut.frames)[service] ?? [])
                expect(texts == want, "\(service) shows \(texts.sorted()), the video carries \(want.sorted())")
                continue
            }
            guard let language = Self.attribute("LANGUAGE", line), let sidecar = sidecars.first(where: { $0.language == language }),
                let delay = model.tracks[language]
            else { continue }
            for want in sidecar.cues where want.start + delay < cut.seconds {
                let start = want.start + delay
                let found = cues.filter { $0.cue.text == want.text && abs($0.cue.start - start) <= 0.034 }
                expect(!found.isEmpty, "\(language): \"\(want.text)\" at \(start) s is missing; the rendition has \(cues.map { ($0.cue.start, $0.cue.text) })")
                expect(
                    found.contains { $0.segment.contains(min(start, cut.seconds - 0.001)) },
                    "\(language): \"\(want.text)\" at \(start) s is not in the segment its start falls in: \(found.map { ($0.segment, $0.cue.start) })")
            }
            let known = Set(sidecar.cues.map(\.text))
            expect(cues.allSatisfy { known.contains($0.cue.text) }, "\(language): cues nobody gave: \(cues.map(\.cue.text))")
        }
        // What was said is recorded.
        let listed = try BuiltTool.run(["list", master, "--json"])
        if let object = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any],
            let intent = object["intent"] as? [String: Any]
        {
            let ids = ((intent["tracks"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
            expect(ids.sorted() == model.tracks.keys.sorted(), "the record's tracks \(ids.sorted()), said \(model.tracks.keys.sorted())")
        } else {
            expect(false, "list --json shows no intent: \(listed.stdout.prefix(500)) \(listed.stderr)")
        }
        return ok
    }

    /// Every cue of the rendition whose media playlist is `path`, placed on the programme's
    /// timeline, with the time range of the segment it was read from.
    static func placedCues(_ path: String, firstPTS: Int64) throws -> [(cue: PlayerClock.PlacedCue, segment: Range<Double>)] {
        let folder = (path as NSString).deletingLastPathComponent
        var placed: [(PlayerClock.PlacedCue, Range<Double>)] = []
        var start = 0.0
        var duration: Double?
        for line in try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n") {
            if line.hasPrefix("#EXTINF:") {
                duration = Double(line.dropFirst(8).prefix { $0 != "," })
            } else if !line.isEmpty, !line.hasPrefix("#"), let length = duration {
                let segment = try String(contentsOfFile: folder + "/" + line, encoding: .utf8)
                for cue in PlayerClock.place(segment: segment, firstPTS: firstPTS, sequenceStart: 0).cues {
                    placed.append((cue, start..<(start + length)))
                }
                start += length
                duration = nil
            }
        }
        return placed
    }
}
