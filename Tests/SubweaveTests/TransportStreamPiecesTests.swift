import Captions
import Foundation
import TestSupport
import Testing

@testable import Subweave

/// A whole MPEG-TS file read in pieces on several cores must decode to what reading it on, on one
/// core, gives: the same cues, counts, origin and notes, whatever the pieces' size; a file the
/// pieces cannot be joined in (sync lost, a damaged packet) is read on instead.
@Suite(.enabled(if: Tools.ffmpeg != nil, "ffmpeg is not installed (apt-get install -y ffmpeg)"))
struct TransportStreamPiecesTests {
    /// What was decoded, to compare two decodes.
    struct Decoded: Equatable {
        var services: [String]
        var cues: [[String]]
        var accessUnits: Int
        var captionDataUnits: Int
        var origin: Int64?
        var notes: [String]

        init(_ captions: TransportStreamCaptions) {
            services = captions.services.map { $0.service.rawValue }
            cues = captions.services.map { $0.cues.map { "\($0.start.ticks)-\($0.end.ticks) \($0.text)" } }
            accessUnits = captions.accessUnits
            captionDataUnits = captions.captionDataUnits
            origin = captions.origin
            notes = captions.notes
        }
    }

    static func onOneCore(_ path: String) throws -> Decoded { Decoded(try TransportStreamPieces.onOneCore(path, onRead: nil)) }

    /// A 30-second stream (B-frames) with CEA-608 pop-on captions in CC1 and a CEA-708 caption
    /// every second in service 1.
    static func captioned608And708() throws -> String {
        var script = CaptionScript()
        for second in 0..<29 {
            script.popOn(["Caption \(second)"], at: second * 30 + 2)
            script.send708(
                DTVCC.deleteWindows([0]), DTVCC.defineWindow(0, visible: true, rows: 1, columns: 32), DTVCC.setCurrentWindow(0),
                DTVCC.text("Service one, second \(second)"), at: second * 30 + 5)
        }
        return try CaptionedStream.make(script: script, frames: 900, folder: try Scratch.make().path)
    }

    @Test(arguments: [188 * 40, 188 * 97, 188 * 400])
    func piecesDecodeAsReadingOn(_ pieceSize: Int) throws {
        for path in [Fixtures.path("captions/programme.ts"), try Self.captioned608And708()] {
            let on = try Self.onOneCore(path)
            let (captions, pieces) = try TransportStreamPieces.decode(path, pieceSize: pieceSize)
            #expect(pieces >= 3, "\(path) was cut into pieces")
            #expect(on.cues.joined().count > 20, "the captions were read")
            #expect(Decoded(captions) == on, "\(path) in pieces of \(pieceSize) bytes")
        }
    }

    @Test func the708ServiceIsReadInPieces() throws {
        let path = try Self.captioned608And708()
        let (captions, pieces) = try TransportStreamPieces.decode(path, pieceSize: 188 * 97)
        #expect(pieces >= 3)
        let service = try #require(captions.services.first { $0.service.rawValue == "SERVICE1" })
        #expect(service.cues.count >= 28, "\(service.cues.map(\.text))")
        #expect(service.cues.map(\.text).contains("Service one, second 17"))
    }

    /// Damage in the middle (stray bytes that break the packet grid, a packet cut short, a file
    /// that ends inside a packet): the notes and the cues are those of reading on.
    @Test(arguments: ["stray bytes", "cut packet", "ragged end", "bad start code"])
    func damageDecodesAsReadingOn(_ damage: String) throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        let middle = bytes.count / 2 / 188 * 188
        switch damage {
        case "stray bytes": bytes.insert(contentsOf: [UInt8](repeating: 0x47, count: 61), at: middle)
        case "cut packet": bytes.removeSubrange((middle + 100)..<(middle + 188))
        case "bad start code":
            // The first video PES packet past the middle no longer starts with 00 00 01: reading
            // on notes it, so a piece holding it cannot be joined.
            let start = try #require(Self.videoUnitStart(in: bytes, from: middle))
            bytes[start + 2] = 0x02
        default: bytes.removeLast(77)
        }
        let path = try Scratch.make().path + "/damaged.ts"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let on = try Self.onOneCore(path)
        let (captions, _) = try TransportStreamPieces.decode(path, pieceSize: 188 * 97)
        #expect(Decoded(captions) == on)
        #expect(on.cues.joined().count > 20, "the captions were read")
    }

    /// The offset of the PES start code of the first video PES packet (stream_id 0xE0) that
    /// starts in a packet at or after `from` (a packet's start).
    static func videoUnitStart(in bytes: [UInt8], from: Int) -> Int? {
        var offset = from
        while offset + 188 <= bytes.count {
            let control = (bytes[offset + 3] >> 4) & 0x3
            let payload = offset + 4 + (control & 0x2 != 0 ? 1 + Int(bytes[offset + 4]) : 0)
            if bytes[offset + 1] & 0x40 != 0, payload + 4 <= offset + 188, Array(bytes[payload..<(payload + 4)]) == [0, 0, 1, 0xE0] { return payload }
            offset += 188
        }
        return nil
    }

    /// A teletext stream beside the video needs every byte in order: the file is read on, and
    /// its pages are decoded.
    @Test func aFileWithTeletextIsReadOn() throws {
        let folder = try Scratch.make().path
        let stream = TeletextStream(transmissions: [
            .init(seconds: 1, rows: [(21, TeletextStream.boxedRow(Array("Guten Abend".utf8)))], national: 1),
            .init(seconds: 3, rows: [], national: 1),
        ])
        _ = try TeletextProgramme.make(stream, seconds: 10, folder: folder)
        let path = folder + "/programme.ts"
        let (captions, pieces) = try TransportStreamPieces.decode(path, pieceSize: 188 * 97)
        #expect(pieces == 0)
        #expect(Decoded(captions) == (try Self.onOneCore(path)))
        #expect(captions.services.flatMap(\.cues).map(\.text) == ["Guten Abend"])
    }

    /// The progress told while reading in pieces ends at the file's size.
    @Test func progressEndsAtTheFileSize() throws {
        let path = Fixtures.path("captions/programme.ts")
        let size = try Fixtures.bytes("captions/programme.ts").count
        let told = Told()
        _ = try TransportStreamPieces.decode(path, pieceSize: 188 * 97) { done, total in told.add(done, total) }
        let seen = told.all
        #expect(seen.last?.0 == size && seen.allSatisfy { $0.1 == size })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "progress only goes forward")
    }

    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [(Int, Int)] = []
        func add(_ done: Int, _ total: Int) { lock.withLock { seen.append((done, total)) } }
        var all: [(Int, Int)] { lock.withLock { seen } }
    }
}
