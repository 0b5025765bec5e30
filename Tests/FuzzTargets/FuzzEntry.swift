import Captions
import Containers
import HLS
import Pictures
import Subweave
import Sync
import Timebase
import TimedText

/// The fuzz targets: one entry per parser, each feeding arbitrary bytes through the code paths a
/// real run takes and checking the invariants that must hold for any input.
///
/// The same entries run in two places: `Scripts/fuzz.sh` links them into libFuzzer binaries
/// (`-sanitize=fuzzer,address`), where a violation traps; and `swift test` replays every input
/// committed under `Fixtures/fuzz/<target>/` (crashes found earlier, named after the bug), where a
/// violation is a test failure. An entry returns the invariants the input broke (empty when none).
public enum FuzzEntry {
    /// The targets, by the name `Scripts/fuzz.sh` and `Fixtures/fuzz/` use.
    public static let targets: [String: @Sendable ([UInt8]) -> [String]] = [
        "m3u8": playlist,
        "webvtt": webVTT,
        "subrip": subRip,
        "scc": scc,
        "mcc": mcc,
        "stl": stl,
        "teletext": teletext,
        "dtvcc": dtvcc,
        "mpegts": transportStream,
        "isobmff": isoBMFF,
        "ass": ass,
        "ttml": ttml,
        "rate": clockRate,
        "sync": sync,
        "text": text,
        "language": language,
        "descriptor": descriptor,
        "catalogue": catalogue,
        "aes": aes,
        "vobsub": vobSub,
        "pgs": pgs,
        "dvbsub": dvbSubtitles,
        "cuenote": cueNote,
    ]

    /// A content note (the JSON Subweave keeps before a cue in the cues beside a rendition), as
    /// hostile bytes: read without trapping, and what is read is written and read back the same;
    /// the same bytes as a whole kept-cues file attach nothing to a cue they were not written for.
    public static func cueNote(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        var violations: [String] = []
        if let content = CueContent(noteJSON: Substring(text)) {
            let again = CueContent(noteJSON: Substring(content.noteBlock.dropFirst(CueContent.notePrefix.count)))
            if again != content { violations.append("cuenote: a note read and written again reads back otherwise") }
        }
        let file = "WEBVTT\n\n\(CueContent.notePrefix)\(text)\n\n00:00:01.000 --> 00:00:02.000\nwords\n\n"
        if let cues = try? WebVTTParser.parse(file).cues, CueContent.attachingNotes(to: cues, from: file).contains(where: { $0.keptContent != nil }),
            !text.contains(CueContent.hash(of: cues[0]))
        {
            violations.append("cuenote: a note without the cue's hash was attached")
        }
        return violations
    }

    /// A PGS `.sup` (the OCR step left out): ``pictureViolations(_:target:)``.
    public static func pgs(_ bytes: [UInt8]) -> [String] { pictureViolations(PGS.pictures(bytes).pictures, target: "pgs") }

    /// DVB subtitles in an MPEG-TS file (the OCR step left out): ``pictureViolations(_:target:)``.
    public static func dvbSubtitles(_ bytes: [UInt8]) -> [String] {
        pictureViolations(DVBSubtitles.pictures(transportStream: bytes).pictures, target: "dvbsub")
    }

    /// Each picture has width × height indices into a 256-entry palette, ends no earlier than it
    /// starts, and cleans into an image its pixels fill.
    static func pictureViolations(_ pictures: [SubtitlePicture], target: String) -> [String] {
        var violations: [String] = []
        for picture in pictures {
            if picture.indices.count != picture.width * picture.height || picture.palette.count != 256 {
                violations.append(
                    "\(target): a \(picture.width)×\(picture.height) picture has \(picture.indices.count) pixels, \(picture.palette.count) colours")
            }
            if let end = picture.end, end < picture.start { violations.append("\(target): a picture ends before it starts") }
            let image = OCRImage(picture)
            if image.pixels.count != image.width * image.height { violations.append("\(target): the OCR image's pixels do not fill it") }
        }
        return violations
    }

    /// A VobSub `.sub` (the input) with an index that points at every pack start in it.
    ///
    /// The input is read as an `.idx` too; the OCR step is left out. Each picture has width × height
    /// indices into a 4-colour palette, and its cleaned image width × height grey levels.
    public static func vobSub(_ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        _ = try? VobSub.index(String(decoding: bytes.prefix(1 << 16), as: UTF8.self))
        var text = "size: 720x576\nid: en, index: 0\n"
        var i = 0, entries = 0
        while i + 4 <= bytes.count, entries < 64 {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1, bytes[i + 3] == 0xBA {
                text += "timestamp: 00:00:\(String(entries % 60).zeroPadded(to: 2)):000, filepos: \(String(i, radix: 16))\n"
                entries += 1
            }
            i += 1
        }
        guard let index = try? VobSub.index(text) else { return ["vobsub: the index made for the input does not parse"] }
        for picture in VobSub.pictures(index: index, sub: bytes).pictures {
            if picture.indices.count != picture.width * picture.height || picture.palette.count != 4 {
                violations.append("vobsub: a \(picture.width)×\(picture.height) picture has \(picture.indices.count) pixels, \(picture.palette.count) colours")
            }
            let image = OCRImage(picture)
            if image.pixels.count != image.width * image.height { violations.append("vobsub: the OCR image's pixels do not fill it") }
        }
        return violations
    }

    /// AES-128 CBC as HLS uses it: the first 16 bytes a key, the next 16 an IV, the rest data.
    ///
    /// Encrypting then decrypting gives the data back; decrypting anything either fails (length or
    /// padding) or gives bytes that encrypt back to it (CBC is one-to-one).
    public static func aes(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 32, let cipher = AES128(key: Array(bytes[0..<16])) else { return [] }
        let iv = Array(bytes[16..<32]), data = Array(bytes[32...])
        var violations: [String] = []
        if (try? cipher.decrypt(cipher.encrypt(data, iv: iv), iv: iv)) != data { violations.append("aes: decrypt(encrypt(x)) is not x") }
        if let plain = try? cipher.decrypt(data, iv: iv), cipher.encrypt(plain, iv: iv) != data {
            violations.append("aes: encrypt(decrypt(x)) is not x")
        }
        _ = SegmentKey.iv(parsing: String(decoding: data.prefix(40), as: UTF8.self))
        return violations
    }

    /// A clock rate as `rate=` reads it: any text either is refused or reads as a ratio between
    /// 0.5 and 2 that its own description reads back to.
    public static func clockRate(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
        guard let rate = ClockRate(parsing: text) else { return [] }
        var violations: [String] = []
        if !(0.5...2).contains(rate.value) { violations.append("\(text) read as \(rate.value), outside 0.5...2") }
        if ClockRate(parsing: rate.description) != rate { violations.append("\(text) → \(rate) does not read back") }
        let divided = rate.divide(MediaTime(seconds: 3600))
        if divided.ticks <= 0 { violations.append("\(text): an hour divided by \(rate) is \(divided.ticks) ticks") }
        return violations
    }

    /// The sync stages: the first two thirds of the bytes as 8 kHz PCM (fed in two pieces, split
    /// at an odd byte), the rest as cue times (pairs of 16-bit tenths of a second); the fit, when
    /// there is one, is finite and at a standard rate.
    public static func sync(_ bytes: [UInt8]) -> [String] {
        let cut = bytes.count * 2 / 3
        var detector = SpeechDetector()
        var carry: [UInt8] = []
        let split = min(cut, cut / 2 | 1)
        detector.feed(bytes: Array(bytes[..<split]), carry: &carry)
        detector.feed(bytes: Array(bytes[split..<cut]), carry: &carry)
        let speech = detector.finish()
        var cues: [(start: Double, end: Double)] = []
        var i = cut
        while i + 3 < bytes.count {
            let a = Double(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])) / 10, b = Double(UInt16(bytes[i + 2]) << 8 | UInt16(bytes[i + 3])) / 10
            cues.append((min(a, b), max(a, b)))
            i += 4
        }
        var violations: [String] = []
        if speech.frames.count != detector.frames { violations.append("\(speech.frames.count) activity frames for \(detector.frames) frames") }
        if let fit = CueAlignment.fit(cues, to: speech) {
            if !fit.offset.isFinite || !fit.score.isFinite { violations.append("a fit that is not finite: \(fit)") }
            if !CueAlignment.standardRates.contains(fit.rate) { violations.append("rate \(fit.rate) is not a standard one") }
        }
        return violations
    }

    /// ASS/SSA through ingest: what is written parses back.
    public static func ass(_ bytes: [UInt8]) -> [String] { ingest(bytes, .ass) }

    /// TTML through ingest (Foundation's XML parser, the time expressions, the time containment):
    /// what is written parses back.
    public static func ttml(_ bytes: [UInt8]) -> [String] { ingest(bytes, .ttml) }

    /// Master and media playlists: parsing never traps, the lossless round trip holds, the
    /// validation rules run, and what Subweave writes (a rewritten master, a mirror playlist)
    /// parses back.
    public static func playlist(_ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        guard let playlist = try? Playlist(parsing: bytes, source: "fuzz") else { return [] }
        if Array(playlist.text.utf8) != bytes { violations.append("lossless: the playlist's text differs from its bytes") }
        if let master = try? MasterPlaylist(parsing: bytes, source: "fuzz") {
            _ = MasterRules.check(master)
            _ = MediaSelectionReport(master: master, locales: [LanguageTag.undetermined])
            let rendition = NewSubtitleRendition(
                identity: "external:f:en", name: "Fuzz", language: LanguageTag(parsing: "en") ?? .undetermined,
                forced: false, characteristics: .sdh, prefersDefault: true, uri: "subtitles/f-en/index.m3u8", origin: "fuzz")
            for policy in [ClosedCaptionsPolicy.automatic, .none] {
                let rewriter = MasterRewriter(preferredLanguage: LanguageTag(parsing: "en"), closedCaptions: policy)
                guard let result = try? rewriter.rewrite(master, renditions: [rendition]) else { continue }
                let written = Array(result.master.playlist.text.utf8)
                guard let back = try? MasterPlaylist(parsing: written, source: "rewritten") else {
                    violations.append("the rewritten master does not parse")
                    continue
                }
                // The views of the edited master (its edits made when a line is read) are what
                // its written text parses to.
                if back.variants.map(\.attributes) != result.master.variants.map(\.attributes)
                    || back.variants.map(\.uri) != result.master.variants.map(\.uri)
                    || back.renditions.map(\.attributes) != result.master.renditions.map(\.attributes)
                    || back.playlist.lines.map(\.text) != result.master.playlist.lines.map(\.text)
                {
                    violations.append("the edited master's lines or views differ from its written text's")
                }
            }
        }
        // A playlist the run's fingerprint takes for a generation's own names only plain names.
        let plainNames = StagedGeneration.namesOnlyPlainFiles(bytes)
        if let media = try? MediaPlaylist(parsing: bytes, source: "fuzz") {
            if plainNames, let odd = media.segments.map(\.uri).first(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("/") }) {
                violations.append("a playlist taken for plain names names \"\(odd)\"")
            }
            _ = SubtitlePlaylistRules.check(media, file: "fuzz", reference: media)
            let names = media.segments.indices.map { "\($0).vtt" }
            // Low-latency: every part mirrored, named after its segment.
            let parts = SubtitlePlaylistWriter.PartURIs(
                segments: media.segments.indices.map { i in media.segments[i].parts.indices.map { "\(i).p\($0).vtt" } },
                trailing: media.trailingParts.indices.map { "next.p\($0).vtt" }, hint: "next.p\(media.trailingParts.count).vtt")
            let mirror = SubtitlePlaylistWriter.text(mirroring: media, segmentURIs: names, parts: parts)
            if let back = try? MediaPlaylist(parsing: Array(mirror.utf8), source: "mirror") {
                if back.segments.count != media.segments.count || back.duration != media.duration {
                    violations.append(
                        "the mirror playlist has \(back.segments.count) segments, \(back.duration) long; the video \(media.segments.count), \(media.duration)")
                }
                if back.partTarget != media.partTarget || back.segments.map(\.parts.count) != media.segments.map(\.parts.count)
                    || (media.partTarget != nil && back.trailingParts.map(\.durationText) != media.trailingParts.map(\.durationText))
                {
                    violations.append("the mirror playlist's parts differ from the video's")
                }
            } else {
                violations.append("the mirror playlist does not parse")
            }
        }
        return violations
    }

    /// WebVTT through ingest: what is written parses back to the same cues.
    public static func webVTT(_ bytes: [UInt8]) -> [String] { ingest(bytes, .vtt) + webVTTPieces(bytes) }

    /// The pieces invariant for WebVTT: the document read in pieces (cut after every n-th line
    /// break) is the one read whole, or both fail alike.
    static func webVTTPieces(_ bytes: [UInt8]) -> [String] {
        var text = bytes
        guard TextDecoder.isUTF8(&text, forced: nil) else { return [] }
        let options = WebVTTParser.Options(byteOrderMarkRemoved: true)
        let whole = Result { () throws(SubtitleFileError) in try WebVTTParser.parse(utf8: text, options: options) }
        var reader = WebVTTParser.Reader(options: options)
        let read = Result { () throws(SubtitleFileError) in
            for (piece, isLast) in pieces(text, step: Int(bytes.first ?? 0) % 5 + 1) {
                try piece.withUnsafeBufferPointer { buffer throws(SubtitleFileError) in try reader.read(buffer, isLast: isLast) }
            }
            return reader.finish()
        }
        switch (whole, read) {
        case (.success(let a), .success(let b)) where a == b: return []
        case (.failure(let a), .failure(let b)) where a == b: return []
        default: return ["webvtt: read in pieces it gives another document than read whole"]
        }
    }

    /// `text` cut after every `step`-th line break (LF, or a CR not before an LF), as
    /// ``LinePieces`` cuts a file; the last piece is the rest, maybe empty.
    static func pieces(_ text: [UInt8], step: Int) -> [([UInt8], Bool)] {
        var result: [([UInt8], Bool)] = []
        var (start, breaks) = (0, 0)
        for i in text.indices where text[i] == 0x0A || (text[i] == 0x0D && i + 1 < text.count && text[i + 1] != 0x0A) {
            breaks += 1
            guard breaks % step == 0 else { continue }
            result.append((Array(text[start...i]), false))
            start = i + 1
        }
        result.append((Array(text[start...]), true))
        return result
    }

    /// SubRip (with encoding detection) through ingest: what is written parses back; and a file
    /// read in pieces (as a local file is) gives what it gives read whole, wherever it is cut.
    public static func subRip(_ bytes: [UInt8]) -> [String] { ingest(bytes, .srt) + subRipPieces(bytes) + textFileScan(bytes) }

    /// The one-pass scan of a file's pieces answers as each scan does over the whole file.
    static func textFileScan(_ bytes: [UInt8]) -> [String] {
        var scan = TextFileScan()
        for (piece, _) in pieces(bytes, step: Int(bytes.last ?? 0) % 4 + 1) { piece.withUnsafeBufferPointer { scan.scan($0) } }
        let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
        guard scan.isUTF8 == isUTF8 else { return ["scan: isUTF8 \(scan.isUTF8) for bytes that are\(isUTF8 ? "" : " not") UTF-8"] }
        guard isUTF8 else { return [] }
        var controls = ControlCharacters()
        let arrows = bytes.withUnsafeBufferPointer { whole in
            controls.scan(whole)
            return SubRipParser.arrowCount(whole)
        }
        guard scan.arrows == arrows, scan.controls == controls else { return ["scan: other arrows or control characters than the separate scans"] }
        return []
    }

    /// The pieces invariant: UTF-8 `bytes` cut after every n-th line break (n from the first byte).
    static func subRipPieces(_ bytes: [UInt8]) -> [String] {
        var text = bytes
        guard TextDecoder.isUTF8(&text, forced: nil) else { return [] }
        let whole = SubRipParser.parse(String(decoding: text, as: UTF8.self))
        let step = Int(bytes.first ?? 0) % 5 + 1
        var reader = SubRipParser.Reader(expectedCues: 0)
        for (index, (piece, isLast)) in pieces(text, step: step).enumerated() {
            reader.read(String(decoding: piece, as: UTF8.self), isFirst: index == 0, isLast: isLast)
        }
        let pieces = reader.finish()
        guard pieces.cues == whole.cues, pieces.warnings == whole.warnings else {
            return ["subrip: read in pieces (cut after every \(step) line breaks) it gives other cues or warnings than read whole"]
        }
        return []
    }

    /// SCC through ingest (at a timecode rate the last byte picks), and the same bytes as raw
    /// 608 pairs into both field decoders.
    public static func scc(_ bytes: [UInt8]) -> [String] {
        let labels = TimecodeRate.labels
        let rate = TimecodeRate(label: labels[Int(bytes.last ?? 0) % labels.count])
        var violations = ingest(bytes, .scc, fps: rate)
        var collector = CaptionCollector()
        for field in 1...2 {
            var decoder = CEA608FieldDecoder(field: field)
            var i = 0
            while i + 1 < bytes.count {
                decoder.decode(bytes[i], bytes[i + 1], at: MediaTime(ticks: Int64(i) * 1501), into: &collector)
                i += 2
            }
            decoder.finish(at: MediaTime(ticks: Int64(bytes.count) * 1501), into: &collector)
        }
        for (service, cues) in collector.cues {
            violations += RoundTrip.violations(cues, headerBlocks: [], context: "608 \(service.rawValue)")
        }
        return violations
    }

    /// MCC through ingest (at a timecode rate the last byte picks, or the file's own), and every
    /// service it carries read back.
    public static func mcc(_ bytes: [UInt8]) -> [String] {
        let labels = TimecodeRate.labels
        let pick = Int(bytes.last ?? 0) % (labels.count + 1)
        let rate = pick == labels.count ? nil : TimecodeRate(label: labels[pick])
        var violations = ingest(bytes, .mcc, fps: rate)
        if let read = try? MCCReader.read(String(decoding: bytes, as: UTF8.self), rate: rate) {
            for (service, cues) in read.services {
                violations += RoundTrip.violations(cues, headerBlocks: [], context: "mcc \(service.rawValue)")
            }
        }
        return violations
    }

    /// EBU STL through ingest (at a rate the byte at offset 1023 picks, or the file's own), its
    /// cues read back.
    public static func stl(_ bytes: [UInt8]) -> [String] {
        let labels = TimecodeRate.labels
        let pick = bytes.count > 1023 ? Int(bytes[1023]) % (labels.count + 1) : labels.count
        return ingest(bytes, .stl, fps: pick == labels.count ? nil : TimecodeRate(label: labels[pick]))
    }

    /// DVB teletext: the bytes as a transport stream (its teletext pages), and as PES payloads
    /// cut every 46 × n bytes (n from the first byte); every page's cues read back.
    public static func teletext(_ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        var reader = TeletextStreamReader()
        reader.feed(bytes[...])
        reader.finish(at: MediaTime(seconds: 1))
        var decoder = TeletextDecoder()
        let step = 46 * (Int(bytes.first ?? 0) % 8 + 1)
        var start = 0
        while start < bytes.count {
            decoder.add(bytes[start..<min(bytes.count, start + step)], time: MediaTime(milliseconds: Int64(start)))
            start += step
        }
        decoder.finish(at: MediaTime(milliseconds: Int64(bytes.count) + 1000))
        for (page, cues) in decoder.cues.sorted(by: { $0.key < $1.key }) {
            violations += RoundTrip.violations(cues, headerBlocks: [], context: "teletext \(page)")
        }
        for page in reader.subtitlePages { violations += RoundTrip.violations(page.cues, headerBlocks: [], context: "teletext TS \(page.page)") }
        return violations
    }

    /// CEA-708: the bytes as cc_data (a first byte whose low bit picks cc_type 3 or 2 and whose
    /// next bit is cc_valid, then the pair), 1–7 triplets an access unit (from the first byte's
    /// top bits), through the whole decoder; the cues must be well formed, read back, and belong
    /// to 708 services.
    public static func dtvcc(_ bytes: [UInt8]) -> [String] {
        func decode(unitSize: (Int) -> Int) -> [(service: CaptionService, cue: Cue)] {
            var decoder = CaptionDecoder(codec: .h264)
            var i = 0
            var frame: Int64 = 0
            while i + 2 < bytes.count {
                var unit: [CCData] = []
                for _ in 0..<unitSize(i) where i + 2 < bytes.count {
                    let flags = bytes[i]
                    unit.append(CCData(type: flags & 1 == 0 ? 2 : 3, valid: flags & 2 == 0, byte1: bytes[i + 1], byte2: bytes[i + 2]))
                    i += 3
                }
                decoder.add(captionData: unit, time: MediaTime(ticks: frame * 3003))
                frame += 1
            }
            decoder.finish(at: MediaTime(ticks: (frame + 1) * 3003))
            return decoder.collector.take()
        }
        let cues = decode { i in max(1, Int(bytes[i] >> 5)) }
        var violations: [String] = []
        var byService: [CaptionService: [Cue]] = [:]
        for (service, cue) in cues {
            if !service.isDTVCC { violations.append("a 608 service (\(service)) from 708 data") }
            byService[service, default: []].append(cue)
        }
        for (service, list) in byService { violations += RoundTrip.violations(list, headerBlocks: [], context: "708 \(service.rawValue)") }
        return violations
    }

    /// MPEG-TS: the timeline probe, and caption decoding fed whole and in two chunks (the
    /// results must agree: the demuxer keeps state across chunk boundaries).
    public static func transportStream(_ bytes: [UInt8]) -> [String] {
        var violations: [String] = []
        let split = bytes.isEmpty ? 0 : Int(bytes[0]) * bytes.count / 256
        // The segment's start, probed whole and as it is read in two chunks: the same.
        let probed = Result { () throws(ContainerError) in try TimelineProbe.probe(segment: bytes, initialization: nil) }
        var reading = TimelineProbe.Reading()
        reading.feed(bytes[..<split])
        reading.feed(bytes[split...])
        let probedInChunks = Result { () throws(ContainerError) in try reading.finish(initialization: nil) }
        if "\(probed)" != "\(probedInChunks)" { violations.append("the probe differs when the segment is read in two chunks (split at \(split))") }
        let whole = TransportStreamCaptions.decode([bytes[...]])
        let chunked = TransportStreamCaptions.decode([bytes[..<split], bytes[split...]])
        let a = whole.services.map { "\($0.service.rawValue):\($0.cues.map { "\($0.start.ticks)-\($0.end.ticks) \($0.text)" })" }
        let b = chunked.services.map { "\($0.service.rawValue):\($0.cues.map { "\($0.start.ticks)-\($0.end.ticks) \($0.text)" })" }
        if a != b { violations.append("captions differ when the stream is fed in two chunks (split at \(split))") }
        if whole.pictures != chunked.pictures { violations.append("DVB subtitle pictures differ when the stream is fed in two chunks (split at \(split))") }
        // A packed-audio timestamp, if the bytes open with an ID3 tag: read without a trap.
        if let stamp = PackedAudio.timestamp(bytes), !(0..<(1 << 33)).contains(stamp) { violations.append("an ID3 timestamp beyond 33 bits: \(stamp)") }
        // The packets kept for the sound decoder: the same whole or in two pieces, whole packets.
        var one = AudioPacketFilter(), two = AudioPacketFilter()
        let kept = one.filter(bytes) + one.flush()
        let pieces = two.filter(Array(bytes[..<split])) + two.filter(Array(bytes[split...])) + two.flush()
        if kept.count > bytes.count { violations.append("the audio filter kept more than it was given") }
        if kept != pieces { violations.append("the audio filter keeps other bytes when the stream comes in two pieces (split at \(split))") }
        for (service, cues) in whole.services {
            violations += RoundTrip.violations(cues, headerBlocks: [], context: "608 \(service.rawValue)")
        }
        violations += joinedSegments(bytes)
        violations += piecesCutAtUnits(bytes)
        return violations
    }

    /// The stream cut as a whole file is cut to be read on several cores.
    ///
    /// After a head, at the first packet starting a video PES packet from every few packets on,
    /// each piece fed in two chunks. When every piece joins, it decodes as reading on through the
    /// file does.
    static func piecesCutAtUnits(_ bytes: [UInt8]) -> [String] {
        guard bytes.count > 3 else { return [] }
        let size = TransportStream.packetSize
        // A head of two packets at least: a muxer's PAT and PMT come first.
        let head = size * (2 + Int(bytes[2]) % 16), stride = size * (1 + Int(bytes[3]) % 32)
        guard head < bytes.count else { return [] }
        func reading(_ reader: TransportStreamCaptionReader) -> String {
            "\(reader.cues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }) \(reader.decoder?.accessUnits ?? 0) "
                + "\(reader.decoder?.captionDataUnits ?? 0) \(reader.origin ?? -1) \(reader.notes)"
        }
        var on = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = on.feed(bytes[...])
        on.finish()
        var apart = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = apart.feed(bytes[..<head])
        guard let extractor = apart.segmentExtractor(), case .at(let first) = extractor.unitStart(in: bytes[head...]) else { return [] }
        _ = apart.feed(bytes[head..<first])
        var starts = [first]
        var nominal = first + stride
        while nominal < bytes.count {
            if case .at(let start) = extractor.unitStart(in: bytes[nominal...]), start > starts[starts.count - 1] { starts.append(start) }
            nominal += stride
        }
        guard apart.endBeforeJoining() else { return [] }
        var pieces: [SegmentCaptionExtractor.Segment] = []
        for (i, start) in starts.enumerated() {
            let end = i + 1 < starts.count ? starts[i + 1] : bytes.count
            let split = start + min(end - start, size * (1 + Int(bytes[i % bytes.count]) % 8))
            var piece = extractor.reading()
            piece.feed(bytes[start..<split])
            piece.feed(bytes[split..<end])
            let read = piece.finish()
            let whole = extractor.extract(bytes[start..<end])
            if read.joins != whole.joins || read.units.map(\.pts) != whole.units.map(\.pts) || read.units.map(\.data) != whole.units.map(\.data) {
                return ["a piece fed in two chunks reads otherwise than fed whole (\(start)..<\(end), split at \(split))"]
            }
            pieces.append(read)
        }
        guard pieces.allSatisfy(\.joins) else { return [] }
        for piece in pieces { apart.join(piece) }
        apart.finish()
        guard reading(apart) != reading(on) else { return [] }
        return ["pieces cut at video unit starts and joined decode otherwise than read on (head \(head), every \(stride) bytes)"]
    }

    /// The stream cut into segments at packets (every 1-64 packets, from the second byte): read
    /// apart and joined, when every segment joins, it decodes as reading on through them does.
    static func joinedSegments(_ bytes: [UInt8]) -> [String] {
        guard bytes.count > 2 else { return [] }
        let stride = TransportStream.packetSize * (1 + Int(bytes[1]) % 64)
        let segments = Swift.stride(from: 0, to: bytes.count, by: stride).map { bytes[$0..<min(bytes.count, $0 + stride)] }
        guard segments.count > 1 else { return [] }
        func reading(_ reader: TransportStreamCaptionReader) -> String {
            "\(reader.cues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }) \(reader.decoder?.accessUnits ?? 0) "
                + "\(reader.decoder?.captionDataUnits ?? 0) \(reader.origin ?? -1) \(reader.notes)"
        }
        var on = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        for (i, segment) in segments.enumerated() { _ = on.feed(segment, label: "s\(i)") }
        on.finish()
        var apart = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
        _ = apart.feed(segments[0], label: "s0")
        guard let extractor = apart.segmentExtractor(), apart.endBeforeJoining() else { return [] }
        let extracted = segments.dropFirst().map { extractor.extract($0) }
        guard extracted.allSatisfy(\.joins) else { return [] }
        for segment in extracted { apart.join(segment) }
        apart.finish()
        return reading(apart) == reading(on) ? [] : ["segments read apart and joined decode otherwise than read on (cut every \(stride) bytes)"]
    }

    /// ISO BMFF: the first four bytes (big-endian) give the length of an initialisation section,
    /// the rest is a media segment; the timeline probe and the sample reader run on them.
    public static func isoBMFF(_ bytes: [UInt8]) -> [String] {
        guard bytes.count >= 4 else { return [] }
        let length = min(Int(UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])), bytes.count - 4)
        let initialization = Array(bytes[4..<(4 + length)])
        let segment = Array(bytes[(4 + length)...])
        _ = try? TimelineProbe.probe(segment: segment, initialization: initialization.isEmpty ? nil : initialization)
        if let tracks = try? ISOBMFF.tracks(initialization.isEmpty ? segment : initialization) {
            _ = try? ISOBMFF.fragmentSamples(segment, tracks: tracks)
        }
        return []
    }

    static func ingest(_ bytes: [UInt8], _ format: SubtitleFormat, fps: TimecodeRate? = nil) -> [String] {
        guard
            let ingested = try? SubtitleIngest.read(
                bytes, format: format, encoding: nil, captionFile: CaptionFileReading(fps: fps), sourceID: "fuzz", location: "fuzz")
        else {
            return []
        }
        return RoundTrip.violations(ingested.cues, headerBlocks: ingested.headerBlocks, context: format.rawValue)
            + RoundTrip.contentViolations(ingested.cues, context: format.rawValue)
    }
}

/// The writing invariant: a segment Subweave writes parses back to exactly the cues it meant to
/// write (identifier, times to the millisecond, settings and text).
public enum RoundTrip {
    /// What differs between `cues` and the cues read back from a WebVTT file written from them.
    public static func violations(_ cues: [Cue], headerBlocks: [String], context: String) -> [String] {
        let meant = SegmentCues.writable(cues)
        let text = WebVTTWriter.file(
            map: TimestampMap(mpegts: 900_000, local: .zero), headerBlocks: headerBlocks,
            cueBlocks: meant.map(WebVTTWriter.block))
        guard let back = try? WebVTTParser.parse(text) else { return ["\(context): the written file is not WebVTT"] }
        var violations: [String] = []
        if back.cues.count != meant.count {
            violations.append("\(context): wrote \(meant.count) cues, read back \(back.cues.count)")
        }
        for (a, b) in zip(meant, back.cues)
        where a.identifier != b.identifier || a.start != b.start || a.end != b.end
            || a.settings != b.settings || a.text != b.text
        {
            violations.append(
                "\(context): wrote \(a.identifier) \(a.start)-\(a.end) \(a.settings.text) \(a.text.debugDescription), read back \(b.identifier) \(b.start)-\(b.end) \(b.settings.text) \(b.text.debugDescription)"
            )
            break
        }
        return violations
    }

    /// The cue model's invariants: every cue's content says the words of its text; a TTML
    /// cue's text is its content written as WebVTT; the content note never holds `-->` and reads
    /// back as the same content; the IMSC1 document of each cue can be written.
    public static func contentViolations(_ cues: [Cue], context: String) -> [String] {
        for cue in cues.prefix(200) {
            let content = cue.content
            let words = CueContent(webVTT: cue.text).plainText
            if content.plainText != words {
                return ["\(context): the content says \(content.plainText.debugDescription), the text \(words.debugDescription)"]
            }
            guard let kept = cue.keptContent else { continue }
            if context == "ttml" {
                var unsaid: Set<String> = []
                if kept.webVTT(dropping: &unsaid) != cue.text {
                    return ["\(context): the text \(cue.text.debugDescription) is not the content written as WebVTT"]
                }
            }
            let note = cue.contentNote ?? ""
            if note.contains("-->") || note.contains("\n") { return ["\(context): the content note \(note.debugDescription) is not one WebVTT comment line"] }
            let file = "WEBVTT\n\n" + note + "\n\n" + WebVTTWriter.block(cue) + "\n\n"
            let back = (try? WebVTTParser.parse(file).cues) ?? []
            if back.count == 1, CueContent.attachingNotes(to: back, from: file).first?.keptContent != kept {
                return ["\(context): the content note does not read back as the content"]
            }
            _ = IMSCWriter.document([(cue, cue.start, cue.end)], language: "en")
        }
        return []
    }
}
