import Containers
import Foundation
import HLS
import Timebase
import TimedText

/// The rules of an IMSC1 rendition's segments (fragmented MP4, ISO/IEC 14496-30).
enum IMSCRules {
    static let sample = RuleRow(
        "imsc.sample", .error, "ISO/IEC 14496-30 §5", "every IMSC1 segment is a fragment whose samples are TTML documents that parse")
    static let baseTime = RuleRow(
        "imsc.base-media-decode-time", .warning, "ISO/IEC 14496-12 §8.8.12",
        "a fragment's tfdt is its segment's start on the video's timeline (within a frame)")

    static let rows: [RuleRow] = [sample, baseTime]
}

/// Reads an IMSC1 rendition as a player does: its initialisation segment, then each fragment's
/// TTML (decrypted when AES-128), placing its cues on the programme timeline.
struct IMSCSegmentCheck {
    let reader: MediaReader
    let timeline: ProgrammeTimeline?

    /// The findings of `playlist` (at `url`), and the cues each segment carries (programme time).
    func check(_ playlist: MediaPlaylist, at url: URL) async -> (ValidationFindings, [[PresentationValidator.PlacedCue]], [String]) {
        var findings = ValidationFindings()
        var placed: [[PresentationValidator.PlacedCue]] = []
        var names: [String] = []
        var cache: [MediaSegment.Initialization: [UInt8]] = [:]
        for (index, segment) in playlist.segments.enumerated() {
            guard let segmentURL = MediaReader.resolve(segment.uri, against: url) else {
                placed.append([])
                names.append(segment.uri)
                continue
            }
            let segmentName = MediaReader.display(segmentURL)
            names.append(segmentName)
            placed.append([])
            // The kind of rendition was told from this section (presentation.subtitle-format otherwise).
            guard let initialization = try? await reader.initializationSection(segment, of: url, cache: &cache),
                let tracks = try? ISOBMFF.tracks(initialization), let track = tracks.first(where: { $0.sampleEntry == "stpp" })
            else { continue }
            guard
                let bytes = try? await reader.segment(index, of: playlist, at: url, segmentURL: segmentURL, kind: .subtitle, what: "an IMSC1 segment")
            else {
                findings.append(ValidationFinding(PresentationRules.segmentReadable, file: segmentName, line: nil, "the segment cannot be read"))
                continue
            }
            let samples = (try? ISOBMFF.fragmentSamples(bytes, tracks: [track])) ?? []
            guard !samples.isEmpty else {
                findings.append(ValidationFinding(IMSCRules.sample, file: segmentName, line: nil, "no sample of the stpp track was found in it"))
                continue
            }
            let timescale = Int64(max(1, track.timescale))
            if let expected = mediaStart(of: index, in: playlist), let first = samples.first {
                // On the 90 kHz clock; a tfdt too large to scale is as far off as can be.
                let (scaled, overflow) = first.decodeTime.multipliedReportingOverflow(by: 90_000)
                let got = overflow ? Int64.max : scaled / timescale
                if overflow || abs(PresentationTimestamp.wrappedDifference(got, expected)) > ProgrammeTimeline.frameTolerance.ticks {
                    findings.append(
                        ValidationFinding(
                            IMSCRules.baseTime, file: segmentName, line: nil,
                            "its tfdt is \(Double(got) / 90_000) s on the 90 kHz clock; the segment starts at \(Double(expected) / 90_000) s there"))
                }
            }
            for sample in samples {
                guard sample.offset >= 0, sample.size >= 0, sample.offset + sample.size <= bytes.count else {
                    findings.append(ValidationFinding(IMSCRules.sample, file: segmentName, line: nil, "a sample lies outside the segment's bytes"))
                    continue
                }
                let text = String(decoding: bytes[sample.offset..<(sample.offset + sample.size)], as: UTF8.self)
                do throws(SubtitleFileError) {
                    let cues = try TTMLParser.parse(text).cues
                    placed[index] += cues.map { cue in
                        PresentationValidator.PlacedCue(start: programme(cue.start, segment: index), end: programme(cue.end, segment: index), text: cue.text)
                    }
                } catch {
                    findings.append(ValidationFinding(IMSCRules.sample, file: segmentName, line: nil, "its TTML does not parse: \(error.description)"))
                }
            }
        }
        return (findings, placed, names)
    }

    /// Where segment `index` starts on the video's 90 kHz clock, when the timeline is known.
    func mediaStart(of index: Int, in playlist: MediaPlaylist) -> Int64? {
        guard let timeline, !timeline.sequences.isEmpty, index < timeline.playlist.segments.count else { return nil }
        let sequence = timeline.sequences[timeline.sequenceIndex(forSegment: index)]
        return sequence.media.start + (playlist.segments[index].start - sequence.playlistStart).ticks
    }

    /// A document time (the media timeline) on the programme timeline.
    func programme(_ time: MediaTime, segment index: Int) -> MediaTime {
        guard let timeline, !timeline.sequences.isEmpty, index < timeline.playlist.segments.count else { return time }
        let sequence = timeline.sequences[timeline.sequenceIndex(forSegment: index)]
        return time - MediaTime(ticks: sequence.media.start) + sequence.playlistStart
    }
}
