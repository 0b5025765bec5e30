import Synchronization

/// Bytes whose storage is read into again and again: a segment read into it after another
/// reuses the memory the first one faulted in (a fresh array for every file would have the
/// kernel zero new pages for each).
///
/// One task at a time uses it: the reader fills it, then hands it on to whoever reads the bytes,
/// who gives it back for the next read.
package final class ReusableBytes: Sendable {
    private let storage = Mutex<[UInt8]>([])

    package init() {}

    /// Runs `body` with the bytes, which it may replace or change in place (without a copy).
    package func withBytes<T, E: Error>(_ body: (inout [UInt8]) throws(E) -> T) throws(E) -> T {
        try storage.withLock { (bytes: inout [UInt8]) throws(E) -> T in try body(&bytes) }
    }
}
