import Foundation

/// A file-system operation that failed: the path, what was being done or found, and the errno
/// when one says why.
///
/// Platform's file work throws only this; the library turns it into its own error where it calls
/// in, so a failure always names its path and cause.
package struct FileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path the operation was on.
    package let path: String
    /// What failed, as a message says it: "cannot create the file", "is a symbolic link; …".
    package let operation: String
    /// The errno the failing call set, when one says why.
    package let errno: Int32?

    /// `operation` failed on `path`, with `errno` when a call set one.
    package init(_ path: String, _ operation: String, errno: Int32? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
    }

    /// The failure of the call that just failed: `operation` and the errno it left.
    package static func lastCall(_ path: String, _ operation: String) -> FileFailure {
        FileFailure(path, operation, errno: Foundation.errno)
    }

    /// What failed and why: "cannot create the file (errno 13: Permission denied)".
    package var explanation: String {
        guard let errno else { return operation }
        return "\(operation) (errno \(errno): \(String(cString: strerror(errno))))"
    }

    package var description: String { "\(path): \(explanation)" }
}
