import Containers
import Timebase
import TimedText

/// The DVB teletext subtitles of an MPEG-TS byte stream fed in chunks: the first teletext stream
/// the PMT lists, its pages decoded by ``TeletextDecoder``, timed by PTS (unwrapped, then put on
/// the output timeline by `timeOf`, as the video's captions are).
package struct TeletextStreamReader {
    private var demuxer = TransportStreamDemuxer(selecting: .teletext)
    package private(set) var decoder = TeletextDecoder()
    private var lastPTS: Int64?
    /// Maps an (unwrapped) PES PTS to a time on the output timeline; change it at a discontinuity.
    package var timeOf: @Sendable (Int64) -> MediaTime
    /// PES packets without a PTS (their pages cannot be timed): skipped.
    package private(set) var untimedPackets = 0
    /// The time of the last page read (output timeline).
    package private(set) var lastTime: MediaTime?

    package init(timeOf: @escaping @Sendable (Int64) -> MediaTime = { MediaTime(ticks: $0) }) { self.timeOf = timeOf }

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

    /// The end of an HLS segment: the PES packet being assembled is complete (it is read now, not
    /// when the next segment's first packet comes).
    package mutating func endOfSegment() {
        guard !absent else { return }
        var packets: [TransportStreamDemuxer.PESPacket] = []
        demuxer.finish { packets.append($0) }
        for packet in packets { add(packet) }
    }

    /// A discontinuity: what is shown ends at `time`, and PTS are read afresh.
    package mutating func discontinuity(at time: MediaTime) {
        endOfSegment()
        decoder.finish(at: time)
        lastPTS = nil
    }

    /// Ends the input: what is shown ends at `end` (or at the last page read, if later).
    package mutating func finish(at end: MediaTime) {
        endOfSegment()
        decoder.finish(at: max(end, lastTime ?? end))
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
        let time = timeOf(unwrapped)
        lastTime = time
        decoder.add(packet.payload, time: time)
    }

    /// Whether `page` is a subtitle page: listed as one by the descriptor (handed to the decoder
    /// before its first packet), or its header says subtitle (C6).
    private func isSubtitles(_ page: String) -> Bool {
        decoder.announcedSubtitlePages.contains(page) || decoder.subtitlePages.contains(page)
    }

    /// The subtitle pages with cues: those the descriptor lists as subtitles or whose header says
    /// subtitle (C6), in page order, with the descriptor's language.
    package var subtitlePages: [(page: String, language: String?, cues: [Cue])] {
        let announced = announcedPages
        return decoder.cues.keys.sorted().compactMap { page in
            guard isSubtitles(page), let cues = decoder.cues[page], !cues.isEmpty else { return nil }
            return (page, announced.first { $0.number == page }?.language, cues)
        }
    }

    /// The cues of each subtitle page, as caption services.
    package var cues: [CaptionService: [Cue]] {
        var result: [CaptionService: [Cue]] = [:]
        for page in subtitlePages {
            if let service = CaptionService.teletext(page.page) { result[service] = page.cues }
        }
        return result
    }

    /// What each subtitle page shows now, as cues ending at `time` (not final).
    package func openCues(at time: MediaTime) -> [(service: CaptionService, cue: Cue)] {
        decoder.shownCues(at: time).compactMap { page, cue in
            guard isSubtitles(page), let service = CaptionService.teletext(page) else { return nil }
            return (service, cue)
        }
    }

    /// The first subtitle text shown, and its page.
    package var firstText: (service: CaptionService, time: MediaTime)? {
        decoder.firstShown.flatMap { first in CaptionService.teletext(first.page).map { ($0, first.time) } }
    }

    /// The subtitle pages with text shown so far.
    package var servicesWithText: [CaptionService] {
        Set(cues.keys).union(decoder.shownPages.filter(isSubtitles).compactMap(CaptionService.teletext)).sorted()
    }

    /// The language the descriptor gives each subtitle page.
    package var pageLanguages: [(service: CaptionService, language: String)] {
        announcedPages.compactMap { entry in
            guard entry.isSubtitles, let language = entry.language, let service = CaptionService.teletext(entry.number) else { return nil }
            return (service, language)
        }
    }

    /// What was read although damaged, or left out.
    package var notes: [String] {
        var notes: [String] = []
        if decoder.damagedBytes > 0 {
            notes.append(
                "teletext: \(decoder.damagedBytes) byte(s) failed their parity or Hamming check (a character shown as a space, a packet or header skipped)")
        }
        if decoder.undecodedCharacters > 0 {
            notes.append(
                "teletext: \(decoder.undecodedCharacters) character(s) of pages designated an Arabic or Hebrew set, which Subweave does not decode: shown as U+FFFD"
            )
        }
        if untimedPackets > 0 { notes.append("teletext: \(untimedPackets) PES packet(s) carry no PTS; their pages were skipped") }
        return notes
    }
}
