import Foundation
import Subweave
import TimedText
import Timebase

/// Reading one subtitle file for `cues` and `convert`.
enum SubtitleInput {
    static func read(_ input: String, format: String?, encoding: String?) async throws -> (IngestedSubtitles, [IngestWarning]) {
        var forced: TextEncoding?
        if let encoding {
            guard let e = TextEncoding(label: encoding) else {
                throw CommandError(message: "unknown encoding \"\(encoding)\"; use one of \(TextEncoding.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            forced = e
        }
        let bytes: [UInt8]
        var resolvedFormat = format.flatMap(SubtitleFormat.init(rawValue:))
        if input == "-" {
            do { bytes = try ResourceLoader.readStandardInput() } catch {
                throw CommandError(message: "standard input \(error.explanation)")
            }
            if resolvedFormat == nil {
                let head = TextDecoder.decode(Array(bytes.prefix(64)), forced: forced).text
                resolvedFormat = head.hasPrefix("WEBVTT") || head.hasPrefix("\u{FEFF}WEBVTT") ? .vtt : .srt
            }
        } else {
            let source: SubtitleSource
            do { source = try SubtitleSource(parsing: input) } catch {
                throw CommandError(message: "\(input): \(error.explanation)")
            }
            if resolvedFormat == nil { resolvedFormat = SubtitleFormat.inferred(fromPath: source.pathForExtension) }
            do { bytes = try await ResourceLoader().read(source.url, kind: .subtitle) } catch {
                throw CommandError(message: "\(input) \(error.explanation)")
            }
        }
        guard let resolvedFormat else {
            throw CommandError(message: "\(input): cannot tell the format from the extension; pass --format vtt or --format srt")
        }
        let ingested: IngestedSubtitles
        do {
            ingested = try SubtitleIngest.read(bytes, format: resolvedFormat, encoding: forced, sourceID: input, location: input)
        } catch {
            throw CommandError(message: "\(input): \(error.explanation)")
        }
        return (ingested, ingested.warnings)
    }

    static func printWarnings(_ warnings: [IngestWarning], source: String) {
        for warning in warnings { Output.error("warning: \(source): \(warning)") }
    }
}

enum CuesCommand {
    static func run(_ options: CuesOptions) async throws {
        let (ingested, warnings) = try await SubtitleInput.read(options.input, format: options.format, encoding: options.encoding)
        SubtitleInput.printWarnings(warnings, source: options.input)
        if options.json {
            try Output.json(CueListJSON(cues: ingested.cues, regions: ingested.regions))
        } else {
            Output.raw(WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: ingested.cues.map(WebVTTWriter.block)))
        }
    }
}

enum ConvertCommand {
    static func run(_ options: ConvertOptions) async throws {
        let (ingested, warnings) = try await SubtitleInput.read(options.input, format: options.format ?? "srt", encoding: options.encoding)
        SubtitleInput.printWarnings(warnings, source: options.input)
        let text = WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: ingested.cues.map(WebVTTWriter.block))
        if let output = options.output {
            try OutputFile.write(text, to: output)
            Output.error("wrote \(output): \(ingested.cues.count) cues")
        } else {
            Output.raw(text)
        }
    }
}
