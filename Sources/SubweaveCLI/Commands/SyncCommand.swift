import Foundation
import Subweave

/// `subweave sync`: each track's cues against the programme's speech; writes nothing.
enum SyncCommand {
    struct TrackJSON: Encodable {
        let identity: String
        let source: String
        let offsetSeconds: Double?
        let rate: Double?
        let rateText: String?
        let confidence: Double
        let verdict: String
        let suggested: String?
        let cues: Int
        let measuredCues: Int
        let landedCues: Int
        let landedShare: Double?
        let worst: [MissJSON]
        let candidates: [CandidateJSON]
        let chanceShare: Double
        let margin: Double

        struct MissJSON: Encodable {
            let cue: Int
            let atSeconds: Double
            let offBySeconds: Double
            enum CodingKeys: String, CodingKey { case cue, atSeconds = "at_s", offBySeconds = "off_by_s" }
        }

        struct CandidateJSON: Encodable {
            let offsetSeconds: Double
            let rate: Double
            let rateText: String
            let landedShare: Double
            enum CodingKeys: String, CodingKey { case offsetSeconds = "offset_s", rate, rateText = "rate_text", landedShare = "landed_share" }
        }

        init(_ finding: SyncFinding) {
            identity = finding.identity
            source = finding.source
            offsetSeconds = finding.offset
            rate = finding.rate.map { ($0.value * 1_000_000).rounded() / 1_000_000 }
            rateText = finding.rate?.description
            confidence = finding.confidence
            verdict = finding.verdict.rawValue
            suggested = finding.suggested
            cues = finding.cues
            measuredCues = finding.measuredCues
            landedCues = finding.landedCues
            landedShare = finding.landedShare.map { ($0 * 1000).rounded() / 1000 }
            worst = finding.worst.map { MissJSON(cue: $0.cue, atSeconds: $0.at, offBySeconds: $0.offBy) }
            chanceShare = finding.chanceShare
            margin = finding.margin
            candidates = finding.candidates.map {
                CandidateJSON(
                    offsetSeconds: $0.offset, rate: ($0.rate.value * 1_000_000).rounded() / 1_000_000, rateText: $0.rate.description,
                    landedShare: $0.landedShare)
            }
        }

        enum CodingKeys: String, CodingKey {
            case identity, source, offsetSeconds = "offset_s", rate, rateText = "rate_text", confidence, verdict, suggested, cues
            case measuredCues = "cues_measured", landedCues = "cues_landed", landedShare = "landed_share", worst, candidates
            case chanceShare = "chance_share", margin
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(identity, forKey: .identity)
            try c.encode(source, forKey: .source)
            try c.encode(offsetSeconds, forKey: .offsetSeconds)  // null when there is no match
            try c.encode(rate, forKey: .rate)
            try c.encode(rateText, forKey: .rateText)
            try c.encode(confidence, forKey: .confidence)
            try c.encode(verdict, forKey: .verdict)
            try c.encode(suggested, forKey: .suggested)
            try c.encode(cues, forKey: .cues)
            try c.encode(measuredCues, forKey: .measuredCues)
            try c.encode(landedCues, forKey: .landedCues)
            try c.encode(landedShare, forKey: .landedShare)
            try c.encode(worst, forKey: .worst)
            try c.encode(candidates, forKey: .candidates)
            try c.encode(chanceShare, forKey: .chanceShare)
            try c.encode(margin, forKey: .margin)
        }
    }

    struct ReportJSON: Encodable {
        let audio: String
        let speechShare: Double
        let tracks: [TrackJSON]
        enum CodingKeys: String, CodingKey { case audio, speechShare = "speech_share", tracks }
    }

    static func run(_ context: Context) async throws -> Int32 {
        let arguments = context.arguments
        let tracks = try PackageCommand.registerTracks(arguments)
        guard !tracks.isEmpty else { throw UsageError(message: "give at least one --subtitle (or --tracks) to check", command: "sync") }
        let presentation = try await Commands.presentation(Commands.url(arguments.positionals[0]), context)
        let report = try await presentation.checkSync(tracks)
        if context.json {
            try Output.json(
                ReportJSON(audio: report.audio, speechShare: (report.speechShare * 1000).rounded() / 1000, tracks: report.tracks.map(TrackJSON.init)),
                schema: "subweave.sync/1")
        } else {
            for finding in report.tracks { Output.out(finding.summary) }
        }
        return 0
    }
}
