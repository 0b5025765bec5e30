import Containers
import Pictures
import Timebase

/// The DVB subtitle streams (EN 300 743) of an MPEG-TS byte stream fed in chunks.
///
/// Every stream the PMT lists with a subtitling_descriptor is decoded to pictures
/// (``DVBSubtitles``), each timed by PTS (unwrapped, then put on the output timeline by
/// `timeOf`, as the video's captions are). The pictures become text later, by OCR, outside
/// this module.
package struct DVBSubtitleStreamReader {
    /// One stream: its demuxer, decoder and what the PMT says of it.
    private struct Stream {
        let service: CaptionService
        let entry: TransportStream.ElementaryStream
        var demuxer: TransportStreamDemuxer
        var decoder = DVBSubtitles.Decoder()
        var lastPTS: Int64?
        var untimedPackets = 0
        var bytes = 0
    }

    /// Finds the streams in the PMT; nothing else is read through it.
    private var finder = TransportStreamDemuxer(selecting: .dvbSubtitles)
    private var streams: [Stream] = []
    /// Maps an (unwrapped) PES PTS to a time on the output timeline; change it at a discontinuity.
    package var timeOf: @Sendable (Int64) -> MediaTime
    /// The time of the last page read (output timeline).
    package private(set) var lastTime: MediaTime?
    /// The PMT lists no DVB subtitle stream: nothing more is read.
    package private(set) var absent = false
    /// PES packets decoded so far, all streams together: a caller that reads ``pictures`` after
    /// every chunk reads them again only when this has moved.
    package private(set) var packetsDecoded = 0

    package init(timeOf: @escaping @Sendable (Int64) -> MediaTime = { MediaTime(ticks: $0) }) { self.timeOf = timeOf }

    /// Feeds bytes (of the file `label`, when they are a file of their own: problems are said
    /// with its name and their byte offset in it; `offsetInFile` bytes of it were fed before).
    package mutating func feed(_ bytes: ArraySlice<UInt8>, label: String? = nil, offsetInFile: Int = 0) {
        guard !absent else { return }
        if streams.isEmpty {
            // Each stream's demuxer is the finder as it was before this chunk, following the
            // stream: it reads the chunk (and names its offsets) as if it had from the start.
            let before = finder
            finder.feed(bytes) { _ in }
            guard finder.tablesRead else { return }
            streams = finder.dvbSubtitleStreams.compactMap { entry in
                CaptionService.dvbSubtitles(pid: entry.pid).map {
                    var demuxer = before
                    demuxer.follow(.dvbSubtitlesOn(pid: entry.pid))
                    return Stream(service: $0, entry: entry, demuxer: demuxer)
                }
            }
            absent = streams.isEmpty
            for k in streams.indices {
                if let first = streams[k].entry.subtitling.first {
                    streams[k].decoder.pages = [Int(first.compositionPage), Int(first.ancillaryPage)]
                }
                // A hostile stream cannot make more pixels than its bytes allow (plus a 4K frame).
                streams[k].decoder.budget = SubtitlePicture.pixelBudget(inputBytes: 0)
            }
        }
        for k in streams.indices {
            let base = label == nil ? 0 : streams[k].demuxer.position - offsetInFile
            var packets: [TransportStreamDemuxer.PESPacket] = []
            streams[k].demuxer.feed(bytes) { packets.append($0) }
            for packet in packets { add(packet, to: k, file: label.map { ($0, base) }) }
        }
    }

    /// The end of an HLS segment: the PES packets being assembled are complete.
    package mutating func endOfSegment() {
        for k in streams.indices {
            var packets: [TransportStreamDemuxer.PESPacket] = []
            streams[k].demuxer.finish { packets.append($0) }
            for packet in packets { add(packet, to: k) }
        }
    }

    /// A discontinuity: what is shown ends at `time`, and PTS are read afresh.
    package mutating func discontinuity(at time: MediaTime) {
        endOfSegment()
        for k in streams.indices {
            streams[k].decoder.interrupt(at: time)
            streams[k].lastPTS = nil
        }
    }

    /// Ends the input: what is shown ends at its time-out, or at `end` when that comes first.
    package mutating func finish(at end: MediaTime) {
        endOfSegment()
        for k in streams.indices {
            streams[k].decoder.interrupt(at: max(end, lastTime ?? end))
            streams[k].decoder.close()
        }
    }

    /// Decodes a PES packet of stream `k` (read from `file`, whose bytes began at `base` of the
    /// demuxer's input).
    private mutating func add(_ packet: TransportStreamDemuxer.PESPacket, to k: Int, file: (name: String, base: Int)? = nil) {
        guard let pts = packet.pts else {
            streams[k].untimedPackets += 1
            return
        }
        let unwrapped = streams[k].lastPTS.map { PresentationTimestamp.unwrapped(pts, near: $0) } ?? pts
        streams[k].lastPTS = unwrapped
        let time = timeOf(unwrapped)
        lastTime = max(lastTime ?? time, time)
        streams[k].bytes += packet.payload.count
        streams[k].decoder.budget += 256 * packet.payload.count
        packetsDecoded += 1
        let known = streams[k].decoder.problems.count
        streams[k].decoder.decode(Array(packet.payload), time: time, offset: packet.offset)
        for problem in streams[k].decoder.problems.dropFirst(known) {
            guard problemNotes.count < Self.noteLimit else {
                problemsLeftOut += 1
                continue
            }
            let place = file.map { "\($0.name), byte \(problem.offset - $0.base)" } ?? "byte \(problem.offset)"
            problemNotes.append("\(streams[k].service.label): \(place): \(problem.reason); that part of the stream was skipped")
        }
    }

    /// What the decoders could not read, each naming its file and byte offset (the first
    /// ``noteLimit``; the rest are counted in ``problemsLeftOut`` and said).
    private var problemNotes: [String] = []
    private var problemsLeftOut = 0
    static let noteLimit = 20

    /// Each stream's pictures so far (a picture still shown has no end yet), a repeated page
    /// joined to the one it repeats; streams without a picture are left out.
    package var pictures: [CaptionService: [SubtitlePicture]] {
        var result: [CaptionService: [SubtitlePicture]] = [:]
        for stream in streams where !stream.decoder.pictures.isEmpty {
            result[stream.service] = SubtitlePicture.joiningRepeats(stream.decoder.pictures)
        }
        return result
    }

    /// Frees the pixels of the pictures that ended before `time` (see
    /// ``DVBSubtitles/Decoder/releasePixels(endedBefore:)``): their times stay.
    package mutating func releasePixels(endedBefore time: MediaTime) {
        for k in streams.indices { streams[k].decoder.releasePixels(endedBefore: time) }
    }

    /// The first picture shown, and its stream.
    package var firstPicture: (service: CaptionService, time: MediaTime)? {
        streams.compactMap { s in s.decoder.pictures.first.map { (s.service, $0.start) } }.min { $0.time < $1.time }
    }

    /// The streams that have shown a picture.
    package var servicesWithPictures: [CaptionService] { streams.filter { !$0.decoder.pictures.isEmpty }.map(\.service) }

    /// The language the subtitling descriptor gives each stream (its first entry's).
    package var languages: [(service: CaptionService, language: String)] {
        streams.compactMap { s in s.entry.subtitling.first?.language.map { (s.service, $0) } }
    }

    /// The streams whose subtitling type says they are for the hard of hearing.
    package var forHardOfHearing: Set<CaptionService> {
        Set(streams.filter { $0.entry.subtitling.first?.forHardOfHearing == true }.map(\.service))
    }

    /// What was read although damaged, or left out, each naming its stream.
    package var notes: [String] {
        var notes = problemNotes
        // Left out here, and by each stream's decoder (which keeps its first 20).
        let leftOut = problemsLeftOut + streams.reduce(0) { $0 + $1.decoder.problemsLeftOut }
        if leftOut > 0 {
            notes.append("\(leftOut) more DVB subtitle decoding problem(s) were left out (the first \(problemNotes.count) are kept)")
        }
        for stream in streams {
            let name = stream.service.label
            if stream.untimedPackets > 0 { notes.append("\(name): \(stream.untimedPackets) PES packet(s) carry no PTS; their pages were skipped") }
            let pages = Set(stream.entry.subtitling.map(\.compositionPage))
            if pages.count > 1, let first = stream.entry.subtitling.first {
                notes.append(
                    "\(name): the stream carries \(pages.count) composition pages; only the first (page \(first.compositionPage), \(first.language ?? "no language")) was read"
                )
            }
        }
        return notes
    }
}
