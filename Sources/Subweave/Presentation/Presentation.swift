import Containers
import Foundation
import HLS
import Timebase

/// An HLS presentation read once: the master playlist, the variant whose timeline subtitles
/// follow, and that timeline read from the media.
///
/// ```swift
/// let presentation = try await Presentation(master: URL(fileURLWithPath: "hls/master.m3u8"))
/// let plan = try await presentation.plan(PackageRequest(tracks: [english]))
/// try await Packager().apply(plan)
/// ```
public struct Presentation: Sendable {
    /// Where the master was read from (a file URL or `http(s)://`).
    public let masterURL: URL
    /// The master, parsed losslessly.
    public let master: MasterPlaylist
    /// The master's bytes as read, so a later write can tell whether it changed meanwhile.
    public let masterBytes: [UInt8]
    /// The variant whose segments and timestamps the renditions follow.
    public let reference: ReferenceVariant
    /// The reference variant's timeline, with the first presented frame of each discontinuity sequence.
    public let timeline: ProgrammeTimeline
    /// Things worth knowing about the timeline (variants that disagree, an audio-only reference).
    public let warnings: [PackageWarning]
    /// The reader every further read goes through.
    public let loader: ResourceLoader
    /// The title's AES-128 key: its encrypted segments are read with it, and subtitles are
    /// encrypted with it when the title's intent says so.
    public let key: ContentKey?
    /// Told as planning advances: the video read for captions, the tracks made.
    public var onProgress: ProgressHandler = { _ in }
    /// The other variants probed with the reference (``ReferenceSelection``), by their index
    /// among the variants: their playlist URLs and timelines, so that choosing the variant to
    /// read captions on does not read them again.
    let variantTimelines: [Int: (url: URL, timeline: ProgrammeTimeline)]

    /// Reads `master` (a local file or `http(s)://` URL), chooses the reference variant, and reads
    /// the first segment of each of its discontinuity sequences for their timestamps (decrypted
    /// with `key` when they are AES-128 segments).
    public init(master: URL, loader: ResourceLoader = ResourceLoader(), key: ContentKey? = nil) async throws(SubweaveError) {
        let reader = MediaReader(loader: loader, key: key)
        let bytes = try await reader.read(master, kind: .playlist, what: "the master playlist")
        let parsed: MasterPlaylist
        do { parsed = try MasterPlaylist(parsing: bytes, source: MediaReader.display(master)) } catch { throw .playlist(error) }
        let (reference, timeline, warnings, others) = try await ReferenceSelection(master: parsed, masterURL: master, reader: reader).choose()
        self.variantTimelines = others
        self.masterURL = master
        self.master = parsed
        self.masterBytes = bytes
        self.reference = reference
        self.timeline = timeline
        self.warnings = warnings
        self.loader = loader
        self.key = key
    }

    /// A reader of the title's media, with its key.
    var reader: MediaReader { MediaReader(loader: loader, key: key) }

    /// The master's path when it is a local file.
    public var masterPath: String? { masterURL.isFileURL ? masterURL.path : nil }
}

/// The variant a presentation's renditions follow, and why it was chosen.
public struct ReferenceVariant: Sendable {
    /// Its position among the master's `EXT-X-STREAM-INF` lines (0 for the first).
    public let index: Int
    /// Its media playlist's URL.
    public let url: URL
    /// Its media playlist.
    public let playlist: MediaPlaylist
    /// Why this variant, such as "the first variant with video (CODECS avc1.4d401f)".
    public let reason: String
}

/// Chooses the reference variant: the first that carries video, so that the subtitles' time 0 is
/// the first video frame, whatever order the ladder lists its variants in.
///
/// A variant carries video when its CODECS name a video codec or it has a RESOLUTION; a variant
/// whose CODECS name only audio codecs (and no RESOLUTION) does not; otherwise its first segment
/// is probed. With no variant carrying video, the first variant is used (an audio-only
/// programme). Other variants with video that start more than a frame away from the reference are
/// reported: players align each to its own timestamps, so their cues would not be in sync.
struct ReferenceSelection {
    let master: MasterPlaylist
    let masterURL: URL
    let reader: MediaReader

    static let videoCodecs = ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "dva1", "dvav", "av01", "vp09", "vp08", "mp4v", "vvc1", "vvi1"]
    static let audioCodecs = ["mp4a", "ac-3", "ec-3", "ac-4", "opus", "flac", "mp3", "alac", "dtsc", "dtse", "dtsx", "fLaC", "Opus"]
    /// At most this many other variants are probed for the disagreement warning.
    static let comparedVariants = 8

    enum Media: Equatable { case video, audioOnly, unknown }

    static func media(of variant: MasterPlaylist.Variant) -> (Media, String) {
        let codecs = variant.attributes["CODECS"]?.unquoted.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        if let video = codecs.first(where: { codec in videoCodecs.contains { codec.hasPrefix($0) } }) {
            return (.video, "CODECS \(video)")
        }
        if let resolution = variant.attributes["RESOLUTION"]?.rawValue { return (.video, "RESOLUTION \(resolution)") }
        if !codecs.isEmpty && codecs.allSatisfy({ codec in audioCodecs.contains { codec.hasPrefix($0) } }) {
            return (.audioOnly, "CODECS \(codecs.joined(separator: ","))")
        }
        return (.unknown, "")
    }

    /// The reference, its timeline, what to warn of, and the other variants probed (their
    /// playlist URLs and timelines, by index).
    func choose() async throws(SubweaveError) -> (
        ReferenceVariant, ProgrammeTimeline, [PackageWarning], [Int: (url: URL, timeline: ProgrammeTimeline)]
    ) {
        let variants = master.variants
        var probed: [Int: (URL, MediaPlaylist, ProgrammeTimeline)] = [:]
        func probe(_ index: Int) async throws(SubweaveError) -> (URL, MediaPlaylist, ProgrammeTimeline) {
            if let done = probed[index] { return done }
            let (url, playlist) = try await readVariant(variants[index], number: index)
            let timeline = try await reader.timeline(of: playlist, at: url)
            probed[index] = (url, playlist, timeline)
            return (url, playlist, timeline)
        }
        var chosen: (index: Int, reason: String)?
        for (index, variant) in variants.enumerated() {
            let (media, why) = Self.media(of: variant)
            if media == .video { chosen = (index, "the first variant with video (\(why))"); break }
        }
        if chosen == nil {
            for (index, variant) in variants.enumerated() where Self.media(of: variant).0 == .unknown {
                let (_, _, timeline) = try await probe(index)
                if timeline.sequences.first?.media.source == .video {
                    chosen = (index, "the first variant whose media carries video (probed)")
                    break
                }
            }
        }
        var warnings: [PackageWarning] = []
        let (index, reason) = chosen ?? (0, "the first variant (no variant carries video: an audio-only programme)")
        if chosen == nil && variants.count > 0 {
            warnings.append(PackageWarning(.audioOnlyReference, "no variant carries video; the subtitles follow the first variant's audio timeline"))
        }
        // Other variants with video should start on the same frame: they are probed with the
        // reference, several at once (a ladder's first segments are read side by side).
        var seen: Set<String> = [variants[index].uri]
        let compared = variants.indices.filter { other in
            other != index && Self.media(of: variants[other]).0 != .audioOnly && seen.insert(variants[other].uri).inserted
        }.prefix(Self.comparedVariants)
        let others = Task { [self, toProbe = compared.filter { probed[$0] == nil }] in
            await probeAll(toProbe, atOnce: max(1, reader.loader.concurrency - 1))
        }
        let (url, playlist, timeline) = try await probe(index)
        let probes = await others.value
        warnings += timeline.notes.map { PackageWarning(.media, MessageText($0)) }
        // Each other variant probed is kept (for the caption choice) and compared with the reference.
        var otherTimelines: [Int: (url: URL, timeline: ProgrammeTimeline)] = [:]
        for other in compared {
            guard let (otherURL, _, otherTimeline) = probed[other] ?? (try? probes[other]?.get()) else { continue }
            otherTimelines[other] = (otherURL, otherTimeline)
            guard let a = timeline.sequences.first?.media, let b = otherTimeline.sequences.first?.media, b.source == .video, a.source == .video
            else { continue }
            let difference = PresentationTimestamp.wrappedDifference(b.start, a.start)
            if abs(difference) > ProgrammeTimeline.frameTolerance.ticks {
                warnings.append(
                    PackageWarning(
                        .variantsDisagree,
                        "variant \(other + 1) (\(MediaReader.display(otherURL))) starts \(MediaTime(ticks: difference).decimalSeconds) s away from the reference variant \(index + 1) (\(MediaReader.display(url))); players time each variant's cues from its own first frame, so cues will be off by that much on one of them"
                    ))
            }
        }
        return (ReferenceVariant(index: index, url: url, playlist: playlist, reason: reason), timeline, warnings, otherTimelines)
    }

    /// The media playlists and timelines of the variants `indices`, read `atOnce` at a time.
    func probeAll(_ indices: [Int], atOnce: Int) async -> [Int: Result<(URL, MediaPlaylist, ProgrammeTimeline), SubweaveError>] {
        let variants = master.variants
        return await withTaskGroup(of: (Int, Result<(URL, MediaPlaylist, ProgrammeTimeline), SubweaveError>).self) { group in
            var results: [Int: Result<(URL, MediaPlaylist, ProgrammeTimeline), SubweaveError>] = [:]
            var next = indices.startIndex
            func start() {
                let index = indices[next]
                next += 1
                group.addTask {
                    (
                        index,
                        await .capturing { () async throws(SubweaveError) in
                            let (url, playlist) = try await readVariant(variants[index], number: index)
                            return (url, playlist, try await reader.timeline(of: playlist, at: url))
                        }
                    )
                }
            }
            while next < indices.endIndex && next < max(1, atOnce) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < indices.endIndex { start() }
            }
            return results
        }
    }

    func readVariant(_ variant: MasterPlaylist.Variant, number: Int) async throws(SubweaveError) -> (URL, MediaPlaylist) {
        let uri: String
        do { uri = try master.substitutingVariables(in: variant.uri, line: variant.uriLineIndex) } catch { throw .playlist(error) }
        guard let url = MediaReader.resolve(uri, against: masterURL) else {
            throw .playlist(
                HLSError(
                    .malformedTag, source: master.source, line: master.playlist.lines[variant.uriLineIndex].number,
                    "the variant URI is not a valid URI"))
        }
        let bytes = try await reader.read(
            url, kind: .playlist,
            what:
                "the media playlist of variant \(number + 1) (#EXT-X-STREAM-INF on line \(master.playlist.lines[variant.lineIndex].number ?? 0) of \(master.source))"
        )
        do { return (url, try MediaPlaylist(parsing: bytes, source: MediaReader.display(url), imports: master.definitions)) } catch { throw .playlist(error) }
    }
}
