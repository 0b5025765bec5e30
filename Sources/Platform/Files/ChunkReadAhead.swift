import Dispatch
import Foundation

/// A file's chunks read ahead on a Dispatch thread of their own, at most `depth` in advance, so
/// that reading the next chunk overlaps working on this one (two cores do both at once).
///
/// The chunks come out in file order, as ``OpenFile/nextChunk(_:)`` reads them: empty at the end
/// of the file, nil on a read error (and nothing after either). ``stop()`` ends the reading early;
/// the thread finishes the read in hand and exits, and the file closes when it does.
package final class ChunkReadAhead: @unchecked Sendable {
    // The queue and the flag are shared by the reading thread and the consumer, under `lock`;
    // the file is read by the reading thread only.
    private let file: OpenFile
    private let size: Int
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    /// Created at 0 and signalled `depth` times: libdispatch traps when a semaphore goes with a
    /// value below the one it was created with, as this one does when reading stops early.
    private let room = DispatchSemaphore(value: 0)
    private var chunks: [[UInt8]?] = []
    private var stopped = false
    /// The end (empty) or the read error (nil), once the consumer has had it.
    private var last: [UInt8]??

    /// Starts reading `file` in chunks of `size` bytes, `depth` chunks ahead at most.
    package init(_ file: OpenFile, chunkSize size: Int, depth: Int = 2) {
        self.file = file
        self.size = max(1, size)
        for _ in 0..<max(1, depth) { room.signal() }
        // A queue of its own, not the global pool: the consumer blocks a pool thread while it
        // waits, and with every pool thread so blocked the reading would never start.
        DispatchQueue(label: "subweave.read-ahead").async { self.readAll() }
    }

    private func readAll() {
        while true {
            room.wait()
            if lock.withLock({ stopped }) { return }
            let chunk = file.nextChunk(size)
            lock.withLock { chunks.append(chunk) }
            ready.signal()
            if chunk?.isEmpty ?? true { return }
        }
    }

    /// The next chunk (waiting for it if it is still being read): empty at the end of the file,
    /// nil on a read error; the same again after either.
    package func next() -> [UInt8]? {
        if let last { return last }
        ready.wait()
        let chunk = lock.withLock { chunks.removeFirst() }
        room.signal()
        if chunk?.isEmpty ?? true { last = .some(chunk) }
        return chunk
    }

    /// Stops reading ahead: the chunk being read is the last read, and ``next()`` says the end
    /// from now on (at once: it does not wait for the reading thread).
    package func stop() {
        lock.withLock { stopped = true }
        room.signal()
        last = .some([])
    }
}
