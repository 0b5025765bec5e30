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

/// Findings in order, kept compactly: each distinct finding once, and for each finding where it
/// is (8 bytes), so that a rule broken on 200,000 lines costs 200,000 line numbers, not 200,000
/// copies of its text.
///
/// A collection of ``ValidationFinding``s: each element is made when it is read. Encoded as an
/// array of findings.
public struct ValidationFindings: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The distinct findings, without their line when it is kept in the entry.
    private var kinds: [ValidationFinding] = []
    private var kindIndex: [ValidationFinding: UInt32] = [:]
    private var entries: [Entry] = []

    /// A finding: the index of its kind and its line (0: the kind's own line, which may be nil).
    private struct Entry: Sendable, Equatable {
        let kind: UInt32
        let line: UInt32
    }

    /// No findings.
    public init() {}

    /// The findings listed, in order.
    public init(arrayLiteral findings: ValidationFinding...) { append(contentsOf: findings) }

    /// `findings`, in order.
    public init<S: Sequence>(_ findings: S) where S.Element == ValidationFinding {
        append(contentsOf: findings)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(index: Int) -> ValidationFinding {
        let entry = entries[index]
        let kind = kinds[Int(entry.kind)]
        return entry.line == 0 ? kind : kind.at(line: Int(entry.line))
    }

    /// Adds `finding` at the end.
    public mutating func append(_ finding: ValidationFinding) {
        var kind = finding
        var line: UInt32 = 0
        if let number = finding.line, number > 0, let small = UInt32(exactly: number) {
            kind = finding.at(line: nil)
            line = small
        }
        let index: UInt32
        if let known = kindIndex[kind] {
            index = known
        } else {
            index = UInt32(kinds.count)
            kinds.append(kind)
            kindIndex[kind] = index
        }
        entries.append(Entry(kind: index, line: line))
    }

    /// Adds `findings` at the end, in order.
    public mutating func append<S: Sequence>(contentsOf findings: S) where S.Element == ValidationFinding {
        for finding in findings { append(finding) }
    }

    public static func += <S: Sequence>(findings: inout ValidationFindings, more: S) where S.Element == ValidationFinding {
        findings.append(contentsOf: more)
    }

    /// Sorts by file, then line (a finding without a line first); findings that tie keep their order.
    public mutating func sortByPlace() {
        // Each distinct file's rank, so that the sort compares integers.
        let files = Set(kinds.map(\.file)).sorted()
        let rank = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, UInt32($0)) })
        let kindRanks = kinds.map { rank[$0.file] ?? 0 }
        let kindLines = kinds.map { $0.line ?? 0 }
        func key(_ e: Entry) -> (UInt32, Int) { (kindRanks[Int(e.kind)], e.line == 0 ? kindLines[Int(e.kind)] : Int(e.line)) }
        // Stable: ties are ordered by their position.
        var positions = Array(entries.indices)
        positions.sort { a, b in
            let ka = key(entries[a])
            let kb = key(entries[b])
            return ka != kb ? ka < kb : a < b
        }
        entries = positions.map { entries[$0] }
    }

    public static func == (a: ValidationFindings, b: ValidationFindings) -> Bool { a.elementsEqual(b) }

    public init(from decoder: Decoder) throws {
        self.init(try [ValidationFinding](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for finding in self { try container.encode(finding) }
    }

    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}

extension ValidationFinding: Hashable {
    /// The same finding at `line`.
    func at(line: Int?) -> ValidationFinding {
        ValidationFinding(severity, file: file, line: line, rule: rule, requirement: requirement, message, id: id)
    }
}
