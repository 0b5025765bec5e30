import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads bytes from local paths and `http(s)://` URLs: the only place Subweave touches the network.
///
/// HTTP requests time out, follow redirects, and are retried on transient failures (timeouts,
/// refused or dropped connections, HTTP 408, 429 and 5xx) with a short back-off. Failures carry the
/// transport's own account: the HTTP status, the errno, the timeout.
public struct ResourceLoader: Sendable {
    /// Seconds before a request with no response gives up.
    public var timeout: TimeInterval
    /// Retries after the first attempt for transient failures.
    public var retries: Int
    /// Requests in flight at once when loading several sources.
    public var concurrency: Int

    public init(timeout: TimeInterval = 15, retries: Int = 2, concurrency: Int = 3) {
        self.timeout = timeout
        self.retries = retries
        self.concurrency = max(1, concurrency)
    }

    /// Why a fetch failed.
    public struct Failure: Error, Sendable, Equatable {
        public let explanation: String
    }

    /// Reads a local file.
    public static func readFile(_ path: String) throws(Failure) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let code = errno
            let reason = FileManager.default.fileExists(atPath: path)
                ? "cannot be opened (errno \(code): \(String(cString: strerror(code))))"
                : "does not exist (errno \(code): \(String(cString: strerror(code))))"
            throw Failure(explanation: reason)
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw Failure(explanation: "could not be read: \(error.localizedDescription)")
        }
    }

    /// Reads `length` bytes at `offset` of a local file (for `EXT-X-BYTERANGE`).
    public static func readFile(_ path: String, offset: Int, length: Int) throws(Failure) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Failure(explanation: "does not exist or cannot be opened (errno \(errno): \(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: length) ?? Data())
        } catch {
            throw Failure(explanation: "could not be read at offset \(offset): \(error.localizedDescription)")
        }
    }

    /// Fetches an HTTP(S) URL, retrying transient failures.
    public func fetch(_ url: URL) async throws(Failure) -> [UInt8] {
        var attempt = 0
        while true {
            let outcome = await fetchOnce(url)
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
                throw Failure(explanation: failure + tries)
            }
        }
    }

    private enum Outcome: Sendable {
        case success([UInt8])
        case failure(String, transient: Bool)
    }

    private func fetchOnce(_ url: URL) async -> Outcome {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    let nsError = error as NSError
                    let transient: Bool
                    let reason: String
                    switch nsError.code {
                    case NSURLErrorTimedOut:
                        transient = true
                        reason = "timed out after \(Int(timeout)) s with no response"
                    case NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost, NSURLErrorNotConnectedToInternet:
                        transient = true
                        reason = "could not connect (\(nsError.localizedDescription), URL error \(nsError.code))"
                    case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                        transient = false
                        reason = "host not found (URL error \(nsError.code))"
                    default:
                        transient = false
                        reason = "\(nsError.localizedDescription) (URL error \(nsError.code))"
                    }
                    continuation.resume(returning: .failure(reason, transient: transient))
                    return
                }
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(returning: .failure("no HTTP response", transient: true))
                    return
                }
                guard (200..<300).contains(http.statusCode) else {
                    let status = http.statusCode
                    let transient = status == 408 || status == 429 || status >= 500
                    continuation.resume(returning: .failure(
                        "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))", transient: transient))
                    return
                }
                continuation.resume(returning: .success([UInt8](data ?? Data())))
            }
            task.resume()
        }
    }
}
