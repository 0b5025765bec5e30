import Foundation

/// A local regular file open for reading: never a FIFO, a device or a folder (refused before a
/// byte is read, without blocking), checked to be inside a root when one is given; the descriptor
/// closes when the value is released.
package final class OpenFile {
    package let path: String
    private let fd: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` if it is a regular file (inside `confinement`, when given).
    package init(regular path: String, within confinement: Confinement? = nil) throws(FileFailure) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw .lastCall(path, Foundation.errno == ENOENT ? "does not exist" : "cannot be opened")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = FileFailure.lastCall(path, "cannot be examined")
            close(fd)
            throw failure
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            let kind: String
            switch type {
            case S_IFDIR: kind = "a folder"
            case S_IFIFO: kind = "a FIFO (named pipe)"
            case S_IFCHR: kind = "a character device"
            case S_IFBLK: kind = "a block device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            throw FileFailure(path, "is \(kind), not a regular file; Subweave reads only regular files")
        }
        if let problem = confinement?.problem(descriptor: fd, path: path) {
            close(fd)
            throw FileFailure(path, problem)
        }
        self.path = path
        self.fd = fd
        ownsDescriptor = true
    }

    /// Standard input (a pipe or a terminal is waited on; it is not closed).
    package init(standardInput: Void) {
        path = "standard input"
        fd = STDIN_FILENO
        ownsDescriptor = false
    }

    deinit { if ownsDescriptor { close(fd) } }

    /// The file's size now, in bytes (0 when it cannot be examined).
    package var size: Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// What ``read(upTo:reserving:)`` read: the bytes, and whether more followed past the limit.
    package struct Read {
        package var bytes: [UInt8]
        package var overLimit: Bool
    }

    /// Reads from where the file stands until its end or `limit` bytes (one more byte says the
    /// file goes on: ``Read/overLimit``); `reserving` sizes the buffer once.
    package func read(upTo limit: Int, reserving expected: Int = 0) throws(FileFailure) -> Read {
        var bytes: [UInt8] = []
        let overLimit = try read(upTo: limit, reserving: expected, into: &bytes)
        return Read(bytes: bytes, overLimit: overLimit)
    }

    /// ``read(upTo:reserving:)`` into `bytes`, whose storage is reused when it is big enough
    /// (then nothing is allocated, and no fresh page is faulted in and zeroed by the kernel):
    /// `bytes` becomes what was read; returns whether more followed past the limit.
    ///
    /// Empty storage is sized to the file; storage read into before that must grow is given room
    /// for a file half as big again: files read one after another vary in size (media segments
    /// do), and the buffer soon stops growing.
    package func read(upTo limit: Int, reserving expected: Int, into bytes: inout [UInt8]) throws(FileFailure) -> Bool {
        let wanted = min(max(0, expected), limit)
        if bytes.capacity < wanted {
            bytes = try readExpected(wanted, capacity: bytes.capacity == 0 ? wanted : wanted + wanted / 2)
        } else {
            if bytes.count > wanted { bytes.removeSubrange(wanted...) }
            if bytes.count < wanted { bytes.append(contentsOf: repeatElement(0, count: wanted - bytes.count)) }
            var count = 0
            while count < wanted {
                let n = try read(into: &bytes, from: count)
                if n == 0 { break }
                count += n
            }
            if count < wanted { bytes.removeSubrange(count...) }
        }
        if bytes.count < wanted { return false }
        return try readRest(into: &bytes, limit: limit)
    }

    /// Appends what follows to `bytes` (a file that grew since its size was taken) until the end
    /// of the file or past `limit`: whether it went past.
    private func readRest(into bytes: inout [UInt8], limit: Int) throws(FileFailure) -> Bool {
        // Most files end where their size said: a small first read finds it.
        var chunk = [UInt8](repeating: 0, count: 16)
        while true {
            let n = try read(into: &chunk, from: 0)
            if n == 0 { return false }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit { return true }
            if chunk.count < 1 << 16 { chunk = [UInt8](repeating: 0, count: 1 << 16) }
        }
    }

    /// Up to `expected` bytes where the file stands, read straight into an array of `capacity`
    /// (no copy, no zeroing): fewer only when the file ends first.
    private func readExpected(_ expected: Int, capacity: Int) throws(FileFailure) -> [UInt8] {
        guard expected > 0 else { return [] }
        var failure: FileFailure?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(expected, capacity)) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < expected {
                let n = Foundation.read(fd, base + count, expected - count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 && errno == EAGAIN {
                    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                    continue
                }
                if n < 0 { failure = .lastCall(path, "could not be read"); return }
                if n == 0 { return }
                count += n
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Exactly `count` bytes at `offset` (fewer when the file ends first).
    package func read(count: Int, at offset: Int) throws(FileFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(fd, base + done, count - done, off_t(offset + done))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .lastCall(path, "could not be read at offset \(offset + done)") }
            if n == 0 { break }
            done += n
        }
        return done == count ? bytes : Array(bytes[0..<done])
    }

    /// Reads into `buffer` from its start, at most `count` bytes, from `offset` in the file (not
    /// where it stands): the count read, fewer than `count` only where the file ends.
    ///
    /// Each caller keeps its own buffer, so that several read one file at once.
    package func read(into buffer: inout [UInt8], count: Int, at offset: Int) throws(FileFailure) -> Int {
        let wanted = Swift.min(count, buffer.count)
        var done = 0
        while done < wanted {
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(fd, base + done, wanted - done, off_t(offset + done))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .lastCall(path, "could not be read at offset \(offset + done)") }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads into `buffer` from `start` to its end, where the file stands: the count read.
    ///
    /// 0 at the end of the file. Standard input that is a pipe or a terminal is waited on.
    package func read(into buffer: inout [UInt8], from start: Int) throws(FileFailure) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in Foundation.read(fd, raw.baseAddress.map { $0 + start }, raw.count - start) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, -1)
                continue
            }
            if n < 0 { throw .lastCall(path, "could not be read") }
            return n
        }
    }

    /// The next `size` bytes where the file stands, as a new array (empty at the end of the file);
    /// nil on a read error.
    package func nextChunk(_ size: Int) -> [UInt8]? {
        var failed = false
        // Not zeroed first: read(2) fills what is kept.
        let chunk = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while true {
                let n = Foundation.read(fd, buffer.baseAddress, size)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true }
                count = Swift.max(0, n)
                return
            }
        }
        return failed ? nil : chunk
    }
}
