import Timebase

/// Blu-ray presentation graphics (PGS, a `.sup` file): a sequence of segments, each `PG`, a
/// presentation and a decoding timestamp (90 kHz), a type and a size.
///
/// A display set is a presentation composition (PCS: the video size, the composition state, the
/// palette, the objects shown and where, forced or not), window definitions (WDS), palettes
/// (PDS: entries of Y, Cr, Cb and alpha), object definitions (ODS: a run-length bitmap, split over
/// segments when large) and an END. A set whose composition shows objects starts a picture at its
/// timestamp; the next set (another composition, or none: an empty one ends the display) ends it.
public enum PGS {
    /// A problem in a `.sup` file: where (a byte offset) and what.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "byte \(offset): \(reason)" }
    }

    /// The pictures of a `.sup` file, and what could not be read (each with its byte offset).
    ///
    /// Reading stops at a segment that is not one (no `PG`, a size past the end): said, with
    /// the pictures before it kept. The first 20 problems are listed; past them, one more entry
    /// (at the first left out) says how many more there were.
    public static func pictures(_ data: [UInt8]) -> (pictures: [SubtitlePicture], problems: [Problem]) {
        var pictures: [SubtitlePicture] = []
        var problems: [Problem] = []
        var palettes: [Int: [Int: PaletteColor]] = [:]
        var objects: [Int: (width: Int, height: Int, data: [UInt8], expected: Int)] = [:]
        var composition: (start: MediaTime, width: Int, height: Int, paletteID: Int, shown: [(object: Int, x: Int, y: Int, forced: Bool)])?
        var compositionOffset = 0
        var open: [Int] = []  // indices of pictures shown until the next composition
        var lastRaw: Int64 = 0
        var budget = SubtitlePicture.pixelBudget(inputBytes: data.count)
        var wraps: Int64 = 0
        var i = 0
        let problemLimit = 20
        var leftOut: (count: Int, first: Int)?
        func note(_ offset: Int, _ reason: String) {
            if problems.count < problemLimit {
                problems.append(Problem(offset: offset, reason: reason))
            } else {
                leftOut = ((leftOut?.count ?? 0) + 1, leftOut?.first ?? offset)
            }
        }
        while i + 13 <= data.count {
            guard data[i] == 0x50, data[i + 1] == 0x47 else {
                note(i, "no \"PG\" where a segment should begin; the rest of the file was not read")
                break
            }
            let raw = Int64(data[i + 2]) << 24 | Int64(data[i + 3]) << 16 | Int64(data[i + 4]) << 8 | Int64(data[i + 5])
            // 32-bit timestamps: one that falls back by more than half their range has wrapped.
            if raw + (1 << 31) < lastRaw { wraps += 1 }
            lastRaw = raw
            let pts = raw + wraps << 32
            guard pts <= MediaTime.limit else {
                note(i, "the timestamps wrap past the range of media time; the rest of the file was not read")
                break
            }
            let type = data[i + 10]
            let size = Int(data[i + 11]) << 8 | Int(data[i + 12])
            let body = i + 13
            guard body + size <= data.count else {
                note(i, "a segment of \(size) bytes runs past the end of the file")
                break
            }
            let s = Array(data[body..<body + size])
            let time = MediaTime(ticks: pts)
            switch type {
            case 0x16:  // PCS
                guard s.count >= 11 else {
                    note(i, "a presentation composition is cut short")
                    break
                }
                // A new composition ends what was shown.
                for k in open where pictures[k].end == nil { pictures[k].end = max(time, pictures[k].start) }
                open = []
                let width = Int(s[0]) << 8 | Int(s[1]), height = Int(s[2]) << 8 | Int(s[3])
                let state = s[7]
                if state & 0x80 != 0 {
                    // Epoch start: nothing carries over.
                    objects = [:]
                    palettes = [:]
                }
                var shown: [(Int, Int, Int, Bool)] = []
                var k = 11
                for _ in 0..<Int(s[10]) {
                    guard k + 8 <= s.count else {
                        note(i, "a composition object is cut short")
                        break
                    }
                    let flags = s[k + 3]
                    shown.append((Int(s[k]) << 8 | Int(s[k + 1]), Int(s[k + 4]) << 8 | Int(s[k + 5]), Int(s[k + 6]) << 8 | Int(s[k + 7]), flags & 0x40 != 0))
                    k += flags & 0x80 != 0 ? 16 : 8
                }
                composition = (time, width, height, Int(s[9]), shown)
                compositionOffset = i
            case 0x14:  // PDS
                guard s.count >= 2 else { break }
                var palette = palettes[Int(s[0])] ?? [:]
                var k = 2
                while k + 5 <= s.count {
                    palette[Int(s[k])] = PaletteColor(y: s[k + 1], cb: s[k + 3], cr: s[k + 2], alpha: s[k + 4])
                    k += 5
                }
                palettes[Int(s[0])] = palette
            case 0x15:  // ODS
                guard s.count >= 4 else {
                    note(i, "an object definition is cut short")
                    break
                }
                let id = Int(s[0]) << 8 | Int(s[1])
                let sequence = s[3]
                if sequence & 0x80 != 0 {
                    guard s.count >= 11 else {
                        note(i, "an object's first segment is cut short")
                        break
                    }
                    let length = Int(s[4]) << 16 | Int(s[5]) << 8 | Int(s[6])
                    let width = Int(s[7]) << 8 | Int(s[8]), height = Int(s[9]) << 8 | Int(s[10])
                    objects[id] = (width, height, Array(s[11...]), max(0, length - 4))
                } else if var object = objects[id] {
                    object.data += s[4...]
                    objects[id] = object
                }
            case 0x17:  // WDS: windows bound where objects may show; the objects' places are what count here.
                break
            case 0x80:  // END: the display set is complete.
                guard let set = composition else { break }
                for shown in set.shown {
                    guard let object = objects[shown.object] else {
                        note(compositionOffset, "a composition shows object \(shown.object), which no object definition gave")
                        continue
                    }
                    let palette = palettes[set.paletteID] ?? [:]
                    // An object larger than any frame is refused by the decoder, with its own message.
                    if object.width * object.height <= SubtitlePicture.largestArea { budget -= object.width * object.height }
                    guard budget >= 0 else {
                        note(compositionOffset, "the pictures claim more pixels than a file this size can hold; the rest were not read")
                        break
                    }
                    do throws(Problem) {
                        let indices = try decode(object.data, width: object.width, height: object.height, offset: compositionOffset)
                        var colors = [PaletteColor](repeating: PaletteColor(red: 0, green: 0, blue: 0, alpha: 0), count: 256)
                        for (entry, color) in palette { colors[entry] = color }
                        var picture = SubtitlePicture(
                            start: set.start, end: nil, x: shown.x, y: shown.y, width: object.width, height: object.height, indices: indices,
                            palette: colors, offset: compositionOffset)
                        picture.frameWidth = set.width
                        picture.frameHeight = set.height
                        picture.forced = shown.forced
                        if !picture.isBlank {
                            open.append(pictures.count)
                            pictures.append(picture)
                        }
                    } catch {
                        note(error.offset, error.reason)
                    }
                }
                composition = nil
            default:
                note(i, "unknown segment type 0x\(String(type, radix: 16)), skipped")
            }
            i = body + size
        }
        for k in open where pictures[k].end == nil { pictures[k].end = pictures[k].start + MediaTime(milliseconds: 5000) }
        if let leftOut {
            problems.append(
                Problem(offset: leftOut.first, reason: "\(leftOut.count) more problem(s) from here on were left out (the first \(problemLimit) are listed)"))
        }
        return (pictures, problems)
    }

    /// A PGS run-length bitmap: a non-zero byte is one pixel of that colour; `00` then a code
    /// gives a run (of colour 0 or of the colour after it, of 6 or 14 bits of length) or the end
    /// of a line.
    static func decode(_ data: [UInt8], width: Int, height: Int, offset: Int) throws(Problem) -> [UInt8] {
        guard width > 0, height > 0, width * height <= SubtitlePicture.largestArea else {
            throw Problem(offset: offset, reason: "an object of \(width)×\(height) pixels is empty or larger than any frame")
        }
        var out = [UInt8](repeating: 0, count: width * height)
        var row = 0, column = 0, i = 0
        func put(_ color: UInt8, _ count: Int) {
            let n = min(count, max(0, width - column))
            if row < height, n > 0 { for k in 0..<n { out[row * width + column + k] = color } }
            column += n
        }
        while i < data.count, row < height {
            let byte = data[i]
            i += 1
            if byte != 0 {
                put(byte, 1)
                continue
            }
            guard i < data.count else { break }
            let code = data[i]
            i += 1
            if code == 0 {
                row += 1
                column = 0
                continue
            }
            var length = Int(code & 0x3F)
            if code & 0x40 != 0 {
                guard i < data.count else { break }
                length = length << 8 | Int(data[i])
                i += 1
            }
            var color: UInt8 = 0
            if code & 0x80 != 0 {
                guard i < data.count else { break }
                color = data[i]
                i += 1
            }
            put(color, length)
        }
        return out
    }
}
