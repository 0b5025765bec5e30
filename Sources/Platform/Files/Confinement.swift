import Foundation

/// A folder that every file read and written must stay inside (`batch --root`).
///
/// Checked on what was actually opened, not on the path asked for: the real path of an open
/// descriptor (`/proc/self/fd/N`) is compared with the root's, so a folder that is replaced by a
/// symbolic link after a check cannot lead a read or a write out of the root. A file is created,
/// checked, and only then renamed into place (a rename cannot cross into a folder swapped in
/// meanwhile: the temporary name is not there).
package struct Confinement: Sendable, Equatable {
    /// The root's real path (every link resolved), and how the operator wrote it.
    package let root: String
    package let shown: String

    /// The root `url`, which must exist.
    package init(_ url: URL) {
        shown = url.path
        root = FileSystem.resolvedFolder(url.standardizedFileURL.path)
    }

    /// Whether the real path `path` is the root or below it.
    package func contains(realPath path: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// The real path of what `fd` has open, from `/proc/self/fd` (nil when it cannot be read).
    package static func realPath(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let bytes = buffer[0..<n].map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why the file open as `fd` (opened as `path`) is not inside the root, or nil when it is.
    package func problem(descriptor fd: Int32, path: String) -> String? {
        guard let real = Self.realPath(of: fd) else { return "cannot be located (no /proc/self/fd), so it cannot be shown to be inside the root \(shown)" }
        guard contains(realPath: real) else { return "is \(real), outside the root \(shown) (--root)" }
        return nil
    }

    /// Fails, naming `path`, unless the file open as `fd` is inside the root.
    package func check(descriptor fd: Int32, path: String) throws(FileFailure) {
        if let problem = problem(descriptor: fd, path: path) { throw FileFailure(path, problem) }
    }

    /// Fails unless the folder at `path` is inside the root, checked on the folder opened.
    package func check(folder path: String) throws(FileFailure) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.failure(path, "cannot open the folder to check it is inside the root \(shown)") }
        defer { close(fd) }
        try check(descriptor: fd, path: path)
    }
}
