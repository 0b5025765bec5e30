import Foundation
import Synchronization

/// HLS media made by ffmpeg at test time (small, a few seconds each), for tests that change the
/// video under a packaged presentation.
public enum GeneratedMedia {
    /// Encodes `seconds` of a test pattern at 25 fps into `folder/prog.m3u8` and TS segments of
    /// `segment` seconds (one keyframe a second, B-frames on), with presentation times starting
    /// `offset` seconds later than ffmpeg's own start (ffmpeg adds 1.4 s), replacing what was
    /// there; writes `folder/master.m3u8` naming it when `master` is true.
    ///
    /// With `key`, the segments are AES-128 encrypted (ffmpeg's `-hls_key_info_file`) with the 16
    /// bytes in `key.file`, the playlist's EXT-X-KEY naming `key.uri`.
    public static func tsVideo(
        folder: String, seconds: Double, segment: Int, offset: Double = 0, master: Bool = true, key: (uri: String, file: String)? = nil
    ) throws {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: folder) where name.hasSuffix(".ts") || name == "prog.m3u8" {
            try manager.removeItem(atPath: folder + "/" + name)
        }
        var encryption: [String] = []
        if let key {
            let info = folder + "/keyinfo.txt"
            try "\(key.uri)\n\(key.file)\n".write(toFile: info, atomically: true, encoding: .utf8)
            encryption = ["-hls_key_info_file", info]
        }
        let outcome = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-t", String(seconds),
                "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                "-output_ts_offset", String(offset), "-f", "hls", "-hls_time", String(segment), "-hls_playlist_type", "vod",
            ] + encryption + ["-hls_segment_filename", folder + "/v%03d.ts", folder + "/prog.m3u8"])
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

/// A live EVENT playlist published one segment at a time: made whole by ffmpeg first (2 s
/// segments, 25 fps, x264), then exposed segment by segment, either in step with a follower
/// (``publishNext()`` from its update callback: what it sees does not depend on the machine's
/// speed) or on a clock (``publishEvery(seconds:)``).
public final class LiveSimulator: Sendable {
    public let folder: String
    let segments: [(name: String, duration: String)]
    let published = Mutex(0)

    /// Writes `folder/master.m3u8` and a `prog.m3u8` with the first segment; the video is a test
    /// pattern of `seconds`, or `input` (a TS file, its video copied) cut into 2 s segments.
    public init(folder: String, seconds: Int, input: String? = nil) throws {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        self.folder = folder
        let staging = folder + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let made = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error",
            ]
                + (input.map { ["-i", $0, "-map", "0:v", "-c", "copy"] }
                    ?? ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-g", "25"])
                + ["-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_filename", staging + "/v%03d.ts", staging + "/prog.m3u8"])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        let lines = try String(contentsOfFile: staging + "/prog.m3u8", encoding: .utf8).components(separatedBy: "\n")
        var segments: [(String, String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") && index + 1 < lines.count {
            segments.append((lines[index + 1], String(line.dropFirst(8))))
        }
        self.segments = segments
        try "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.42c00c\",RESOLUTION=160x90\nprog.m3u8\n"
            .write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        publishNext()
    }

    /// Whether every segment and ENDLIST are out.
    public var finished: Bool { published.withLock { $0 == segments.count } }

    /// Publishes one more segment (the playlist replaced whole); with the last, ENDLIST.
    public func publishNext() {
        published.withLock { count in
            guard count < segments.count else { return }
            try? FileManager.default.linkItem(atPath: folder + "/staging/" + segments[count].name, toPath: folder + "/" + segments[count].name)
            count += 1
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
            for segment in segments.prefix(count) { text += "#EXTINF:\(segment.duration)\n\(segment.name)\n" }
            if count == segments.count { text += "#EXT-X-ENDLIST\n" }
            try? text.write(toFile: folder + "/prog.m3u8", atomically: true, encoding: .utf8)
        }
    }

    /// Publishes the remaining segments one every `seconds`, on a thread of its own.
    public func publishEvery(seconds: Double) {
        let thread = Thread { [self] in
            while !finished {
                Thread.sleep(forTimeInterval: seconds)
                publishNext()
            }
        }
        thread.start()
    }
}
