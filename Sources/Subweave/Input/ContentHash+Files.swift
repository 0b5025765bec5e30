import Platform
import Timebase

extension ContentHash {
    /// Adds the size, modification time and inode of the file at `path` (following links), or
    /// that it is missing: what says, without reading it, that a file is as it was.
    mutating func add(stat path: String) {
        guard let file = FileSystem.identity(of: path) else {
            add("missing\u{0}")
            return
        }
        add("\(file.size):\(file.modifiedSeconds).\(file.modifiedNanoseconds):\(file.inode):\(file.device)\u{0}")
    }
}
