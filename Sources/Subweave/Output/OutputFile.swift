import Foundation
import Platform

/// A single file written outside the managed layout (`subweave convert -o`).
public enum OutputFile {
    /// Writes `text` to `path`; true when a regular file was written, false when written through.
    ///
    /// A regular file is written through a temporary sibling renamed into place; a folder at
    /// `path` is an error. A FIFO or a character device at `path` (`/dev/stdout`, a pipe) is written through and
    /// stays what it is; a symbolic link, a block device or a socket is refused.
    @discardableResult
    public static func write(_ text: String, to path: String) throws(SubweaveError) -> Bool {
        try onDisk(FileSystem.writeFile(at: path, text)) == .replaced
    }
}
