import Foundation

/// Writes files so that a reader never sees half of one: each goes to a temporary file in the
/// same folder and is renamed into place. The caller orders the files; the master goes last.
public enum AtomicWriter {
    /// Writes `text` to `path` via a temporary sibling and `rename(2)`, creating folders as needed.
    public static func write(_ text: String, to path: String) throws(SubweaveError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        let temporary = folder + "/." + url.lastPathComponent + ".subweave-\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            let code = errno
            throw .io(path: path, reason: "cannot write a temporary file in \(folder) (errno \(code): \(String(cString: strerror(code))))")
        }
        // A replaced file keeps its permissions.
        var info = stat()
        if stat(path, &info) == 0 { chmod(temporary, info.st_mode & 0o7777) }
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw .io(path: path, reason: "cannot rename the temporary file into place (errno \(code): \(String(cString: strerror(code))))")
        }
    }
}
