import Timebase

/// A VobSub subtitle track: the `.idx` index (palette, frame size, language, each subpicture's
/// time and place in the `.sub`) and the `.sub` file (MPEG-2 program stream packs whose private
/// stream 1 carries DVD subpicture units, SPUs).
///
/// An SPU is a run-length picture in two interlaced fields and control sequences, each at a delay
/// (in 1024/90,000 s) after the unit's time: start display (forced or not), stop display, the four
/// colours' palette entries and contrasts, the display area, and where each field's pixel data
/// begins (DVD-Video specification; as ffmpeg's dvdsub decoder reads it).
public enum VobSub {
    /// What an `.idx` file says.
    public struct Index: Sendable, Equatable {
        /// The 16-entry palette (RGB); nil when the index has none.
        public var palette: [PaletteColor]?
        public var frameWidth: Int?
        public var frameHeight: Int?
        /// Per stream (`id: en, index: 0`): its language and its subpictures' times and file positions.
        public var streams: [Stream] = []

        public struct Stream: Sendable, Equatable {
            public var language: String
            public var index: Int
            public var entries: [(time: MediaTime, position: Int)]

            public static func == (a: Stream, b: Stream) -> Bool {
                a.language == b.language && a.index == b.index && a.entries.map(\.time) == b.entries.map(\.time)
                    && a.entries.map(\.position) == b.entries.map(\.position)
            }
        }
    }

    /// A problem in an `.idx` or `.sub` file: where (a line, a byte offset) and what.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int?
        public let offset: Int?
        public let reason: String
        public var description: String {
            (line.map { "line \($0): " } ?? "") + (offset.map { "byte \($0): " } ?? "") + reason
        }
    }

    /// Reads an `.idx` file's text.
    public static func index(_ text: String) throws(Problem) -> Index {
        var index = Index()
        var current: Index.Stream?
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmedOfSpaces
            if line.hasPrefix("#") || line.isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmedOfSpaces
            switch key {
            case "size":
                let parts = value.split(separator: "x")
                if parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...8192).contains(w), (1...8192).contains(h) {
                    index.frameWidth = w
                    index.frameHeight = h
                }
            case "palette":
                let colors = value.split(separator: ",").map { $0.trimmedOfSpaces }
                guard colors.count == 16, colors.allSatisfy({ $0.count == 6 && UInt32($0, radix: 16) != nil }) else {
                    throw Problem(line: n + 1, offset: nil, reason: "the palette needs 16 colours of 6 hexadecimal digits")
                }
                index.palette = colors.map {
                    let v = UInt32($0, radix: 16) ?? 0
                    return PaletteColor(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
                }
            case "id":
                if let stream = current { index.streams.append(stream) }
                let parts = value.split(separator: ",").map { $0.trimmedOfSpaces }
                var number = index.streams.count
                if parts.count > 1, parts[1].hasPrefix("index:"), let k = Int(parts[1].dropFirst(6).trimmedOfSpaces) { number = k }
                current = Index.Stream(language: parts.first ?? "", index: number, entries: [])
            case "timestamp":
                // timestamp: 00:00:01:540, filepos: 000000000
                guard let entry = timestamp(value) else {
                    throw Problem(line: n + 1, offset: nil, reason: "a timestamp line is \"timestamp: hh:mm:ss:mmm, filepos: <hex>\"")
                }
                if current == nil { current = Index.Stream(language: "", index: 0, entries: []) }
                current?.entries.append(entry)
            default: continue
            }
        }
        if let stream = current { index.streams.append(stream) }
        return index
    }

    /// `hh:mm:ss:mmm, filepos: <hex>`: a time and a byte position.
    static func timestamp(_ value: String) -> (time: MediaTime, position: Int)? {
        let parts = value.split(separator: ",").map { $0.trimmedOfSpaces }
        guard parts.count == 2, parts[1].lowercased().hasPrefix("filepos:") else { return nil }
        let clock = parts[0].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 4, (0..<1000).contains(clock[0]), (0..<60).contains(clock[1]), (0..<60).contains(clock[2]), (0..<1000).contains(clock[3])
        else { return nil }
        guard let position = Int(String(parts[1].dropFirst(8)).trimmedOfSpaces, radix: 16), position >= 0 else { return nil }
        let milliseconds: Int = ((clock[0] * 60 + clock[1]) * 60 + clock[2]) * 1000 + clock[3]
        return (MediaTime(milliseconds: Int64(milliseconds)), position)
    }

    /// The pictures of stream `stream` (its position among the index's streams): each subpicture
    /// unit at its index entry's time, decoded.
    ///
    /// A unit that cannot be read is skipped and said in `problems` (with its byte offset); a
    /// unit without a stop time ends at the next one's start.
    public static func pictures(index: Index, sub: [UInt8], stream: Int = 0) -> (pictures: [SubtitlePicture], problems: [Problem]) {
        guard index.streams.indices.contains(stream) else { return ([], []) }
        let palette = index.palette
        var pictures: [SubtitlePicture] = []
        var problems: [Problem] = []
        let substream = UInt8(0x20 + (index.streams[stream].index & 0x1F))
        var budget = SubtitlePicture.pixelBudget(inputBytes: sub.count)
        for entry in index.streams[stream].entries {
            do throws(Problem) {
                let unit = try subpictureUnit(sub, at: entry.position, substream: substream)
                if var picture = try decode(unit, palette: palette, offset: entry.position) {
                    budget -= picture.width * picture.height
                    guard budget >= 0 else {
                        problems.append(
                            Problem(
                                line: nil, offset: entry.position,
                                reason: "the pictures claim more pixels than a file this size can hold; the rest were not read"))
                        break
                    }
                    picture.start = picture.start + entry.time
                    picture.end = picture.end.map { $0 + entry.time }
                    picture.frameWidth = index.frameWidth
                    picture.frameHeight = index.frameHeight
                    pictures.append(picture)
                }
            } catch {
                if problems.count < 20 { problems.append(error) }
            }
        }
        pictures.sort { $0.start < $1.start }
        for i in pictures.indices where pictures[i].end == nil {
            pictures[i].end = i + 1 < pictures.count ? pictures[i + 1].start : pictures[i].start + MediaTime(milliseconds: 5000)
        }
        return (pictures, problems)
    }

    /// Greys for a unit whose index has no palette, as DVD players and ffmpeg guess them: the
    /// distinct visible palette entries, in the order the four roles name them (background,
    /// pattern, emphasis 1, emphasis 2), from black to white: an outline drawn before its fill
    /// is dark, the fill light.
    static func guessedPalette(colors: [Int], alphas: [UInt8]) -> [PaletteColor] {
        var distinct: [Int] = []
        for k in 0..<4 where alphas[k] != 0 && !distinct.contains(colors[k]) { distinct.append(colors[k]) }
        let levels: [[UInt8]] = [[0xFF], [0x00, 0xFF], [0x00, 0x80, 0xFF], [0x00, 0x55, 0xAA, 0xFF]]
        return (0..<4).map { k in
            guard alphas[k] != 0, let n = distinct.firstIndex(of: colors[k]) else { return PaletteColor(red: 0, green: 0, blue: 0, alpha: 0) }
            let level = levels[distinct.count - 1][n]
            return PaletteColor(red: level, green: level, blue: level, alpha: UInt8(Int(alphas[k]) * 17))
        }
    }

    /// The largest subpicture unit (its size field is 16 bits).
    static let largestUnit = 65_535

    /// The subpicture unit whose first pack is at `position`: the private-stream-1 payloads of
    /// `substream` gathered until the unit's declared size.
    static func subpictureUnit(_ sub: [UInt8], at position: Int, substream: UInt8) throws(Problem) -> [UInt8] {
        var unit: [UInt8] = []
        var expected: Int?
        var i = position
        while i + 4 <= sub.count {
            if let expected, unit.count >= expected { break }
            guard sub[i] == 0, sub[i + 1] == 0, sub[i + 2] == 1 else {
                throw Problem(line: nil, offset: i, reason: "no MPEG start code where a pack or PES packet should begin")
            }
            let code = sub[i + 3]
            switch code {
            case 0xBA:
                // Pack header: MPEG-2 (14 bytes + stuffing) or MPEG-1 (12 bytes).
                guard i + 14 <= sub.count else { throw Problem(line: nil, offset: i, reason: "a pack header is cut short") }
                i += sub[i + 4] & 0xC0 == 0x40 ? 14 + Int(sub[i + 13] & 0x07) : 12
            case 0xB9:
                i += 4
            default:
                guard i + 6 <= sub.count else { throw Problem(line: nil, offset: i, reason: "a PES packet header is cut short") }
                let length = Int(sub[i + 4]) << 8 | Int(sub[i + 5])
                let end = i + 6 + length
                guard end <= sub.count else { throw Problem(line: nil, offset: i, reason: "a PES packet of \(length) bytes runs past the end of the file") }
                if code == 0xBD, i + 9 <= end {
                    let headerLength = Int(sub[i + 8])
                    let payload = i + 9 + headerLength
                    if payload < end, sub[payload] == substream {
                        unit += sub[(payload + 1)..<end]
                        if expected == nil, unit.count >= 2 { expected = Int(unit[0]) << 8 | Int(unit[1]) }
                    }
                }
                i = end
            }
        }
        guard let expected, expected >= 4, unit.count >= expected else {
            throw Problem(line: nil, offset: position, reason: "the subpicture unit here is incomplete (its packets end before its declared size)")
        }
        return Array(unit.prefix(expected))
    }

    /// Decodes a subpicture unit: its picture, timed from the unit's own start (nil for a unit
    /// that shows nothing: a stop alone, or an empty area).
    static func decode(_ unit: [UInt8], palette: [PaletteColor]?, offset: Int) throws(Problem) -> SubtitlePicture? {
        func fail(_ reason: String) -> Problem { Problem(line: nil, offset: offset, reason: reason) }
        let size = unit.count
        let control = Int(unit[2]) << 8 | Int(unit[3])
        guard control >= 4, control < size else { throw fail("the control sequence offset \(control) lies outside the unit") }
        var colors: [Int] = [0, 1, 2, 3]
        var alphas: [UInt8] = [0, 15, 15, 15]
        var area: (x1: Int, x2: Int, y1: Int, y2: Int)?
        var fields: (Int, Int)?
        var start: MediaTime?
        var stop: MediaTime?
        var forced = false
        var sequence = control
        var seen = Set<Int>()
        while sequence + 4 <= size, seen.insert(sequence).inserted {
            let date = Int(unit[sequence]) << 8 | Int(unit[sequence + 1])
            let next = Int(unit[sequence + 2]) << 8 | Int(unit[sequence + 3])
            let time = MediaTime(ticks: Int64(date) * 1024)
            var i = sequence + 4
            commands: while i < size {
                let command = unit[i]
                i += 1
                switch command {
                case 0x00:
                    forced = true
                    start = start ?? time
                case 0x01: start = start ?? time
                case 0x02: stop = stop ?? time
                case 0x03:
                    guard i + 2 <= size else { throw fail("SET_COLOR is cut short") }
                    colors = [Int(unit[i + 1] & 0x0F), Int(unit[i + 1] >> 4), Int(unit[i] & 0x0F), Int(unit[i] >> 4)]
                    i += 2
                case 0x04:
                    guard i + 2 <= size else { throw fail("SET_CONTR is cut short") }
                    alphas = [unit[i + 1] & 0x0F, unit[i + 1] >> 4, unit[i] & 0x0F, unit[i] >> 4]
                    i += 2
                case 0x05:
                    guard i + 6 <= size else { throw fail("SET_DAREA is cut short") }
                    let b = unit[i..<i + 6].map(Int.init)
                    area = ((b[0] << 4) | (b[1] >> 4), ((b[1] & 0x0F) << 8) | b[2], (b[3] << 4) | (b[4] >> 4), ((b[4] & 0x0F) << 8) | b[5])
                    i += 6
                case 0x06:
                    guard i + 4 <= size else { throw fail("SET_DSPXA is cut short") }
                    fields = (Int(unit[i]) << 8 | Int(unit[i + 1]), Int(unit[i + 2]) << 8 | Int(unit[i + 3]))
                    i += 4
                case 0x07:
                    // CHG_COLCON: a size, then colour and contrast changes by area, not used here.
                    guard i + 2 <= size else { throw fail("CHG_COLCON is cut short") }
                    i += Int(unit[i]) << 8 | Int(unit[i + 1])
                case 0xFF: break commands
                default: throw fail("unknown control command 0x\(String(command, radix: 16)) at unit byte \(i - 1)")
                }
            }
            if next == sequence { break }
            sequence = next
        }
        guard let area, let fields, start != nil else { return nil }
        let width = area.x2 - area.x1 + 1, height = area.y2 - area.y1 + 1
        guard width > 0, height > 0 else { return nil }
        guard width * height <= SubtitlePicture.largestArea else { throw fail("a \(width)×\(height) picture is larger than any frame") }
        guard fields.0 >= 4, fields.0 < control, fields.1 >= 4, fields.1 < control else { throw fail("the pixel data offsets lie outside the unit") }
        var indices = [UInt8](repeating: 0, count: width * height)
        // Top field: even rows from fields.0; bottom field: odd rows from fields.1.
        for (field, begin) in [(0, fields.0), (1, fields.1)] {
            var reader = NibbleReader(unit, from: begin, to: control)
            var row = field
            while row < height {
                var column = 0
                while column < width {
                    guard let code = reader.runCode() else { break }
                    let color = UInt8(code & 3)
                    var run = code >> 2
                    if run == 0 { run = width - column }
                    let count = min(run, width - column)
                    let base = row * width + column
                    for k in 0..<count { indices[base + k] = color }
                    column += count
                }
                reader.alignToByte()
                if reader.exhausted { break }
                row += 2
            }
        }
        let entries =
            palette.map { palette in
                (0..<4).map { k -> PaletteColor in
                    var color = palette.indices.contains(colors[k]) ? palette[colors[k]] : PaletteColor(red: 0, green: 0, blue: 0)
                    color.alpha = UInt8(Int(alphas[k]) * 17)
                    return color
                }
            } ?? guessedPalette(colors: colors, alphas: alphas)
        var picture = SubtitlePicture(
            start: start ?? .zero, end: stop, x: area.x1, y: area.y1, width: width, height: height, indices: indices, palette: entries, offset: offset)
        picture.forced = forced
        return picture
    }

    /// Reads the 4-bit codes of an SPU's run-length pixel data.
    struct NibbleReader {
        let data: [UInt8]
        var position: Int  // in nibbles
        let end: Int  // in nibbles

        init(_ data: [UInt8], from byte: Int, to endByte: Int) {
            self.data = data
            position = byte * 2
            end = endByte * 2
        }

        var exhausted: Bool { position >= end }

        mutating func nibble() -> Int? {
            guard position < end else { return nil }
            let byte = data[position / 2]
            let value = position % 2 == 0 ? byte >> 4 : byte & 0x0F
            position += 1
            return Int(value)
        }

        /// One run: 4, 8, 12 or 16 bits (the more leading zero nibbles, the longer), run length
        /// in all but the 2 low bits, colour in those.
        mutating func runCode() -> Int? {
            guard var value = nibble() else { return nil }
            if value < 0x4 {
                guard let n = nibble() else { return nil }
                value = value << 4 | n
                if value < 0x10 {
                    guard let n = nibble() else { return nil }
                    value = value << 4 | n
                    if value < 0x40 {
                        guard let n = nibble() else { return nil }
                        value = value << 4 | n
                    }
                }
            }
            return value
        }

        mutating func alignToByte() { if position % 2 == 1 { position += 1 } }
    }
}

extension StringProtocol {
    /// Without the spaces, tabs and carriage returns at either end.
    var trimmedOfSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
