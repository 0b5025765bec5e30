import Captions
import Foundation
import HLS
import Timebase

/// Which variant's video is read for in-band captions: the one with the fewest bytes a second.
///
/// Captions travel in every variant of a ladder (the encoder copies them from the source into
/// each rendition), so the whole programme is read on the smallest video variant (the lowest
/// `AVERAGE-BANDWIDTH`, else `BANDWIDTH`), not on the reference, which is often the largest,
/// and its media times are put on the reference's timeline. That is only done where the two are
/// cut alike (and no `FRAME-RATE` says they differ): as many segments starting at the same times, the same discontinuity sequences, each
/// starting on the same frame. Both are then read where they must agree: their first segment, and
/// around each service's first cue (the segment before, the one that holds it, the one after). A
/// service one has there and the other lacks, or caption data in one only, is a disagreement:
/// warned of, and the reference is read in full, as if no shortcut existed. A service that only
/// the reference carries and that begins elsewhere is not seen (docs/captions.md).
struct CaptionVariantChoice {
    let presentation: Presentation
    let reader: MediaReader
    /// What the operator said of the services (the language DVB subtitle pictures are read in).
    var settings = CaptionServiceSettings()

    /// The smallest video variant other than the reference, its playlist URL and timeline, and
    /// why it may stand for the reference; nil when the reference is the smallest or no other
    /// variant can stand for it.
    func smallest() async -> (index: Int, url: URL, timeline: ProgrammeTimeline, reason: String)? {
        let variants = presentation.master.variants
        let reference = presentation.reference
        func rate(_ variant: MasterPlaylist.Variant) -> Int? {
            (variant.attributes["AVERAGE-BANDWIDTH"] ?? variant.attributes["BANDWIDTH"]).flatMap { Int($0.rawValue) }
        }
        guard let referenceRate = rate(variants[reference.index]) else { return nil }
        // Another frame rate carries the same captions re-packed over other frames: a cue could
        // start a frame away from where the reference's frames put it.
        func frameRate(_ variant: MasterPlaylist.Variant) -> Double? { variant.attributes["FRAME-RATE"].flatMap { Double($0.rawValue) } }
        let referenceFrames = frameRate(variants[reference.index])
        let smaller = variants.indices.filter { index in
            index != reference.index && variants[index].uri != variants[reference.index].uri
                && ReferenceSelection.media(of: variants[index]).0 == .video && (rate(variants[index]) ?? .max) < referenceRate
                && abs((frameRate(variants[index]) ?? referenceFrames ?? 0) - (referenceFrames ?? frameRate(variants[index]) ?? 0)) < 0.01
        }.sorted { (rate(variants[$0]) ?? .max, $0) < (rate(variants[$1]) ?? .max, $1) }
        let selection = ReferenceSelection(master: presentation.master, masterURL: presentation.masterURL, reader: reader)
        func probe(_ index: Int) async -> (URL, ProgrammeTimeline)? {
            // Probed with the reference already, most often; else read now.
            if let probed = presentation.variantTimelines[index] { return probed }
            guard let (url, playlist) = try? await selection.readVariant(variants[index], number: index),
                let timeline = try? await reader.timeline(of: playlist, at: url)
            else { return nil }
            return (url, timeline)
        }
        for index in smaller.prefix(2) {
            guard let (url, timeline) = await probe(index), standsFor(timeline) else { continue }
            let bandwidth = rate(variants[index]) ?? 0
            return (
                index, url, timeline,
                "variant \(index + 1), the video variant with the fewest bytes a second (\(bandwidth) bit/s against the reference's \(referenceRate)), on the reference's timeline"
            )
        }
        return nil
    }

    /// Whether `timeline` starts on the reference's first frame, lasts as long (within a
    /// segment) and has as many discontinuity sequences, each starting on its frame.
    func standsFor(_ timeline: ProgrammeTimeline) -> Bool {
        let reference = presentation.timeline
        let tolerance = ProgrammeTimeline.frameTolerance.seconds
        guard timeline.sequences.count == reference.sequences.count, timeline.playlist.hasEndList == reference.playlist.hasEndList,
            timeline.playlist.segments.count == reference.playlist.segments.count,
            zip(timeline.playlist.segments, reference.playlist.segments).allSatisfy({ abs(($0.start - $1.start).seconds) <= tolerance }),
            abs((timeline.duration - reference.duration).seconds) <= tolerance
        else { return false }
        return zip(timeline.sequences, reference.sequences).allSatisfy { small, big in
            small.media.source == .video && big.media.source == .video
                && abs(PresentationTimestamp.wrappedDifference(small.media.start, big.media.start)) <= ProgrammeTimeline.frameTolerance.ticks
                && abs((small.playlistStart - big.playlistStart).seconds) <= ProgrammeTimeline.frameTolerance.seconds
        }
    }

    /// The reference's segments to read to confirm `captions`: the first, and around each
    /// service's first cue.
    func confirmingSegments(_ captions: ProgrammeCaptions) -> [Int] {
        let segments = presentation.timeline.playlist.segments
        var indices: Set<Int> = segments.isEmpty ? [] : [0]
        for service in captions.services {
            guard let first = service.firstSeen, let at = segments.lastIndex(where: { $0.start <= first }) else { continue }
            indices.formUnion(max(0, at - 1)...min(segments.count - 1, at + 1))
        }
        return indices.sorted()
    }

    /// The captions of the programme, with the warnings a disagreement gives.
    ///
    /// Read on the smallest variant where it stands for the reference and the two agree where
    /// the captions begin; else read on the reference.
    ///
    /// With `master`, the record a run left beside it (``CaptionRecord``) answers when the media
    /// it was read from has not changed, and nothing is read; else the captions are read and the
    /// record to keep comes back with them.
    func read(onProgress: @escaping ProgressHandler, recordBeside master: URL? = nil) async throws(SubweaveError)
        -> (captions: ProgrammeCaptions, warnings: [PackageWarning], record: CaptionRecordToKeep?)
    {
        let small = await smallest()
        // The look that confirms services beginning in the first segment (most programmes) is
        // started now, on the other core, while the record is looked up and the small variant
        // is read; it is used only when those are the segments to confirm.
        let early = small.map { earlyLook(small: $0) }
        defer { early?.cancel() }
        var playlists = [(role: "reference", url: presentation.reference.url, playlist: presentation.timeline.playlist)]
        if let small { playlists.append((role: "in its place: \(small.reason)", url: small.url, playlist: small.timeline.playlist)) }
        let key = master == nil ? nil : CaptionRecord.key(playlists, pictureLanguages: settings)
        if let key, let master, let record = CaptionRecord.read(master: master, key: key) { return (record.captions, record.warnings, nil) }
        let (captions, warnings) = try await read(small: small, early: early, onProgress: onProgress)
        return (captions, warnings, key.map { CaptionRecordToKeep(key: $0, captions: captions, warnings: warnings) })
    }

    /// The segments ``confirmingSegments(_:)`` gives when every service begins in the first
    /// segment: the first two (or the one).
    var firstSegmentConfirmation: [Int] {
        Array(0..<min(2, presentation.timeline.playlist.segments.count))
    }

    /// What the reference's and `small`'s segments ``firstSegmentConfirmation`` carry, each read
    /// alone (see ``CaptionScanner/look(at:of:playlistURL:)``), read from now on another core.
    private func earlyLook(small: (index: Int, url: URL, timeline: ProgrammeTimeline, reason: String)) -> EarlyLook {
        var quiet = CaptionScanner(reader: reader)
        quiet.settings = settings
        let guess = firstSegmentConfirmation
        return Task { [quiet, timeline = presentation.timeline, url = presentation.reference.url] in
            await Result.capturing { () async throws(SubweaveError) in
                let there = try await quiet.look(at: guess, of: timeline, playlistURL: url)
                return (there, try await quiet.look(at: guess, of: small.timeline, playlistURL: small.url))
            }
        }
    }

    /// What segments carry on the reference and on the small variant (``earlyLook(small:)``).
    typealias EarlyLook = Task<Result<(CaptionScanner.Look, CaptionScanner.Look), SubweaveError>, Never>

    /// Reads the captions on `small` (confirmed on the reference, with `early` when it looked at
    /// the segments to confirm), or on the reference.
    private func read(small: (index: Int, url: URL, timeline: ProgrammeTimeline, reason: String)?, early: EarlyLook?, onProgress: @escaping ProgressHandler)
        async throws(SubweaveError) -> (ProgrammeCaptions, [PackageWarning])
    {
        var scanner = CaptionScanner(reader: reader)
        scanner.onProgress = onProgress
        scanner.settings = settings
        let reference = presentation.reference
        func whole(_ reason: String) async throws(SubweaveError) -> ProgrammeCaptions {
            var captions = try await scanner.scan(presentation.timeline, playlistURL: reference.url)
            captions.readFrom = ProgrammeCaptions.ReadFrom(playlist: MediaReader.display(reference.url), reason: reason, confirmedSegments: [])
            return captions
        }
        guard let small, let early else { return (try await whole("the reference variant, the smallest that carries the video's timeline"), []) }
        var captions = try await scanner.scan(small.timeline, playlistURL: small.url, clock: presentation.timeline)
        let segments = confirmingSegments(captions)
        // The same segments read alone on both variants must carry the same services, and caption
        // data on both or neither (an encoder that drops captions from a rung drops the data).
        let there: CaptionScanner.Look, here: CaptionScanner.Look
        if segments == firstSegmentConfirmation {
            (there, here) = try await early.value.get()
        } else {
            there = try await scanner.look(at: segments, of: presentation.timeline, playlistURL: reference.url)
            here = try await scanner.look(at: segments, of: small.timeline, playlistURL: small.url)
        }
        let missing = here.services.subtracting(there.services), extra = there.services.subtracting(here.services)
        let data = there.carriesData == here.carriesData && (there.carriesData || !captions.coverage.carriesCaptionData)
        guard missing.isEmpty, extra.isEmpty, data else {
            let name = "variant \(small.index + 1)"
            let said = [
                missing.isEmpty ? nil : "\(missing.sorted().map(\.rawValue).joined(separator: ", ")) in \(name) and not in the reference",
                extra.isEmpty ? nil : "\(extra.sorted().map(\.rawValue).joined(separator: ", ")) in the reference and not in \(name)",
                data ? nil : "caption data in \(there.carriesData ? "the reference" : name) only",
            ].compactMap { $0 }.joined(separator: "; ")
            let warning = PackageWarning(
                .captionVariantsDisagree,
                "the variants carry different captions (\(said)); the reference variant \(MediaReader.display(reference.url)) was read in full and its captions are the ones published"
            )
            return (try await whole("the reference variant, read in full: the variants' captions disagree"), [warning])
        }
        captions.readFrom = ProgrammeCaptions.ReadFrom(playlist: MediaReader.display(small.url), reason: small.reason, confirmedSegments: segments)
        return (captions, [])
    }
}
