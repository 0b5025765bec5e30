import Dispatch
import Foundation
import Synchronization

/// The file-system primitives the output writer builds on, on POSIX calls so that every step is
/// explicit: no symbolic link is followed where Subweave writes or deletes, new files are created
/// exclusively, and every failure names the path and the errno.
package enum FileSystem {
    /// Names Subweave gives its temporary entries: only entries with these prefixes are ever
    /// removed as leftovers of a killed run.
    package static let temporaryPrefix = ".subweave-"

    /// Whether something is at `path` (a link is followed, as `FileManager.fileExists` does).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` is a file this process may execute.
    package static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }

    /// What `stat(2)` says of a file (a link followed): enough to tell that it changed.
    package struct Identity: Sendable, Equatable {
        package let size: Int
        package let modifiedSeconds: Int
        package let modifiedNanoseconds: Int
        package let inode: UInt64
        package let device: UInt64
        package let isRegularFile: Bool

        init(_ info: stat) {
            size = Int(info.st_size)
            modifiedSeconds = Int(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            inode = UInt64(info.st_ino)
            device = UInt64(info.st_dev)
            isRegularFile = info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// The identity of the file at `path` (a link followed); nil when there is none.
    package static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(info)
    }

    /// The identities of the files at `paths` (links followed; nil where there is none), in
    /// order: what ``identity(of:)`` gives for each, with each folder opened once and the files
    /// in it looked up by name from there, not walked to from the root again (a title's
    /// playlists name thousands of files in a few folders).
    package static func identities(of paths: [String]) -> [Identity?] {
        var folder: (path: Substring.UTF8View, descriptor: Int32)?
        defer { if let folder, folder.descriptor >= 0 { close(folder.descriptor) } }
        return paths.map { path in
            let utf8 = path.utf8
            guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")), utf8.index(after: slash) < utf8.endIndex else { return identity(of: path) }
            let parent = path[...slash].utf8
            if folder.map({ !$0.path.elementsEqual(parent) }) ?? true {
                if let folder, folder.descriptor >= 0 { close(folder.descriptor) }
                folder = (parent, open(String(path[...slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
            }
            guard let descriptor = folder?.descriptor, descriptor >= 0 else { return identity(of: path) }
            // The name is the path's C string after the slash: nothing is copied.
            let nameOffset = utf8.distance(from: utf8.startIndex, to: slash) + 1
            var info = stat()
            guard path.withCString({ fstatat(descriptor, $0 + nameOffset, &info, 0) }) == 0 else { return nil }
            return Identity(info)
        }
    }

    /// The process's working folder.
    package static var currentFolder: String { FileManager.default.currentDirectoryPath }

    /// Creates the folder `path` (its parent must exist); true when this call created it.
    package static func makeFolder(_ path: String) -> Bool { mkdir(path, 0o755) == 0 }

    /// Removes the folder `path` if it is empty; true when it was removed.
    @discardableResult
    package static func removeEmptyFolder(_ path: String) -> Bool { rmdir(path) == 0 }

    /// Renames `source` to `target` (`rename(2)`: atomic, within one file system); true on success.
    package static func rename(_ source: String, to target: String) -> Bool { Foundation.rename(source, target) == 0 }

    /// Renames `source` to `target`, failing with `what` (and the errno) said of `target`.
    package static func move(_ source: String, to target: String, _ what: String) throws(FileFailure) {
        guard rename(source, to: target) else { throw .lastCall(target, what) }
    }

    /// `path` exists and is a folder, not a symbolic link to one.
    package static func isRealFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The first entry of `relative`'s path below `root` that is a symbolic link, if any (the
    /// walk stops at the first component that does not exist); `root` itself may be a link.
    package static func firstLink(_ relative: String, below root: String) -> String? {
        var path = root
        for component in relative.split(separator: "/") {
            path += "/" + component
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK { return path }
        }
        return nil
    }

    /// Fails, naming the link, when `relative`'s path below `root` goes through a symbolic link.
    package static func refuseLinks(_ relative: String, below root: String) throws(FileFailure) {
        if let link = firstLink(relative, below: root) { throw linkRefused(link, root: root) }
    }

    /// The error for a symbolic link below the output folder.
    package static func linkRefused(_ link: String, root: String) -> FileFailure {
        FileFailure(
            link,
            "is a symbolic link; Subweave never reads, writes or deletes through a link below the output folder \(root). Replace it with a real folder (or remove it)"
        )
    }

    /// The real path of an existing folder (every link in it resolved), else `path` as given.
    package static func resolvedFolder(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Makes `path` a real folder if it is not one yet; true when this call created it.
    ///
    /// A
    /// symbolic link (to anywhere) or a file in its place is an error naming it.
    package static func makeRealFolder(_ path: String, within root: String, confinement: Confinement? = nil) throws(FileFailure) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return false
            case S_IFLNK:
                throw linkRefused(path, root: root)
            default:
                throw FileFailure(path, "exists and is not a folder; Subweave needs a folder here")
            }
        }
        guard mkdir(path, 0o755) == 0 else {
            if errno == EEXIST, isRealFolder(path) { return false }
            throw failure(path, "cannot create the folder")
        }
        if let confinement {
            do throws(FileFailure) { try confinement.check(folder: path) } catch {
                _ = rmdir(path)
                throw error
            }
        }
        return true
    }

    /// The names in a real folder (not `.` or `..`), sorted; empty when it cannot be read.
    package static func entries(of path: String) -> [String] {
        guard isRealFolder(path), let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes `path`: a file or link is unlinked (a link's target is never touched), a folder is
    /// emptied the same way and removed.
    ///
    /// Errors are ignored (this is clean-up).
    package static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in entries(of: path) { removeTree(path + "/" + name) }
            _ = rmdir(path)
        } else {
            _ = unlink(path)
        }
    }

    /// The bytes of the file at `path`, nil when there is none or it cannot be read.
    package static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Unlinks a file (never a folder); true on success.
    package static func removeFile(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return false }
        return unlink(path) == 0
    }

    /// A file's bytes, handed to `sink` in pieces, in order: a large file is never made whole.
    package typealias FileContent = (_ sink: (_ piece: UnsafeBufferPointer<UInt8>) throws(FileFailure) -> Void) throws(FileFailure) -> Void

    /// Makes a folder's files one at a time, handing each, `(name, content)`, to its argument.
    package typealias FileMaker = @Sendable (_ emit: (_ name: String, _ content: FileContent) throws(FileFailure) -> Void) throws(FileFailure) -> Void

    /// Writes the files `make` hands to its argument, one at a time, into a new folder `staging`
    /// and renames it to `target` whole.
    ///
    /// If `target` appears meanwhile, it holds the same content (its name is its hash) and the
    /// staging folder goes.
    package static func writeFolder(at target: String, staging: String, within confinement: Confinement? = nil, _ make: FileMaker) throws(FileFailure) {
        try writeFolder(at: target, staging: staging, within: confinement) { folder throws(FileFailure) in
            try make { name, content throws(FileFailure) in try writeNewFile(name, in: folder, folderPath: staging, content) }
        }
    }

    /// Makes part `part` of a folder's files one at a time, handing each, `(name, content)`, to
    /// its argument (the parts name no file twice).
    package typealias FileMakerPart = @Sendable (_ part: Int, _ emit: FileEmitter) throws(FileFailure) -> Void

    /// Takes a file's name in its folder and its content.
    package typealias FileEmitter = (_ name: String, _ content: FileContent) throws(FileFailure) -> Void

    /// ``writeFolder(at:staging:within:_:)`` with the files made in `parts` parts at once, on
    /// every core (the folder is renamed once all are written; after a failure the parts not
    /// yet done stop at their next file, and the first failure is thrown).
    package static func writeFolder(at target: String, staging: String, within confinement: Confinement? = nil, parts: Int, _ make: FileMakerPart)
        throws(FileFailure)
    {
        try writeFolder(at: target, staging: staging, within: confinement) { folder throws(FileFailure) in
            let firstFailure = Mutex<FileFailure?>(nil)
            DispatchQueue.concurrentPerform(iterations: max(1, parts)) { part in
                do throws(FileFailure) {
                    try make(part) { name, content throws(FileFailure) in
                        // Another part failed: the folder goes, so this one stops.
                        if firstFailure.withLock({ $0 != nil }) { throw FileFailure(staging, "stopped after another file failed") }
                        try writeNewFile(name, in: folder, folderPath: staging, content)
                    }
                } catch {
                    firstFailure.withLock { if $0 == nil { $0 = error } }
                }
            }
            if let failure = firstFailure.withLock({ $0 }) { throw failure }
        }
    }

    /// Makes a new folder `staging`, has `write` write its files (given the folder's
    /// descriptor), and renames it to `target` whole; a failure removes it.
    private static func writeFolder(at target: String, staging: String, within confinement: Confinement?, writing write: (Int32) throws(FileFailure) -> Void)
        throws(FileFailure)
    {
        removeTree(staging)
        guard mkdir(staging, 0o755) == 0 else { throw failure(staging, "cannot create a temporary folder") }
        // Files are created relative to the folder's descriptor: one path walk, not one per file.
        let folder = open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            let error = failure(staging, "cannot open the temporary folder")
            removeTree(staging)
            throw error
        }
        do throws(FileFailure) {
            defer { close(folder) }
            try confinement?.check(descriptor: folder, path: staging)
            try write(folder)
        } catch {
            removeTree(staging)
            throw error
        }
        if Foundation.rename(staging, target) != 0 {
            let code = errno
            removeTree(staging)
            guard (code == EEXIST || code == ENOTEMPTY) && isRealFolder(target) else {
                throw FileFailure(target, "cannot move the new rendition into place", errno: code)
            }
        }
    }

    /// Creates `name` in the folder open as `folder` (`path` names it in messages; it must not
    /// exist, and is never a link) and writes `bytes` to it with one call.
    package static func writeNewFile(_ name: String, in folder: Int32, folderPath: String, _ content: FileContent) throws(FileFailure) {
        let fd = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        // The path is made only for a message (a file written costs no string).
        guard fd >= 0 else { throw failure(folderPath + "/" + name, "cannot create the file") }
        defer { close(fd) }
        do throws(FileFailure) {
            try content { piece throws(FileFailure) in
                guard writeAll(fd, piece) else { throw failure(folderPath + "/" + name, "cannot write the file") }
            }
        } catch {
            _ = unlinkat(folder, name, 0)
            throw error
        }
    }

    /// Creates `path` (which must not exist, and is never a link) and writes `text` to it.
    package static func writeNewFile(_ path: String, _ text: String) throws(FileFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "cannot create the file") }
        defer { close(fd) }
        guard writeAll(fd, text) else {
            let error = failure(path, "cannot write the file")
            _ = unlink(path)
            throw error
        }
    }

    /// Replaces the file at `path` with `text` through a temporary sibling named `temporaryName`,
    /// `fsync`ed before the rename; the folder is `fsync`ed after it.
    ///
    /// The file keeps its permission bits.
    package static func replaceFile(at path: String, with text: String, temporaryName: String, within confinement: Confinement? = nil) throws(FileFailure) {
        try replaceFile(at: path, temporaryName: temporaryName, within: confinement) { fd in writeAll(fd, text) }
    }

    /// ``replaceFile(at:with:temporaryName:)`` with content handed out in pieces.
    package static func replaceFile(
        at path: String, with content: FileContent, temporaryName: String, within confinement: Confinement? = nil
    ) throws(FileFailure) {
        try replaceFile(at: path, temporaryName: temporaryName, within: confinement) { fd in
            do throws(FileFailure) {
                try content { piece throws(FileFailure) in
                    guard writeAll(fd, piece) else { throw .lastCall(path, "cannot write the file") }
                }
                return true
            } catch {
                return false
            }
        }
    }

    /// Replaces `path` with what `write` writes to a temporary sibling (false: it failed, with
    /// errno set), made durable and renamed into place.
    package static func replaceFile(
        at path: String, temporaryName: String, within confinement: Confinement?, _ write: (Int32) -> Bool
    ) throws(FileFailure) {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/" + temporaryName
        _ = unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(temporary, "cannot create a temporary file beside \(path)") }
        if let problem = confinement?.problem(descriptor: fd, path: temporary) {
            close(fd)
            _ = unlink(temporary)
            throw FileFailure(path, problem)
        }
        var ok = write(fd)
        if ok && fsync(fd) != 0 { ok = false }
        let code = errno
        var info = stat()
        if ok, stat(path, &info) == 0 { fchmod(fd, info.st_mode & 0o7777) }
        close(fd)
        guard ok else {
            _ = unlink(temporary)
            throw FileFailure(path, "cannot write the temporary file", errno: code)
        }
        if Foundation.rename(temporary, path) != 0 {
            let error = failure(path, "cannot rename the temporary file into place")
            _ = unlink(temporary)
            throw error
        }
        syncFolder(folder.isEmpty ? "." : folder)
    }

    /// Writes a small file in place (created or truncated, never through a link); a write cut
    /// short leaves a shorter file, so it is for markers whose reader tolerates that.
    package static func overwriteSmallFile(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = writeAll(fd, text)
        close(fd)
    }

    /// What is at a path an output is written to, as `lstat` sees it (a link is never followed).
    package enum Occupant: Equatable, Sendable {
        case nothing, regularFile, folder, symbolicLink, fifo, characterDevice, blockDevice, socket

        package init(_ path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                self = .nothing
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .folder
            case S_IFLNK: self = .symbolicLink
            case S_IFIFO: self = .fifo
            case S_IFCHR: self = .characterDevice
            case S_IFBLK: self = .blockDevice
            default: self = .socket
            }
        }

        /// "a FIFO (named pipe)", "a character device", … for messages.
        package var described: String {
            switch self {
            case .nothing: return "nothing"
            case .regularFile: return "a regular file"
            case .folder: return "a folder"
            case .symbolicLink: return "a symbolic link"
            case .fifo: return "a FIFO (named pipe)"
            case .characterDevice: return "a character device"
            case .blockDevice: return "a block device"
            case .socket: return "a socket"
            }
        }
    }

    /// Fails unless `path` is absent or a regular file: a file Subweave replaces (a master) is
    /// renamed over, which would put a regular file in place of a link, a device or a FIFO.
    package static func refuseReplacing(_ path: String, what: String) throws(FileFailure) {
        let occupant = Occupant(path)
        switch occupant {
        case .nothing, .regularFile: return
        case .symbolicLink:
            throw FileFailure(
                path,
                "is a symbolic link; Subweave replaces \(what) by renaming a new file over it, which would replace the link and not its target. Give the target's own path"
            )
        default:
            throw FileFailure(path, "is \(occupant.described), not a regular file; \(what) must be a regular file (or not exist yet)")
        }
    }

    /// How ``writeFile(at:_:)`` wrote its file.
    package enum WriteManner: Equatable, Sendable {
        /// A new regular file, renamed over whatever regular file was there.
        case replaced
        /// Into the FIFO or character device at the path (`/dev/stdout`, `/dev/null`, a pipe),
        /// which stays what it is.
        case wroteThrough(Occupant)
    }

    /// Writes a whole file outside the managed layout (`convert -o`, `report --html`).
    ///
    /// A regular file (or nothing) at `path` is replaced through a temporary sibling; a FIFO or a
    /// character device is written through, as a shell's `>` does; a link, a folder, a block
    /// device or a socket is refused. Not made durable.
    @discardableResult
    package static func writeFile(at path: String, _ text: String) throws(FileFailure) -> WriteManner {
        let occupant = Occupant(path)
        switch occupant {
        case .nothing, .regularFile: break
        case .fifo, .characterDevice:
            try writeThrough(path, text)
            return .wroteThrough(occupant)
        case .folder: throw FileFailure(path, "is a folder; give a file path")
        case .symbolicLink:
            throw FileFailure(
                path, "is a symbolic link; Subweave writes no file through a link (it would replace the link, not its target). Give the target's own path")
        case .blockDevice, .socket:
            throw FileFailure(path, "is \(occupant.described); Subweave writes only regular files, FIFOs and character devices")
        }
        let name = FileSystem.temporaryPrefix + "\(getpid()).tmp"
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/" + name
        _ = unlink(temporary)
        try writeNewFile(temporary, text)
        var info = stat()
        if stat(path, &info) == 0 { chmod(temporary, info.st_mode & 0o7777) }
        // The path may have become something else meanwhile: rename only over a regular file.
        let now = Occupant(path)
        guard now == .nothing || now == .regularFile else {
            _ = unlink(temporary)
            throw FileFailure(path, "became \(now.described) while the file was written; nothing was written")
        }
        if Foundation.rename(temporary, path) != 0 {
            let error = failure(path, "cannot rename the temporary file into place")
            _ = unlink(temporary)
            throw error
        }
        return .replaced
    }

    /// Writes `text` into the FIFO or character device at `path`, opened without following a
    /// link and checked after opening (the path cannot be swapped for a regular file meanwhile).
    private static func writeThrough(_ path: String, _ text: String) throws(FileFailure) {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open for writing") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFCHR else {
            throw FileFailure(path, "changed while it was opened; nothing was written")
        }
        guard writeAll(fd, text) else { throw failure(path, "cannot write") }
    }

    /// Flushes every file of the file system that holds `path` to stable storage (`syncfs(2)`;
    /// `sync(2)` where the C library lacks it).
    package static func syncFileSystem(of path: String) throws(FileFailure) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open the folder to flush it") }
        defer { close(fd) }
        typealias SyncFS = @convention(c) (Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs") {
            guard unsafeBitCast(symbol, to: SyncFS.self)(fd) == 0 else { throw failure(path, "cannot flush the file system") }
        } else {
            sync()
        }
    }

    /// `fsync` on a folder, so that a rename in it survives a power loss.
    package static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    package static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var utf8 = text
        return utf8.withUTF8 { writeAll(fd, $0) }
    }

    /// Whether the regular file at `path` holds exactly `bytes`, read in pieces of 1 MiB (no copy
    /// of the file is made); false when it cannot be read.
    package static func contentsEqual(_ path: String, _ bytes: [UInt8]) -> Bool {
        // Non-blocking: opening a FIFO put in the master's place must not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == bytes.count else { return false }
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let n = piece.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n == 0 && offset == bytes.count }
            guard offset + n <= bytes.count, bytes[offset..<(offset + n)].elementsEqual(piece[0..<n]) else { return false }
            offset += n
        }
    }

    /// Whether the regular file at `path` holds exactly the bytes `write` hands its sink, in
    /// pieces (the file is read a piece at a time beside them; nothing is made whole).
    package static func contentsEqual(_ path: String, written write: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var equal = true
        var offset = 0
        var piece: [UInt8] = []
        write { buffer in
            guard equal, let source = buffer.baseAddress, buffer.count > 0 else { return }
            if piece.count < buffer.count { piece = [UInt8](repeating: 0, count: buffer.count) }
            let same = piece.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) -> Bool in
                guard let base = target.baseAddress else { return false }
                var filled = 0
                while filled < buffer.count {
                    let n = pread(fd, base + filled, buffer.count - filled, off_t(offset + filled))
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { return false }
                    filled += n
                }
                return memcmp(base, source, buffer.count) == 0
            }
            if !same { equal = false }
            offset += buffer.count
        }
        return equal && Int(info.st_size) == offset
    }

    /// Writes all of `buffer` to `fd`; false on an error (errno says which).
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let n = Foundation.write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    package static func failure(_ path: String, _ what: String) -> FileFailure { .lastCall(path, what) }
}
