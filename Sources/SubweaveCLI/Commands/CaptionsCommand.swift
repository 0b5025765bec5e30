import Foundation
import Subweave
import TimedText

/// `subweave captions`: the caption services (CEA-608, CEA-708, DVB teletext pages, DVB subtitle
/// streams read by OCR) of a TS file or of a master's video.
enum CaptionsCommand {
    struct ServiceJSON: Encodable {
        let service: String
        /// `cea608`, `cea708`, `teletext` or `dvbsub_ocr`.
        let kind: String
        let language: String?
        /// Where the language was read (`caption_service_descriptor`, `video_iso_639`).
        let languageSource: String?
        let cues: [CueJSON]

        enum CodingKeys: String, CodingKey { case service, kind, language, languageSource = "language_source", cues }
    }

    /// The services, and what was read although malformed or lost on the way.
    struct DocumentJSON: Encodable {
        let services: [ServiceJSON]
        let notes: [String]
    }

    struct CueJSON: Encodable {
        let startTime: Double
        let endTime: Double
        let text: String
        /// For text read by OCR, Tesseract's mean word confidence (percent).
        let confidence: Double?
    }

    static func run(_ context: Context) async throws -> Int32 {
        let input = context.arguments.positionals[0]
        let isPlaylist = try isPlaylist(input)
        if context.arguments.flag(Option.detect) {
            let result =
                isPlaylist
                ? CaptionFile.detection(try await Commands.presentation(Commands.url(input), context).detectCaptions())
                : try await CaptionFile.detect(input)
            if context.json {
                try Output.json(result, schema: "subweave.captions-detect/1")
            } else {
                Output.out(detectionLine(result))
            }
            return 0
        }
        let progress = ProgressLine(context)
        let captions: ProgrammeCaptions
        if isPlaylist {
            var presentation = try await Commands.presentation(Commands.url(input), context)
            presentation.onProgress = progress.update
            captions = try await presentation.captions()
        } else {
            captions = try await CaptionFile.decode(input, onProgress: progress.update)
        }
        progress.done()
        let services = captions.services.map { s in
            ServiceJSON(
                service: s.service.rawValue, kind: s.service.family, language: captions.language(for: s.service)?.description,
                languageSource: captions.languages.language(for: s.service)?.source.rawValue,
                cues: s.cues.enumerated().map { k, cue in
                    CueJSON(
                        startTime: cue.start.seconds, endTime: cue.end.seconds, text: CueText.plainText(cue.text),
                        confidence: s.confidences.flatMap { $0.indices.contains(k) ? ($0[k] * 10).rounded() / 10 : nil })
                })
        }
        if context.json {
            Output.raw(DocumentJSON(services: services, notes: captions.notes).written(flushing: Output.raw))
            return 0
        }
        for note in captions.notes { context.note("note: \(note)") }
        if services.isEmpty {
            context.note("no captions found (no CEA-608 or CEA-708 text in the video, no teletext subtitle page, no DVB subtitle picture)")
        }
        for service in services {
            let title =
                service.kind == "teletext" ? "teletext \(service.service)" : service.kind == "dvbsub_ocr" ? "DVB subtitles \(service.service)" : service.service
            Output.out("\(title)\(service.language.map { " (\($0))" } ?? ""): \(service.cues.count.counted("cue"))")
            for c in service.cues {
                Output.out("  \(c.startTime.decimalSeconds) --> \(c.endTime.decimalSeconds)  \(c.text.replacingOccurrences(of: "\n", with: " / "))")
            }
        }
        return 0
    }

    /// What a bounded look found, and how far it read.
    static func detectionLine(_ result: CaptionDetection) -> String {
        let read = result.secondsRead.map { "\($0.decimalSeconds) s of video, " } ?? ""
        let stretch = "\(read)\(result.accessUnits) access unit\(result.accessUnits == 1 ? "" : "s")"
        if result.captions {
            return "captions: \(result.service ?? "") text at \((result.time ?? 0).decimalSeconds) s (read \(stretch))"
        }
        if result.wholeInput { return "no captions: the whole input was read (\(stretch))" }
        return "no captions in the first \(stretch); this says nothing of what comes later: run without --detect to decode the whole input"
    }

    static func isPlaylist(_ path: String) throws -> Bool {
        if path.lowercased().hasSuffix(".m3u8") || path.hasPrefix("http://") || path.hasPrefix("https://") { return true }
        do {
            let head = try FileChunks(path: path, chunkSize: 16).next() ?? []
            return String(decoding: head, as: UTF8.self).hasPrefix("#EXTM3U")
        } catch {
            throw CommandError(message: "\(path) \(error.explanation)")
        }
    }
}

extension CaptionsCommand.DocumentJSON {
    /// The document as UTF-8, written a cue at a time: every megabyte is handed to `flush`;
    /// returns the rest.
    ///
    /// The same bytes as `Output.json` makes of it with the schema `subweave.captions/1` (a test
    /// holds the two to it): a programme has thousands of cues, and `JSONEncoder` took a tenth of
    /// a 708 decode.
    func written(flushing flush: ([UInt8]) -> Void) -> [UInt8] {
        withoutActuallyEscaping(flush) { flush in
            var out = PrettyJSON(flushing: flush)
            out.raw("{\n  \"schema\" : \"subweave.captions/1\",\n  \"notes\" : [\n")
            if notes.isEmpty { out.raw("\n") }
            for (index, note) in notes.enumerated() {
                out.raw("    ")
                out.string(note)
                out.raw(index + 1 < notes.count ? ",\n" : "\n")
            }
            out.raw("  ],\n  \"services\" : [\n")
            if services.isEmpty { out.raw("\n") }
            for (index, service) in services.enumerated() {
                service.write(into: &out)
                out.raw(index + 1 < services.count ? ",\n" : "\n")
            }
            out.raw("  ]\n}\n")
            return out.bytes
        }
    }
}

extension CaptionsCommand.ServiceJSON {
    /// The service as an element of `services`, its members sorted by key.
    fileprivate func write(into out: inout PrettyJSON) {
        let indent = "      "
        out.raw("    {\n      \"cues\" : [\n")
        if cues.isEmpty { out.raw("\n") }
        for (index, cue) in cues.enumerated() {
            out.raw("        {\n")
            let inner = "          "
            if let confidence = cue.confidence {
                out.member("confidence", inner)
                out.number(confidence)
                out.next()
            }
            out.member("endTime", inner)
            out.number(cue.endTime)
            out.next()
            out.member("startTime", inner)
            out.number(cue.startTime)
            out.next()
            out.member("text", inner)
            out.string(cue.text)
            out.raw(index + 1 < cues.count ? "\n        },\n" : "\n        }\n")
            out.flushIfFull()
        }
        out.raw("      ],\n")
        out.member("kind", indent)
        out.string(kind)
        for (key, value) in [("language", language), ("language_source", languageSource)] {
            guard let value else { continue }
            out.next()
            out.member(key, indent)
            out.string(value)
        }
        out.next()
        out.member("service", indent)
        out.string(service)
        out.raw("\n    }")
    }
}
