import Containers
import Foundation
import HLS
import Platform
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
        if let given = environment["SUBWEAVE_FFMPEG"], !given.isEmpty { return FileSystem.isExecutable(given) ? given : nil }
        for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/ffmpeg"
            if FileSystem.isExecutable(candidate) { return candidate }
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
        var initializations: [MediaSegment.Initialization: [UInt8]] = [:]
        for run in 0..<runs {
            // Packed audio starts each run at time 0 in ffmpeg: its ID3 timestamp says where it is.
            let first = segments[bounds[run]]
            let head = try await reader.read(
                try reader.resolve(first.uri, against: url, in: playlist, line: first.line), kind: .segment, range: first.byteRange, what: "an audio segment")
            let shift =
                PackedAudio.timestamp(head).map { Double(PresentationTimestamp.wrappedDifference($0, zeroTicks)) / Double(MediaTime.ticksPerSecond) }
                ?? -zero
            if run == 0 {
                let initialization = try await reader.initializationSection(first, of: url, cache: &initializations)
                try checkSoundStart(head: head, initialization: initialization, zero: zeroTicks, name: name, url: url)
            }
            let last = segments[bounds[run + 1] - 1]
            let seconds = (last.start + last.duration - first.start).seconds
            do {
                decoders.append(
                    try Decoder(ffmpeg: ffmpeg, shift: shift, startFrame: starts[run], seconds: seconds, zero: zeroTicks, end: presentation.timeline.duration))
            } catch {
                for started in decoders { started.child.stop() }
                throw error
            }
        }
        let decoded = await Self.decode(
            segments: (0..<runs).map { Array(segments[bounds[$0]..<bounds[$0 + 1]]) }, with: decoders, of: playlist, at: url, reader: reader, name: name)
        var detector = try decoded[0].get()
        for run in 1..<max(1, runs) { detector.join(try decoded[run].get(), at: starts[run]) }
        guard detector.frames > 0 else {
            throw .sound(path: MediaReader.display(url), .none(name: name))
        }
        return (detector.finish(), name)
    }

    /// Each run of `segments` decoded by its decoder, at once; the results in run order.
    static func decode(
        segments runs: [[MediaSegment]], with decoders: [Decoder], of playlist: MediaPlaylist, at url: URL, reader: MediaReader, name: String
    ) async -> [Result<SpeechDetector, SubweaveError>] {
        await withTaskGroup(of: (Int, Result<SpeechDetector, SubweaveError>).self) { group in
            for (run, part) in runs.enumerated() {
                let decoder = decoders[run]
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
    }

    /// Fails when the sound begins further from the first video frame than the programme is long:
    /// ffmpeg would pad the silence between, hours of it for a hostile timestamp, and there is
    /// nothing to check against.
    ///
    /// The first segment's sound start: its ID3 timestamp (packed audio), else its earliest audio
    /// presentation time (fragmented MP4; a transport stream is checked as it is fed, see
    /// ``Decoder``). Unreadable: no check here (the decoder says what is wrong).
    func checkSoundStart(head: [UInt8], initialization: [UInt8]?, zero: Int64, name: String, url: URL) throws(SubweaveError) {
        let start: Int64?
        if let stamp = PackedAudio.timestamp(head) {
            start = stamp
        } else if TransportStream.firstPacketOffset(head) == nil, let probed = try? TimelineProbe.probe(segment: head, initialization: initialization) {
            start = probed.start
        } else {
            start = nil
        }
        guard let start else { return }
        try Self.checkSoundStart(
            MediaTime(ticks: PresentationTimestamp.wrappedDifference(start, zero)), end: presentation.timeline.duration, name: name, url: url)
    }

    /// Fails when sound that begins `lead` from the first video frame (negative: before it) is
    /// further from it than the programme is long, either way: after the programme's end, or so
    /// early that none of it overlaps (a timestamp gap taken modulo 2^33 reads either way).
    static func checkSoundStart(_ lead: MediaTime, end: MediaTime, name: String, url: URL) throws(SubweaveError) {
        guard lead > end || lead < -end else { return }
        throw .sound(path: MediaReader.display(url), .outsideTheProgramme(name: name, lead: lead.seconds, duration: end.seconds))
    }

    /// One ffmpeg decoding a run of segments, placed from `startFrame` on; programme time is
    /// ffmpeg's time plus `shift` seconds (less the first video frame's time, for segments that
    /// keep their timestamps; the ID3 timestamp less it, for packed audio).
    ///
    /// Bounded: the PCM read stops at `seconds` of sound past `startFrame` (the run's length and
    /// half a minute: a decoder that never stops sending is stopped), and a decoder that neither
    /// takes input nor gives output for ``ProgrammeSpeech/stallLimit`` seconds is killed.
    struct Decoder: Sendable {
        let child: ChildProcess
        let ffmpeg: String
        /// The most PCM bytes read from it.
        let byteLimit: Int
        /// The first video frame's time (90 kHz, wrapped) and the programme's end: sound that
        /// begins after the end is refused before ffmpeg sees it.
        let zero: Int64
        let end: MediaTime

        init(ffmpeg: String, shift: Double, startFrame: Int, seconds: Double, zero: Int64, end: MediaTime) throws(SubweaveError) {
            let arguments = [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-copyts", "-i", "pipe:0", "-map", "0:a:0", "-vn", "-ac", "1", "-ar",
                String(SpeechDetector.sampleRate),
                // The rate first (a short filter: speech detection needs no hi-fi), as aresample
                // counts first_pts in its input's samples.
                "-af",
                "asetpts=PTS+(\(String(format: "%.6f", shift)))/TB,aresample=\(SpeechDetector.sampleRate):filter_size=4:phase_shift=2,aresample=async=1:first_pts=\(startFrame * SpeechDetector.frameLength)",
                "-f", "s16le", "pipe:1",
            ]
            do { child = try ChildProcess.launch(ffmpeg, arguments) } catch {
                throw .sound(path: ffmpeg, .cannotStart(ffmpeg: ffmpeg, reason: error.message))
            }
            self.ffmpeg = ffmpeg
            self.zero = zero
            self.end = end
            byteLimit = Int((max(0, seconds) + 30) * Double(SpeechDetector.sampleRate)) * 2
        }

        /// Feeds `segments` (of `playlist`, read from `url`) to the decoder and detects the speech
        /// in what it returns.
        func decode(_ segments: [MediaSegment], of playlist: MediaPlaylist, at url: URL, reader: MediaReader, name: String) async throws(SubweaveError)
            -> SpeechDetector
        {
            child.watch(stallLimit: ProgrammeSpeech.stallLimit)
            async let detected = ProgrammeSpeech.detect(child, byteLimit: byteLimit)
            async let stderr = ProgrammeSpeech.collect(child, limit: 4096)
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
                        if !child.write(data) { stoppedEarly = true; break }
                    }
                    let bytes = try await reader.read(segmentURL, kind: .segment, range: segment.byteRange, what: "an audio segment")
                    let sound = filter.filter(bytes)
                    if let first = filter.firstAudioPTS {
                        let lead = MediaTime(ticks: PresentationTimestamp.wrappedDifference(first, zero))
                        try ProgrammeSpeech.checkSoundStart(lead, end: end, name: name, url: segmentURL)
                    }
                    if !child.write(sound) { stoppedEarly = true; break }
                }
            } catch {
                child.stop()
                _ = await detected
                _ = await stderr
                child.waitForExit()
                throw error
            }
            if !stoppedEarly, !child.write(filter.flush()) { stoppedEarly = true }
            child.closeInput()
            let (detector, bounded) = await detected
            let message = await stderr
            let status = child.waitForExit()
            if child.stalled {
                throw .sound(path: MediaReader.display(url), .stalled(ffmpeg: ffmpeg, name: name, seconds: ProgrammeSpeech.stallLimit))
            }
            // A decoder stopped at the bound has given all the sound the check can use.
            guard bounded || (status == 0 && !stoppedEarly) else {
                let said = message.trimmingCharacters(in: .whitespacesAndNewlines)
                throw .sound(path: MediaReader.display(url), .decoderFailed(name: name, status: status, said: said))
            }
            return detector
        }
    }

    /// How long a decoder may take no input and give no sound before it is killed, in seconds:
    /// `SUBWEAVE_DECODER_STALL` when set to a positive number, else a minute.
    static var stallLimit: Double {
        if let text = ProcessInfo.processInfo.environment["SUBWEAVE_DECODER_STALL"], let value = Double(text), value > 0, value.isFinite {
            return value
        }
        return 60
    }

    /// Feeds what the decoder writes to a speech detector, up to `byteLimit` bytes.
    ///
    /// On a thread of its own (not a Dispatch worker: blocked in a read, it would hold back the
    /// file reads queued there); past the bound the decoder is stopped. Also says whether the
    /// bound was reached.
    static func detect(_ child: ChildProcess, byteLimit: Int) async -> (SpeechDetector, bounded: Bool) {
        await withCheckedContinuation { continuation in
            Thread {
                var detector = SpeechDetector()
                var carry: [UInt8] = []
                var read = 0
                var bounded = false
                while true {
                    let data = child.readOutput()
                    if data.isEmpty { break }
                    let wanted = data.prefix(byteLimit - read)
                    detector.feed(bytes: Array(wanted), carry: &carry)
                    read += wanted.count
                    if read >= byteLimit {
                        bounded = true
                        child.stop()
                        break
                    }
                }
                continuation.resume(returning: (detector, bounded))
            }.start()
        }
    }

    /// The first `limit` bytes the decoder writes to its standard error, as text (the rest is
    /// read and dropped), on a thread of its own.
    static func collect(_ child: ChildProcess, limit: Int) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: String(decoding: child.readAll(errors: true, limit: limit), as: UTF8.self)) }.start()
        }
    }
}
