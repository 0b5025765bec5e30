/// A caption source that cannot be read, with where and why.
public struct CaptionsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// An SCC file's header or a line is not what the Scenarist format requires.
        case malformedSCC
        /// The input is not an MPEG-TS stream.
        case notTransportStream
    }

    public let code: Code
    /// The 1-based line (SCC) or byte offset (TS) the problem is at, when there is one.
    public let line: Int?
    public let reason: String

    public init(_ code: Code, line: Int?, _ reason: String) {
        self.code = code
        self.line = line
        self.reason = reason
    }

    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}
