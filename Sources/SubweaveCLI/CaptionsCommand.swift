import Captions
import Foundation
import Subweave
import TimedText
import Timebase

enum CaptionsCommand {
    struct ServiceJSON: Encodable {
        let service: String
        let language: String?
        let cues: [CueJSON]
    }

    struct CueJSON: Encodable {
        let startTime: Double
        let endTime: Double
        let text: String
    }

    struct DetectionJSON: Encodable {
        let captions: Bool
        let service: String?
        let time: Double?
        let accessUnits: Int
        let language: String?
        enum CodingKeys: String, CodingKey { case captions, service, time, accessUnits = "access_units", language }
    }

    static func run(_ options: CaptionsOptions) async throws {
        let playlist = try isPlaylist(options.input)
        if options.detectOnly && !playlist {
            let chunks = try openChunks(options.input, size: 1 << 16)
            var reader = TransportStreamCaptionReader(accessUnitLimit: 28, timeOf: { MediaTime(ticks: $0) })
            while let chunk = chunks.next(), reader.feed(chunk) {}
            guard reader.videoStreamType != nil else {
                throw CommandError(message: "\(LabelText.excerpt(options.input)): no MPEG-TS video stream found (no transport stream with a PAT and a PMT listing video)")
            }
            let first = reader.decoder?.firstText
            let origin = reader.origin ?? 0
            let result = DetectionJSON(captions: first != nil, service: first?.service.rawValue, time: first.map { ($0.time - MediaTime(ticks: origin)).seconds },
                                       accessUnits: reader.decoder?.accessUnits ?? 0, language: reader.videoLanguage.flatMap(LanguageTag.init(parsing:))?.description)
            if options.json { try Output.json(result) } else {
                Output.out(first.map { "captions: \($0.service.rawValue) text at \((result.time ?? 0).decimalSeconds) s (\(result.accessUnits) access units scanned)" }
                           ?? "no captions in the first \(result.accessUnits) access units\(reader.decoder == nil ? " (the video codec carries no SEI captions)" : "")")
            }
            return
        }
        var services: [ServiceJSON] = []
        if playlist {
            let captions = try await Presentation(master: URL(fileURLWithPath: options.input)).captions()
            services = captions.services.map { s in
                ServiceJSON(service: s.service.rawValue, language: captions.language?.description, cues: s.cues.map(cue))
            }
        } else {
            let result = TransportStreamCaptions.decode(try openChunks(options.input))
            if result.origin == nil && result.videoStreamType == nil {
                throw CommandError(message: "\(options.input): no MPEG-TS video stream found (neither a transport stream with a PMT nor a playlist)")
            }
            let language = result.language.flatMap(LanguageTag.init(parsing:))?.description
            services = result.services.map { ServiceJSON(service: $0.service.rawValue, language: language, cues: $0.cues.map(cue)) }
        }
        if options.json {
            try Output.json(["services": services])
            return
        }
        if services.isEmpty { Output.error("no CEA-608 captions found") }
        for service in services {
            Output.out("\(service.service)\(service.language.map { " (\($0))" } ?? ""): \(service.cues.count) cues")
            for c in service.cues {
                Output.out("  \(WebVTTTimestamp.format(MediaTime(milliseconds: Int64((c.startTime * 1000).rounded())))) --> \(WebVTTTimestamp.format(MediaTime(milliseconds: Int64((c.endTime * 1000).rounded()))))  \(c.text.replacingOccurrences(of: "\n", with: " / "))")
            }
        }
    }

    static func cue(_ c: Cue) -> CueJSON {
        CueJSON(startTime: c.start.seconds, endTime: c.end.seconds, text: CueText.plainText(c.text))
    }

    static func isPlaylist(_ path: String) throws -> Bool {
        if path.lowercased().hasSuffix(".m3u8") { return true }
        let head = try openChunks(path, size: 16).next() ?? []
        return String(decoding: head, as: UTF8.self).hasPrefix("#EXTM3U")
    }

    static func openChunks(_ path: String, size: Int = 1 << 20) throws -> FileChunks {
        do { return try FileChunks(path: path, chunkSize: size) } catch {
            throw CommandError(message: "\(path) \(error.explanation)")
        }
    }
}
