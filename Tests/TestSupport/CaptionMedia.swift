import Foundation

/// CEA-608 byte pairs composed by hand (CTA-608-E), for scripts.
public enum CC608 {
    /// `byte` with its top bit set as odd parity needs.
    public static func parity(_ byte: UInt8) -> UInt8 { (byte & 0x7F) | ((byte & 0x7F).nonzeroBitCount % 2 == 0 ? 0x80 : 0) }

    public static func pair(_ a: UInt8, _ b: UInt8) -> (UInt8, UInt8) { (parity(a), parity(b)) }

    /// A miscellaneous control code (RCL 0x20, EOC 0x2F, EDM 0x2C, CR 0x2D, RU2 0x25 …) for
    /// data channel 1 or 2 of field 1 or 2.
    public static func command(_ code: UInt8, channel: Int = 1, field: Int = 1) -> (UInt8, UInt8) {
        pair((field == 2 ? 0x15 : 0x14) | (channel == 2 ? 0x08 : 0), code)
    }

    /// A preamble address code: row 1-15, indent a multiple of 4.
    public static func pac(row: Int, indent: Int = 0, channel: Int = 1) -> (UInt8, UInt8) {
        let rows = [11, 0, 1, 2, 3, 4, 12, 13, 14, 15, 5, 6, 7, 8, 9, 10]
        let index = rows.firstIndex(of: row)!
        let c1 = 0x10 | UInt8(index >> 1) | (channel == 2 ? 0x08 : 0)
        let c2 = 0x40 | UInt8((index & 1) << 5) | (indent > 0 ? 0x10 | UInt8(indent / 4) << 1 : 0)
        return pair(c1, c2)
    }

    /// Basic characters, two per pair (the last padded with a null).
    public static func text(_ s: String) -> [(UInt8, UInt8)] {
        let bytes = Array(s.utf8)
        return stride(from: 0, to: bytes.count, by: 2).map { i in pair(bytes[i], i + 1 < bytes.count ? bytes[i + 1] : 0) }
    }

    /// A two-byte code (special or extended character, mid-row code) for channel 1 or 2.
    public static func code(_ c1: UInt8, _ c2: UInt8, channel: Int = 1) -> (UInt8, UInt8) {
        pair(c1 | (channel == 2 ? 0x08 : 0), c2)
    }
}

/// What to send, frame by frame in presentation order, on each field.
public struct CaptionScript: Sendable {
    public private(set) var field1: [Int: (UInt8, UInt8)] = [:]
    public private(set) var field2: [Int: (UInt8, UInt8)] = [:]
    /// CEA-708 cc_data triplets per frame (after the two 608 ones).
    public private(set) var dtvcc: [Int: [(UInt8, UInt8, UInt8)]] = [:]
    private var dtvccSequence = 0

    public init() {}

    /// Sends `commands` to 708 service `service` in one DTVCC packet carried by `frame`.
    public mutating func send708(_ commands: [UInt8]..., service: Int = 1, at frame: Int) {
        let blocks = DTVCC.blocks(commands.flatMap { $0 }, service: service)
        dtvcc[frame, default: []] += DTVCC.triplets(DTVCC.packet(sequence: dtvccSequence, blocks: blocks))
        dtvccSequence = (dtvccSequence + 1) & 3
    }

    /// Sends `pairs` on consecutive frames from `frame`; control codes (first byte 0x10-0x1F) are
    /// sent twice, as CTA-608 requires.
    ///
    /// Returns the frame after the last one used.
    @discardableResult
    public mutating func send(_ pairs: [(UInt8, UInt8)], at frame: Int, field: Int = 1, doubleControls: Bool = true) -> Int {
        var f = frame
        for p in pairs {
            let isControl = (0x10...0x1F).contains(p.0 & 0x7F)
            for _ in 0..<(isControl && doubleControls ? 2 : 1) {
                if field == 1 { field1[f] = p } else { field2[f] = p }
                f += 1
            }
        }
        return f
    }

    /// Sets one frame's pair as is (no doubling), such as to plant a parity error.
    public mutating func put(_ pair: (UInt8, UInt8), at frame: Int, field: Int = 1) {
        if field == 1 { field1[frame] = pair } else { field2[frame] = pair }
    }

    /// A pop-on caption loaded from `frame` and shown (EOC) at the returned frame - 1.
    @discardableResult
    public mutating func popOn(_ rows: [String], at frame: Int, channel: Int = 1, field: Int = 1) -> Int {
        var pairs = [CC608.command(0x20, channel: channel, field: field), CC608.command(0x2E, channel: channel, field: field)]
        for (i, row) in rows.enumerated() {
            pairs.append(CC608.pac(row: 15 - rows.count + 1 + i, channel: channel))
            pairs += CC608.text(row)
        }
        pairs.append(CC608.command(0x2F, channel: channel, field: field))
        return send(pairs, at: frame, field: field)
    }
}

/// Makes real MPEG-TS test media with captions: ffmpeg encodes a test pattern (x264 with B-frames,
/// or x265), the SEI carrying the script's cc_data is inserted into each access unit — the data of
/// presentation frame n into the access unit shown n-th — and ffmpeg remuxes the result.
public enum CaptionedStream {
    public enum Codec: String, Sendable { case h264, hevc }

    /// Writes `<folder>/captions.ts` with `frames` frames at 30000/1001 fps; returns its path.
    ///
    /// With `remux` false the hand-made stream is returned as is (ffmpeg's remux drops the PMT
    /// descriptors of video streams, such as the ISO 639 language).
    public static func make(script: CaptionScript?, frames: Int, codec: Codec = .h264, folder: String, language: String? = "eng", remux: Bool = true) throws
        -> String
    {
        guard let ffmpeg = Tools.ffmpeg, let ffprobe = Tools.ffprobe else { throw MissingTool(name: "ffmpeg") }
        let plain = folder + "/plain.ts", raw = folder + (codec == .h264 ? "/plain.h264" : "/plain.hevc")
        let encoder: [String] =
            codec == .h264
            ? ["-c:v", "libx264", "-preset", "ultrafast", "-bf", "3", "-x264-params", "aud=1:b-adapt=0", "-g", "30"]
            : ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "aud=1:bframes=3:b-adapt=0:keyint=30:log-level=none"]
        try check(
            Tools.run(
                ffmpeg,
                [
                    "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30000/1001",
                    "-frames:v", String(frames),
                ] + encoder + ["-f", "mpegts", plain]))
        guard let script else { return plain }
        try check(Tools.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", "-i", plain, "-c:v", "copy", "-f", codec == .h264 ? "h264" : "hevc", raw]))
        let probe = try Tools.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,dts", "-of", "csv=p=0", plain])
        let times: [(pts: Int64, dts: Int64)] = probe.stdout.split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: ",").compactMap { Int64($0) }
            return f.count == 2 ? (f[0], f[1]) : nil
        }
        let stream = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let units = accessUnits(stream, codec: codec)
        guard units.count == times.count else { throw MissingTool(name: "matching access units (\(units.count) AUs, \(times.count) packets)") }
        let order = times.map(\.pts).sorted()
        var pes: [(pts: Int64, dts: Int64, data: [UInt8])] = []
        for (unit, time) in zip(units, times) {
            let frame = order.firstIndex(of: time.pts)!
            var triplets: [(UInt8, UInt8, UInt8)] = []
            if let p = script.field1[frame] { triplets.append((0xFC, p.0, p.1)) } else { triplets.append((0xFC, 0x80, 0x80)) }
            if let p = script.field2[frame] { triplets.append((0xFD, p.0, p.1)) } else { triplets.append((0xFD, 0x80, 0x80)) }
            triplets += script.dtvcc[frame] ?? []
            pes.append((time.pts, time.dts, insert(sei(triplets, codec: codec), into: unit, codec: codec)))
        }
        let handmade = folder + "/handmade.ts"
        try Data(TSWriter.write(pes, streamType: codec == .h264 ? 0x1B : 0x24, language: language)).write(to: URL(fileURLWithPath: handmade))
        guard remux else { return handmade }
        let output = folder + "/captions.ts"
        try check(
            Tools.run(
                ffmpeg,
                ["-hide_banner", "-loglevel", "error", "-y", "-i", handmade, "-map", "0", "-c", "copy"]
                    + (language.map { ["-metadata:s:v:0", "language=\($0)"] } ?? []) + ["-f", "mpegts", output]))
        return output
    }

    /// An HLS folder (2 s segments) whose video carries CC1 pop-on captions and a CC3 caption;
    /// with `fmp4`, CMAF segments (`-hls_segment_type fmp4`) instead of MPEG-TS.
    public static func hls(fmp4: Bool = false) throws -> String {
        var script = CaptionScript()
        script.popOn(["First caption"], at: 10)  // RCL 10, ENM 12, PAC 14, text 16-22, EOC 23
        script.send([CC608.command(0x2C)], at: 50)  // EDM 50
        script.popOn(["Across", "a boundary"], at: 45 + 10)  // RCL 55, ENM 57, PAC 59, 3, PAC 64, 5, EOC 71
        script.send([CC608.command(0x2C)], at: 100)  // EDM 100 (3.337 s, past the 2.002 s boundary)
        script.popOn(["Third"], at: 80, field: 2)  // CC3: RCL 80, ENM 82, PAC 84, 3 pairs, EOC 89
        script.send([CC608.command(0x2C, field: 2)], at: 150, field: 2)
        return try hls(script: script, frames: 180, fmp4: fmp4)
    }

    /// An HLS folder of `frames` frames (30000/1001 fps, a keyframe a second) in segments of
    /// `segmentSeconds`, whose video carries `script`; its master is `master.m3u8`.
    public static func hls(script: CaptionScript?, frames: Int, segmentSeconds: Int = 2, fmp4: Bool = false, language: String? = "eng") throws -> String {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let dir = try Scratch.make().path
        let ts = try CaptionedStream.make(script: script, frames: frames, folder: dir, language: language)
        let hls = dir + "/hls"
        try FileManager.default.createDirectory(atPath: hls, withIntermediateDirectories: true)
        let outcome = try Tools.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-i", ts, "-map", "0:v", "-c", "copy", "-f", "hls", "-hls_time", String(segmentSeconds),
                "-hls_playlist_type", "vod",
            ]
                + (fmp4
                    ? ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4", "-hls_segment_filename", hls + "/seg_%03d.m4s"]
                    : ["-hls_segment_filename", hls + "/seg_%03d.ts"]) + [hls + "/prog.m3u8"])
        try check(outcome)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nprog.m3u8\n".write(toFile: hls + "/master.m3u8", atomically: true, encoding: .utf8)
        return hls
    }

    /// Re-encodes a captioned TS as MPEG-2 video with B-frames; returns its path.
    ///
    /// ffmpeg's H.264 decoder exports the A/53 caption data and its MPEG-2 encoder writes it into
    /// each picture's user data (`00 00 01 B2 GA94 03 …`), as broadcast encoders do.
    public static func mpeg2(from ts: String, folder: String) throws -> String {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let output = folder + "/captions-mpeg2.ts"
        try check(
            Tools.run(
                ffmpeg,
                [
                    "-hide_banner", "-loglevel", "error", "-y", "-i", ts, "-map", "0:v", "-c:v", "mpeg2video", "-a53cc", "1", "-bf", "2", "-g", "15",
                    "-q:v", "8", "-f", "mpegts", output,
                ]))
        return output
    }

    /// Remuxes a captioned TS into one fragmented MP4 file with ffmpeg; returns its path.
    ///
    /// A `moov`, then a `moof`+`mdat` per keyframe with base offsets from the `moof`, as CMAF
    /// packagers write; the SEI NAL units travel in the samples.
    public static func fragmentedMP4(from ts: String, folder: String) throws -> String {
        guard let ffmpeg = Tools.ffmpeg else { throw MissingTool(name: "ffmpeg") }
        let output = folder + "/captions.mp4"
        try check(
            Tools.run(
                ffmpeg,
                [
                    "-hide_banner", "-loglevel", "error", "-y", "-i", ts, "-map", "0:v", "-c", "copy",
                    "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-f", "mp4", output,
                ]))
        return output
    }

    static func check(_ outcome: Tools.Outcome) throws {
        if outcome.status != 0 { throw MissingTool(name: "a working ffmpeg (\(outcome.stderr.prefix(300)))") }
    }

    /// Splits an Annex B stream into access units at access unit delimiters.
    static func accessUnits(_ s: [UInt8], codec: Codec) -> [[UInt8]] {
        var starts: [Int] = []
        var i = 0
        while i + 4 < s.count {
            if s[i] == 0, s[i + 1] == 0, s[i + 2] == 1 {
                let isAUD = codec == .h264 ? (s[i + 3] & 0x1F) == 9 : ((s[i + 3] >> 1) & 0x3F) == 35
                if isAUD { starts.append(i > 0 && s[i - 1] == 0 ? i - 1 : i) }
                i += 3
            } else {
                i += 1
            }
        }
        return starts.enumerated().map { k, start in Array(s[start..<(k + 1 < starts.count ? starts[k + 1] : s.count)]) }
    }

    /// An SEI NAL unit with one user_data_registered_itu_t_t35 message of A/53 cc_data.
    static func sei(_ triplets: [(UInt8, UInt8, UInt8)], codec: Codec) -> [UInt8] {
        var payload: [UInt8] = [
            0xB5,  // itu_t_t35_country_code: United States
            0x00, 0x31,  // itu_t_t35_provider_code: ATSC
            0x47, 0x41, 0x39, 0x34,  // user_identifier "GA94"
            0x03,  // user_data_type_code: cc_data
            0xC0 | UInt8(triplets.count),  // process_em_data, process_cc_data, cc_count
            0xFF,
        ]  // em_data
        for t in triplets { payload += [t.0, t.1, t.2] }  // marker bits, cc_valid, cc_type; cc_data_1; cc_data_2
        payload.append(0xFF)  // marker_bits
        var rbsp: [UInt8] = codec == .h264 ? [0x06] : [39 << 1, 0x01]  // NAL header: SEI / HEVC prefix SEI
        rbsp += [0x04, UInt8(payload.count)]  // payloadType 4, payloadSize
        rbsp += payload
        rbsp.append(0x80)  // rbsp_trailing_bits
        return [0, 0, 0, 1] + escape(rbsp)
    }

    /// Emulation prevention: `00 00` followed by `00`-`03` gets an `03` in between.
    public static func escape(_ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for b in rbsp {
            if zeros >= 2 && b <= 3 { out.append(3); zeros = 0 }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// Inserts `sei` before the access unit's first slice.
    static func insert(_ sei: [UInt8], into unit: [UInt8], codec: Codec) -> [UInt8] {
        var i = 0
        while i + 3 < unit.count {
            if unit[i] == 0, unit[i + 1] == 0, unit[i + 2] == 1 {
                let h = unit[i + 3]
                let isSlice = codec == .h264 ? (1...5).contains(h & 0x1F) : ((h >> 1) & 0x3F) <= 31
                if isSlice {
                    let start = i > 0 && unit[i - 1] == 0 ? i - 1 : i
                    return Array(unit[..<start]) + sei + Array(unit[start...])
                }
                i += 3
            } else {
                i += 1
            }
        }
        return unit + sei
    }
}

/// ffmpeg's own 608 decoder (`movie=FILE[out+subcc]`) as the reference.
public enum FFmpegCaptions {
    /// A cue as ffmpeg decodes it: seconds from the first video frame, and its text without styling.
    public struct Cue: Equatable, Sendable {
        public let start: Double
        public let end: Double
        public let text: String
    }

    /// Decodes field 1 (`dataField` 0) or field 2 (1) of `file`.
    public static func decode(_ file: String, dataField: Int = 0) throws -> [Cue] {
        guard let ffmpeg = Tools.ffmpeg, let ffprobe = Tools.ffprobe else { throw MissingTool(name: "ffmpeg") }
        let escaped = file.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:").replacingOccurrences(of: "'", with: "\\'")
        let outcome = try Tools.run(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-data_field", String(dataField), "-f", "lavfi",
                "-i", "movie=\(escaped)[out+subcc]", "-map", "0:s", "-f", "srt", "-",
            ])
        guard outcome.status == 0 else { throw MissingTool(name: "ffmpeg's subcc decoding (\(outcome.stderr.prefix(300)))") }
        // The first video frame: its lowest PTS.
        let probe = try Tools.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", file])
        let first =
            probe.stdout.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }.min() ?? 0
        // lavfi's movie source starts its clock at the stream's start time.
        let start = try Tools.run(ffprobe, ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", file])
        let offset = first - (Double(start.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? first)
        return parseSRT(outcome.stdout).map { Cue(start: $0.start - offset, end: $0.end - offset, text: $0.text) }
    }

    static func parseSRT(_ text: String) -> [Cue] {
        var cues: [Cue] = []
        for block in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true)
            guard let timing = lines.firstIndex(where: { $0.contains("-->") }) else { continue }
            let parts = lines[timing].components(separatedBy: " --> ")
            func seconds(_ s: String) -> Double {
                let f = s.replacingOccurrences(of: ",", with: ".").split(separator: ":").compactMap { Double($0) }
                return f.count == 3 ? f[0] * 3600 + f[1] * 60 + f[2] : 0
            }
            var body = lines[(timing + 1)...].joined(separator: "\n")
            // Remove styling tags ({\an7}, <i>, <font …>) and the indentation spaces: positions are not compared.
            body = body.replacingOccurrences(of: "\\{[^}]*\\}", with: "", options: .regularExpression)
            body = body.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            let text = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
            cues.append(Cue(start: seconds(parts[0]), end: seconds(parts[1]), text: text))
        }
        return cues
    }
}
