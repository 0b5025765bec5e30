/// The one shape of the modules' errors: a stable code, where, and what is wrong.
///
/// Every error a module throws says which case it is (``codeName``, machine-readable and stable),
/// where it was found (``context``: a file, a line, a byte offset, a descriptor; empty when it
/// concerns nothing smaller than the input), and what is wrong and how to fix it when that is
/// known (``explanation``). Its description is the context and the explanation.
public protocol ExplainedError: Error, Sendable, CustomStringConvertible {
    /// The case, stable across versions (`malformed_tag`, `not_subtitles`).
    var codeName: String { get }
    /// Where the problem is: `prog.m3u8 line 3`, `byte offset 188`, `#2`.
    var context: String { get }
    /// What is wrong, and how to fix it.
    var explanation: String { get }
}

extension ExplainedError {
    /// `context: explanation`, or the explanation alone.
    public var explainedDescription: String { context.isEmpty ? explanation : "\(context): \(explanation)" }
}
