import Foundation
import HLS
import Timebase

/// One text rendition of a master, as `subweave list` shows it: Subweave's own (with its record)
/// or another tool's.
public struct ListedRendition: Sendable, Equatable, Codable {
    /// `external:<sourceID>:<language>` or `cea608:CC1`; nil for a rendition Subweave did not create.
    public let identity: String?
    /// True when Subweave created it (its URI is in Subweave's layout).
    public let managed: Bool
    /// `SUBTITLES` or `CLOSED-CAPTIONS`.
    public let type: String
    public let groupID: String
    public let name: String
    public let language: String?
    public let isDefault: Bool
    public let autoselect: Bool
    public let forced: Bool
    public let characteristics: String?
    public let uri: String?
    /// The rendition's folder and generation (Subweave's renditions).
    public let folder: String?
    public let generation: String?
    public let sourceID: String?
    public let ingestFormat: String?
    public let cueCount: Int?
    /// The master's line.
    public let line: Int?

    enum CodingKeys: String, CodingKey {
        case identity, managed, type, groupID = "group_id", name, language, isDefault = "default", autoselect, forced, characteristics
        case uri, folder, generation, sourceID = "source_id", ingestFormat = "ingest_format", cueCount = "cue_count", line
    }
}

/// The text renditions of a master (what `subweave list` prints).
public enum RenditionList {
    /// Reads the master at `master` and the record of each rendition Subweave manages.
    public static func read(master: URL, loader: ResourceLoader = ResourceLoader()) async throws(SubweaveError) -> [ListedRendition] {
        let reader = MediaReader(loader: loader)
        let bytes = try await reader.read(master, kind: .playlist, what: "the master playlist")
        let playlist: MasterPlaylist
        do { playlist = try MasterPlaylist(parsing: bytes, source: MediaReader.display(master)) } catch { throw .playlist(error) }
        var listed: [ListedRendition] = []
        // In-band declarations Subweave wrote: the CLOSED-CAPTIONS group its record names.
        let intent = master.isFileURL ? (try? TitleIntent.recorded(for: master, loader: loader)) ?? nil : nil
        let ownGroup = intent?.declaredCaptionGroup
        let templates = intent?.folderTemplates ?? [.standard]
        for rendition in playlist.renditions where rendition.type == .subtitles || rendition.type == .closedCaptions {
            let place = rendition.uri.flatMap { RenditionLayout.recognise($0, templates: templates) }
            let declared = rendition.type == .closedCaptions && ownGroup != nil && rendition.groupID == ownGroup
            var record: RenditionRecord?
            if let place, let generation = place.generation,
                let url = MediaReader.resolve("\(place.folder)/\(generation)/\(RenditionRecord.fileName)", against: master),
                let data = try? await loader.read(url, kind: .playlist)
            {
                record = try? JSONDecoder().decode(RenditionRecord.self, from: Data(data))
            }
            listed.append(
                ListedRendition(
                    identity: record?.identity ?? place.map { identity(fromFolder: $0.folder) }
                        ?? (declared ? "in-band:\(rendition.attributes["INSTREAM-ID"]?.unquoted ?? "")" : nil),
                    managed: place != nil || declared, type: rendition.type?.rawValue ?? "",
                    groupID: rendition.groupID ?? "", name: rendition.name ?? "", language: rendition.language, isDefault: rendition.isDefault,
                    autoselect: rendition.isAutoselect, forced: rendition.isForced, characteristics: rendition.characteristics, uri: rendition.uri,
                    folder: place?.folder, generation: place?.generation, sourceID: record?.sourceID, ingestFormat: record?.ingestFormat,
                    cueCount: record?.cueCount, line: playlist.playlist.lines[rendition.lineIndex].number))
        }
        return listed
    }

    /// The identity a folder stands for when its record cannot be read (`subtitles/en-en` gives
    /// `external:en:en` as far as the folder name tells).
    static func identity(fromFolder folder: String) -> String {
        let name = folder.split(separator: "/").last.map(String.init) ?? folder
        if folder.hasPrefix(RenditionLayout.captionsRoot + "/") {
            let page = name.hasPrefix("teletext-") ? CaptionService.teletext(String(name.dropFirst(9))) : nil
            if let service = page ?? CaptionService(rawValue: name) { return RenditionIdentity.inBand(service).description }
            return "cea608:\(name.uppercased())"
        }
        guard let dash = name.lastIndex(of: "-") else { return "external:\(name)" }
        return "external:\(name[..<dash]):\(name[name.index(after: dash)...])"
    }
}
