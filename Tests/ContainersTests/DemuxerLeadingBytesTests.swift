import Containers
import Testing

/// What the demuxer gives of a video PES packet when told where picture data starts: the bytes
/// after its header up to the first start code of picture data (or all of them when there is
/// none), whether the packet's header and that start code lie in its first TS packet (emitted
/// where it lies) or come across several (gathered).
///
/// Checked against a plain model on random streams: leading NAL units of random lengths (some
/// crossing TS packets), random bytes in them (false start codes included), adaptation fields of
/// random lengths, bounded and unbounded PES packets, and every chunking.
struct DemuxerLeadingBytesTests {
    /// An H.264 picture-data test: NAL unit types 1–5.
    static let pictureData: @Sendable (UInt8) -> (@Sendable (UInt8) -> Bool)? = { _ in { (1...5).contains($0 & 0x1F) } }

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func bytes(_ count: Int) -> [UInt8] {
            // Zeros and small values often, so that start codes (real and false) occur.
            (0..<count).map { _ in next(3) == 0 ? UInt8(next(4)) : UInt8(next(256)) }
        }
    }

    /// The model: the payload up to the first `00 00 01 X` with X picture data and X present;
    /// without picture data, the payload up to the length a bounded packet declares (`room`).
    static func leading(_ payload: [UInt8], room: Int? = nil) -> [UInt8] {
        var i = 0
        while i + 3 < payload.count {
            if payload[i] == 0 && payload[i + 1] == 0 && payload[i + 2] == 1 && (1...5).contains(payload[i + 3] & 0x1F) { return Array(payload[..<i]) }
            i += 1
        }
        return Array(payload.prefix(room ?? payload.count))
    }

    /// A PES packet's TS packets on `pid`, each with an adaptation field of random length.
    static func packets(_ pes: [UInt8], pid: UInt16, counter: inout UInt8, random: inout Generator) -> [UInt8] {
        var out: [UInt8] = []
        var rest = pes[...]
        var first = true
        while !rest.isEmpty {
            // Room for at most 184 payload bytes; an adaptation field of 0–40 bytes sometimes.
            var adaptation = random.next(3) == 0 ? 1 + random.next(40) : 0
            let room = 184 - adaptation
            let take = min(room, rest.count)
            if take < room { adaptation += room - take }
            var p: [UInt8] = [0x47, (first ? 0x40 : 0) | UInt8(pid >> 8), UInt8(pid & 0xFF), (adaptation > 0 ? 0x30 : 0x10) | (counter & 0x0F)]
            if adaptation > 0 {
                p.append(UInt8(adaptation - 1))
                if adaptation > 1 { p.append(0x00) }
                p += [UInt8](repeating: 0xFF, count: max(0, adaptation - 2))
            }
            p += rest.prefix(take)
            rest = rest.dropFirst(take)
            out += p
            counter &+= 1
            first = false
        }
        return out
    }

    /// A random stream of video PES packets, the leading bytes the model expects of each, and
    /// how many bounded ones declare fewer and more bytes than they carry (each noted).
    static func stream(seed: UInt64) -> (bytes: [UInt8], expected: [[UInt8]], long: Int, short: Int) {
        var random = Generator(state: seed)
        var bytes = TSBuilder.pat(pmtPID: 0x1000) + TSBuilder.pmt(pid: 0x1000, streams: [(0x1B, 0x100)])
        var expected: [[UInt8]] = []
        var counter: UInt8 = 0
        var long = 0, short = 0
        for unit in 0..<(20 + random.next(20)) {
            var payload: [UInt8] = []
            for _ in 0..<random.next(5) {
                // A leading NAL unit: AUD, SPS, PPS, SEI (types 9, 7, 8, 6), its body random.
                payload += [0, 0, 0, 1, [0x09, 0x67, 0x68, 0x06][random.next(4)]] + random.bytes([2, 10, 60, 200, 400][random.next(5)])
            }
            if random.next(5) > 0 { payload += [0, 0, 0, 1, [0x65, 0x41, 0x01][random.next(3)]] + random.bytes(50 + random.next(600)) }
            let pts = UInt64(90_000 + unit * 3_003)
            var header: [UInt8] = [
                0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5,
                0x21 | UInt8((pts >> 29) & 0x0E), UInt8((pts >> 22) & 0xFF), UInt8((pts >> 14) & 0xFE) | 1,
                UInt8((pts >> 7) & 0xFF), UInt8((pts << 1) & 0xFE) | 1,
            ]
            var room: Int?
            if random.next(3) == 0 {
                // Bounded: PES_packet_length counts the bytes after itself; now and then it
                // declares 40 bytes too many or too few (a damaged container).
                let delta = payload.count > 60 && random.next(4) == 0 ? [-40, 40][random.next(2)] : 0
                let length = header.count - 6 + payload.count + delta
                header[4] = UInt8(length >> 8)
                header[5] = UInt8(length & 0xFF)
                room = payload.count + delta
                if delta < 0 { long += 1 } else if delta > 0 { short += 1 }
            }
            bytes += packets(header + payload, pid: 0x100, counter: &counter, random: &random)
            expected.append(leading(payload, room: room))
        }
        return (bytes, expected, long, short)
    }

    static func emitted(_ bytes: [UInt8], chunk size: Int) -> (payloads: [[UInt8]], notes: [String]) {
        var demuxer = TransportStreamDemuxer(pictureData: pictureData)
        var out: [[UInt8]] = []
        let emit: (TransportStreamDemuxer.PESPacket) -> Void = { out.append(Array($0.payload)) }
        var start = 0
        while start < bytes.count {
            let end = size == 0 ? bytes.count : min(bytes.count, start + size)
            demuxer.feed(bytes[start..<end], emit)
            start = end
        }
        demuxer.finish(emit)
        return (out, demuxer.takeNotes(since: 0))
    }

    /// How often the note that starts with `kind` says it was made (0 when it is not there).
    static func count(_ notes: [String], _ kind: String) -> Int {
        guard let note = notes.first(where: { $0.hasPrefix(kind) }) else { return 0 }
        if note.contains("(once,") { return 1 }
        return Int(note.split(separator: "(").last?.split(separator: " ").first ?? "") ?? -1
    }

    @Test func leadingBytesAreWhatTheModelSaysInEveryChunking() {
        for seed in 1...60 {
            let (bytes, expected, long, short) = Self.stream(seed: UInt64(seed))
            for size in [0, 188, 1_000] {
                let (got, notes) = Self.emitted(bytes, chunk: size)
                #expect(got == expected, "seed \(seed), chunks of \(size)")
                #expect(Self.count(notes, "a PES packet carries more bytes") == long, "seed \(seed): \(notes)")
                #expect(Self.count(notes, "a PES packet ends before") == short, "seed \(seed): \(notes)")
                #expect(notes.count == (long > 0 ? 1 : 0) + (short > 0 ? 1 : 0), "seed \(seed): \(notes)")
            }
        }
    }
}
