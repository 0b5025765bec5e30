import Foundation
import HLS
import Subweave
import Timebase

enum ValidateCommand {
    /// Prints the findings; the exit status is 1 when any is an error.
    static func run(_ options: ValidateOptions) async throws -> Int32 {
        let report = await PresentationValidator().validate(master: URL(fileURLWithPath: options.master))
        if options.json {
            try Output.json(report)
        } else {
            for finding in report.findings { Output.out(finding.description) }
            Output.error("\(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")")
        }
        return report.errors > 0 ? 1 : 0
    }
}

enum InspectCommand {
    static func run(_ options: InspectOptions) throws {
        var locales: [LanguageTag] = []
        for text in options.locales {
            guard let tag = LanguageTag(parsing: text) else { throw CommandError(message: "--locale \(text) is not a BCP 47 language tag") }
            locales.append(tag)
        }
        let master: MasterPlaylist
        do {
            master = try MasterPlaylist(parsing: try ResourceLoader.readFile(options.master, limit: ReadLimits().playlist, kind: .playlist), source: options.master)
        } catch let error as HLSError {
            throw CommandError(message: error.description)
        } catch let error as ResourceLoader.Failure {
            throw CommandError(message: "\(options.master) \(error.explanation)")
        }
        let report = MediaSelectionReport(master: master, locales: locales)
        if options.json { try Output.json(report) } else { Output.out(report.summary) }
    }
}
