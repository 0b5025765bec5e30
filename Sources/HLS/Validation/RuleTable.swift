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
}

extension ValidationFinding {
    /// A finding of `row` in `file` at `line`: what was found.
    public init(_ row: RuleRow, file: String, line: Int?, _ message: String) {
        self.init(row.severity, file: file, line: line, rule: row.rule, requirement: row.requirement, message, id: row.id)
    }
}

/// Collects findings for one file, tagged with the rule being checked.
struct FindingSink {
    let file: String
    var ruleID = ""
    var findings = ValidationFindings()

    /// A finding of the rule being checked (a rule of the master table, whose findings differ in
    /// reference and severity).
    mutating func add(_ severity: ValidationFinding.Severity, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
        findings.append(ValidationFinding(severity, file: file, line: line, rule: rule, requirement: requirement, message, id: ruleID))
    }

    /// A finding of `row`.
    mutating func add(_ row: RuleRow, _ line: Int?, _ message: String) {
        findings.append(ValidationFinding(row, file: file, line: line, message))
    }
}
