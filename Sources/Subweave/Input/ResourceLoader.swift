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

    /// Why a read failed (``ReadFailure``).
    public typealias Failure = ReadFailure

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

    /// ``read(_:kind:range:)`` into `buffer`: a whole local file is read into the buffer's
    /// storage, reused from the file read before (a range, or a URL, replaces it).
    package func read(_ url: URL, kind: ResourceKind, range: ByteRange? = nil, into buffer: ReusableBytes) async throws(Failure) {
        guard url.isFileURL, range?.offset == nil else {
            let bytes = try await read(url, kind: kind, range: range)
            buffer.withBytes { $0 = bytes }
            return
        }
        let limit = limits[kind], path = url.path, confinement = self.confinement
        try await onDispatch { () throws(Failure) in
            try buffer.withBytes { (bytes: inout [UInt8]) throws(Failure) in
                try Self.readFile(path, limit: limit, kind: kind, within: confinement, into: &bytes)
            }
        }
    }

    /// ``read(_:kind:range:)`` handed to `body` in order, `state` carried from one call to the
    /// next: a local file (or its range) in chunks of `chunkSize` bytes read into `buffer`'s
    /// storage, each worked on while it is in the core's cache; a URL whole, once.
    ///
    /// With `until`, a local file is read no further once it says the state wants nothing more
    /// (what was not read is not checked: its length, the read limit).
    package func read<State: Sendable>(
        _ url: URL, kind: ResourceKind, range: ByteRange? = nil, chunkSize: Int, into buffer: ReusableBytes, state: State,
        until wantsNoMore: (@Sendable (State) -> Bool)? = nil, _ body: @escaping @Sendable (inout State, ArraySlice<UInt8>) -> Void
    ) async throws(Failure) -> State {
        guard url.isFileURL else {
            let bytes = try await read(url, kind: kind, range: range)
            var state = state
            body(&state, bytes[...])
            return state
        }
        // A range without an offset is read as the whole file, as ``read(_:kind:range:)`` reads it.
        let range = range?.offset == nil ? nil : range
        let limit = limits[kind], path = url.path, confinement = self.confinement
        return try await onDispatch { () throws(Failure) -> State in
            let file: OpenFile
            do throws(FileFailure) { file = try OpenFile(regular: path, within: confinement) } catch { throw Failure(error) }
            let start = range?.offset ?? 0
            let length = range.map { $0.length } ?? file.size
            guard length <= limit else { throw Self.tooLarge(length, limit, kind) }
            var state = state
            var stopped = false
            let done = try buffer.withBytes { (bytes: inout [UInt8]) throws(Failure) -> Int in
                if bytes.count < chunkSize { bytes = [UInt8](repeating: 0, count: chunkSize) }
                var done = 0
                // A whole file is read to its end (it may have grown since it was measured), up
                // to the limit.
                let end = range == nil ? limit : length
                while done < end {
                    let count: Int
                    do throws(FileFailure) { count = try file.read(into: &bytes, count: min(chunkSize, end - done), at: start + done) } catch {
                        throw Failure(error)
                    }
                    guard count > 0 else { break }
                    body(&state, bytes[0..<count])
                    done += count
                    if let wantsNoMore, wantsNoMore(state) {
                        stopped = true
                        return done
                    }
                }
                if range == nil && done == limit, (try? file.read(count: 1, at: start + done))?.isEmpty == false {
                    throw Self.tooLarge(done, limit, kind, atLeast: true)
                }
                return done
            }
            if let range, done < range.length, !stopped { throw Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(range.length)@\(start)") }
            return state
        }
    }

    /// Reads a local regular file of at most `limit` bytes.
    public static func readFile(_ path: String, limit: Int = ReadLimits().subtitle, kind: ResourceKind = .subtitle) throws(Failure) -> [UInt8] {
        try readFile(path, limit: limit, kind: kind, within: nil)
    }

    /// ``readFile(_:limit:kind:)``, the file open checked to be inside `confinement`.
    static func readFile(_ path: String, limit: Int, kind: ResourceKind, within confinement: Confinement?) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        try readFile(path, limit: limit, kind: kind, within: confinement, into: &bytes)
        return bytes
    }

    /// ``readFile(_:limit:kind:within:)`` into `bytes`, whose storage is reused when it is big enough.
    static func readFile(_ path: String, limit: Int, kind: ResourceKind, within confinement: Confinement?, into bytes: inout [UInt8]) throws(Failure) {
        let file: OpenFile
        do { file = try OpenFile(regular: path, within: confinement) } catch { throw Failure(error) }
        let size = file.size
        guard size <= limit else { throw tooLarge(size, limit, kind) }
        let overLimit: Bool
        do { overLimit = try file.read(upTo: limit, reserving: size, into: &bytes) } catch { throw Failure(error) }
        guard !overLimit else { throw tooLarge(bytes.count, limit, kind, atLeast: true) }
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
        let bytes: [UInt8]
        do { bytes = try OpenFile(regular: path, within: confinement).read(count: length, at: offset) } catch { throw Failure(error) }
        guard bytes.count == length else { throw Failure(explanation: "is shorter than its EXT-X-BYTERANGE \(length)@\(offset)") }
        return bytes
    }

    /// Reads standard input, at most `limit` bytes.
    public static func readStandardInput(limit: Int = ReadLimits().subtitle) throws(Failure) -> [UInt8] {
        let read: OpenFile.Read
        do { read = try OpenFile(standardInput: ()).read(upTo: limit) } catch { throw Failure(error) }
        guard !read.overLimit else { throw tooLarge(read.bytes.count, limit, .subtitle, atLeast: true) }
        return read.bytes
    }

    static func tooLarge(_ size: Int, _ limit: Int, _ kind: ResourceKind, atLeast: Bool = false) -> Failure {
        Failure(
            explanation:
                "is \(atLeast ? "more than " : "")\(size) bytes, over the \(limit)-byte limit for a \(kind.rawValue) file; raise it (\(Setting.limit(kind))) if the file is right"
        )
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
///
/// With `readAhead`, the next chunks are read on a thread of their own while the caller works
/// on this one (two at most are held in advance).
public final class FileChunks: Sequence, IteratorProtocol {
    private let file: OpenFile
    private let size: Int
    private let ahead: ChunkReadAhead?
    /// Bytes handed out so far.
    public private(set) var bytesRead = 0
    /// Told the bytes read so far after each chunk.
    public var onRead: ((Int) -> Void)?

    /// The file's size when it was opened, in bytes.
    public var fileSize: Int { file.size }

    /// Opens `path` (a regular file, else a ``ResourceLoader/Failure``) for chunks of `size` bytes.
    public init(path: String, chunkSize size: Int = 1 << 20, readAhead: Bool = false) throws(ResourceLoader.Failure) {
        do { file = try OpenFile(regular: path) } catch { throw ResourceLoader.Failure(error) }
        self.size = Swift.max(1, size)
        ahead = readAhead ? ChunkReadAhead(file, chunkSize: self.size) : nil
    }

    deinit { ahead?.stop() }

    /// The next chunk, or nil at the end of the file (or on a read error).
    public func next() -> ArraySlice<UInt8>? {
        let read: [UInt8]?
        if let ahead { read = ahead.next() } else { read = file.nextChunk(size) }
        guard let chunk = read, !chunk.isEmpty else { return nil }
        bytesRead += chunk.count
        onRead?(bytesRead)
        return chunk[...]
    }
}
