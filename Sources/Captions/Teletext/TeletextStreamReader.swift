import Containers
import Timebase
import TimedText

/// The DVB teletext subtitles of an MPEG-TS byte stream fed in chunks: the first teletext stream
/// the PMT lists, its pages decoded by ``TeletextDecoder``, timed by PTS (unwrapped).
package struct TeletextStreamReader {
    private var demuxer = TransportStreamDemuxer(selecting: .teletext)
    package private(set) var decoder = TeletextDecoder()
    private var lastPTS: Int64?
    /// PES packets without a PTS (their pages cannot be timed): skipped.
    package private(set) var untimedPackets = 0

    package init() {}

    /// The teletext stream's pages as its descriptor lists them, once the PMT has been read.
    package var announcedPages: [TransportStream.TeletextPageEntry] { demuxer.video?.teletextPages ?? [] }

    /// The PMT lists no teletext stream: nothing more is read.
    package private(set) var absent = false

    package mutating func feed(_ bytes: ArraySlice<UInt8>) {
        guard !absent else { return }
        defer { absent = demuxer.video == nil && demuxer.tablesRead }
        var packets: [TransportStreamDemuxer.PESPacket] = []
        demuxer.feed(bytes) { packets.append($0) }
        for packet in packets { add(packet) }
    }

    /// Ends the input: what is shown ends at `end`.
    package mutating func finish(at end: MediaTime) {
        var packets: [TransportStreamDemuxer.PESPacket] = []
        demuxer.finish { packets.append($0) }
        for packet in packets { add(packet) }
        decoder.finish(at: max(end, lastPTS.map { MediaTime(ticks: $0) } ?? end))
    }

    private mutating func add(_ packet: TransportStreamDemuxer.PESPacket) {
        if decoder.announcedSubtitlePages.isEmpty {
            decoder.announcedSubtitlePages = Set(announcedPages.filter(\.isSubtitles).map(\.number))
        }
        guard let pts = packet.pts else {
            untimedPackets += 1
            return
        }
        let unwrapped = lastPTS.map { PresentationTimestamp.unwrapped(pts, near: $0) } ?? pts
        lastPTS = unwrapped
        decoder.add(packet.payload[...], time: MediaTime(ticks: unwrapped))
    }

    /// The subtitle pages with cues: those the descriptor lists as subtitles or whose header says
    /// subtitle (C6), in page order, with the descriptor's language.
    package var subtitlePages: [(page: String, language: String?, cues: [Cue])] {
        let announced = announcedPages
        let wanted = Set(announced.filter(\.isSubtitles).map(\.number)).union(decoder.subtitlePages)
        return decoder.cues.keys.sorted().compactMap { page in
            guard wanted.contains(page), let cues = decoder.cues[page], !cues.isEmpty else { return nil }
            return (page, announced.first { $0.number == page }?.language, cues)
        }
    }
}
