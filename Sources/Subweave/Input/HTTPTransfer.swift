import CCurl
import Foundation

/// One HTTP(S) GET that stops at a byte limit, an idle timeout and an overall deadline, through
/// libcurl (loaded the first time a URL is read: see `CCurl`).
///
/// The body is never decoded (`Accept-Encoding: identity`; a response sent with another
/// Content-Encoding is refused), so what is counted is what is kept: a few megabytes of gzip
/// cannot inflate to gigabytes. The transfer runs on a thread of its own, not on the cooperative
/// thread pool; its callbacks run on that one thread, synchronously, so its state needs no lock.
final class HTTPTransfer: @unchecked Sendable {
    enum Outcome: Sendable {
        case success([UInt8])
        case failure(MessageText, transient: Bool)
    }

    private let url: URL
    private let limit: Int
    private let kind: ResourceKind
    private let idleTimeout: TimeInterval
    private let overallTimeout: TimeInterval

    private var body: [UInt8] = []
    /// The response being read (a redirect's headers come first, then the next response's).
    private var status = 0
    private var reason = ""
    private var contentEncoding: String?
    private var contentLength: Int64?
    private var stopReason: MessageText?

    init(url: URL, limit: Int, kind: ResourceKind, idleTimeout: TimeInterval, overallTimeout: TimeInterval) {
        self.url = url
        self.limit = limit
        self.kind = kind
        self.idleTimeout = idleTimeout
        self.overallTimeout = overallTimeout
    }

    func run() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            // A thread of its own: a transfer blocks for as long as the server takes, and Dispatch's
            // global queue runs no more blocking work at once than there are cores.
            Thread.detachNewThread { continuation.resume(returning: self.perform()) }
        }
    }

    private func perform() -> Outcome {
        var result = subweave_http_result()
        let context = Unmanaged.passUnretained(self).toOpaque()
        withExtendedLifetime(self) {
            subweave_http_get(
                url.absoluteString, Self.milliseconds(idleTimeout), Self.milliseconds(overallTimeout), context,
                { context, line, count in
                    guard let context else { return 1 }
                    let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
                    return transfer.header(UnsafeRawBufferPointer(start: line, count: count)) ? 0 : 1
                },
                { context, bytes, count in
                    guard let context else { return 1 }
                    let transfer = Unmanaged<HTTPTransfer>.fromOpaque(context).takeUnretainedValue()
                    return transfer.data(UnsafeRawBufferPointer(start: bytes, count: count)) ? 0 : 1
                }, &result)
        }
        return outcome(result)
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int { Int(min(max(seconds, 0.001), 1e9) * 1000) }

    /// One header line of a response; false stops the transfer.
    private func header(_ line: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            // A new response: a status line `HTTP/1.1 404 Not Found`.
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            reason = parts.count > 2 ? String(parts[2]) : ""
            contentEncoding = nil
            contentLength = nil
            return true
        }
        if text.isEmpty {
            // The end of a response's headers: a redirect or an interim response says nothing of the body.
            guard !(100..<200).contains(status) && !(300..<400).contains(status) else { return true }
            return checkHeaders()
        }
        guard let colon = text.firstIndex(of: ":") else { return true }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "content-encoding": contentEncoding = value
        case "content-length": contentLength = Int64(value)
        default: break
        }
        return true
    }

    private func checkHeaders() -> Bool {
        if let encoding = contentEncoding, !encoding.isEmpty, encoding.lowercased() != "identity" {
            stopReason =
                "was sent with Content-Encoding \"\(LabelText.excerpt(encoding))\" though none was asked for (Accept-Encoding: identity); Subweave reads only uncompressed bodies, whose size it can bound as they arrive"
            return false
        }
        if let length = contentLength, length > Int64(limit) {
            stopReason =
                "announces \(length) bytes, over the \(limit)-byte limit for a \(kind.rawValue) file; raise it (\(Setting.limit(kind))) if the file is right"
            return false
        }
        return true
    }

    /// A piece of the body; false stops the transfer.
    ///
    /// Nothing is kept once the limit is passed.
    private func data(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= limit - body.count else {
            body = []
            stopReason =
                "sent more than \(limit) bytes, the limit for a \(kind.rawValue) file; raise it (\(Setting.limit(kind))) if the file is right"
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    private func outcome(_ result: subweave_http_result) -> Outcome {
        let message = withUnsafeBytes(of: result.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        switch Int(result.stop) {
        case Int(SUBWEAVE_HTTP_UNAVAILABLE.rawValue):
            return .failure(MessageText(message), transient: false)
        case Int(SUBWEAVE_HTTP_STOPPED.rawValue):
            return .failure(stopReason ?? "was stopped", transient: false)
        case Int(SUBWEAVE_HTTP_IDLE.rawValue):
            return .failure("timed out: no data for \(Int(idleTimeout)) s", transient: true)
        case Int(SUBWEAVE_HTTP_OVERALL.rawValue):
            return .failure("took longer than \(Int(overallTimeout)) s in all (the overall timeout)", transient: false)
        case Int(SUBWEAVE_HTTP_FAILED.rawValue):
            let code = Int(result.curl_code)
            let detail = "\(LabelText.excerpt(message)), curl error \(code)"
            switch code {
            case 6: return .failure("host not found (\(detail))", transient: false)
            case 7, 18, 28, 52, 55, 56: return .failure("could not connect or the connection was lost (\(detail))", transient: true)
            default: return .failure(MessageText(detail), transient: false)
            }
        default:
            break
        }
        let status = Int(result.http_status)
        guard (200..<300).contains(status) else {
            let transient = status == 0 || status == 408 || status == 429 || status >= 500
            return .failure(status == 0 ? "no HTTP response" : "HTTP \(status) \(Self.reasonPhrase(status, sent: reason))", transient: transient)
        }
        return .success(body)
    }

    /// The standard reason phrase of `status` (RFC 9110 §15), else what the server sent (as a label).
    static func reasonPhrase(_ status: Int, sent: String) -> String {
        let standard: [Int: String] = [
            300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
            308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
            410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
            415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 421: "Misdirected Request",
            422: "Unprocessable Content", 426: "Upgrade Required", 429: "Too Many Requests", 451: "Unavailable For Legal Reasons",
            500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
            505: "HTTP Version Not Supported",
        ]
        return standard[status] ?? LabelText.excerpt(sent)
    }
}
