import Foundation
import Subweave

/// `subweave validate`: the findings; exit status 1 when any is an error.
enum ValidateCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let report = await PresentationValidator(loader: Commands.loader(context)).validate(master: Commands.url(context.arguments.positionals[0]))
        if context.json {
            Output.raw(ValidationJSON.document(report, flushing: Output.raw))
        } else {
            for finding in report.findings { Output.out(finding.description) }
            context.note("\(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")")
        }
        return report.errors > 0 ? 1 : 0
    }
}

/// `subweave inspect`.
enum InspectCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let locales = context.arguments.all(Option.locale).compactMap(LanguageTag.init(parsing:))
        let report = try await MediaSelectionReport.load(master: Commands.url(context.arguments.positionals[0]), locales: locales)
        if context.json { try Output.json(report, schema: "subweave.inspect/1") } else { Output.out(report.summary) }
        return 0
    }
}
