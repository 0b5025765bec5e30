import Foundation
import HLS
import Platform
import Synchronization

/// Writes a plan's files so that a player never sees a mixture, nothing outside the output
/// folder is touched, and an interrupted run leaves the presentation as it was.
///
/// The sequence, under an exclusive `flock(2)` on the output folder (a second run on the same
/// folder waits, then applies its change to the master as it then stands):
/// 1. leftovers of killed runs (entries named `.subweave-*` in the folders Subweave manages) go;
/// 2. each new generation is written into a staging folder beside it and renamed into place whole
///    (`rename(2)`); a generation that already exists is the same content and is kept;
/// 3. `syncfs(2)` makes every file the new master names durable;
/// 4. the master is written to a temporary file, `fsync`ed and renamed over the old one, and the
///    folder is `fsync`ed;
/// 5. only then are the generations the new master no longer names removed (with
///    `keepPrevious`, the one the old master named stays, for players that read it just before).
///
/// Symbolic links are never followed below the output folder: a link where Subweave would write,
/// read or delete is an error that names it. On any failure (a full disk, say) what this run
/// created is removed and the master is left untouched.
package struct OutputWriter: Sendable {
    /// The folder of the output master; renditions live below it.
    package let folder: String
    /// The master's file name in `folder`.
    package let masterName: String
    /// How long a run waits for another run's lock by default, in seconds.
    package static let defaultLockTimeout: TimeInterval = 600
    /// How long to wait for another run's lock before giving up, in seconds.
    package var lockTimeout: TimeInterval = OutputWriter.defaultLockTimeout
    /// Keep, in each rendition folder, the generation the old master named.
    package var keepPrevious = false
    /// How long a generation the master no longer names stays on disk, in seconds.
    ///
    /// For players that loaded an earlier master (they never reload it): the first run that finds it
    /// unnamed marks it retired (``RenditionLayout/retiredMarkerName``), a run at least this long
    /// after removes it. 0 removes it at once.
    package var retireAfter: TimeInterval = RenditionLayout.defaultRetireAfter
    /// The time now, for retirements (a test sets it).
    package var now: @Sendable () -> Date = { Date() }
    /// Told once when the lock is held by another run (the CLI prints it).
    package var onWait: @Sendable (String) -> Void = { _ in }
    /// A folder everything written must be inside (`batch --root`), checked on each folder and
    /// file as it is made, before it is renamed into place.
    package var confinement: Confinement?

    /// A writer for the master at `masterPath`: its folder is resolved once (a `current` link to
    /// a release folder is followed here), and no link below it is ever followed.
    package init(masterPath: String) {
        let url = URL(fileURLWithPath: masterPath)
        folder = FileSystem.resolvedFolder(url.deletingLastPathComponent().path)
        masterName = url.lastPathComponent
    }

    /// The master's path.
    package var masterPath: String { folder + "/" + masterName }

    /// Takes the folder's lock, waiting on a Dispatch thread (never the cooperative pool) for at
    /// most ``lockTimeout`` seconds.
    ///
    /// Release it when the run is done.
    func acquireLock() async throws(SubweaveError) -> FolderLock {
        let (folder, timeout, onWait) = (self.folder, lockTimeout, self.onWait)
        return try await onDispatch { () throws(SubweaveError) in try onDisk(FolderLock(folder: folder, timeout: timeout, onWait: onWait)) }
    }

    /// Writes `generations`, then `master` as the master (in pieces), then removes the generations of
    /// `managedFolders` the new master does not name (`named`: folder → generation it names;
    /// `previous`: folder → generation the old master named).
    ///
    /// Call holding ``acquireLock()``.
    ///
    /// Returns whether anything was written, and the digest of the master as it now stands: a
    /// run whose generations all exist already, that removes nothing and whose master is byte for
    /// byte the one on disk leaves the master alone (its inode and modification time), so that
    /// watchers and CDN purges hooked to it stay quiet.
    @discardableResult
    package func commit(
        generations: [GenerationWrite], master: Playlist, managedFolders: Set<String>,
        named: [String: String], previous: [String: String], removedFolders: Set<String> = [], intent: TitleIntent? = nil
    ) throws(SubweaveError) -> (wrote: Bool, master: WrittenDigest) {
        var created = CreatedEntries()
        var wrote = true
        var digest = WrittenDigest()
        do throws(SubweaveError) {
            try makeOutputFolder(created: &created)
            try onDisk(confinement?.check(folder: folder))
            try checkMasterTarget()
            for relative in managedFolders.union(removedFolders).union(generations.map(\.folder)).sorted() {
                try onDisk(FileSystem.refuseLinks(relative, below: folder))
            }
            for write in generations { try onDisk(FileSystem.refuseLinks(write.folder + "/" + write.generation, below: folder)) }
            try removeLeftovers(in: managedFolders.union(removedFolders))
            let existing = generations.allSatisfy {
                if case .append = $0.source { return false }
                return $0.isComplete(below: folder)
            }
            let unchanged =
                existing && removedFolders.isEmpty
                && FileSystem.contentsEqual(masterPath) { sink in
                    master.write { piece in
                        digest.add(piece)
                        sink(piece)
                    }
                }
            if unchanged {
                wrote = false
                try writeIntent(intent)
            } else {
                for write in generations { try prepareFolder(write.folder, created: &created) }
                try writeGenerations(generations, created: &created)
                try onDisk(FileSystem.syncFileSystem(of: folder))
                // The intent goes before the master: a kill between the two leaves the newer
                // intent, which the next run carries out, never a master whose intent is lost.
                try writeIntent(intent)
                digest = try onDisk { () throws(FileFailure) in
                    try FileSystem.replaceFile(
                        at: masterPath, with: master, temporaryName: FileSystem.temporaryPrefix + "master-\(getpid()).tmp", within: confinement)
                }
            }
        } catch {
            created.undo()
            throw error
        }
        // The master names the new generations now: what it no longer names is retired, and
        // goes once it has been retired for the grace period (never in a folder that has left
        // the root since: clean-up waits for a later run).
        if let confinement, (try? confinement.check(folder: folder)) == nil { return (wrote, digest) }
        for (folder, generation) in named { _ = FileSystem.removeFile(self.folder + "/" + folder + "/" + generation + "/" + RenditionLayout.retiredMarkerName) }
        for folder in managedFolders.sorted() {
            var keep: Set<String> = []
            if let current = named[folder] { keep.insert(current) }
            if keepPrevious, let old = previous[folder] { keep.insert(old) }
            removeGenerations(in: folder, keeping: keep, keepLegacy: keepPrevious && previous[folder] == "")
        }
        for folder in removedFolders.sorted() where named[folder] == nil {
            removeGenerations(in: folder, keeping: [], keepLegacy: false)
            FileSystem.removeEmptyFolder(self.folder + "/" + folder)
        }
        // Folders of renditions removed by earlier runs, whose generations are still retiring.
        let templates = intent?.folderTemplates ?? [.standard]
        for folder in retiringFolders(besides: managedFolders.union(removedFolders), templates: templates) {
            removeGenerations(in: folder, keeping: [], keepLegacy: true)
            FileSystem.removeEmptyFolder(self.folder + "/" + folder)
        }
        return (wrote, digest)
    }

    /// Writes the intent record beside the master (durably) unless it already holds the same bytes.
    private func writeIntent(_ intent: TitleIntent?) throws(SubweaveError) {
        guard let intent else { return }
        let path = folder + "/" + TitleIntent.fileName(forMaster: masterName)
        let bytes = intent.bytes
        guard !FileSystem.contentsEqual(path, bytes) else { return }
        try onDisk(FileSystem.refuseReplacing(path, what: "the intent record"))
        try onDisk { () throws(FileFailure) in
            try FileSystem.replaceFile(
                at: path, with: String(decoding: bytes, as: UTF8.self), temporaryName: FileSystem.temporaryPrefix + "intent-\(getpid()).tmp",
                within: confinement)
        }
    }

    /// Creates the output folder (and its parents) when the request's output names a new one.
    private func makeOutputFolder(created: inout CreatedEntries) throws(SubweaveError) {
        guard !FileSystem.isRealFolder(folder) else { return }
        var missing: [String] = []
        var path = folder
        while !path.isEmpty && path != "/" && !FileSystem.isRealFolder(path) {
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where try onDisk(FileSystem.makeRealFolder(path, within: folder, confinement: confinement)) {
            created.folders.append(path)
        }
    }

    /// The master's own path must be a regular file or absent (never a folder, a link, a FIFO or
    /// a device).
    private func checkMasterTarget() throws(SubweaveError) {
        if FileSystem.Occupant(masterPath) == .folder {
            throw .fileSystem(FileProblem(path: masterPath, operation: "is a folder; the output master must be a file path"))
        }
        try onDisk(FileSystem.refuseReplacing(masterPath, what: "the master"))
    }

    /// Makes `folder` (relative) and its parent as real folders, refusing symbolic links.
    private func prepareFolder(_ relative: String, created: inout CreatedEntries) throws(SubweaveError) {
        var path = folder
        for component in relative.split(separator: "/") {
            path += "/" + component
            if try onDisk(FileSystem.makeRealFolder(path, within: folder, confinement: confinement)) {
                created.folders.append(path)
            }
        }
    }

    private func writeGenerations(_ generations: [GenerationWrite], created: inout CreatedEntries) throws(SubweaveError) {
        // The generations whose files are made here: the rendition's folder, and what makes them.
        var toWrite: [(folder: String, target: String, make: FileSystem.FileMaker)] = []
        for write in generations {
            let target = folder + "/" + write.folder + "/" + write.generation
            if case .append(let make) = write.source {
                guard FileSystem.isRealFolder(target) else {
                    throw .fileSystem(FileProblem(path: target, operation: "the published rendition to append to is gone; nothing was changed"))
                }
                try onDisk { () throws(FileFailure) in
                    try make { name, content throws(FileFailure) in
                        try FileSystem.replaceFile(
                            at: target + "/" + name, with: content, temporaryName: FileSystem.temporaryPrefix + "append-" + name, within: self.confinement)
                    }
                }
                continue
            }
            // A generation that exists holds the same bytes (its name is their hash); one that
            // lost files (deleted by hand, a disk cleaned) gets them back, each in place.
            if FileSystem.isRealFolder(target) {
                try write.fillIn(below: folder, within: confinement)
                continue
            }
            switch write.source {
            case .files(let make): toWrite.append((write.folder, target, make))
            case .staged(let path):
                try onDisk(FileSystem.move(path, to: target, "cannot move the staged rendition into place"))
                created.generations.append(target)
            case .inPlace:
                throw .fileSystem(FileProblem(path: target, operation: "the rendition was in place when the run planned it and is gone; nothing was changed"))
            case .append: continue
            }
        }
        let pending = toWrite
        let firstError = Mutex<SubweaveError?>(nil)
        let done = Mutex<[String]>([])
        let next = Atomic<Int>(0)
        let workers = min(pending.count, max(1, min(4, ProcessInfo.processInfo.activeProcessorCount * 2)))
        let root = folder, confinement = self.confinement
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < pending.count, firstError.withLock({ $0 == nil }) else { return }
                let write = pending[index]
                do throws(FileFailure) {
                    try FileSystem.writeFolder(
                        at: write.target, staging: root + "/" + write.folder + "/" + FileSystem.temporaryPrefix + "staging-\(getpid())",
                        within: confinement, write.make)
                    done.withLock { $0.append(write.target) }
                } catch {
                    firstError.withLock { if $0 == nil { $0 = SubweaveError(error) } }
                }
            }
        }
        created.generations += done.withLock { $0 }
        if let error = firstError.withLock({ $0 }) { throw error }
    }

    /// Removes what killed runs left (entries named `.subweave-*`) in the output folder and in
    /// `folders`, taking the folder's lock (a live follow that restarts does this first).
    package func cleanLeftovers(in folders: Set<String>) async throws(SubweaveError) {
        let lock = try await acquireLock()
        defer { lock.release() }
        try removeLeftovers(in: folders)
    }

    /// Removes what killed runs left (`.subweave-*` temporary files and staging folders) in the
    /// output folder and in `folders`; this run's staging folder stays until its generations are
    /// renamed out of it.
    ///
    /// Call holding the lock: then no live run owns any.
    package func removeLeftovers(in folders: Set<String>) throws(SubweaveError) {
        var places = [folder]
        for relative in folders {
            let parts = relative.split(separator: "/")
            if let root = parts.first { places.append(folder + "/" + root) }
            places.append(folder + "/" + relative)
        }
        for place in Set(places) where FileSystem.isRealFolder(place) && FileSystem.firstLink(String(place.dropFirst(folder.count)), below: folder) == nil {
            for name in FileSystem.entries(of: place) where name.hasPrefix(FileSystem.temporaryPrefix) && name != RenditionStager.name {
                FileSystem.removeTree(place + "/" + name)
            }
        }
    }

    /// Removes the generations (and files of the layout before generations) of `relative` that
    /// are not in `keep`.
    ///
    /// Only real folders with generation names and Subweave's file names go.
    private func removeGenerations(in relative: String, keeping keep: Set<String>, keepLegacy: Bool) {
        let path = folder + "/" + relative
        guard FileSystem.isRealFolder(path), FileSystem.firstLink(relative, below: folder) == nil else { return }
        for name in FileSystem.entries(of: path) {
            if RenditionLayout.isGeneration(Substring(name)) && !keep.contains(name) {
                guard retired(path + "/" + name) else { continue }
                // Renamed out of the way first: a run killed while deleting must not leave a
                // half-emptied folder under a generation name that a later run would reuse.
                let trash = path + "/" + FileSystem.temporaryPrefix + "removing-\(name)"
                if FileSystem.rename(path + "/" + name, to: trash) { FileSystem.removeTree(trash) }
            } else if !keepLegacy && RenditionLayout.isLegacyFile(name) && RenditionLayout.recognise(relative + "/" + RenditionLayout.playlistName) != nil {
                // Only the default layout had files directly in a rendition's folder: another
                // template's folder may hold what is not Subweave's.
                _ = FileSystem.removeFile(path + "/" + name)
            }
        }
    }

    /// Rendition folders outside `known` (renditions an earlier run removed) that still hold a
    /// retired generation.
    private func retiringFolders(besides known: Set<String>, templates: [RenditionFolderTemplate]) -> [String] {
        var candidates: [String] = []
        for root in [RenditionLayout.subtitlesRoot, RenditionLayout.captionsRoot] where FileSystem.firstLink(root, below: folder) == nil {
            candidates += FileSystem.entries(of: folder + "/" + root).filter { !$0.hasPrefix(".") }.map { root + "/" + $0 }
        }
        // Folders of the title's other templates (the one said now, and earlier ones).
        for template in templates where template != .standard {
            candidates += template.folders { relative in
                guard FileSystem.firstLink(relative, below: folder) == nil else { return [] }
                return FileSystem.entries(of: relative.isEmpty ? folder : folder + "/" + relative)
            }
        }
        var result: [String] = []
        for relative in Set(candidates).sorted() where !known.contains(relative) {
            let path = folder + "/" + relative
            let retiring = FileSystem.entries(of: path).contains {
                RenditionLayout.isGeneration(Substring($0)) && FileSystem.exists(path + "/" + $0 + "/" + RenditionLayout.retiredMarkerName)
            }
            if retiring { result.append(relative) }
        }
        return result
    }

    /// Whether the unnamed generation at `path` has been retired for ``retireAfter`` (it is
    /// marked retired now when it was not yet).
    private func retired(_ path: String) -> Bool {
        guard retireAfter > 0 else { return true }
        let marker = path + "/" + RenditionLayout.retiredMarkerName
        let now = self.now()
        if let bytes = try? ResourceLoader.readFile(marker, limit: 4096, kind: .playlist),
            let since = Double(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return now.timeIntervalSince1970 - since >= retireAfter
        }
        // Written in place: a run killed here leaves a marker that does not parse, written again next time.
        FileSystem.overwriteSmallFile(marker, String(format: "%.3f\n", now.timeIntervalSince1970))
        return false
    }

    /// What a failed run created, to remove.
    private struct CreatedEntries {
        var folders: [String] = []
        var generations: [String] = []

        func undo() {
            for generation in generations { FileSystem.removeTree(generation) }
            for folder in folders.reversed() { FileSystem.removeEmptyFolder(folder) }
        }
    }
}
