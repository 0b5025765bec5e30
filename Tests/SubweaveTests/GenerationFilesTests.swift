import Containers
import HLS
import Platform
import TestSupport
import Testing
import Timebase

@testable import Subweave
@testable import TimedText

/// A generation's files as the packager hands them to the writer: the segments and the kept cues
/// are the text writer's bytes, and the kept cues (as large as the source) go out in pieces,
/// never as one buffer the size of the file.
struct GenerationFilesTests {
    static func timeline(segments: Int) throws -> ProgrammeTimeline {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n"
        for i in 0..<segments { text += "#EXTINF:6,\ns\(i).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        let playlist = try MediaPlaylist(parsing: Array(text.utf8), source: "p")
        return ProgrammeTimeline(playlist: playlist, probes: [0: SegmentTimeline(container: .mpegTS, start: 900_000, source: .video, videoLanguage: nil)])
    }

    static func record(cues: Int) -> RenditionRecord {
        RenditionRecord(
            identity: "external:a:en", sourceID: "a", language: "en", name: "English", forced: false, characteristics: .none, prefersDefault: false,
            ingestFormat: "srt_converted", source: "a.srt", cueCount: cues)
    }

    /// Every file and its pieces, in the order they are handed out.
    static func files(_ rendition: SubtitleRendition) throws -> [(name: String, pieces: [[UInt8]])] {
        var files: [(name: String, pieces: [[UInt8]])] = []
        try rendition.eachFile { name, content throws(FileFailure) in
            var pieces: [[UInt8]] = []
            try content { piece throws(FileFailure) in pieces.append(Array(piece)) }
            files.append((name, pieces))
        }
        return files
    }

    @Test func keptCuesAreHandedOutInPiecesAsTheTextWriterWritesThem() throws {
        // A 60 s programme and 20,000 cues over 11 hours: nearly all kept, few shown.
        let timeline = try Self.timeline(segments: 10)
        let source = (0..<20_000).map { i in
            Cue(
                start: MediaTime(milliseconds: Int64(i) * 2_000), end: MediaTime(milliseconds: Int64(i) * 2_000 + 1_500),
                text: "cue \(i) with some words\nand a second line")
        }
        let shown = RenditionPlanner.fitted(source, to: timeline.duration, clampingEnds: true)
        let rendition = SubtitleRendition(
            folder: "subtitles/en", cues: shown, headerBlocks: [], timeline: timeline, record: Self.record(cues: shown.count), keptCues: source)
        let files = try Self.files(rendition)
        #expect(files.map(\.name) == RenditionLayout.segmentNames(count: 10) + ["index.m3u8", "cues.vtt", "rendition.json"])
        let kept = try #require(files.first { $0.name == RenditionRecord.cuesFileName })
        #expect(kept.pieces.count > 1, "a kept-cue file of \(kept.pieces.map(\.count).reduce(0, +)) bytes went out whole")
        #expect(kept.pieces.allSatisfy { $0.count < SubtitleRendition.pieceSize + 256 }, "no piece much larger than a piece")
        let expected = WebVTTWriter.file(map: nil, headerBlocks: [], cueBlocks: source.map(WebVTTWriter.block))
        #expect(kept.pieces.flatMap { $0 } == Array(expected.utf8))
        // Each segment is whole and parses back as the cues it carries, moved by its mapping.
        for (index, file) in files.prefix(10).enumerated() {
            #expect(file.pieces.count == 1)
            let document = try WebVTTParser.parse(String(decoding: file.pieces[0], as: UTF8.self))
            let window = timeline.windows[index]
            let carried = shown.filter { $0.start < window.upperBound && $0.end > window.lowerBound }
            #expect(document.cues.map(\.text) == carried.map(\.text), "segment \(index)")
        }
    }

    /// A record that holds the rendition's own cues keeps the file made with the hash: it is the
    /// text writer's file (header blocks, notes of kept content, settings), handed out whole.
    @Test func theCuesFileMadeWithTheHashIsTheTextWritersFile() throws {
        let timeline = try Self.timeline(segments: 10)
        var cues: [Cue] = []
        for i in 0..<300 {
            let start = MediaTime(milliseconds: Int64(i) * 200)
            let settings = i % 3 == 0 ? CueSettings(line: .number("0")) : CueSettings()
            let identifier = i % 5 == 0 ? "c\(i)" : ""
            cues.append(Cue(identifier: identifier, start: start, end: start + MediaTime(milliseconds: 150), settings: settings, text: "cue \(i) é\nsecond"))
        }
        for i in stride(from: 0, to: cues.count, by: 4) { cues[i].keptContent = SubRipMarkup.content("<font color=\"#123456\">\(cues[i].text)</font>") }
        let header = ["STYLE\n::cue { color: lime }"]
        let rendition = SubtitleRendition(
            folder: "subtitles/en", cues: cues, headerBlocks: header, timeline: timeline, record: Self.record(cues: cues.count))
        #expect(rendition.cueBlocks != nil)
        let kept = try #require(try Self.files(rendition).first { $0.name == RenditionRecord.cuesFileName })
        let blocks = cues.map { cue in (cue.contentNote.map { $0 + "\n\n" } ?? "") + WebVTTWriter.block(cue) }
        #expect(kept.pieces == [Array(WebVTTWriter.file(map: nil, headerBlocks: header, cueBlocks: blocks).utf8)])
        // The segments copy their blocks from that file: the bytes of segments made cue by cue
        // (a rendition without a record has no such file), on a timeline that moves the times.
        let alone = SubtitleRendition(folder: "subtitles/en", cues: cues, headerBlocks: header, timeline: timeline)
        #expect(alone.cueBlocks == nil && rendition.mappings.contains { $0.offset != .zero })
        let segments = try Self.files(rendition).prefix(10)
        #expect(segments.map(\.pieces) == (try Self.files(alone)).prefix(10).map(\.pieces))
        #expect(segments.filter { String(decoding: $0.pieces.joined(), as: UTF8.self).contains(" --> ") }.count == 10)
        // Its name is the one the cues alone give (the file is made with the hash, not hashed).
        var hash = WordHash()
        WebVTTBytes.addBlocks(of: cues, to: &hash)
        var gathered: CueBlocks? = CueBlocks(header: [])
        var same = WordHash()
        WebVTTBytes.addBlocks(of: cues, to: &same, gathering: &gathered, limit: 1 << 30)
        #expect(hash == same)
    }

    @Test func theGenerationNamesWhatIsKept() throws {
        let timeline = try Self.timeline(segments: 2)
        let source = (0..<50).map { i in
            Cue(start: MediaTime(milliseconds: Int64(i) * 1_000), end: MediaTime(milliseconds: Int64(i) * 1_000 + 900), text: "c\(i)")
        }
        let shown = RenditionPlanner.fitted(source, to: timeline.duration, clampingEnds: true)
        func generation(_ kept: [Cue]?) -> String {
            SubtitleRendition(folder: "s", cues: shown, headerBlocks: [], timeline: timeline, record: Self.record(cues: shown.count), keptCues: kept).generation
        }
        var changed = source
        changed[40].text = "changed"
        #expect(generation(source) == generation(source))
        #expect(generation(source) != generation(changed), "a kept cue's text is part of the name")
        #expect(generation(source) != generation(nil))
    }

    /// Cues that need nothing are the ingest's own array, not a copy (a million cues are held once).
    @Test func writableCuesAreNotCopied() {
        let cues = (0..<1_000).map { i in Cue(start: MediaTime(milliseconds: Int64(i)), end: MediaTime(milliseconds: Int64(i) + 5), text: "t") }
        let same = SegmentCues.writable(cues, sanitizing: false)
        #expect(same.withUnsafeBufferPointer { $0.baseAddress } == cues.withUnsafeBufferPointer { $0.baseAddress })
        var negative = cues
        negative[3].start = MediaTime(milliseconds: -40)
        #expect(SegmentCues.writable(negative, sanitizing: false)[3].start == .zero)
        var between = cues
        between[5].end = MediaTime(ticks: between[5].end.ticks + 10)
        #expect(SegmentCues.writable(between, sanitizing: false)[5].end == cues[5].end, "times round to the millisecond")
        for identifier in ["a --> b", "two\nlines", "cr\r", "--->", "x-->", "an identifier too long to be a small string -->"] {
            var named = cues
            named[7].identifier = identifier
            #expect(SegmentCues.writable(named, sanitizing: false)[7].identifier == "", "\(identifier.debugDescription)")
        }
        for identifier in ["a -> b", "- ->", "-- >", "an identifier too long to be a small string, with -> only"] {
            var kept = cues
            kept[7].identifier = identifier
            #expect(
                SegmentCues.writable(kept, sanitizing: false).withUnsafeBufferPointer { $0.baseAddress } == kept.withUnsafeBufferPointer { $0.baseAddress },
                "\(identifier.debugDescription)")
        }
        var backwards = cues
        backwards[2].end = backwards[2].start
        #expect(SegmentCues.writable(backwards, sanitizing: false).count == cues.count - 1, "a cue that does not end after its start goes")
    }

    /// A rendition written in parts (on every core) writes the files it writes whole: the parts
    /// joined in order are the whole's files, each once, with the same bytes, for any number of
    /// segments and parts (IMSC1's initialization segment with the first part).
    @Test func theFilesOfThePartsAreTheFilesOfTheWhole() throws {
        for format in [SegmentNaming.standard, SegmentNaming(format: .imsc1, template: .standard)] {
            for segments in [1, 2, 7, 130] {
                let timeline = try Self.timeline(segments: segments)
                let cues = (0..<(segments * 3)).map { i in
                    Cue(start: MediaTime(milliseconds: Int64(i) * 2_000), end: MediaTime(milliseconds: Int64(i) * 2_000 + 2_500), text: "cue \(i)")
                }
                let rendition = SubtitleRendition(
                    folder: "subtitles/en", cues: cues, headerBlocks: [], timeline: timeline, record: Self.record(cues: cues.count), naming: format)
                let whole = try Self.files(rendition)
                #expect(whole.count == segments + 3 + (format.format == .imsc1 ? 1 : 0))
                for parts in 1...5 {
                    var joined: [(name: String, pieces: [[UInt8]])] = []
                    for part in 0..<parts {
                        try rendition.eachFile(part: part, of: parts) { name, content throws(FileFailure) in
                            var pieces: [[UInt8]] = []
                            try content { piece throws(FileFailure) in pieces.append(Array(piece)) }
                            joined.append((name, pieces))
                        }
                    }
                    #expect(joined.map(\.name) == whole.map(\.name), "\(segments) segments in \(parts) parts")
                    #expect(joined.map { $0.pieces.flatMap { $0 } } == whole.map { $0.pieces.flatMap { $0 } }, "\(segments) segments in \(parts) parts")
                }
            }
        }
    }
}
