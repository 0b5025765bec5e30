import Timebase

/// A caption source that cannot be read, with where and why.
package struct CaptionsError: ExplainedError, Equatable {
    package enum Code: String, Sendable {
        /// An SCC file's header or a line is not what the Scenarist format requires.
        case malformedSCC
        /// An MCC file's header is not MacCaption's.
        case malformedMCC
    }

    package let code: Code
    /// The 1-based line (SCC, MCC) or byte offset (TS) the problem is at, when there is one.
    package let line: Int?
    package let reason: String

    package init(_ code: Code, line: Int?, _ reason: String) {
        self.code = code
        self.line = line
        self.reason = reason
    }

    package var codeName: String { code.rawValue }
    package var context: String { line.map { "line \($0)" } ?? "" }
    package var explanation: String { reason }
    package var description: String { explainedDescription }
}
