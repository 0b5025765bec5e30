import Foundation
import HLS
import Platform

/// Reads bytes from local paths and `http(s)://` URLs: the only place Subweave reads input.
///
/// Local files must be regular files (a FIFO, a device such as `/dev/zero` or a folder is refused
/// before it is read) no larger than the limit of their kind. HTTP requests follow redirects, give
/// up when no byte arrives for ``idleTimeout`` seconds or the whole transfer takes longer than
/// ``overallTimeout``, stop as soon as the body passes the limit, and are retried on transient
/// failures (timeouts, refused or dropped connections, HTTP 408, 429 and 5xx) with a short
/// back-off. Failures carry the transport's own account: the HTTP status, the errno, the timeout.
/// Blocking file reads run on a Dispatch queue, not on the cooperative thread pool.
public struct ResourceLoader: Sendable {
    /// Seconds without a byte (connecting included) before a request gives up.
    public var idleTimeout: TimeInterval
    /// Seconds a whole request may take, however steadily bytes arrive.
    public var overallTimeout: TimeInterval
    /// Retries after the first attempt for transient failures.
    public var retries: Int
    /// Requests in flight at once when loading several sources.
    public var concurrency: Int
    /// The most bytes read of one file of each kind.
    public var limits: ReadLimits
    /// A folder every file read (and, by the packager, written) must be inside; URLs are refused.
    ///
    /// Checked on each file once it is open (its real path), so a link swapped in after the
    /// catalogue was read cannot lead outside (`batch --root`).
    public var root: URL? {
        get { confinement.map { URL(fileURLWithPath: $0.shown) } }
        set { confinement = newValue.map(Confinement.init) }
    }
    package private(set) var confinement: Confinement?

    /// A loader with an idle `timeout`, an `overallTimeout`, `retries` of transient failures, `concurrency` and `limits`.
    public init(
        timeout: TimeInterval = 15, overallTimeout: TimeInterval = 120, retries: Int = 2, concurrency: Int = 3,
        limits: ReadLimits = ReadLimits()
    ) {
        self.idleTimeout = timeout
        self.overallTimeout = max(timeout, overallTimeout)
        self.retries = max(0, retries)
        self.concurrency = max(1, concurrency)
        self.limits = limits
    }

    /// Why a read failed, as a phrase that follows the file's name ("does not exist …").
    public struct Failure: Error, Sendable, Equatable {
        /// The phrase, with the settings it names (a limit to raise) kept apart.
        public let message: MessageText
        /// A failure explained by a phrase that follows the file name.
        public init(explanation: MessageText) { message = explanation }
        /// The phrase as the library spells it.
        public var explanation: String { message.description }
    }

    /// Reads `url` (a file URL or `http(s)://`), or only `range` of it, as a file of `kind`.
    public func read(_ url: URL, kind: ResourceKind, range: ByteRange? = nil) async throws(Failure) -> [UInt8] {
        let limit = limits[kind]
        if url.isFileURL {
            let path = url.path, confinement = self.confinement
            return try await onDispatch { () throws(Failure) in
                if let range, let offset = range.offset {
                    return try Self.readFile(path, offset: offset, length: range.length, limit: limit, kind: kind, within: confinement)
                }
                return try Self.readFile(path, limit: limit, kind: kind, within: confinement)
            }
        }
        if let confinement {
            throw Failure(explanation: "is a URL; with a root (--root \(confinement.shown)) only files inside it are read")
        }
        let bytes = try await fetch(url, kind: kind)
        if let range, let offset = range.offset {
            guard offset <= bytes.count, range.length <= bytes.count - offset else {
                throw Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(range.length)@\(offset)")
            }
            return Array(bytes[offset..<(offset + range.length)])
        }
        return bytes
    }

    /// Reads a local regular file of at most `limit` bytes.
    public static func readFile(_ path: String, limit: Int = ReadLimits().subtitle, kind: ResourceKind = .subtitle) throws(Failure) -> [UInt8] {
        try readFile(path, limit: limit, kind: kind, within: nil)
    }

    /// ``readFile(_:limit:kind:)``, the file open checked to be inside `confinement`.
    static func readFile(_ path: String, limit: Int, kind: ResourceKind, within confinement: Confinement?) throws(Failure) -> [UInt8] {
        let fd = try openRegular(path, within: confinement)
        defer { close(fd) }
        var info = stat()
        fstat(fd, &info)
        let size = Int(info.st_size)
        guard size <= limit else { throw tooLarge(size, limit, kind) }
        return try readAll(fd, upTo: limit, kind: kind, expected: size)
    }

    /// Reads `length` bytes at `offset` of a local regular file (for `EXT-X-BYTERANGE`).
    public static func readFile(_ path: String, offset: Int, length: Int, limit: Int, kind: ResourceKind) throws(Failure) -> [UInt8] {
        try readFile(path, offset: offset, length: length, limit: limit, kind: kind, within: nil)
    }

    /// ``readFile(_:offset:length:limit:kind:)``, the file open checked to be inside `confinement`.
    static func readFile(
        _ path: String, offset: Int, length: Int, limit: Int, kind: ResourceKind, within confinement: Confinement?
    ) throws(Failure) -> [UInt8] {
        guard length <= limit else { throw tooLarge(length, limit, kind) }
        let fd = try openRegular(path, within: confinement)
        defer { close(fd) }
        guard lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw errnoFailure("could not be read at offset \(offset)") }
        let bytes = try readAll(fd, upTo: length, kind: kind, exact: true)
        guard bytes.count == length else { throw Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(length)@\(offset)") }
        return bytes
    }

    /// Reads standard input, at most `limit` bytes.
    public static func readStandardInput(limit: Int = ReadLimits().subtitle) throws(Failure) -> [UInt8] {
        try readAll(STDIN_FILENO, upTo: limit, kind: .subtitle)
    }

    /// Opens `path` for reading if it is a regular file; never blocks (a FIFO is refused).
    static func openRegular(_ path: String, within confinement: Confinement? = nil) throws(Failure) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let what = code == ENOENT ? "does not exist" : "cannot be opened"
            throw Failure(explanation: "\(what) (errno \(code): \(String(cString: strerror(code))))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw errnoFailure("cannot be examined")
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
            throw Failure(explanation: "is \(kind), not a regular file; Subweave reads only regular files")
        }
        if let problem = confinement?.problem(descriptor: fd, path: path) {
            close(fd)
            throw Failure(explanation: MessageText(problem))
        }
        return fd
    }

    /// Reads until end of file or `limit` bytes; more than `limit` is an error unless `exact`.
    static func readAll(_ fd: Int32, upTo limit: Int, kind: ResourceKind, exact: Bool = false, expected: Int = 0) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        // Sized once for what the file holds (exact reads: the range), not grown by doubling.
        bytes.reserveCapacity(min(exact ? limit : expected, limit))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let want = exact ? min(chunk.count, limit - bytes.count) : chunk.count
            if want == 0 { break }
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // Standard input that is a pipe or terminal: wait for data.
                    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                    continue
                }
                throw errnoFailure("could not be read")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if !exact && bytes.count > limit { throw tooLarge(bytes.count, limit, kind, atLeast: true) }
        }
        return bytes
    }

    static func tooLarge(_ size: Int, _ limit: Int, _ kind: ResourceKind, atLeast: Bool = false) -> Failure {
        Failure(
            explanation:
                "is \(atLeast ? "more than " : "")\(size) bytes, over the \(limit)-byte limit for a \(kind.rawValue) file; raise it (\(Setting.limit(kind))) if the file is right"
        )
    }

    static func errnoFailure(_ what: String) -> Failure {
        let code = errno
        return Failure(explanation: "\(what) (errno \(code): \(String(cString: strerror(code))))")
    }

    /// Fetches an HTTP(S) URL as a file of `kind`, retrying transient failures.
    public func fetch(_ url: URL, kind: ResourceKind = .subtitle) async throws(Failure) -> [UInt8] {
        var attempt = 0
        while true {
            let outcome = await HTTPTransfer(
                url: url, limit: limits[kind], kind: kind, idleTimeout: idleTimeout,
                overallTimeout: overallTimeout
            ).run()
            switch outcome {
            case .success(let bytes):
                return bytes
            case .failure(let failure, let transient):
                if transient && attempt < retries {
                    attempt += 1
                    try? await Task.sleep(nanoseconds: UInt64(250_000_000 * attempt))
                    continue
                }
                let tries = attempt > 0 ? " (after \(attempt + 1) attempts)" : ""
                throw Failure(explanation: "\(failure)\(tries)")
            }
        }
    }
}

/// A local regular file read in chunks, so memory stays flat however large the file; the
/// descriptor closes when the reader is released.
public final class FileChunks: Sequence, IteratorProtocol {
    private let fd: Int32
    private let size: Int
    /// Bytes handed out so far.
    public private(set) var bytesRead = 0
    /// Told the bytes read so far after each chunk.
    public var onRead: ((Int) -> Void)?

    /// The file's size when it was opened, in bytes.
    public var fileSize: Int {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Opens `path` (a regular file, else a ``ResourceLoader/Failure``) for chunks of `size` bytes.
    public init(path: String, chunkSize size: Int = 1 << 20) throws(ResourceLoader.Failure) {
        fd = try ResourceLoader.openRegular(path)
        self.size = Swift.max(1, size)
    }

    deinit { close(fd) }

    /// The next chunk, or nil at the end of the file (or on a read error).
    public func next() -> ArraySlice<UInt8>? {
        // Not zeroed first: read(2) fills what is kept.
        var failed = false
        let chunk = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while true {
                let n = Foundation.read(fd, buffer.baseAddress, size)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failed = true }
                count = Swift.max(0, n)
                return
            }
        }
        guard !failed, !chunk.isEmpty else { return nil }
        bytesRead += chunk.count
        onRead?(bytesRead)
        return chunk[...]
    }
}
