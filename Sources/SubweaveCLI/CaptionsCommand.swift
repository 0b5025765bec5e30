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

    static func run(_ options: CaptionsOptions) async throws {
        var services: [ServiceJSON] = []
        if try isPlaylist(options.input) {
            let captions = try await Packager().programmeCaptions(masterPath: options.input)
            services = captions.services.map { s in
                ServiceJSON(service: s.service.rawValue, language: captions.language?.description, cues: s.cues.map(cue))
            }
        } else {
            guard let handle = FileHandle(forReadingAtPath: options.input) else {
                throw CommandError(message: "\(options.input) cannot be opened (errno \(errno): \(String(cString: strerror(errno))))")
            }
            defer { try? handle.close() }
            let result = TransportStreamCaptions.decode(FileChunks(handle: handle))
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
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandError(message: "\(path) does not exist or cannot be opened")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return String(decoding: head, as: UTF8.self).hasPrefix("#EXTM3U")
    }
}

/// A file read in 1 MiB chunks, so memory stays flat however large the file.
struct FileChunks: Sequence, IteratorProtocol {
    let handle: FileHandle
    static let size = 1 << 20

    mutating func next() -> ArraySlice<UInt8>? {
        guard let data = try? handle.read(upToCount: Self.size), !data.isEmpty else { return nil }
        return [UInt8](data)[...]
    }
}
