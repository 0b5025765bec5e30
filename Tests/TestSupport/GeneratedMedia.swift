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

/// A low-latency HLS EVENT playlist (RFC 8216bis §4.4.3.7-4.4.5) published one part at a time.
///
/// ffmpeg makes 0.4 s TS chunks first (25 fps, a keyframe every chunk), each a part
/// (`v<segment>.<part>.ts`); five make a 2 s segment (`v<segment>.ts`, the five chunks' bytes one
/// after another). The playlist lists the parts of the last two complete segments and of the
/// segment being made, with `EXT-X-PART-INF`, `EXT-X-SERVER-CONTROL` and `EXT-X-PRELOAD-HINT`, as
/// a low-latency packager does; ``publishNext()`` adds one part (and, with a segment's last,
/// the segment).
public final class LowLatencySimulator: Sendable {
    public let folder: String
    /// Each chunk's file name in staging and EXTINF duration as ffmpeg wrote it.
    let chunks: [(name: String, duration: String)]
    let published = Mutex(0)
    public static let partsPerSegment = 5
    public static let partTarget = "0.4"

    /// Writes `folder/master.m3u8` and a `prog.m3u8` with the first segment and its parts (a
    /// playlist lists at least one segment); the video is a test pattern of `seconds` (a
    /// multiple of 2).
    public init(folder: String, seconds: Int) throws {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        self.folder = folder
        let staging = folder + "/staging"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let made = try Tools.run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25", "-t", String(seconds),
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-keyint_min", "10", "-sc_threshold", "0",
                "-f", "hls", "-hls_time", Self.partTarget, "-hls_playlist_type", "vod", "-hls_segment_filename", staging + "/c%04d.ts",
                staging + "/chunks.m3u8",
            ])
        guard made.status == 0 else { throw MissingTool(name: "ffmpeg output (\(made.stderr))") }
        let lines = try String(contentsOfFile: staging + "/chunks.m3u8", encoding: .utf8).components(separatedBy: "\n")
        var chunks: [(String, String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") && index + 1 < lines.count {
            chunks.append((lines[index + 1], String(line.dropFirst(8).prefix { $0 != "," })))
        }
        self.chunks = Array(chunks.prefix(chunks.count / Self.partsPerSegment * Self.partsPerSegment))
        try "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.42c00c\",RESOLUTION=160x90\nprog.m3u8\n"
            .write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        for _ in 0..<Self.partsPerSegment { publishNext() }
    }

    /// Whether every part, segment and ENDLIST are out.
    public var finished: Bool { published.withLock { $0 == chunks.count } }

    /// Every part's window on the playlist timeline (seconds from the first part's start), by
    /// segment and part.
    public var partWindows: [(segment: Int, part: Int, window: Range<Double>)] {
        var start = 0.0
        return chunks.enumerated().map { index, chunk in
            let end = start + (Double(chunk.duration) ?? 0)
            defer { start = end }
            return (index / Self.partsPerSegment, index % Self.partsPerSegment, start..<end)
        }
    }

    /// The name of part `part` of segment `segment`, and of the segment.
    public static func partName(_ segment: Int, _ part: Int) -> String { String(format: "v%03d.%d.ts", segment, part) }
    public static func segmentName(_ segment: Int) -> String { String(format: "v%03d.ts", segment) }

    /// Publishes one more part (its file first, then the playlist replaced whole); a segment's
    /// last part completes the segment; the last, ENDLIST.
    public func publishNext() {
        published.withLock { count in
            guard count < chunks.count else { return }
            let manager = FileManager.default
            let segment = count / Self.partsPerSegment, part = count % Self.partsPerSegment
            try? manager.linkItem(atPath: folder + "/staging/" + chunks[count].name, toPath: folder + "/" + Self.partName(segment, part))
            if part == Self.partsPerSegment - 1 {
                var bytes = Data()
                for k in 0..<Self.partsPerSegment {
                    bytes += (try? Data(contentsOf: URL(fileURLWithPath: folder + "/staging/" + chunks[segment * Self.partsPerSegment + k].name))) ?? Data()
                }
                try? bytes.write(to: URL(fileURLWithPath: folder + "/" + Self.segmentName(segment)))
            }
            count += 1
            try? playlist(published: count).write(toFile: folder + "/prog.m3u8", atomically: true, encoding: .utf8)
        }
    }

    /// The playlist once `count` parts are out.
    func playlist(published count: Int) -> String {
        let complete = count / Self.partsPerSegment
        var text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n"
        text += "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12.0,PART-HOLD-BACK=1.2\n#EXT-X-PART-INF:PART-TARGET=\(Self.partTarget)\n"
        text += "#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
        func partLine(_ segment: Int, _ part: Int) -> String {
            "#EXT-X-PART:DURATION=\(chunks[segment * Self.partsPerSegment + part].duration),URI=\"\(Self.partName(segment, part))\",INDEPENDENT=YES\n"
        }
        for segment in 0..<complete {
            // Parts are listed for the last two complete segments, as packagers keep them a few target durations.
            if segment >= complete - 2 { for part in 0..<Self.partsPerSegment { text += partLine(segment, part) } }
            let duration = (0..<Self.partsPerSegment).reduce(0.0) { $0 + (Double(chunks[segment * Self.partsPerSegment + $1].duration) ?? 0) }
            text += "#EXTINF:\(String(format: "%.6f", duration)),\n\(Self.segmentName(segment))\n"
        }
        if count == chunks.count { return text + "#EXT-X-ENDLIST\n" }
        for part in 0..<(count % Self.partsPerSegment) { text += partLine(complete, part) }
        return text + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(Self.partName(complete, count % Self.partsPerSegment))\"\n"
    }

    /// Publishes the remaining parts one every `seconds`, on a thread of its own.
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
