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
            guard let data = FileManager.default.contents(atPath: file) else {
                throw SubweaveError.io(path: file, reason: "the tracks file does not exist or cannot be read")
            }
            do {
                descriptors += try TrackDescriptor.parseTracksFile(data, file: file)
            } catch SubweaveError.registration(let more) {
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
        } catch SubweaveError.registration(let more) {
            errors += more
        }
        if !errors.isEmpty { throw SubweaveError.registration(errors) }

        let policy: ClosedCaptionsPolicy
        switch options.closedCaptions {
        case "none": policy = .none
        case "in-band": policy = .inBand([])
        default: policy = .automatic
        }
        let captions: CaptionMode = options.captions == "off" ? .off : .auto
        let request = PackageRequest(masterPath: options.master, tracks: tracks, preferredLanguage: preferred,
                                     outputPath: options.output, dryRun: options.dryRun, closedCaptions: policy,
                                     captions: captions)
        let result = try await Packager().run(request)
        if options.json {
            try Output.json(JSONReport(report: result.report, masterText: options.dryRun ? result.masterText : nil))
        } else if options.dryRun {
            Output.raw(result.masterText)
        }
        if !options.json {
            let summary = result.report.summary
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
