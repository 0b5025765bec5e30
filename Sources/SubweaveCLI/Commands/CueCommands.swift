import Foundation
import Subweave
import TimedText

/// Reading one subtitle file for `cues` and `convert`: the library's reader, with the options.
enum SubtitleArguments {
    static func read(_ context: Context, asWritten: Bool = false) async throws -> IngestedSubtitles {
        let arguments = context.arguments
        let text = arguments.positionals[0]
        let input: SubtitleInput
        if text == "-" {
            input = .standardInput
        } else {
            do { input = .source(try SubtitleSource(parsing: text)) } catch {
                throw CommandError(message: "\(text): \(error.explanation)")
            }
        }
        let encoding = arguments.value("--encoding").flatMap(TextEncoding.init(label:))
        let ingested = try await SubtitleReader(loader: Commands.loader(context)).read(
            input, format: arguments.value("--format").flatMap(SubtitleFormat.init(label:)), encoding: encoding, asWritten: asWritten)
        for warning in ingested.warnings { context.note("warning: \(input): \(warning)") }
        return ingested
    }
}

/// `subweave cues`.
enum CuesCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let ingested = try await SubtitleArguments.read(context, asWritten: true)
        if context.json {
            try Output.json(CueListJSON(cues: ingested.cues, regions: ingested.regions), schema: "subweave.cues/1")
        } else {
            Output.raw(WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: ingested.cues.map(WebVTTWriter.block)))
        }
        return 0
    }
}

/// `subweave convert`.
enum ConvertCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let ingested = try await SubtitleArguments.read(context)
        let text: String
        if context.arguments.value("--to") == "srt" {
            text = SubRipWriter.file(ingested.cues)
        } else {
            text = WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: ingested.cues.map(WebVTTWriter.block))
        }
        if let output = context.arguments.value("--output") {
            try OutputFile.write(text, to: output)
            context.note("wrote \(output): \(ingested.cues.count) cues")
        } else {
            Output.raw(text)
        }
        return 0
    }
}
