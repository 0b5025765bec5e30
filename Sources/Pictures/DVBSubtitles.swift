import Containers
import Timebase

/// DVB subtitles (ETSI EN 300 743): the subtitle stream of an MPEG-TS file (stream type 0x06 with
/// a subtitling_descriptor) decoded to pictures.
///
/// Each PES packet (data identifier 0x20) carries segments: a page composition (time-out, state,
/// the regions shown and where), region compositions (size, depth, CLUT, fill, the objects in it
/// and where), CLUT definitions (Y, Cr, Cb and transparency per entry, 2-, 4- or 8-bit), object
/// data (two fields of 2-, 4- or 8-bit pixel code strings, with map tables), a display
/// definition (the frame size) and an end of display set. A page shows from its PTS until the
/// next page (one without regions clears) or its time-out.
public enum DVBSubtitles {
    /// A problem in the stream: where (a byte offset of the file) and what.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "byte \(offset): \(reason)" }
    }

    /// What a file's first DVB subtitle stream shows.
    public struct Stream: Sendable {
        public var pictures: [SubtitlePicture] = []
        /// The subtitling descriptor's language (ISO 639-2), when it names one.
        public var language: String?
        /// Whether the file has a DVB subtitle stream at all.
        public var found = false
        /// The first 20 problems.
        public var problems: [Problem] = []
        /// How many problems there were beyond the first 20 (not kept, but said).
        public var problemsLeftOut = 0
    }

    /// The pictures of the first DVB subtitle stream in `data` (an MPEG-TS file), times on the
    /// stream's PTS clock (unwrapped).
    public static func pictures(transportStream data: [UInt8]) -> Stream {
        var demuxer = TransportStreamDemuxer(selecting: .dvbSubtitles)
        var packets: [TransportStreamDemuxer.PESPacket] = []
        demuxer.feed(data[...]) { packets.append($0) }
        demuxer.finish { packets.append($0) }
        var stream = Stream()
        stream.found = demuxer.video != nil
        stream.language = demuxer.video?.language
        var decoder = Decoder()
        decoder.budget = SubtitlePicture.pixelBudget(inputBytes: data.count)
        var lastPTS: Int64?
        for packet in packets {
            guard let raw = packet.pts else { continue }
            let pts = lastPTS.map { PresentationTimestamp.unwrapped(raw, near: $0) } ?? raw
            lastPTS = pts
            decoder.decode(Array(packet.payload), time: MediaTime(ticks: pts), offset: packet.offset)
        }
        decoder.close()
        stream.pictures = decoder.pictures
        stream.problems = decoder.problems
        stream.problemsLeftOut = decoder.problemsLeftOut
        return stream
    }

    /// The state a subtitle stream carries from segment to segment, fed a PES packet at a time.
    package struct Decoder {
        struct Region {
            var width = 0
            var height = 0
            var depth = 2  // 1: 2-bit, 2: 4-bit, 3: 8-bit
            var clut = 0
            var fill: UInt8?
            var objects: [(id: Int, x: Int, y: Int)] = []
            var pixels: [UInt8] = []
        }

        var regions: [Int: Region] = [:]
        var cluts: [Int: [Int: PaletteColor]] = [:]
        /// The page being built: its time, time-out and regions shown (id, x, y).
        var page: (time: MediaTime, timeout: Int, regions: [(id: Int, x: Int, y: Int)], offset: Int)?
        var display: (width: Int, height: Int) = (720, 576)
        package private(set) var pictures: [SubtitlePicture] = []
        /// The first ``problemLimit`` problems; the rest are counted in ``problemsLeftOut``.
        package private(set) var problems: [Problem] = []
        package private(set) var problemsLeftOut = 0
        package static let problemLimit = 20
        /// The pages read (a composition page and the ancillary page it shares); nil reads every
        /// segment, whatever its page.
        package var pages: Set<Int>?

        package init() {}
        /// Pictures shown until the next page.
        var open: [Int] = []

        mutating func note(_ offset: Int, _ reason: String) {
            if problems.count < Self.problemLimit { problems.append(Problem(offset: offset, reason: reason)) } else { problemsLeftOut += 1 }
        }

        /// Reads the segments of one PES packet shown at `time`; `offset` is where it starts in its file.
        package mutating func decode(_ payload: [UInt8], time: MediaTime, offset: Int) {
            guard payload.count >= 2, payload[0] == 0x20 else {
                note(offset, "a subtitle PES packet without the DVB data identifier 0x20")
                return
            }
            var i = 2
            while i + 6 <= payload.count, payload[i] == 0x0F {
                let type = payload[i + 1]
                let length = Int(payload[i + 4]) << 8 | Int(payload[i + 5])
                let body = i + 6
                guard body + length <= payload.count else {
                    note(offset, "a segment of \(length) bytes runs past its PES packet")
                    return
                }
                let s = payload[body..<body + length]
                if let pages, !pages.contains(Int(payload[i + 2]) << 8 | Int(payload[i + 3])) {
                    i = body + length
                    continue
                }
                switch type {
                case 0x10: pageComposition(s, time: time, offset: offset)
                case 0x11: regionComposition(s, offset: offset)
                case 0x12: clutDefinition(s)
                case 0x13: objectData(s, offset: offset)
                case 0x14:
                    if s.count >= 5 {
                        display = (
                            (Int(s[s.startIndex + 1]) << 8 | Int(s[s.startIndex + 2])) + 1, (Int(s[s.startIndex + 3]) << 8 | Int(s[s.startIndex + 4])) + 1
                        )
                    }
                case 0x80: endOfDisplaySet()
                default: break
                }
                i = body + length
            }
        }

        mutating func pageComposition(_ s: ArraySlice<UInt8>, time: MediaTime, offset: Int) {
            guard s.count >= 2 else { return }
            let b = s.startIndex
            // A new page ends what was shown.
            for k in open where pictures[k].end == nil { pictures[k].end = max(time, pictures[k].start) }
            open = []
            let state = (s[b + 1] >> 2) & 0x03
            if state != 0 {
                // Acquisition point or mode change: what came before no longer holds.
                regions = [:]
                cluts = [:]
            }
            var shown: [(Int, Int, Int)] = []
            var k = b + 2
            while k + 6 <= s.endIndex {
                shown.append((Int(s[k]), Int(s[k + 2]) << 8 | Int(s[k + 3]), Int(s[k + 4]) << 8 | Int(s[k + 5])))
                k += 6
            }
            page = (time, Int(s[b]), shown, offset)
        }

        mutating func regionComposition(_ s: ArraySlice<UInt8>, offset: Int) {
            guard s.count >= 10 else { return }
            let b = s.startIndex
            let id = Int(s[b])
            let fillFlag = s[b + 1] & 0x08 != 0
            let width = Int(s[b + 2]) << 8 | Int(s[b + 3]), height = Int(s[b + 4]) << 8 | Int(s[b + 5])
            guard width > 0, height > 0, width * height <= SubtitlePicture.largestArea else {
                note(offset, "a region of \(width)×\(height) pixels is empty or larger than any frame")
                return
            }
            var region = regions[id] ?? Region()
            let depth = Int((s[b + 6] >> 2) & 0x07)
            if region.width != width || region.height != height || region.pixels.isEmpty {
                // Each new region's pixels count against the budget too: a stream of tiny
                // segments claiming huge regions is refused, not allocated.
                budget -= width * height
                guard budget >= 0 else {
                    note(offset, "the regions claim more pixels than a stream this size can hold; the rest were not read")
                    return
                }
                region.pixels = [UInt8](repeating: 0, count: width * height)
            }
            region.width = width
            region.height = height
            region.depth = (1...3).contains(depth) ? depth : 2
            region.clut = Int(s[b + 7])
            let fill: UInt8 = region.depth == 3 ? s[b + 8] : region.depth == 2 ? s[b + 9] >> 4 : (s[b + 9] >> 2) & 0x03
            if fillFlag { region.pixels = [UInt8](repeating: fill, count: width * height) }
            region.objects = []
            var k = b + 10
            while k + 6 <= s.endIndex {
                let objectType = s[k + 2] >> 6
                region.objects.append(
                    (Int(s[k]) << 8 | Int(s[k + 1]), Int(s[k + 2] & 0x0F) << 8 | Int(s[k + 3]), Int(s[k + 4] & 0x0F) << 8 | Int(s[k + 5])))
                k += objectType == 1 || objectType == 2 ? 8 : 6
            }
            regions[id] = region
        }

        mutating func clutDefinition(_ s: ArraySlice<UInt8>) {
            guard s.count >= 2 else { return }
            let b = s.startIndex
            let id = Int(s[b])
            var clut = cluts[id] ?? [:]
            var k = b + 2
            while k + 2 <= s.endIndex {
                let entry = Int(s[k])
                let flags = s[k + 1]
                let y: UInt8, cr: UInt8, cb: UInt8, alpha: UInt8
                if flags & 0x01 != 0 {
                    guard k + 6 <= s.endIndex else { break }
                    (y, cr, cb, alpha) = (s[k + 2], s[k + 3], s[k + 4], 255 - s[k + 5])
                    k += 6
                } else {
                    guard k + 4 <= s.endIndex else { break }
                    let packed = Int(s[k + 2]) << 8 | Int(s[k + 3])
                    y = UInt8((packed >> 10) << 2)
                    cr = UInt8(((packed >> 6) & 0x0F) << 4)
                    cb = UInt8(((packed >> 2) & 0x0F) << 4)
                    alpha = [255, 170, 85, 0][packed & 0x03]
                    k += 4
                }
                // Y = 0 is a fully transparent entry (EN 300 743 §7.2.4); each entry belongs to
                // the CLUTs of the depths its flags name (2-, 4-, 8-bit).
                let color = PaletteColor(y: y, cb: cb, cr: cr, alpha: y == 0 ? 0 : alpha)
                for (depth, flag) in [(1, UInt8(0x80)), (2, UInt8(0x40)), (3, UInt8(0x20))] where flags & flag != 0 {
                    clut[depth * 256 + entry] = color
                }
            }
            cluts[id] = clut
        }

        mutating func objectData(_ s: ArraySlice<UInt8>, offset: Int) {
            guard s.count >= 3 else { return }
            let b = s.startIndex
            let id = Int(s[b]) << 8 | Int(s[b + 1])
            let coding = (s[b + 2] >> 2) & 0x03
            guard coding == 0 else {
                // Character-coded objects carry text codes, not pixels: not drawn, and said.
                note(offset, "object \(id) is character-coded (text, not pixels) and was not drawn")
                return
            }
            guard s.count >= 7 else { return }
            let top = Int(s[b + 3]) << 8 | Int(s[b + 4]), bottom = Int(s[b + 5]) << 8 | Int(s[b + 6])
            let topStart = b + 7
            guard topStart + top + bottom <= s.endIndex else {
                note(offset, "an object's field data runs past its segment")
                return
            }
            let topField = Array(s[topStart..<topStart + top])
            let bottomField = bottom == 0 ? topField : Array(s[topStart + top..<topStart + top + bottom])
            for (regionID, region) in regions {
                for object in region.objects where object.id == id {
                    var r = region
                    draw(topField, into: &r, x: object.x, y: object.y, row: 0)
                    draw(bottomField, into: &r, x: object.x, y: object.y, row: 1)
                    regions[regionID] = r
                }
            }
        }

        /// Draws one field's pixel code strings into `region` from (x, y + row), every other row.
        func draw(_ data: [UInt8], into region: inout Region, x: Int, y: Int, row startRow: Int) {
            var bits = BitReader(data)
            var row = startRow, column = 0
            var map2to4: [UInt8] = [0x0, 0x7, 0x8, 0xF], map2to8: [UInt8] = [0x00, 0x77, 0x88, 0xFF]
            var map4to8: [UInt8] = (0..<16).map { UInt8($0 * 0x11) }
            func put(_ code: UInt8, _ count: Int) {
                let py = y + row
                guard py >= 0, py < region.height, count > 0 else {
                    column += count
                    return
                }
                for n in 0..<count {
                    let px = x + column + n
                    if px >= 0 && px < region.width { region.pixels[py * region.width + px] = code }
                }
                column += count
            }
            while let type = bits.byte() {
                switch type {
                case 0x10:
                    while let (code, count) = bits.twoBit() {
                        let mapped = region.depth == 1 ? code : region.depth == 2 ? map2to4[Int(code)] : map2to8[Int(code)]
                        put(mapped, count)
                    }
                    bits.align()
                case 0x11:
                    while let (code, count) = bits.fourBit() { put(region.depth == 3 ? map4to8[Int(code)] : code, count) }
                    bits.align()
                case 0x12:
                    while let (code, count) = bits.eightBit() { put(code, count) }
                case 0x20:
                    guard let a = bits.byte(), let b2 = bits.byte() else { return }
                    map2to4 = [a >> 4, a & 0x0F, b2 >> 4, b2 & 0x0F]
                case 0x21:
                    var table: [UInt8] = []
                    for _ in 0..<4 { if let v = bits.byte() { table.append(v) } }
                    if table.count == 4 { map2to8 = table }
                case 0x22:
                    var table: [UInt8] = []
                    for _ in 0..<8 {
                        if let v = bits.byte() { table += [v >> 4, v & 0x0F] }
                    }
                    if table.count == 16 { map4to8 = table }
                case 0xF0:
                    row += 2
                    column = 0
                default:
                    return
                }
            }
        }

        mutating func endOfDisplaySet() {
            guard let page else { return }
            for shown in page.regions {
                guard let region = regions[shown.id], !region.pixels.isEmpty else { continue }
                budget -= region.pixels.count
                guard budget >= 0 else {
                    note(page.offset, "the pictures claim more pixels than a stream this size can hold; the rest were not read")
                    break
                }
                let clut = (cluts[region.clut] ?? [:]).filter { $0.key / 256 == region.depth }
                var palette = [PaletteColor](repeating: PaletteColor(red: 0, green: 0, blue: 0, alpha: 0), count: 256)
                for (key, color) in clut { palette[key % 256] = color }
                if clut.isEmpty {
                    // No CLUT defined: the default one's greys (entry 0 transparent).
                    for entry in 1..<256 { palette[entry] = PaletteColor(red: UInt8(entry), green: UInt8(entry), blue: UInt8(entry)) }
                }
                var picture = SubtitlePicture(
                    start: page.time, end: page.timeout > 0 ? page.time + MediaTime(milliseconds: Int64(page.timeout) * 1000) : nil, x: shown.x,
                    y: shown.y, width: region.width, height: region.height, indices: region.pixels, palette: palette, offset: page.offset)
                picture.frameWidth = display.width
                picture.frameHeight = display.height
                guard !picture.isBlank else { continue }
                // A time-out ends it unless a page comes first.
                if picture.end != nil {
                    picture.end = nil
                    timeouts[pictures.count] = page.time + MediaTime(milliseconds: Int64(page.timeout) * 1000)
                }
                open.append(pictures.count)
                pictures.append(picture)
            }
            self.page = nil
        }

        var timeouts: [Int: MediaTime] = [:]
        /// Pixels the stream may still make (``SubtitlePicture/pixelBudget(inputBytes:)``).
        package var budget = Int.max

        /// A break in the stream (a discontinuity): what is shown ends at `time`, the page being
        /// built is dropped, and the regions and CLUTs are read afresh.
        package mutating func interrupt(at time: MediaTime) {
            for k in open where pictures[k].end == nil { pictures[k].end = max(time, pictures[k].start) }
            open = []
            page = nil
            regions = [:]
            cluts = [:]
        }

        /// Frees the pixels of the pictures that ended before `time` (a live stream read for
        /// hours keeps their times and places, not their pixels, once they have been read).
        package mutating func releasePixels(endedBefore time: MediaTime) {
            for k in pictures.indices where !pictures[k].indices.isEmpty {
                if let end = pictures[k].end, end < time { pictures[k].indices = [] }
            }
        }

        /// Ends the stream: pictures still shown end at their time-out, or five seconds on.
        package mutating func close() {
            for k in pictures.indices where pictures[k].end == nil {
                pictures[k].end = timeouts[k] ?? pictures[k].start + MediaTime(milliseconds: 5000)
            }
            for (k, timeout) in timeouts where pictures.indices.contains(k) {
                if let end = pictures[k].end, end > timeout { pictures[k].end = max(timeout, pictures[k].start) }
            }
        }
    }

    /// Reads the pixel code strings' bits, most significant first.
    struct BitReader {
        let data: [UInt8]
        var bit = 0

        init(_ data: [UInt8]) { self.data = data }

        mutating func read(_ count: Int) -> Int? {
            guard bit + count <= data.count * 8 else { return nil }
            var value = 0
            for _ in 0..<count {
                value = value << 1 | Int((data[bit / 8] >> (7 - UInt8(bit % 8))) & 1)
                bit += 1
            }
            return value
        }

        mutating func align() { bit = (bit + 7) / 8 * 8 }

        mutating func byte() -> UInt8? {
            align()
            return read(8).map(UInt8.init)
        }

        /// One 2-bit code string item: (code, pixels), nil at the string's end.
        mutating func twoBit() -> (UInt8, Int)? {
            guard let code = read(2) else { return nil }
            if code != 0 { return (UInt8(code), 1) }
            guard let switch1 = read(1) else { return nil }
            if switch1 == 1 {
                guard let run = read(3), let c = read(2) else { return nil }
                return (UInt8(c), run + 3)
            }
            guard let switch2 = read(1) else { return nil }
            if switch2 == 1 { return (0, 1) }
            guard let switch3 = read(2) else { return nil }
            switch switch3 {
            case 0: return nil
            case 1: return (0, 2)
            case 2:
                guard let run = read(4), let c = read(2) else { return nil }
                return (UInt8(c), run + 12)
            default:
                guard let run = read(8), let c = read(2) else { return nil }
                return (UInt8(c), run + 29)
            }
        }

        /// One 4-bit code string item, nil at the string's end.
        mutating func fourBit() -> (UInt8, Int)? {
            guard let code = read(4) else { return nil }
            if code != 0 { return (UInt8(code), 1) }
            guard let switch1 = read(1) else { return nil }
            if switch1 == 0 {
                guard let run = read(3) else { return nil }
                return run == 0 ? nil : (0, run + 2)
            }
            guard let switch2 = read(1) else { return nil }
            if switch2 == 0 {
                guard let run = read(2), let c = read(4) else { return nil }
                return (UInt8(c), run + 4)
            }
            guard let switch3 = read(2) else { return nil }
            switch switch3 {
            case 0: return (0, 1)
            case 1: return (0, 2)
            case 2:
                guard let run = read(4), let c = read(4) else { return nil }
                return (UInt8(c), run + 9)
            default:
                guard let run = read(8), let c = read(4) else { return nil }
                return (UInt8(c), run + 25)
            }
        }

        /// One 8-bit code string item, nil at the string's end.
        mutating func eightBit() -> (UInt8, Int)? {
            guard let code = read(8) else { return nil }
            if code != 0 { return (UInt8(code), 1) }
            guard let switch1 = read(1), let run = read(7) else { return nil }
            if switch1 == 0 { return run == 0 ? nil : (0, run) }
            guard let c = read(8) else { return nil }
            return (UInt8(c), run)
        }
    }
}
