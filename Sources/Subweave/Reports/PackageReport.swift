import Containers
import Timebase

/// What a `package` run did, for people (``summary``) and machines (JSON, snake_case keys).
public struct PackageReport: Sendable, Codable, Equatable {
    /// One subtitle rendition's account.
    public struct Track: Sendable, Codable, Equatable {
        public var sourceID: String
        /// `external:<sourceID>:<language>` (or `cea608:<service>` for decoded captions).
        public var identity: String
        public var language: String
        public var name: String
        /// How the cues were read: `vtt`, `srt_converted`, `cea608`, and so on.
        public var ingestFormat: String
        public var encoding: String?
        /// When the encoding was guessed: the measured chance the guess is right (0 to 1).
        public var encodingConfidence: Double?
        public var cueCount: Int
        /// Seconds, on the programme timeline (after any delay).
        public var firstCueStart: Double?
        /// The rendition's playlist URI, relative to the master.
        public var playlist: String
        /// Paths written (relative to the master's folder); empty on a dry run.
        public var filesWritten: [String] {
            get { written.paths }
            set { written = .listed(newValue) }
        }
        /// The paths as kept: a generation's are named by its folder and segment count, so a
        /// report of many long renditions does not hold every name.
        var written: FilesWritten
        public var warnings: [String]
        /// What was done as documented, said for the record (a language taken from the file's
        /// `xml:lang`): never a warning, never a failure under strict.
        public var notes: [String] = []
        /// `added` (a track of the request or decoded captions), `refreshed` (an earlier run's
        /// rendition segmented again from its kept cues), `unchanged` (refreshed to the same
        /// files: the video did not change) or `retimed` (another tool's rendition
        /// written again with a timestamp map).
        public var action: String = "added"

        enum CodingKeys: String, CodingKey {
            case sourceID = "source_id", identity, language, name, ingestFormat = "ingest_format", encoding
            case encodingConfidence = "encoding_confidence"
            case cueCount = "cue_count", firstCueStart = "first_cue_start", playlist, filesWritten = "files_written", warnings, notes, action
            case generationWritten = "files_written_generation"
        }

        /// Set in an encoder's `userInfo`, a rendition's files are kept as their generation.
        ///
        /// The generation names them (``GenerationFiles``): they are not listed one by one, so
        /// the run record (``RunFingerprint/Record``) of a title with thousands of segments per
        /// rendition is small and quick to write. Decoding takes either form; the report printed
        /// is the same.
        public static let compactFiles: CodingUserInfoKey = {
            // The initialiser fails for no key Foundation defines today; the text is fixed.
            guard let key = CodingUserInfoKey(rawValue: "subweave.compact-files") else { preconditionFailure("CodingUserInfoKey refused a fixed key") }
            return key
        }()

        /// The files of a generation, as ``FilesWritten/generation(folder:generation:segments:record:naming:)`` holds them.
        struct GenerationFiles: Codable {
            let folder: String, generation: String, segments: Int, record: Bool, format: SubtitleTextFormat, template: SegmentNameTemplate
        }

        /// The paths a rendition writes.
        enum FilesWritten: Sendable, Equatable {
            case listed([String])
            /// Every file of a generation (``RenditionLayout/paths(folder:generation:segments:record:)``).
            case generation(folder: String, generation: String, segments: Int, record: Bool, naming: SegmentNaming)

            var paths: [String] {
                switch self {
                case .listed(let paths): return paths
                case .generation(let folder, let generation, let segments, let record, let naming):
                    return RenditionLayout.paths(folder: folder, generation: generation, segments: segments, record: record, naming: naming)
                }
            }
        }

        init(
            sourceID: String, identity: String, language: String, name: String, ingestFormat: String, encoding: String?, cueCount: Int,
            firstCueStart: Double?, playlist: String, written: FilesWritten, warnings: [String]
        ) {
            self.sourceID = sourceID
            self.identity = identity
            self.language = language
            self.name = name
            self.ingestFormat = ingestFormat
            self.encoding = encoding
            self.cueCount = cueCount
            self.firstCueStart = firstCueStart
            self.playlist = playlist
            self.written = written
            self.warnings = warnings
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                sourceID: try c.decode(String.self, forKey: .sourceID), identity: try c.decode(String.self, forKey: .identity),
                language: try c.decode(String.self, forKey: .language), name: try c.decode(String.self, forKey: .name),
                ingestFormat: try c.decode(String.self, forKey: .ingestFormat), encoding: try c.decodeIfPresent(String.self, forKey: .encoding),
                cueCount: try c.decode(Int.self, forKey: .cueCount), firstCueStart: try c.decodeIfPresent(Double.self, forKey: .firstCueStart),
                playlist: try c.decode(String.self, forKey: .playlist), written: try Self.written(c), warnings: try c.decode([String].self, forKey: .warnings))
            action = try c.decodeIfPresent(String.self, forKey: .action) ?? "added"
            notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(sourceID, forKey: .sourceID)
            try c.encode(identity, forKey: .identity)
            try c.encode(language, forKey: .language)
            try c.encode(name, forKey: .name)
            try c.encode(ingestFormat, forKey: .ingestFormat)
            try c.encodeIfPresent(encoding, forKey: .encoding)
            try c.encode(cueCount, forKey: .cueCount)
            try c.encodeIfPresent(firstCueStart, forKey: .firstCueStart)
            try c.encode(playlist, forKey: .playlist)
            if encoder.userInfo[Self.compactFiles] as? Bool == true,
                case .generation(let folder, let generation, let segments, let record, let naming) = written
            {
                let files = GenerationFiles(
                    folder: folder, generation: generation, segments: segments, record: record, format: naming.format, template: naming.template)
                try c.encode(files, forKey: .generationWritten)
            } else {
                try c.encode(filesWritten, forKey: .filesWritten)
            }
            try c.encode(warnings, forKey: .warnings)
            if !notes.isEmpty { try c.encode(notes, forKey: .notes) }
            try c.encode(action, forKey: .action)
        }

        /// The files written, as either form keeps them.
        private static func written(_ c: KeyedDecodingContainer<CodingKeys>) throws -> FilesWritten {
            guard let files = try c.decodeIfPresent(GenerationFiles.self, forKey: .generationWritten) else {
                return .listed(try c.decode([String].self, forKey: .filesWritten))
            }
            return .generation(
                folder: files.folder, generation: files.generation, segments: files.segments, record: files.record,
                naming: SegmentNaming(format: files.format, template: files.template))
        }

        /// Equal when every field says the same, however the paths are kept.
        public static func == (a: Track, b: Track) -> Bool {
            a.sourceID == b.sourceID && a.identity == b.identity && a.language == b.language && a.name == b.name
                && a.ingestFormat == b.ingestFormat && a.encoding == b.encoding && a.cueCount == b.cueCount
                && a.firstCueStart == b.firstCueStart && a.playlist == b.playlist && a.warnings == b.warnings && a.notes == b.notes
                && a.action == b.action
                && (a.written == b.written || a.filesWritten == b.filesWritten)
        }
    }

    /// A rendition taken out of the master.
    public struct Removed: Sendable, Codable, Equatable {
        /// `external:<sourceID>:<language>`; nil for another tool's rendition.
        public var identity: String?
        /// True when Subweave created it (its folder is deleted).
        public var managed: Bool
        public var name: String
        public var language: String?
        /// Its line in the master before the run.
        public var line: Int
        public var folder: String?
        /// Why it went, with the setting that took it out.
        public var reason: MessageText
    }

    /// Where one discontinuity sequence's presentation starts.
    public struct Sequence: Sendable, Codable, Equatable {
        public var discontinuitySequence: Int
        public var firstSegment: Int
        /// Seconds on the playlist timeline.
        public var playlistStart: Double
        /// The first frame's 90 kHz timestamp.
        public var mpegts: Int64
        /// `mpeg-ts` or `fmp4`.
        public var container: String
        /// `video` or `audio`.
        public var source: String

        enum CodingKeys: String, CodingKey {
            case discontinuitySequence = "discontinuity_sequence", firstSegment = "first_segment"
            case playlistStart = "playlist_start", mpegts, container, source
        }

        init(_ start: ProgrammeTimeline.SequenceStart) {
            discontinuitySequence = start.discontinuitySequence
            firstSegment = start.firstSegment
            playlistStart = start.playlistStart.seconds
            mpegts = start.media.start
            container = start.media.container.rawValue
            source = start.media.source.rawValue
        }
    }

    /// In-band caption services found by the scan (empty when none, or the scan was off).
    public struct CaptionService: Sendable, Codable, Equatable {
        public var service: String
        public var language: String?
        /// Where the language was read: `operator` (a setting for the service),
        /// `caption_service_descriptor` (the PMT's, per line-21 field), `video_iso_639` (the video
        /// stream's) or `operator_default`; nil when none is known.
        public var languageSource: String?
        /// Seconds from the programme start of the first caption character found.
        public var firstSeen: Double?
        public var segment: String?
        /// Whether it is published (the operator may turn a service off).
        public var published: Bool = true

        enum CodingKeys: String, CodingKey {
            case service, language, languageSource = "language_source", firstSeen = "first_seen", segment, published
        }
    }

    public var master: String
    /// Where the master was written; nil on a dry run.
    public var output: String?
    public var dryRun: Bool
    public var referencePlaylist: String
    /// Why the reference variant was chosen (the first with video, …).
    public var referenceReason: String
    public var segmentCount: Int
    /// Seconds.
    public var duration: Double
    public var timeline: [Sequence]
    public var groups: [String]
    public var tracks: [Track]
    public var captions: [CaptionService]
    public var warnings: [PackageWarning]
    /// Nothing was written: the folder already held this result (the master was left alone).
    public var unchanged = false
    /// Renditions taken out of the master.
    public var removed: [Removed] = []
    /// What the sync check found per track (empty when it did not run).
    public var sync: [Sync] = []
    /// Which variant's video was read for in-band captions, and why (nil when none was read).
    public var captionsReadFrom: ProgrammeCaptions.ReadFrom?
    /// What the operator has said of the title after this run (kept beside the master).
    public var intent: TitleIntent?
    /// What this run changed of it, a line each.
    public var intentChanges: [MessageText] = []

    /// One track's sync check: ``SyncFinding`` as the report keeps it, and whether it was fixed.
    public struct Sync: Sendable, Codable, Equatable {
        public var identity: String
        public var verdict: String
        public var offset: Double?
        public var rate: Double?
        public var confidence: Double
        public var suggested: String?
        /// The track was retimed as suggested before it was segmented.
        public var fixed: Bool
        /// The share of measured cues that start within 0.1 s of a speech onset at the fit.
        public var landedShare: Double?

        enum CodingKeys: String, CodingKey {
            case identity, verdict, offset = "offset_s", rate, confidence, suggested, fixed, landedShare = "landed_share"
        }
    }

    enum CodingKeys: String, CodingKey {
        case master, output, dryRun = "dry_run", referencePlaylist = "reference_playlist", referenceReason = "reference_reason"
        case segmentCount = "segment_count"
        case duration, timeline, groups, tracks, captions, warnings, unchanged, removed, sync, intent
        case captionsReadFrom = "captions_read_from"
        case intentChanges = "intent_changes"
    }

    /// Every warning of the run: the run's, then each track's (coded `track`, named by its
    /// identity), as a strict run fails on them.
    public var allWarnings: [PackageWarning] {
        warnings + tracks.flatMap { track in track.warnings.map { PackageWarning(.track, "\(track.identity): \($0)") } }
    }

    /// A few lines for a person, settings spelt as the library names them.
    public var summary: String { summary(.library) }

    /// A few lines for a person, settings spelt by `spelling`.
    public func summary(_ spelling: MessageText.Spelling) -> String {
        var lines: [String] = []
        for track in tracks {
            let first = track.firstCueStart.map { $0.decimalSeconds + " s" } ?? "-"
            if track.action == "unchanged" { continue }
            let verb = track.action == "added" ? "" : "\(track.action): "
            lines.append("\(verb)\(track.identity): \(track.cueCount.counted("cue")) (\(track.ingestFormat)), first at \(first) → \(track.playlist)")
            for note in track.notes { lines.append("  note: \(note)") }
            for warning in track.warnings { lines.append("  warning: \(warning)") }
        }
        for gone in removed { lines.append("\(gone.reason.rendered(spelling)): \(gone.identity ?? "\"\(gone.name)\"") (line \(gone.line))") }
        for change in intentChanges { lines.append("intent: \(change.rendered(spelling))") }
        for check in sync where check.fixed { lines.append("sync: \(check.identity) was \(check.verdict), retimed with \(check.suggested ?? "")") }
        for warning in warnings { lines.append("warning: \(warning.message.rendered(spelling))") }
        if let output, unchanged {
            lines.append("unchanged: \(output) already holds this result; nothing was written")
        } else if let output {
            lines.append("wrote \(output) (\(tracks.count.counted("subtitle rendition")), \(segmentCount.counted("segment")) each)")
        }
        return lines.joined(separator: "\n")
    }
}
