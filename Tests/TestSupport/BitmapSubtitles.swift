import Foundation

/// Bitmap subtitle streams rendered from known text by real encoders: `spumux` (dvdauthor)
/// draws SubRip cues with a TrueType font into DVD subpicture units in an MPEG-2 program stream
/// that ffmpeg made; ffmpeg copies that stream into Matroska and `mkvextract` (mkvtoolnix) writes
/// it as a VobSub `.idx` + `.sub` pair.
public enum BitmapSubtitles {
    /// The tools every stream here needs, and the Debian package of each missing one.
    public static var missingTools: [String] {
        var missing: [String] = []
        if Tools.which("spumux") == nil { missing.append("dvdauthor") }
        if Tools.which("mkvextract") == nil { missing.append("mkvtoolnix") }
        if Tools.ffmpeg == nil { missing.append("ffmpeg") }
        if font("DejaVuSans.ttf") == nil { missing.append("fonts-dejavu-core") }
        return missing
    }

    /// A DejaVu font file by name, if installed.
    public static func font(_ name: String) -> String? {
        ["/usr/share/fonts/truetype/dejavu/" + name].first { FileManager.default.fileExists(atPath: $0) }
    }

    /// What was made: the `.idx` and `.sub` paths, and the program stream's start (its first
    /// timestamp, seconds), by which spumux's times are later than the SubRip file's.
    public struct Made {
        public let idx: String
        public let sub: String
        public let start: Double
    }

    /// Renders `cues` (start, end, text; `\n` between lines) in `font` at `size` points on a
    /// 720×576 PAL frame, at the bottom or the top, into `folder/<name>.idx` and `.sub`.
    public static func vobSub(
        _ cues: [(Double, Double, String)], folder: String, name: String = "subs", font: String = "DejaVuSans.ttf", size: Double = 28,
        top: Bool = false
    ) throws -> Made {
        guard missingTools.isEmpty, let ffmpeg = Tools.ffmpeg, let spumux = Tools.which("spumux"), let mkvextract = Tools.which("mkvextract"),
            let fontPath = Self.font(font)
        else { throw MissingTool(name: missingTools.joined(separator: ", ")) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // spumux looks fonts up in $HOME/.spumux.
        let home = folder + "/home"
        try manager.createDirectory(atPath: home + "/.spumux", withIntermediateDirectories: true)
        if !manager.fileExists(atPath: home + "/.spumux/" + font) { try manager.copyItem(atPath: fontPath, toPath: home + "/.spumux/" + font) }
        let seconds = Int((cues.map(\.1).max() ?? 1) + 2)
        let movie = folder + "/\(name)-movie.mpg"
        var made = try Tools.run(
            ffmpeg,
            ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=720x576:r=25", "-t", String(seconds), "-target", "pal-dvd", movie])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        try SubtitleText.srt(cues).write(toFile: folder + "/\(name).srt", atomically: true, encoding: .utf8)
        let config = """
            <subpictures format="PAL"><stream><textsub filename="\(folder)/\(name).srt" characterset="UTF-8" fontsize="\(size)" font="\(font)"
            horizontal-alignment="center" vertical-alignment="\(top ? "top" : "bottom")" left-margin="60" right-margin="60" top-margin="40"
            bottom-margin="40" subtitle-fps="25" movie-fps="25" movie-width="720" movie-height="574"/></stream></subpictures>
            """
        try config.write(toFile: folder + "/\(name).xml", atomically: true, encoding: .utf8)
        let muxed = folder + "/\(name)-spu.mpg"
        made = try Tools.run("/bin/sh", ["-c", "HOME='\(home)' '\(spumux)' '\(folder)/\(name).xml' < '\(movie)' > '\(muxed)'"])
        guard made.status == 0 else { throw MissingTool(name: "spumux output (\(made.stderr))") }
        let mkv = folder + "/\(name).mkv"
        made = try Tools.run(ffmpeg, ["-nostdin", "-loglevel", "error", "-y", "-copyts", "-i", muxed, "-map", "0:s", "-c", "copy", mkv])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        made = try Tools.run(mkvextract, [mkv, "tracks", "0:\(folder)/\(name).idx"])
        guard made.status == 0 else { throw MissingTool(name: "mkvextract output (\(made.stdout)\(made.stderr))") }
        let probe = try Tools.run(
            Tools.ffprobe ?? "ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "default=nw=1:nk=1", movie])
        let start = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return Made(idx: folder + "/\(name).idx", sub: folder + "/\(name).sub", start: start)
    }
}

extension BitmapSubtitles {
    /// One DVB subtitle stream of a title: its ISO 639-2 language, whether it is for the hard of
    /// hearing, and its cues (start, end, text; `\n` between lines).
    public struct DVBStream {
        public let language: String
        public let hardOfHearing: Bool
        public let cues: [(Double, Double, String)]

        public init(language: String, hardOfHearing: Bool = false, cues: [(Double, Double, String)]) {
            self.language = language
            self.hardOfHearing = hardOfHearing
            self.cues = cues
        }
    }

    /// An HLS title in `folder` (`master.m3u8`, `video.m3u8`, `segNNN.ts`) whose H.264 video
    /// carries `streams` as DVB subtitles beside it.
    ///
    /// Spumux draws each stream's cues (DejaVu Sans, 28 pt) into one program stream, ffmpeg's
    /// `dvbsub` encoder writes them into MPEG-TS with their languages and hearing-impaired
    /// dispositions (the subtitling_descriptor's type), and ffmpeg's segment muxer cuts it every
    /// `segment` seconds. The streams take PIDs 0x0101, 0x0102, … in order.
    public static func dvbTitle(_ streams: [DVBStream], folder: String, segment: Int = 4) throws -> String {
        guard missingTools.isEmpty, let ffmpeg = Tools.ffmpeg, let spumux = Tools.which("spumux"), let fontPath = Self.font("DejaVuSans.ttf") else {
            throw MissingTool(name: missingTools.joined(separator: ", "))
        }
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let home = folder + "/home"
        try manager.createDirectory(atPath: home + "/.spumux", withIntermediateDirectories: true)
        if !manager.fileExists(atPath: home + "/.spumux/DejaVuSans.ttf") { try manager.copyItem(atPath: fontPath, toPath: home + "/.spumux/DejaVuSans.ttf") }
        let seconds = Int((streams.flatMap { $0.cues.map(\.1) }.max() ?? 1) + 2)
        var input = folder + "/movie.mpg"
        var made = try Tools.run(
            ffmpeg,
            ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=black:s=720x576:r=25", "-t", String(seconds), "-target", "pal-dvd", input])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        for (k, stream) in streams.enumerated() {
            try SubtitleText.srt(stream.cues).write(toFile: folder + "/s\(k).srt", atomically: true, encoding: .utf8)
            let config = """
                <subpictures format="PAL"><stream><textsub filename="\(folder)/s\(k).srt" characterset="UTF-8" fontsize="28" font="DejaVuSans.ttf"
                horizontal-alignment="center" vertical-alignment="bottom" left-margin="60" right-margin="60" top-margin="40"
                bottom-margin="40" subtitle-fps="25" movie-fps="25" movie-width="720" movie-height="574"/></stream></subpictures>
                """
            try config.write(toFile: folder + "/s\(k).xml", atomically: true, encoding: .utf8)
            let output = folder + "/spu\(k).mpg"
            made = try Tools.run("/bin/sh", ["-c", "HOME='\(home)' '\(spumux)' -s \(k) '\(folder)/s\(k).xml' < '\(input)' > '\(output)'"])
            guard made.status == 0 else { throw MissingTool(name: "spumux output (\(made.stderr))") }
            input = output
        }
        // Subpicture stream k has the MPEG stream id 0x20 + k: mapped by id, in order.
        var arguments = ["-nostdin", "-loglevel", "error", "-y", "-i", input, "-map", "0:v"]
        for k in streams.indices { arguments += ["-map", "0:i:0x\(String(0x20 + k, radix: 16))"] }
        arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-g", String(25 * segment), "-keyint_min", String(25 * segment), "-sc_threshold", "0"]
        arguments += ["-c:s", "dvbsub", "-streamid", "0:0x100"]
        for (k, stream) in streams.enumerated() {
            arguments += ["-metadata:s:s:\(k)", "language=\(stream.language)", "-disposition:s:\(k)", stream.hardOfHearing ? "hearing_impaired" : "0"]
            arguments += ["-streamid", "\(k + 1):0x\(String(0x101 + k, radix: 16))"]
        }
        arguments += ["-f", "mpegts", folder + "/whole.ts"]
        made = try Tools.run(ffmpeg, arguments)
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        made = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-y", "-i", folder + "/whole.ts", "-map", "0", "-c", "copy", "-f", "segment", "-segment_time",
                String(segment), "-segment_format", "mpegts", "-segment_list", folder + "/video.m3u8", "-segment_list_type", "m3u8",
                folder + "/seg%03d.ts",
            ])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        let master = folder + "/master.m3u8"
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.42c01e\",RESOLUTION=720x576\nvideo.m3u8\n".write(
            toFile: master, atomically: true, encoding: .utf8)
        return master
    }
}
