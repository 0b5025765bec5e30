import Containers
import Foundation
import HLS
import Sync
import Timebase

/// The speech in a programme's sound, in 10 ms frames from programme time 0 (the first presented
/// video frame, the zero the packager maps subtitle time 0 to).
///
/// The sound is the reference variant's audio rendition (`EXT-X-MEDIA:TYPE=AUDIO` of its `AUDIO`
/// group: the DEFAULT=YES one, else the first with a URI), or the variant's own audio when it
/// has none. Subweave reads the segments (files or URLs, as it reads every segment) and pipes
/// them, a muxed TS without its video packets, to ffmpeg, which decodes them to 8 kHz mono PCM from time 0 (silence before the audio
/// starts, nothing before the video does); the PCM is read as it comes and never kept.
struct ProgrammeSpeech {
    let presentation: Presentation

    /// The ffmpeg to use: `SUBWEAVE_FFMPEG`, else `ffmpeg` on `PATH`.
    static func ffmpeg() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["SUBWEAVE_FFMPEG"], !given.isEmpty { return FileManager.default.isExecutableFile(atPath: given) ? given : nil }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The playlist whose segments carry the sound, and how it is named in messages.
    func audioPlaylist(reader: MediaReader) async throws(SubweaveError) -> (url: URL, playlist: MediaPlaylist, name: String) {
        let master = presentation.master
        let variant = master.variants[presentation.reference.index]
        if let group = variant.attributes["AUDIO"]?.unquoted {
            let members = master.renditions.filter { $0.type == .audio && $0.groupID == group && $0.uri != nil }
            if let chosen = members.first(where: \.isDefault) ?? members.first, let uri = chosen.uri,
                let url = MediaReader.resolve(uri, against: presentation.masterURL)
            {
                let bytes = try await reader.read(url, kind: .playlist, what: "the audio rendition \(chosen.name.map { "\"\($0)\"" } ?? uri)")
                do {
                    let playlist = try MediaPlaylist(parsing: bytes, source: MediaReader.display(url), imports: master.definitions)
                    return (url, playlist, "the audio rendition \(MediaReader.display(url))")
                } catch {
                    throw .playlist(error)
                }
            }
        }
        return (presentation.reference.url, presentation.reference.playlist, "the audio of \(MediaReader.display(presentation.reference.url))")
    }

    /// Decodes the sound and finds its speech; says which sound it was.
    ///
    /// The segments are cut into as many runs as there are processors (each at least eight
    /// segments), decoded by one ffmpeg each at the same time, and their frames joined at the
    /// frame where each run starts: every run's PCM is placed on programme time by ffmpeg
    /// (padded or trimmed to begin exactly there), so the joins are seamless.
    func read() async throws(SubweaveError) -> (speech: SpeechActivity, audio: String) {
        guard let ffmpeg = Self.ffmpeg() else {
            throw .missingTool(name: "ffmpeg", purpose: "decode the programme's sound for a sync check")
        }
        let reader = MediaReader(loader: presentation.loader)
        let (url, playlist, name) = try await audioPlaylist(reader: reader)
        // Time 0: the first presented video frame, on the media clock.
        let zeroTicks = presentation.timeline.sequences.first?.media.start ?? 0
        let zero = Double(zeroTicks) / Double(MediaTime.ticksPerSecond)
        let segments = playlist.segments.filter { !$0.isGap }
        let runs = max(1, min(ProcessInfo.processInfo.activeProcessorCount, segments.count / 8))
        let bounds = (0...runs).map { $0 * segments.count / runs }
        let starts = (0..<runs).map { run in run == 0 ? 0 : Int((segments[bounds[run]].start.seconds * Double(SpeechDetector.frameRate)).rounded()) }
        // The decoders are started one after another: Foundation's Process is not safe to start
        // from several threads at once (their pipes can cross).
        var decoders: [Decoder] = []
        for run in 0..<runs {
            // Packed audio starts each run at time 0 in ffmpeg: its ID3 timestamp says where it is.
            let first = segments[bounds[run]]
            let head = try await reader.read(
                try reader.resolve(first.uri, against: url, in: playlist, line: first.line), kind: .segment, range: first.byteRange, what: "an audio segment")
            let shift =
                PackedAudio.timestamp(head).map { Double(PresentationTimestamp.wrappedDifference($0, zeroTicks)) / Double(MediaTime.ticksPerSecond) }
                ?? -zero
            do {
                decoders.append(try Decoder(ffmpeg: ffmpeg, shift: shift, startFrame: starts[run]))
            } catch {
                for started in decoders { started.process.terminate() }
                throw error
            }
        }
        let launched = decoders
        let decoded: [Result<SpeechDetector, SubweaveError>] = await withTaskGroup(of: (Int, Result<SpeechDetector, SubweaveError>).self) { group in
            for run in 0..<runs {
                let part = Array(segments[bounds[run]..<bounds[run + 1]]), decoder = launched[run]
                group.addTask {
                    let result: Result<SpeechDetector, SubweaveError>
                    do throws(SubweaveError) {
                        result = .success(try await decoder.decode(part, of: playlist, at: url, reader: reader, name: name))
                    } catch {
                        result = .failure(error)
                    }
                    return (run, result)
                }
            }
            var results: [(run: Int, result: Result<SpeechDetector, SubweaveError>)] = []
            for await (run, result) in group { results.append((run, result)) }
            return results.sorted { $0.run < $1.run }.map(\.result)
        }
        var detector = try decoded[0].get()
        for run in 1..<max(1, runs) { detector.join(try decoded[run].get(), at: starts[run]) }
        guard detector.frames > 0 else {
            throw .io(path: MediaReader.display(url), reason: "\(name) holds no sound to check the subtitles against")
        }
        return (detector.finish(), name)
    }

    /// One ffmpeg decoding a run of segments, placed from `startFrame` on; programme time is
    /// ffmpeg's time plus `shift` seconds (less the first video frame's time, for segments that
    /// keep their timestamps; the ID3 timestamp less it, for packed audio).
    struct Decoder: @unchecked Sendable {  // Process and Pipe are used by one task at a time.
        let process = Process()
        let input = Pipe(), output = Pipe(), errors = Pipe()

        init(ffmpeg: String, shift: Double, startFrame: Int) throws(SubweaveError) {
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = [
                "-hide_banner", "-loglevel", "error", "-copyts", "-i", "pipe:0", "-map", "0:a:0", "-vn", "-ac", "1", "-ar",
                String(SpeechDetector.sampleRate),
                // The rate first (a short filter: speech detection needs no hi-fi), as aresample
                // counts first_pts in its input's samples.
                "-af",
                "asetpts=PTS+(\(String(format: "%.6f", shift)))/TB,aresample=\(SpeechDetector.sampleRate):filter_size=4:phase_shift=2,aresample=async=1:first_pts=\(startFrame * SpeechDetector.frameLength)",
                "-f", "s16le", "pipe:1",
            ]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            // A decoder that stops early must not end this process with SIGPIPE: writes then fail.
            signal(SIGPIPE, SIG_IGN)
            do { try process.run() } catch {
                throw .io(path: ffmpeg, reason: "could not start ffmpeg: \(error.localizedDescription)")
            }
        }

        /// Feeds `segments` (of `playlist`, read from `url`) to the decoder and detects the speech
        /// in what it returns.
        func decode(_ segments: [MediaSegment], of playlist: MediaPlaylist, at url: URL, reader: MediaReader, name: String) async throws(SubweaveError)
            -> SpeechDetector
        {
            async let detected = ProgrammeSpeech.detect(output.fileHandleForReading)
            async let stderr = ProgrammeSpeech.collect(errors.fileHandleForReading, limit: 4096)
            var stoppedEarly = false
            var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
            // Only the sound goes to the decoder: a muxed TS loses its video on the way.
            var filter = AudioPacketFilter()
            var lastMap: MediaSegment.Initialization?
            do {
                for segment in segments {
                    let segmentURL = try reader.resolve(segment.uri, against: url, in: playlist, line: segment.line)
                    if let map = segment.map, map != lastMap, let data = try await reader.initializationSection(segment, of: url, cache: &initializations) {
                        lastMap = map
                        if !ProgrammeSpeech.write(data, to: input.fileHandleForWriting) { stoppedEarly = true; break }
                    }
                    let bytes = try await reader.read(segmentURL, kind: .segment, range: segment.byteRange, what: "an audio segment")
                    if !ProgrammeSpeech.write(filter.filter(bytes), to: input.fileHandleForWriting) { stoppedEarly = true; break }
                }
            } catch {
                try? input.fileHandleForWriting.close()
                process.terminate()
                _ = await detected
                _ = await stderr
                throw error
            }
            if !stoppedEarly, !ProgrammeSpeech.write(filter.flush(), to: input.fileHandleForWriting) { stoppedEarly = true }
            try? input.fileHandleForWriting.close()
            let detector = await detected
            let message = await stderr
            process.waitUntilExit()
            guard process.terminationStatus == 0, !stoppedEarly else {
                let said = message.trimmingCharacters(in: .whitespacesAndNewlines)
                throw .io(
                    path: MediaReader.display(url),
                    reason: "ffmpeg could not decode \(name) (exit \(process.terminationStatus))\(said.isEmpty ? "" : ": \(LabelText.excerpt(said))")")
            }
            return detector
        }
    }

    /// Writes all of `bytes`; false when the reader has gone.
    static func write(_ bytes: [UInt8], to handle: FileHandle) -> Bool {
        do {
            try handle.write(contentsOf: bytes)
            return true
        } catch {
            return false
        }
    }

    /// Feeds everything `handle` yields to a speech detector, on a thread of its own (not a
    /// Dispatch worker: blocked in a read, it would hold back the file reads queued there).
    static func detect(_ handle: FileHandle) async -> SpeechDetector {
        await withCheckedContinuation { continuation in
            Thread {
                var detector = SpeechDetector()
                var carry: [UInt8] = []
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    detector.feed(bytes: [UInt8](data), carry: &carry)
                }
                continuation.resume(returning: detector)
            }.start()
        }
    }

    /// The first `limit` bytes `handle` yields, as text (the rest is read and dropped), on a
    /// thread of its own.
    static func collect(_ handle: FileHandle, limit: Int) async -> String {
        await withCheckedContinuation { continuation in
            Thread {
                var kept: [UInt8] = []
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    if kept.count < limit { kept += data.prefix(limit - kept.count) }
                }
                continuation.resume(returning: String(decoding: kept, as: UTF8.self))
            }.start()
        }
    }
}
