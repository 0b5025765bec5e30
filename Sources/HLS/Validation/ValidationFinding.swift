/// One thing a validator found: how bad, where, which rule, and what to do.
///
/// Validation is a pass separate from parsing (after mamba's `PlaylistValidationIssue`): it reads
/// playlists that parsed and reports every rule they break, each with the rule it enforces.
public struct ValidationFinding: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable, Comparable {
        /// Breaks a MUST of RFC 8216bis or a rule players enforce: fix before serving.
        case error
        /// Breaks a SHOULD, or Apple's authoring rules: players may misbehave.
        case warning
        /// Worth knowing.
        case info

        private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    public let severity: Severity
    /// The file the finding is about (as the caller named it).
    public let file: String
    /// The 1-based line, when there is one.
    public let line: Int?
    /// The rule's short reference, such as `RFC 8216bis §4.4.6.1`, `Apple HLS Authoring Spec 4.6`.
    public let rule: String
    /// What the rule requires, in a sentence.
    public let requirement: String
    /// What was found here.
    public let message: String
    /// The stable identifier of the check that found it (`media.default-autoselect`), empty for
    /// checks outside the rule tables.
    public let id: String

    /// A finding in `file` at `line` against `rule` (its `requirement`), with what was found.
    public init(_ severity: Severity, file: String, line: Int?, rule: String, requirement: String, _ message: String, id: String = "") {
        self.severity = severity
        self.file = file
        self.line = line
        self.rule = rule
        self.requirement = requirement
        self.message = message
        self.id = id
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return "\(place): \(severity.rawValue): \(message) [\(rule): \(requirement)]"
    }
}
