import Foundation

/// An HLS title whose MPEG-TS segments carry a DVB teletext stream beside ffmpeg-made H.264 video.
///
/// As a broadcast recording does: the teletext stream from ``TeletextStream``, muxed by ffmpeg
/// (`-copyts`, so each page keeps its PTS against the video) and cut into segments by ffmpeg's
/// segment muxer (its HLS muxer will not carry teletext). The segment muxer moves the pages'
/// PTS by their PCR (`-fix_teletext_pts`): tests read the times the segments carry
/// (``pagePTS(_:)``), not the ones generated.
public enum TeletextProgramme {
    /// The master's folder: `master.m3u8`, `prog.m3u8` and its segments `v000.ts`…, made from
    /// `stream` over `seconds` of 25 fps video (a key frame every 2 s).
    ///
    /// With `live`, the segments are written in real time (`-re`) to a live playlist that ends
    /// with `EXT-X-ENDLIST` when the programme does; the call returns once the first segment is
    /// listed, with the process writing the rest.
    ///
    /// `damage` changes the teletext stream's bytes before they are muxed (a parity error, say).
    public static func make(
        _ stream: TeletextStream, seconds: Int, folder: String, live: Bool = false, damage: (inout [UInt8]) -> Void = { _ in }
    ) throws -> Process? {
        let ffmpeg = try Tools.ffmpeg ?? { throw MissingTool(name: "ffmpeg") }()
        var bytes = stream.bytes
        damage(&bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/teletext.ts"))
        for (what, arguments) in [
            (
                "video",
                [
                    "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", "50",
                    "-f", "mpegts", folder + "/video.ts",
                ]
            ),
            (
                "mux",
                [
                    "-copyts", "-i", folder + "/video.ts", "-i", folder + "/teletext.ts", "-map", "0:v", "-map", "1:0", "-c", "copy", "-f", "mpegts",
                    folder + "/programme.ts",
                ]
            ),
        ] {
            let outcome = try Tools.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y"] + arguments)
            guard outcome.status == 0 else { throw MissingTool(name: "ffmpeg's \(what) (\(outcome.stderr))") }
        }
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.64000c\",RESOLUTION=160x90\nprog.m3u8\n"
            .write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let segment =
            // Not -copyts here: the segment muxer would count the first segment from time zero.
            (live ? ["-re"] : []) + ["-i", folder + "/programme.ts", "-map", "0", "-c", "copy", "-f", "segment", "-segment_time", "2"]
            + (live ? ["-segment_list_flags", "+live"] : [])
            + ["-segment_list", folder + "/prog.m3u8", "-segment_list_type", "m3u8", "-segment_format", "mpegts", folder + "/v%03d.ts"]
        guard live else {
            let outcome = try Tools.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y"] + segment)
            guard outcome.status == 0 else { throw MissingTool(name: "ffmpeg's segment muxer (\(outcome.stderr))") }
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + segment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: folder + "/prog.m3u8") && Date() < deadline { usleep(50_000) }
        return process
    }

    /// The PTS (90 kHz) of each teletext PES in `file`, as ffprobe reads them (`-fix_teletext_pts
    /// 0` keeps the PES's own, which ffmpeg otherwise replaces with the PCR's).
    public static func pagePTS(_ files: [String]) throws -> [Int64] {
        let ffprobe = try Tools.ffprobe ?? { throw MissingTool(name: "ffprobe") }()
        return try files.flatMap { file in
            let outcome = try Tools.run(
                ffprobe, ["-v", "error", "-fix_teletext_pts", "0", "-select_streams", "s:0", "-show_entries", "packet=pts", "-of", "csv=p=0", file])
            return outcome.stdout.split(whereSeparator: \.isNewline).compactMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
        }
    }
}
