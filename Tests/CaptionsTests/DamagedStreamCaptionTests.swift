import Captions
import Containers
import TestSupport
import Testing
import Timebase

/// What a damaged MPEG-TS stream costs its captions, and what is said of it.
struct DamagedStreamCaptionTests {
    static func decoded(_ bytes: [UInt8]) -> (cues: [String], notes: [String]) {
        let captions = TransportStreamCaptions.decode([bytes[...]])
        let cues = captions.services.flatMap { service in service.cues.map { "\(service.service.rawValue) \($0.start.ticks)-\($0.end.ticks) \($0.text)" } }
        return (cues, captions.notes)
    }

    static func isVideo(_ bytes: [UInt8], _ at: Int) -> Bool { bytes[at + 1] & 0x1F == 0x01 && bytes[at + 2] == 0x00 }
    static func startsUnit(_ bytes: [UInt8], _ at: Int) -> Bool { bytes[at + 1] & 0x40 != 0 }

    /// A packet missing after the caption data (the SEI) of its access unit was read loses
    /// nothing: the captions are those of the whole stream, and no note is made.
    @Test func aPacketMissingAfterTheCaptionDataLosesNothing() throws {
        let bytes = try Fixtures.bytes("captions/programme.ts")
        // The third video packet (PID 0x100) of the first access unit past the middle that has
        // four at least.
        var at = bytes.count / 2 / 188 * 188
        var found: Int?
        while found == nil && at + 188 <= bytes.count {
            if Self.isVideo(bytes, at) && Self.startsUnit(bytes, at) {
                let next = Array(stride(from: at + 188, to: bytes.count, by: 188).lazy.filter { Self.isVideo(bytes, $0) }.prefix(3))
                if next.count == 3 && !next.contains(where: { Self.startsUnit(bytes, $0) }) { found = next[2] }
            }
            at += 188
        }
        let gone = try #require(found)
        var damaged = bytes
        damaged.removeSubrange(gone..<(gone + 188))
        let whole = Self.decoded(bytes), cut = Self.decoded(damaged)
        #expect(whole.cues.count > 20)
        #expect(cut.cues == whole.cues)
        #expect(cut.notes == [])
    }

    /// Lost sync is said with its byte offset, and the captions outside the damage are read.
    @Test func lostSyncIsSaid() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        let at = bytes.count / 2 / 188 * 188
        bytes.insert(contentsOf: [UInt8](repeating: 0, count: 61), at: at)
        let cut = Self.decoded(bytes)
        #expect(cut.notes.contains { $0.hasPrefix("lost MPEG-TS sync") && $0.hasSuffix("first at byte \(at))") }, "\(cut.notes)")
        #expect(cut.cues.count > 20)
    }

    /// A file fed in chunks, each with how far into the file it starts, reads as the file fed
    /// whole: the same cues, and the same notes naming the file and the same byte offsets in it
    /// (a look reads a reference's segments so), after a file before it on the same reader.
    @Test func aFileFedInChunksIsNotedAsTheWholeFile() throws {
        var bytes = try Fixtures.bytes("captions/programme.ts")
        let at = bytes.count / 2 / 188 * 188
        bytes.insert(contentsOf: [UInt8](repeating: 0, count: 61), at: at)
        let before = Array(try Fixtures.bytes("captions/programme.ts").prefix(188 * 500))
        func read(chunk size: Int) -> String {
            var reader = TransportStreamCaptionReader(timeOf: { MediaTime(ticks: $0) })
            _ = reader.feed(before[...], label: "before.ts")
            var offset = 0
            while offset < bytes.count {
                let end = size == 0 ? bytes.count : min(bytes.count, offset + size)
                _ = reader.feed(bytes[offset..<end], label: "damaged.ts", offsetInFile: offset)
                offset = end
            }
            reader.finish()
            return "\(reader.cues.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.map { "\($0.start.ticks) \($0.text)" })" }) \(reader.notes)"
        }
        let whole = read(chunk: 0)
        #expect(whole.contains("damaged.ts: lost MPEG-TS sync"), "\(whole.suffix(400))")
        #expect(whole.contains("first at byte \(at))"), "\(whole.suffix(400))")
        for size in [188 * 1_024, 100_000, 4_096] { #expect(read(chunk: size) == whole, "chunks of \(size)") }
    }

    /// Past the first twenty notes, how many more there were is said, not dropped in silence:
    /// thirty chunks, each with its own lost sync, give twenty notes and a count of ten more.
    @Test func notesPastTheLimitAreCounted() throws {
        let bytes = try Fixtures.bytes("captions/programme.ts")
        let packets = bytes.count / 188
        let chunks = (0..<30).map { k -> ArraySlice<UInt8> in
            var chunk = Array(bytes[(k * packets / 30 * 188)..<((k + 1) * packets / 30 * 188)])
            chunk.insert(contentsOf: [UInt8](repeating: 0, count: 61), at: chunk.count / 2 / 188 * 188)
            return chunk[...]
        }
        let notes = TransportStreamCaptions.decode(chunks).notes
        #expect(notes.filter { $0.hasPrefix("lost MPEG-TS sync") }.count == 20, "\(notes)")
        #expect(notes.contains("10 more note(s) of damage in the MPEG-TS stream were left out (the first 20 are kept)"), "\(notes)")
    }
}
