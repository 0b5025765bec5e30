import Foundation

/// An exclusive advisory lock (`flock(2)`) on a folder, held by an open descriptor of the folder
/// itself, so that no lock file is left behind; the kernel releases it if the process dies.
package struct FolderLock: Sendable {
    private let fd: Int32

    /// Locks `folder`, or, when it does not exist yet (a new output folder), its nearest
    /// existing ancestor.
    package init(folder requested: String, timeout requestedTimeout: TimeInterval, onWait: @Sendable (String) -> Void) throws(FileFailure) {
        // A timeout that is not a finite number of seconds (NaN, infinity) waits a year at most.
        let timeout = requestedTimeout.isFinite ? min(max(0, requestedTimeout), Self.longestWait) : Self.longestWait
        var folder = requested
        while !FileSystem.isRealFolder(folder), folder != "/", !folder.isEmpty {
            folder = (folder as NSString).deletingLastPathComponent
        }
        let fd = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileSystem.failure(folder, "cannot open the output folder to lock it") }
        let deadline = Date().addingTimeInterval(timeout)
        var told = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw FileFailure(folder, "cannot lock the folder", errno: code)
            }
            if !told {
                onWait("waiting for another subweave run on \(folder) to finish (at most \(Int(timeout)) s)")
                told = true
            }
            guard Date() < deadline else {
                close(fd)
                throw FileFailure(folder, "another subweave run held the folder's lock for more than \(Int(timeout)) s; nothing was written")
            }
            usleep(50_000)
        }
        self.fd = fd
    }

    /// The longest wait for a lock, in seconds (a year).
    package static let longestWait: TimeInterval = 365 * 86_400

    package func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
