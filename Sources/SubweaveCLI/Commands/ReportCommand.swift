import Foundation
import Platform
import Subweave

/// `subweave report`: the presentation at a glance, as text, JSON or one HTML page.
enum ReportCommand {
    struct LaneJSON: Encodable {
        let identity: String
        let name: String
        let language: String?
        let kind: String
        let cues: Int
        let verdict: String?
        let note: String?
        let findings: [FindingJSON]
    }

    struct FindingJSON: Encodable {
        let kind: String
        let start: Double
        let end: Double
        let text: String
    }

    struct OverviewJSON: Encodable {
        let master: String
        let duration: Double
        let segments: Int
        let speechShare: Double?
        let lanes: [LaneJSON]
        enum CodingKeys: String, CodingKey { case master, duration, segments, speechShare = "speech_share", lanes }
    }

    static func run(_ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        let presentation = try await Commands.presentation(Commands.url(arguments.positionals[0]), context)
        let overview = try await presentation.overview(listening: arguments.flag(Option.speech))
        if let path = arguments.value(Option.html) {
            try OutputFile.write(OverviewPage.html(overview), to: path)
            context.note(
                "wrote \(path): \(overview.lanes.count.counted("lane")), \(overview.lanes.map { $0.findings.filter { $0.kind != .emptySegment }.count }.reduce(0, +).counted("finding"))"
            )
        }
        if context.json {
            let speech = overview.speech.map { ranges in
                ranges.reduce(0.0) { $0 + ($1.upperBound - $1.lowerBound).seconds } / max(overview.duration.seconds, 0.001)
            }
            try Output.json(
                OverviewJSON(
                    master: overview.master, duration: overview.duration.seconds, segments: overview.segments.count,
                    speechShare: speech.map { ($0 * 1000).rounded() / 1000 },
                    lanes: overview.lanes.map { lane in
                        LaneJSON(
                            identity: lane.identity, name: lane.name, language: lane.language, kind: lane.kind, cues: lane.cues.count,
                            verdict: lane.sync?.verdict.rawValue, note: lane.note,
                            findings: lane.findings.map { FindingJSON(kind: $0.kind.rawValue, start: $0.start.seconds, end: $0.end.seconds, text: $0.text) })
                    }), schema: "subweave.report/1")
        } else if arguments.value(Option.html) == nil {
            for lane in overview.lanes {
                Output.out("\(lane.identity): \(lane.cues.count.counted("cue"))\(lane.note.map { " (\($0))" } ?? "")")
                let empty = lane.findings.filter { $0.kind == .emptySegment }.count
                for finding in lane.findings where finding.kind != .emptySegment { Output.out("  \(finding.kind.rawValue): \(finding.text)") }
                if empty > 0 { Output.out("  \(empty.counted("segment")) without a cue") }
            }
        }
        return 0
    }
}
