import Foundation
import Synchronization

/// Writes files so that a reader never sees half of one: each goes to a temporary file in the
/// same folder and is renamed into place (`rename(2)` is atomic within a file system). The
/// caller orders the files; the master goes last.
///
/// Only files written with `durable: true` (the master) are flushed to disk with `fsync` before
/// the rename: that is the file whose loss after a crash would matter, and flushing each of
/// thousands of segments would cost more than the rest of the run together.
public enum AtomicWriter {
    /// Writes `text` to `path` via a temporary sibling and `rename(2)`, creating folders as needed.
    /// A file that is replaced keeps its permission bits.
    public static func write(_ text: String, to path: String, durable: Bool = false) throws(SubweaveError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        try makeFolder(folder)
        let temporary = "\(folder)/.\(name).subweave-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "cannot create a temporary file in \(folder)") }
        var ok = writeAll(fd, text)
        if ok && durable && fsync(fd) != 0 { ok = false }
        let code = errno
        close(fd)
        guard ok else {
            unlink(temporary)
            throw .io(path: path, reason: "cannot write the temporary file (errno \(code): \(String(cString: strerror(code))))")
        }
        var info = stat()
        if stat(path, &info) == 0 { chmod(temporary, info.st_mode & 0o7777) }
        if rename(temporary, path) != 0 {
            let error = failure(path, "cannot rename the temporary file into place")
            unlink(temporary)
            throw error
        }
    }

    /// Writes a rendition's files (`name`, `text`) into `folder`.
    ///
    /// A folder that does not exist yet is built as a hidden sibling and renamed into place whole:
    /// nothing refers to it until the master is written, and one rename replaces thousands. An
    /// existing folder (a rendition from an earlier run, perhaps being served) has each file
    /// replaced through its own temporary file.
    public static func writeFolder(_ folder: String, files: [(name: String, text: String)]) throws(SubweaveError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            for file in files { try write(file.text, to: folder + "/" + file.name) }
            return
        }
        let slash = folder.lastIndex(of: "/")
        let parent = slash.map { String(folder[..<$0]) } ?? "."
        let name = slash.map { String(folder[folder.index(after: $0)...]) } ?? folder
        try makeFolder(parent)
        let staging = "\(parent)/.\(name).subweave-\(getpid()).tmp"
        removeTree(staging)
        guard mkdir(staging, 0o755) == 0 else { throw failure(staging, "cannot create a temporary folder") }
        do {
            for file in files { try writeNew(file.text, to: staging + "/" + file.name) }
        } catch {
            removeTree(staging)
            throw error
        }
        if rename(staging, folder) != 0 {
            // Someone made the folder meanwhile: fall back to replacing file by file.
            removeTree(staging)
            for file in files { try write(file.text, to: folder + "/" + file.name) }
        }
    }

    /// Writes the folders of several renditions, a few at a time (file creation is kernel work
    /// that overlaps well across folders).
    /// Each folder's files are made by its closure when a worker reaches it.
    public static func writeFolders(_ folders: [(folder: String, files: @Sendable () -> [(name: String, text: String)])]) throws(SubweaveError) {
        let firstError = Mutex<SubweaveError?>(nil)
        let next = Atomic<Int>(0)
        let workers = min(folders.count, max(1, min(4, ProcessInfo.processInfo.activeProcessorCount * 2)))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < folders.count, firstError.withLock({ $0 == nil }) else { return }
                do throws(SubweaveError) {
                    try writeFolder(folders[index].folder, files: folders[index].files())
                } catch {
                    firstError.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let error = firstError.withLock({ $0 }) { throw error }
    }

    /// Creates a file that must not exist yet and writes `text` to it.
    static func writeNew(_ text: String, to path: String) throws(SubweaveError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, "cannot create the file") }
        defer { close(fd) }
        guard writeAll(fd, text) else { throw failure(path, "cannot write the file") }
    }

    private static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var utf8 = text
        return utf8.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let n = Foundation.write(fd, base + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
    }

    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Creates `folder` and its parents if they do not exist.
    static func makeFolder(_ folder: String) throws(SubweaveError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .io(path: folder, reason: "exists and is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot create the folder: \(error.localizedDescription)")
        }
    }

    private static func failure(_ path: String, _ what: String) -> SubweaveError {
        let code = errno
        return .io(path: path, reason: "\(what) (errno \(code): \(String(cString: strerror(code))))")
    }
}
