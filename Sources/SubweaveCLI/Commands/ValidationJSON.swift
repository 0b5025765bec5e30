import Subweave

/// `validate --json` written a finding at a time: the document `Output.json` would make of a
/// ``ValidationReport`` (a test holds the two to the same bytes), without holding it whole — a
/// master of 200,000 variants has 200,000 findings.
enum ValidationJSON {
    /// The document for `report`, as UTF-8: every megabyte is handed to `flush`; returns the rest.
    static func document(_ report: ValidationReport, flushing flush: ([UInt8]) -> Void) -> [UInt8] {
        withoutActuallyEscaping(flush) { flush in
            var out = PrettyJSON(flushing: flush)
            out.raw("{\n  \"schema\" : \"subweave.validate/1\",\n  \"errors\" : \(report.errors),\n  \"findings\" : [\n")
            if report.findings.isEmpty { out.raw("\n") }
            for (index, finding) in report.findings.enumerated() {
                out.raw("    {\n")
                write(finding, into: &out)
                out.raw(index + 1 < report.findings.count ? "\n    },\n" : "\n    }\n")
                out.flushIfFull()
            }
            out.raw("  ],\n  \"warnings\" : \(report.warnings)\n}\n")
            return out.bytes
        }
    }

    /// The members of `finding`, sorted by key, indented for an element of `findings`.
    private static func write(_ finding: ValidationFinding, into out: inout PrettyJSON) {
        let indent = "      "
        out.member("file", indent)
        out.string(finding.file)
        out.next()
        out.member("id", indent)
        out.string(finding.id)
        if let line = finding.line {
            out.next()
            out.member("line", indent)
            out.raw(String(line))
        }
        for (key, value) in [("message", finding.message), ("requirement", finding.requirement), ("rule", finding.rule)] {
            out.next()
            out.member(key, indent)
            out.string(value)
        }
        out.next()
        out.member("severity", indent)
        out.string(finding.severity.rawValue)
    }
}
