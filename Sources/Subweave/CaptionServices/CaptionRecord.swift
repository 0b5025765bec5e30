import Captions
import Foundation
import HLS
import Platform
import Timebase
import TimedText

/// The in-band captions a run read, kept beside the master with what they depend on, so that a
/// later run on the same media (a `refresh`, a `package` that changes only a sidecar or a
/// setting) reads no segment for them.
///
/// What they depend on, hashed into ``key``: the binary that decoded them, the variants read (the
/// reference, and the smaller variant read in its place, with why), and for each its segments as
/// the playlist lists them (URI, byte range, duration, start, discontinuity sequence, map) with
/// the size, modification time and inode of every file. A segment that changed in any of these
/// makes another key and the captions are read again, all of them: the decoders' state runs
/// from one segment into the next, so no part of an earlier reading stands for a changed
/// segment. A variant read over HTTP has no key: it is always read. The record holds the
/// captions as read, before the operator's settings, which every run applies afresh, save the
/// languages DVB subtitle pictures are read in: they are part of the key.
struct CaptionRecord: Codable, Sendable {
    var schema = "subweave.captions-record/1"
    let key: String
    private let services: [StoredService]
    private let languages: StoredLanguages
    private let coverage: StoredCoverage
    private let notes: [String]
    private let readFrom: ProgrammeCaptions.ReadFrom?
    let warnings: [PackageWarning]

    /// Where the record of the title whose master is at `master` is kept.
    static func path(master: URL) -> String {
        master.deletingLastPathComponent().appendingPathComponent(".\(master.lastPathComponent).subweave-captions.json").path
    }

    /// The record of `captions` (as read, before settings) and the warnings reading them gave.
    init(key: String, captions: ProgrammeCaptions, warnings: [PackageWarning]) {
        self.key = key
        services = captions.services.map(StoredService.init)
        languages = StoredLanguages(captions.languages)
        coverage = StoredCoverage(captions.coverage)
        notes = captions.notes
        readFrom = captions.readFrom
        self.warnings = warnings
    }

    /// The captions as they were read.
    var captions: ProgrammeCaptions {
        var captions = ProgrammeCaptions(services: services.map(\.value), languages: languages.value, coverage: coverage.value)
        captions.notes = notes
        captions.readFrom = readFrom
        return captions
    }

    /// The record beside `master` when it holds `key`.
    static func read(master: URL, key: String) -> CaptionRecord? {
        guard master.isFileURL, let bytes = try? ResourceLoader.readFile(path(master: master), limit: 1 << 30, kind: .playlist),
            let record = try? JSONDecoder().decode(CaptionRecord.self, from: Data(bytes)), record.key == key
        else { return nil }
        return record
    }

    /// The record as it is kept: one line of JSON.
    var text: String? { (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) + "\n" } }

    /// The key of reading `playlists` (each at its URL, read as `role` says), or nil when a
    /// segment or map is not a local file.
    static func key(_ playlists: [(role: String, url: URL, playlist: MediaPlaylist)], pictureLanguages settings: CaptionServiceSettings) -> String? {
        var hash = ContentHash()
        hash.add("subweave-captions-1\u{0}")
        // What OCR reads DVB subtitle pictures in, when the operator names it.
        let languages = settings.services.filter { CaptionService(rawValue: $0.key)?.isDVBSubtitles == true }.compactMap { key, setting in
            setting.language.map { "\(key)=\($0)" }
        }
        hash.add("ocr\u{0}\(languages.sorted().joined(separator: ","))\u{0}\(settings.defaultLanguage?.description ?? "")\u{0}")
        hash.add(stat: "/proc/self/exe")
        for (role, url, playlist) in playlists {
            hash.add("\(role)\u{0}\(url.absoluteString)\u{0}\(playlist.hasEndList)\u{0}")
            let local = MediaReader.LocalPaths(playlist: url)
            var paths: [String] = []
            paths.reserveCapacity(playlist.segments.count)
            for segment in playlist.segments {
                guard let path = local.path(segment.uri) else { return nil }
                paths.append(path)
            }
            // Each folder opened once for the segments' `stat`s.
            let identities = FileSystem.identities(of: paths)
            for (index, segment) in playlist.segments.enumerated() {
                // "path\0length@offset\0duration\0start\0sequence\0encrypted\0gap\0" as one text,
                // added in pieces (no string is built for each of thousands of segments).
                hash.add(piece: paths[index])
                hash.add(byte: 0)
                if let range = segment.byteRange {
                    hash.add(decimal: range.length)
                    hash.add(byte: UInt8(ascii: "@"))
                    hash.add(decimal: range.offset ?? -1)
                }
                for number in [segment.duration.ticks, segment.start.ticks, Int64(segment.discontinuitySequence)] {
                    hash.add(byte: 0)
                    hash.add(decimal: number)
                }
                for flag in [segment.encryption != nil, segment.isGap] {
                    hash.add(byte: 0)
                    hash.add(piece: flag ? "true" : "false")
                }
                hash.add(byte: 0)
                hash.add(byte: 0xFF)
                hash.add(identity: identities[index])
                if let map = segment.map {
                    guard let mapURL = MediaReader.resolve(map.uri, against: url), mapURL.isFileURL else { return nil }
                    hash.add("map\u{0}\(mapURL.path)\u{0}\(map.byteRange.map { "\($0.length)@\($0.offset ?? -1)" } ?? "")\u{0}")
                    hash.add(stat: mapURL.path)
                }
            }
        }
        return hash.hex(16)
    }
}

/// A caption record to keep when the run writes: what it will hold, made into the record (every
/// cue converted to the form stored) only then, so that a dry-run converts nothing.
struct CaptionRecordToKeep: Sendable {
    let key: String
    let captions: ProgrammeCaptions
    let warnings: [PackageWarning]

    /// The record.
    var record: CaptionRecord { CaptionRecord(key: key, captions: captions, warnings: warnings) }
}

/// A service's cues as stored.
private struct StoredService: Codable {
    let service: CaptionService
    let cues: [StoredCue]
    let firstSeen: Int64?
    let segment: String?
    let forHardOfHearing: Bool?
    let confidences: [Double]?

    init(_ service: ProgrammeCaptions.Service) {
        self.service = service.service
        cues = service.cues.map(StoredCue.init)
        firstSeen = service.firstSeen?.ticks
        segment = service.segment
        forHardOfHearing = service.forHardOfHearing ? nil : false
        confidences = service.confidences
    }

    var value: ProgrammeCaptions.Service {
        var value = ProgrammeCaptions.Service(
            service: service, cues: cues.map(\.value), firstSeen: firstSeen.map(MediaTime.init(ticks:)), segment: segment)
        value.forHardOfHearing = forHardOfHearing ?? true
        value.confidences = confidences
        return value
    }
}

/// A cue as stored: times in 90 kHz ticks, every setting by its WebVTT value.
private struct StoredCue: Codable {
    let identifier: String
    let start: Int64
    let end: Int64
    let text: String
    let sourceLine: Int?
    let vertical: String?
    let line: String?
    let linePercentage: Bool?
    let lineAlign: String?
    let position: String?
    let positionAlign: String?
    let size: String?
    let align: String?
    let region: String?

    init(_ cue: Cue) {
        identifier = cue.identifier
        start = cue.start.ticks
        end = cue.end.ticks
        text = cue.text
        sourceLine = cue.sourceLine
        let s = cue.settings
        vertical = s.vertical?.rawValue
        switch s.line {
        case .number(let n): line = n; linePercentage = false
        case .percentage(let p): line = p; linePercentage = true
        case nil: line = nil; linePercentage = nil
        }
        lineAlign = s.lineAlign?.rawValue
        position = s.position
        positionAlign = s.positionAlign?.rawValue
        size = s.size
        align = s.align?.rawValue
        region = s.region
    }

    var value: Cue {
        let settings = CueSettings(
            vertical: vertical.flatMap(CueSettings.Vertical.init(rawValue:)),
            line: line.map { linePercentage == true ? .percentage($0) : .number($0) },
            lineAlign: lineAlign.flatMap(CueSettings.LineAlign.init(rawValue:)), position: position,
            positionAlign: positionAlign.flatMap(CueSettings.PositionAlign.init(rawValue:)), size: size,
            align: align.flatMap(CueSettings.Align.init(rawValue:)), region: region)
        return Cue(
            identifier: identifier, start: MediaTime(ticks: start), end: MediaTime(ticks: end), settings: settings, text: text,
            sourceLine: sourceLine)
    }
}

/// What the stream declared of its services' languages, as tags.
private struct StoredLanguages: Codable {
    let fields: [Int: String]
    let digital: [Int: String]
    let video: String?
    let pages: [String: String]

    init(_ languages: CaptionLanguages) {
        fields = languages.fields.mapValues(\.description)
        digital = languages.digital.mapValues(\.description)
        video = languages.video?.description
        pages = Dictionary(uniqueKeysWithValues: languages.pages.map { ($0.key.rawValue, $0.value.description) })
    }

    var value: CaptionLanguages {
        CaptionLanguages(
            fields: fields.compactMapValues(LanguageTag.init(parsing:)), digital: digital.compactMapValues(LanguageTag.init(parsing:)),
            video: video.flatMap(LanguageTag.init(parsing:)),
            pages: Dictionary(
                uniqueKeysWithValues: pages.compactMap { key, value in
                    guard let service = CaptionService(rawValue: key), let tag = LanguageTag(parsing: value) else { return nil }
                    return (service, tag)
                }))
    }
}

/// How much of the video was read.
private struct StoredCoverage: Codable {
    let accessUnits: Int
    let captionDataUnits: Int
    let through: Int64?
    let complete: Bool

    init(_ coverage: ProgrammeCaptions.Coverage) {
        accessUnits = coverage.accessUnits
        captionDataUnits = coverage.captionDataUnits
        through = coverage.through?.ticks
        complete = coverage.complete
    }

    var value: ProgrammeCaptions.Coverage {
        ProgrammeCaptions.Coverage(
            accessUnits: accessUnits, captionDataUnits: captionDataUnits, through: through.map(MediaTime.init(ticks:)), complete: complete)
    }
}
