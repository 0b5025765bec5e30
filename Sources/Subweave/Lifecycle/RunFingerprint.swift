import Foundation
import HLS
import Platform
import Timebase

/// What a `package` run of a title depended on, hashed, so that the same run on the same inputs
/// is recognised in milliseconds, without reading the media.
///
/// The fingerprint covers the command (its arguments and working folder), the binary that runs
/// it, the master and the intent record as they are, every playlist the master names (variants,
/// renditions, Subweave's own included) with the size, modification time and inode of every
/// segment and map they name, and the same of every local subtitle source the command or the
/// intent record names. A rendition Subweave wrote stands for its files by its generation
/// folder: the names in it and the folder's own identity (a run only puts back the files of a
/// generation that are missing, so a file edited in place is not noticed by either). A title
/// with any input that is not a local file has no fingerprint: it is always run. The record is
/// kept beside the master (`.<master>.subweave-run.json`) with the report of the run that wrote
/// it.
public enum RunFingerprint {
    /// Where the record of the title whose master is at `master` is kept.
    public static func recordPath(master: URL) -> String {
        master.deletingLastPathComponent().appendingPathComponent(".\(master.lastPathComponent).subweave-run.json").path
    }

    /// The record: the fingerprint and the report of the run that left the title as it is.
    public struct Record: Codable, Sendable {
        public var schema = "subweave.run-record/1"
        public let fingerprint: String
        public let report: PackageReport

        public init(fingerprint: String, report: PackageReport) {
            self.fingerprint = fingerprint
            self.report = report
        }
    }

    /// The hash of the inputs of a run of `command` (its arguments, `sources` the local subtitle
    /// files it names) on the title whose master is at `master`; nil when one is not local, or
    /// when the master is not `expectedMaster` (another run wrote it meanwhile).
    ///
    /// `known` holds playlists' pieces worked out earlier (``inputPieces(master:)``, by path):
    /// used as they are, so that the fingerprint a run keeps says what the inputs were when it
    /// started reading them.
    package static func compute(
        master: URL, command: [String], sources: [URL], expectedMaster: WrittenDigest? = nil, known: [String: String] = [:]
    ) -> String? {
        guard master.isFileURL, let masterBytes = try? ResourceLoader.readFile(master.path, limit: ReadLimits().playlist, kind: .playlist),
            expectedMaster.map({ $0 == WrittenDigest(of: masterBytes) }) ?? true
        else { return nil }
        var hash = ContentHash()
        hash.add("subweave-run-2\u{0}")
        for argument in command { hash.add(argument + "\u{0}") }
        hash.add(FileSystem.currentFolder + "\u{0}")
        hash.add(stat: "/proc/self/exe")
        hash.add(masterBytes)
        let intentPath = TitleIntent.path(beside: master)
        var sources = sources
        if let intent = try? ResourceLoader.readFile(intentPath, limit: ReadLimits().playlist, kind: .playlist) {
            hash.add(intent)
            guard let recorded = try? TitleIntent.recorded(for: master) else { return nil }
            for track in recorded.tracks {
                guard track.url.hasPrefix("/") else { return nil }
                sources.append(URL(fileURLWithPath: track.url))
            }
        }
        for source in sources {
            // A pipe or a device reads differently each time: such a run is always run.
            guard source.isFileURL, FileSystem.identity(of: source.path)?.isRegularFile == true else { return nil }
            hash.add(stat: source.path)
        }
        guard let parsed = try? MasterPlaylist(parsing: masterBytes, source: master.path) else { return nil }
        let named = namedPlaylists(parsed)
        // Each playlist is read, parsed and its files looked at once however often the master
        // names it (a master may name one playlist for thousands of variants), apart, on every
        // core (a title names thousands of files); the pieces are added in the master's order.
        // The first that cannot be read stops the others.
        var distinct: [URL] = []
        var order: [Int] = []
        var indexOfText: [String: Int] = [:]
        order.reserveCapacity(named.count)
        for (uri, line) in named {
            guard let text = try? parsed.substitutingVariables(in: uri, line: line) else { return nil }
            if let index = indexOfText[text] {
                order.append(index)
                continue
            }
            guard let url = MediaReader.resolve(text, against: master), url.isFileURL else { return nil }
            indexOfText[text] = distinct.count
            order.append(distinct.count)
            distinct.append(url)
        }
        guard let pieces = pieces(of: distinct, imports: parsed.definitions, known: known) else { return nil }
        for index in order { hash.add(pieces[index]) }
        return hash.hex(16)
    }

    /// The pieces of the playlists the master at `master` names that Subweave did not write (the
    /// variants', other tools' renditions), by path; those that cannot be worked out are left out.
    ///
    /// What a package run keeps for ``compute(master:command:sources:expectedMaster:known:)``
    /// at its end, worked out as it starts: a run writes none of these playlists or their
    /// segments, so a segment replaced while the run reads the title makes the next run read it
    /// again, instead of being taken for what the run read; and the run's end does not wait for
    /// thousands of `stat`s.
    package static func inputPieces(master: URL) -> [String: String] {
        guard master.isFileURL, let masterBytes = try? ResourceLoader.readFile(master.path, limit: ReadLimits().playlist, kind: .playlist),
            let parsed = try? MasterPlaylist(parsing: masterBytes, source: master.path)
        else { return [:] }
        var distinct: [URL] = []
        var seen: Set<String> = []
        for (uri, line) in namedPlaylists(parsed) {
            guard let text = try? parsed.substitutingVariables(in: uri, line: line), let url = MediaReader.resolve(text, against: master), url.isFileURL,
                seen.insert(url.path).inserted
            else { continue }
            distinct.append(url)
        }
        let files = distinct, imports = parsed.definitions
        let pieces =
            onEveryCore(files.count) { index -> String? in
                guard let bytes = try? ResourceLoader.readFile(files[index].path, limit: ReadLimits().playlist, kind: .playlist),
                    subweaveGeneration(of: files[index], bytes: bytes) == nil
                else { return nil }
                return piece(files[index], bytes: bytes, imports: imports)
            } ?? []
        var found: [String: String] = [:]
        for (url, piece) in zip(files, pieces) { found[url.path] = piece }
        return found
    }

    /// ``inputPieces(master:)`` worked out on another thread while the caller goes on.
    package static func startingInputPieces(master: URL) -> Task<[String: String], Never> {
        Task { await onDispatch { inputPieces(master: master) } }
    }

    /// The URI of every variant and rendition of `parsed`, with its line, in the master's order.
    private static func namedPlaylists(_ parsed: MasterPlaylist) -> [(uri: String, line: Int)] {
        parsed.variants.map { ($0.uri, $0.uriLineIndex) }
            + parsed.renditions.compactMap { rendition in rendition.attributes["URI"].map { ($0.unquoted, rendition.lineIndex) } }
    }

    /// Each playlist's ``piece(_:imports:)`` (or its piece in `known`), in order, worked out on
    /// every core; nil as soon as one is nil (the others stop).
    private static func pieces(of files: [URL], imports: [String: String], known: [String: String]) -> [String]? {
        let pieces = onEveryCore(files.count, stopping: { $0 == nil }) { index in known[files[index].path] ?? piece(files[index], imports: imports) }
        let kept = pieces?.compactMap { $0 } ?? []
        return kept.count == files.count ? kept : nil
    }

    /// The hash of the playlist at `url` and of the identity of every segment and map it names.
    ///
    /// Nil when it cannot be read or names a file that is not local. A playlist that does not
    /// parse is hashed for its bytes alone.
    private static func piece(_ url: URL, imports: [String: String]) -> String? {
        guard let bytes = try? ResourceLoader.readFile(url.path, limit: ReadLimits().playlist, kind: .playlist) else { return nil }
        return piece(url, bytes: bytes, imports: imports)
    }

    /// ``piece(_:imports:)`` of the playlist at `url` read as `bytes`.
    private static func piece(_ url: URL, bytes: [UInt8], imports: [String: String]) -> String? {
        var hash = ContentHash()
        hash.add(bytes)
        if let generation = subweaveGeneration(of: url, bytes: bytes) {
            var names = StagedGeneration.FolderNames()
            for name in FileSystem.entries(of: generation) { names.add(name) }
            return generationPiece(playlist: hash, folder: generation, names: names)
        }
        guard let playlist = try? MediaPlaylist(parsing: bytes, source: url.path, imports: imports) else { return hash.hex(16) }
        var maps: Set<String> = []
        let local = MediaReader.LocalPaths(playlist: url)
        var files: [String] = []
        files.reserveCapacity(playlist.segments.count)
        for segment in playlist.segments {
            guard let path = local.path(segment.uri) else { return nil }
            files.append(path)
            if let map = segment.map?.uri, maps.insert(map).inserted, let mapURL = MediaReader.resolve(map, against: url), mapURL.isFileURL {
                files.append(mapURL.path)
            }
        }
        hash.add(stats: files)
        return hash.hex(16)
    }

    /// The generation folder of the rendition whose playlist (`bytes`) is at `url`, when
    /// Subweave wrote it: the playlist is the folder's `index.m3u8`, the folder is named as a
    /// generation and holds a rendition record, and every segment and map the playlist names is
    /// a plain file name in it (read line by line: thousands of segments are not parsed).
    private static func subweaveGeneration(of url: URL, bytes: [UInt8]) -> String? {
        guard let folder = generationFolder(of: url), StagedGeneration.namesOnlyPlainFiles(bytes) else { return nil }
        return folder
    }

    /// The folder of the playlist at `url` when it is a generation's: the playlist is the
    /// folder's `index.m3u8`, and the folder is named as a generation and holds a rendition record.
    private static func generationFolder(of url: URL) -> String? {
        let folder = url.deletingLastPathComponent()
        guard url.isFileURL, url.lastPathComponent == RenditionLayout.playlistName, RenditionLayout.isGeneration(Substring(folder.lastPathComponent)),
            FileSystem.identity(of: folder.path + "/" + RenditionRecord.fileName)?.isRegularFile == true
        else { return nil }
        return folder.path
    }

    /// The piece of a rendition Subweave wrote, from its playlist's bytes (`playlist`, hashed),
    /// the generation folder at `folder` and the names of the files in it.
    ///
    /// A run only ever puts back the files of a generation folder that are missing
    /// (``GenerationWrite/fillIn(below:within:)``), so which are there is what it depends on:
    /// the names in the folder, and the folder's identity (which a file renamed over another
    /// changes), not a stat of each of thousands.
    private static func generationPiece(playlist: ContentHash, folder: String, names: StagedGeneration.FolderNames) -> String {
        var hash = playlist
        hash.add(stats: [folder, folder + "/" + RenditionRecord.fileName])
        hash.add(names.description)
        return hash.hex(16)
    }

    /// The pieces of the `renditions` a run staged whole and put in place, by path, as
    /// ``piece(_:imports:)`` works them out from disk: for ``compute(master:command:sources:expectedMaster:known:)``
    /// at the end of the run that wrote them.
    ///
    /// A generation that was in place already when its rendition was staged got only the files it
    /// lacked: a file of its own that the run did not write makes its piece differ from what
    /// the disk gives, and the next run does the work again (and, finding the generation
    /// whole, takes its piece from disk).
    package static func writtenPieces(_ renditions: [PlannedRendition], master: URL) -> [String: String] {
        var pieces: [String: String] = [:]
        for rendition in renditions {
            guard case .staged(_, let staged) = rendition.files, staged.plainNames, let url = MediaReader.resolve(rendition.playlistPath, against: master),
                let folder = generationFolder(of: url)
            else { continue }
            pieces[url.path] = generationPiece(playlist: staged.playlist, folder: folder, names: staged.names)
        }
        return pieces
    }

    /// The record beside `master`, if one can be read.
    public static func read(master: URL) -> Record? {
        guard let bytes = try? ResourceLoader.readFile(recordPath(master: master), limit: 64 << 20, kind: .playlist) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: Data(bytes))
    }

    /// Writes `record` beside `master` through a temporary file renamed into place; a failure only
    /// means the next run reads the title again.
    public static func write(_ record: Record, master: URL) {
        let encoder = JSONEncoder()
        // Keys in order: two runs that kept the same record write the same bytes.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[PackageReport.Track.compactFiles] = true
        guard let data = try? encoder.encode(record) else { return }
        try? FileSystem.replaceFile(
            at: recordPath(master: master), with: String(decoding: data, as: UTF8.self) + "\n",
            temporaryName: FileSystem.temporaryPrefix + "run-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Takes the record beside `master` away (a run that changed the title without one).
    public static func forget(master: URL) {
        _ = FileSystem.removeFile(recordPath(master: master))
    }
}
