import Foundation

/// HLS media made by ffmpeg at test time (small, a few seconds each), for tests that change the
/// video under a packaged presentation.
public enum GeneratedMedia {
    /// Encodes `seconds` of a test pattern at 25 fps into `folder/prog.m3u8` and TS segments of
    /// `segment` seconds (one keyframe a second, B-frames on), with presentation times starting
    /// `offset` seconds later than ffmpeg's own start (ffmpeg adds 1.4 s), replacing what was
    /// there; writes `folder/master.m3u8` naming it when `master` is true.
    public static func tsVideo(folder: String, seconds: Double, segment: Int, offset: Double = 0, master: Bool = true) throws {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: folder) where name.hasSuffix(".ts") || name == "prog.m3u8" {
            try manager.removeItem(atPath: folder + "/" + name)
        }
        let outcome = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-t", String(seconds),
                "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                "-output_ts_offset", String(offset), "-f", "hls", "-hls_time", String(segment), "-hls_playlist_type", "vod",
                "-hls_segment_filename", folder + "/v%03d.ts", folder + "/prog.m3u8",
            ])
        guard outcome.status == 0 else { throw MissingTool(name: "ffmpeg output (\(outcome.stderr))") }
        if master {
            let text = """
                #EXTM3U
                #EXT-X-VERSION:3
                #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.42c00c",RESOLUTION=160x90
                prog.m3u8

                """
            try text.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        }
    }
}
