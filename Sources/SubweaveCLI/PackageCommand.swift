import Foundation
import Subweave
import Timebase

enum PackageCommand {
    static func run(_ options: PackageOptions) async throws {
        var descriptors: [TrackDescriptor] = []
        var errors: [RegistrationError] = []
        for (index, text) in options.subtitles.enumerated() {
            do {
                descriptors.append(try TrackDescriptor(parsing: text, origin: "--subtitle #\(index + 1)"))
            } catch {
                errors.append(error)
            }
        }
        if let file = options.tracksFile {
            let data: Data
            do { data = Data(try ResourceLoader.readFile(file, limit: ReadLimits().playlist, kind: .playlist)) } catch {
                throw SubweaveError.io(path: file, reason: "the tracks file \(error.explanation)")
            }
            do {
                descriptors += try TrackDescriptor.parseTracksFile(data, file: file)
            } catch {
                guard case .registration(let more) = error else { throw error }
                errors += more
            }
        }
        var preferred: LanguageTag?
        if let text = options.preferredLanguage {
            if let tag = LanguageTag(parsing: text) { preferred = tag } else {
                errors.append(RegistrationError(.invalidLanguage, descriptor: "--preferred-language", "\"\(text)\" is not a BCP 47 language tag (such as en, pt-BR)"))
            }
        }
        var tracks: [SubtitleTrack] = []
        do {
            tracks = try SubtitleTrack.register(descriptors)
        } catch {
            guard case .registration(let more) = error else { throw error }
            errors += more
        }
        if !errors.isEmpty { throw SubweaveError.registration(errors) }

        let request = PackageRequest(tracks: tracks, preferredLanguage: preferred,
                                     output: options.output.map { URL(fileURLWithPath: $0) },
                                     closedCaptions: ClosedCaptionsRequest(rawValue: options.closedCaptions) ?? .automatic,
                                     captions: options.captions == "off" ? .off : .auto)
        let master = URL(fileURLWithPath: options.master)
        var packager = Packager()
        packager.onWait = { Output.error($0) }
        let plan: PackagePlan
        if options.dryRun {
            plan = try await Presentation(master: master).plan(request)
        } else {
            plan = try await packager.run(master: master, request)
        }
        var report = plan.report
        if options.dryRun {
            report.output = nil
            report.dryRun = true
            for index in report.tracks.indices { report.tracks[index].filesWritten = [] }
        }
        if options.json {
            try Output.json(JSONReport(report: report, masterText: options.dryRun ? plan.masterText : nil))
        } else if options.dryRun {
            Output.raw(plan.masterText)
        }
        if !options.json {
            let summary = report.summary
            if !summary.isEmpty { Output.error(summary) }
        }
    }

    /// The report with, on a dry run, the master that would have been written.
    struct JSONReport: Encodable {
        let report: PackageReport
        let masterText: String?

        func encode(to encoder: Encoder) throws {
            try report.encode(to: encoder)
            if let masterText {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(masterText, forKey: .masterText)
            }
        }

        enum Key: String, CodingKey { case masterText = "master_text" }
    }
}
