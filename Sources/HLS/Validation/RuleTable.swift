/// A check that is one row of a rule table.
///
/// The row holds its stable identifier, how bad breaking it is, the rule's reference and what
/// the rule requires; the code that checks it says only where and what was found, so every
/// finding carries an identifier from a table.
public struct RuleRow: Sendable, Equatable {
    /// The stable identifier (`segment.timestamp-map`), what JSON reports and the docs name.
    public let id: String
    public let severity: ValidationFinding.Severity
    /// The rule's short reference, such as `RFC 8216bis §3.1.4`.
    public let rule: String
    /// What the rule requires, in a sentence.
    public let requirement: String

    public init(_ id: String, _ severity: ValidationFinding.Severity, _ rule: String, _ requirement: String) {
        self.id = id
        self.severity = severity
        self.rule = rule
        self.requirement = requirement
    }

    /// The row with its requirement said of what was found (`EXT-X-MEDIA requires NAME, a
    /// quoted-string`): for rules checked attribute by attribute.
    public func requiring(_ requirement: String) -> RuleRow { RuleRow(id, severity, rule, requirement) }
}

extension ValidationFinding {
    /// A finding of `row` in `file` at `line`: what was found.
    public init(_ row: RuleRow, file: String, line: Int?, _ message: String) {
        self.init(row.severity, file: file, line: line, rule: row.rule, requirement: row.requirement, message, id: row.id)
    }
}

/// Collects findings for one file, each of a rule table's row.
struct FindingSink {
    let file: String
    var findings = ValidationFindings()

    /// A finding of `row`.
    mutating func add(_ row: RuleRow, _ line: Int?, _ message: String) {
        findings.append(ValidationFinding(row, file: file, line: line, message))
    }
}
