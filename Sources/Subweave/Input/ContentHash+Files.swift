import Platform
import Timebase

extension ContentHash {
    /// Adds the size, modification time and inode of the file at `path` (following links), or
    /// that it is missing: what says, without reading it, that a file is as it was.
    mutating func add(stat path: String) {
        add(identity: FileSystem.identity(of: path))
    }

    /// Adds what ``add(stat:)`` adds for each of `paths`, in order (each folder opened once:
    /// ``FileSystem/identities(of:)``).
    mutating func add(stats paths: [String]) {
        for file in FileSystem.identities(of: paths) { add(identity: file) }
    }

    /// Adds what ``add(stat:)`` adds for a file whose identity is `file` (nil: missing).
    mutating func add(identity file: FileSystem.Identity?) {
        guard let file else {
            add("missing\u{0}")
            return
        }
        // "size:seconds.nanoseconds:inode:device\0", added in pieces (no string is built).
        add(decimal: file.size)
        add(byte: UInt8(ascii: ":"))
        add(decimal: file.modifiedSeconds)
        add(byte: UInt8(ascii: "."))
        add(decimal: file.modifiedNanoseconds)
        add(byte: UInt8(ascii: ":"))
        add(decimal: file.inode)
        add(byte: UInt8(ascii: ":"))
        add(decimal: file.device)
        add(byte: 0)
        add(byte: 0xFF)
    }
}
