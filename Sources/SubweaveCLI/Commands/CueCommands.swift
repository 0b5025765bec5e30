import Foundation
import Subweave
import Timebase
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
        let encoding = arguments.value(Option.encoding).flatMap(TextEncoding.init(label:))
        let format = arguments.value(Option.format).flatMap(SubtitleFormat.init(label:))
        let captionFile = CaptionFileReading(
            fps: arguments.value(Option.fps).flatMap(TimecodeRate.init(label:)),
            service: arguments.value(Option.service).flatMap(CaptionService.init(rawValue:)))
        let language = try arguments.value(Option.pictureLanguage).map { text in
            guard let tag = LanguageTag(parsing: text) else {
                throw UsageError(message: "--language \(text) is not a BCP 47 language tag (such as en, pt-BR)", command: nil)
            }
            return tag
        }
        var ingested = try await SubtitleReader(loader: Commands.loader(context)).read(
            input, format: format, encoding: encoding, captionFile: captionFile, asWritten: asWritten, language: language,
            crops: arguments.value(Option.crops) != nil)
        if let folder = arguments.value(Option.crops) {
            guard ingested.crops != nil else {
                throw UsageError(message: "--crops applies to picture subtitles (VobSub, PGS, DVB); \(input) is read as \(ingested.ingestFormat)", command: nil)
            }
            let page = try PictureReview.write(ingested, source: input.description, to: folder)
            context.note("wrote \(page): \(ingested.cues.count.counted("picture")) beside their text")
        }
        if captionFile.fps != nil, !["scc_converted", "mcc_converted", "stl_converted"].contains(ingested.ingestFormat) {
            throw UsageError(message: "--fps applies to timecoded files (SCC, MCC, EBU STL); \(input) is read as \(ingested.ingestFormat)", command: nil)
        }
        if captionFile.service != nil, !["scc_converted", "mcc_converted"].contains(ingested.ingestFormat) {
            throw UsageError(message: "--service applies to caption files (SCC, MCC); \(input) is read as \(ingested.ingestFormat)", command: nil)
        }
        let rate =
            try arguments.value(Option.rate).map { text in
                guard let rate = ClockRate(parsing: text) else {
                    throw UsageError(
                        message: "--rate \(text): not a clock rate; write a ratio of frame rates (25/23.976) or a decimal between 0.5 and 2", command: nil)
                }
                return rate
            } ?? .one
        let offset =
            try arguments.value(Option.offset).map { text in
                guard let time = Self.offset(text) else {
                    throw UsageError(message: "--offset \(text): not a time; write seconds (-3600) or [-]HH:MM:SS[.mmm]", command: nil)
                }
                return time
            } ?? .zero
        if !rate.isOne || offset != .zero { ingested = ingested.retimed(rate: rate, offset: offset) }
        for warning in ingested.warnings { context.note("warning: \(input): \(warning)") }
        if let confidence = ingested.encodingConfidence {
            context.note(
                "note: \(input): not UTF-8; read as \(ingested.encoding.rawValue) (guessed; such guesses are right \(Int((confidence * 100).rounded())) times in 100)"
            )
        }
        return ingested
    }

    /// `--offset`: signed seconds or [-]HH:MM:SS[.mmm], as the descriptor key reads it.
    static func offset(_ text: String) -> MediaTime? { TrackDescriptor.time(text) }
}

/// `subweave cues`.
enum CuesCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let ingested = try await SubtitleArguments.read(context, asWritten: true)
        if context.json {
            streamJSON(ingested)
        } else {
            // Written cue by cue: a file of millions of cues never exists twice in memory.
            var out = WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: [])
            for cue in ingested.cues {
                let block = WebVTTWriter.block(cue)
                if block.utf8.count > 1 << 20 {
                    // A giant cue goes out as it is, never copied into the buffer.
                    Output.raw(out)
                    Output.raw(block)
                    out = "\n\n"
                    continue
                }
                out += block
                out += "\n\n"
                if out.utf8.count > 1 << 20 {
                    Output.raw(out)
                    out = ""
                }
            }
            Output.raw(out)
        }
        return 0
    }

    /// `{"schema", "cues": [...]}` written a cue at a time (the same document `Output.json`
    /// would make, without holding it whole).
    static func streamJSON(_ ingested: IngestedSubtitles) {
        Output.raw(
            cuesJSON(ingested.cues, regions: ingested.regions, confidences: ingested.recognition, forced: ingested.forced, flushing: Output.raw))
    }

    /// The document for `cues`, as UTF-8: every megabyte is handed to `flush`; returns the rest.
    static func cuesJSON(_ cues: [Cue], regions: [CueRegion], confidences: [Double]? = nil, forced: [Bool]? = nil, flushing flush: ([UInt8]) -> Void)
        -> [UInt8]
    {
        withoutActuallyEscaping(flush) { flush in
            var out = PrettyJSON(flushing: flush)
            out.raw("{\n  \"schema\" : \"subweave.cues/1\",\n  \"cues\" : [\n")
            if cues.isEmpty { out.raw("\n") }
            for (index, cue) in cues.enumerated() {
                out.raw("    ")
                var json = VTTCueJSON(cue, regions: regions)
                if let confidences, confidences.indices.contains(index) { json.confidence = confidences[index] }
                if let forced, forced.indices.contains(index) { json.forced = forced[index] }
                json.write(into: &out, indent: "    ")
                out.raw(index + 1 < cues.count ? ",\n" : "\n")
                out.flushIfFull()
            }
            out.raw("  ]\n}\n")
            return out.bytes
        }
    }
}

/// `subweave convert`.
enum ConvertCommand {
    static func run(_ context: Context) async throws -> Int32 {
        let ingested = try await SubtitleArguments.read(context)
        let text: String
        if context.arguments.value(Option.to) == "srt" {
            guard !ingested.cues.isEmpty else {
                throw CommandError(
                    message:
                        "\(context.arguments.positionals[0]): no cue to write; a SubRip file needs at least one (readers refuse an empty file), so nothing was written"
                )
            }
            text = SubRipWriter.file(ingested.cues)
        } else {
            text = WebVTTWriter.file(map: nil, headerBlocks: ingested.headerBlocks, cueBlocks: ingested.cues.map(WebVTTWriter.block))
        }
        if let output = context.arguments.value(Option.output) {
            try OutputFile.write(text, to: output)
            context.note("wrote \(output): \(ingested.cues.count.counted("cue"))")
        } else {
            Output.raw(text)
        }
        return 0
    }
}
