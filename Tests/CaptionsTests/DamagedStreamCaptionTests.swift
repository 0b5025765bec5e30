import Captions
import Containers
import TestSupport
import Testing

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
