import Platform
import Timebase

extension ContentHash {
    /// Adds the size, modification time and inode of the file at `path` (following links), or
    /// that it is missing: what says, without reading it, that a file is as it was.
    mutating func add(stat path: String) {
        add(FileSystem.identity(of: path))
    }

    /// Adds what ``add(stat:)`` adds for each of `paths`, in order (each folder opened once:
    /// ``FileSystem/identities(of:)``).
    mutating func add(stats paths: [String]) {
        for file in FileSystem.identities(of: paths) { add(file) }
    }

    private mutating func add(_ file: FileSystem.Identity?) {
        guard let file else {
            add("missing\u{0}")
            return
        }
        add("\(file.size):\(file.modifiedSeconds).\(file.modifiedNanoseconds):\(file.inode):\(file.device)\u{0}")
    }
}
