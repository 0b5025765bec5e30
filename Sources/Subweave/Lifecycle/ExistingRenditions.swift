import Foundation
import HLS
import Platform
import Timebase
import TimedText

/// The subtitle renditions a master already declares, as a later run sees them: Subweave's own
/// (with the record and cues kept beside each, when it can read them) and other tools'.
/// (`CLOSED-CAPTIONS` declarations are in-band services, governed by ``PackageRequest/closedCaptions``.)
struct ExistingRendition: Sendable {
    /// The master's rendition line.
    let rendition: MasterPlaylist.Rendition
    /// Where it lives, when it is in Subweave's layout.
    let place: (folder: String, generation: String?)?
    /// The record kept beside a managed rendition (nil: legacy layout, or unreadable).
    let record: RenditionRecord?
    /// A symbolic link on the way to a managed rendition's files (never followed).
    var link: String?

    var isManaged: Bool { place != nil }

    /// `external:<sourceID>:<language>` / `cea608:CC1`, from the record or the folder name.
    var identity: String? {
        record?.identity ?? place.map { RenditionList.identity(fromFolder: $0.folder) }
    }

    /// The source ID: the record's, else the folder's.
    var sourceID: String? {
        if let record { return record.sourceID }
        guard let identity else { return nil }
        let parts = identity.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    /// How a person finds it in the master.
    func describe(in master: MasterPlaylist) -> String {
        let line = master.playlist.lines[rendition.lineIndex].number ?? 0
        return "\"\(rendition.name ?? "")\" (\(rendition.language ?? "no language"), line \(line) of \(master.source))"
    }

    /// Reads the text renditions of `presentation`'s master and the records of the managed ones
    /// (in the default layout, or in a folder one of `templates` makes).
    static func read(_ presentation: Presentation, templates: [RenditionFolderTemplate]) async -> [ExistingRendition] {
        var result: [ExistingRendition] = []
        for rendition in presentation.master.renditions where rendition.type == .subtitles {
            let place = rendition.uri.flatMap { RenditionLayout.recognise($0, templates: templates) }
            var record: RenditionRecord?
            let link = place.flatMap { place -> String? in
                guard presentation.masterURL.isFileURL else { return nil }
                let root = presentation.masterURL.deletingLastPathComponent().path
                return FileSystem.firstLink(place.folder + "/" + (place.generation ?? ""), below: root)
            }
            if link == nil, let place, let generation = place.generation,
                let url = MediaReader.resolve("\(place.folder)/\(generation)/\(RenditionRecord.fileName)", against: presentation.masterURL),
                let data = try? await presentation.loader.read(url, kind: .playlist)
            {
                record = try? JSONDecoder().decode(RenditionRecord.self, from: Data(data))
            }
            result.append(ExistingRendition(rendition: rendition, place: place, record: record, link: link))
        }
        return result
    }

    /// The cues kept beside a managed rendition (`cues.vtt`, programme time), read as a track's
    /// file is read; nil when the rendition keeps none (the layout before records).
    func keptCues(_ presentation: Presentation) async throws(SubweaveError) -> IngestedSubtitles? {
        guard let place, let generation = place.generation, let record else { return nil }
        let path = "\(place.folder)/\(generation)/\(RenditionRecord.cuesFileName)"
        guard let url = MediaReader.resolve(path, against: presentation.masterURL) else { return nil }
        var bytes = try await MediaReader(loader: presentation.loader).read(url, kind: .subtitle, what: "the cues kept beside \(record.identity)")
        if record.encrypted {
            guard let key = presentation.key else { throw .key(path: MediaReader.display(url), .keyNeeded(what: "the cues kept beside \(record.identity)")) }
            bytes = try key.decrypt(bytes, iv: key.keptCuesIV, place: "the cues kept beside \(record.identity) (\(MediaReader.display(url)))")
        }
        do {
            let read = try SubtitleIngest.read(bytes, format: .vtt, encoding: .utf8, sourceID: record.sourceID, location: MediaReader.display(url))
            // What WebVTT cannot say of the source (a TTML delivery's colours, fonts, boxes) rides in notes.
            let cues = CueContent.attachingNotes(to: read.cues, from: String(decoding: bytes, as: UTF8.self))
            return IngestedSubtitles(
                ingestFormat: read.ingestFormat, cues: cues, headerBlocks: read.headerBlocks, regions: read.regions, encoding: read.encoding,
                warnings: read.warnings, declaredLanguage: read.declaredLanguage)
        } catch {
            throw .load(error)
        }
    }
}

/// Which existing renditions a run takes out: those named by removal selectors, and with
/// `replace`, every managed one the run does not write again.
struct RemovalDecision {
    /// Master lines to remove.
    var lines: Set<Int> = []
    /// Managed folders whose renditions go (their generations are deleted after the master moves on).
    var folders: Set<String> = []
    /// What went, for the report.
    var removed: [PackageReport.Removed] = []

    mutating func remove(_ existing: ExistingRendition, in master: MasterPlaylist, reason: MessageText) {
        guard !lines.contains(existing.rendition.lineIndex) else { return }
        lines.insert(existing.rendition.lineIndex)
        if let folder = existing.place?.folder { folders.insert(folder) }
        removed.append(
            PackageReport.Removed(
                identity: existing.identity, managed: existing.isManaged, name: existing.rendition.name ?? "",
                language: existing.rendition.language, line: master.playlist.lines[existing.rendition.lineIndex].number ?? 0,
                folder: existing.place?.folder, reason: reason))
    }

    /// Resolves `selectors` against `existing`: each must match something; another tool's
    /// rendition is removed only with `force` (its line; its files are not Subweave's to delete).
    static func resolve(
        _ selectors: [RemovalSelector], force: Bool, existing: [ExistingRendition], master: MasterPlaylist, writing folders: Set<String>
    ) throws(SubweaveError) -> RemovalDecision {
        var decision = RemovalDecision()
        for selector in selectors {
            let managed = existing.filter { selector.matches(managed: $0) }
            let foreign = existing.filter { selector.matches(foreign: $0) }
            if let clash = managed.first(where: { $0.place.map { folders.contains($0.folder) } ?? false }) {
                throw .removal(.alsoWritten(selector: selector.description, identity: clash.identity ?? "a rendition"))
            }
            if managed.isEmpty && foreign.isEmpty {
                let known = existing.map { e in
                    e.isManaged
                        ? "\(e.sourceID ?? "?") (\(e.record?.language ?? e.rendition.language ?? "?"))" : "\"\(e.rendition.name ?? "")\" (not Subweave's)"
                }
                throw .removal(.noMatch(selector: selector.description, master: master.source, declared: known))
            }
            if !foreign.isEmpty && !force {
                throw .removal(.notSubweaves(selector: selector.description, renditions: foreign.map { $0.describe(in: master) }))
            }
            for e in managed { decision.remove(e, in: master, reason: "removed (\(selector))") }
            for e in foreign {
                decision.remove(e, in: master, reason: "removed with \(Setting.forceRemoval) (\(selector)); its files were left in place")
            }
        }
        return decision
    }
}
