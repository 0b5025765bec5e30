import Foundation

/// Writes Blu-ray presentation graphics (`.sup`) from pictures given as palette indices.
///
/// No writer is packaged for Debian, so the tests make their own and check it against ffmpeg's
/// PGS decoder. One display set per picture (epoch start: composition, window, palette, object,
/// end) at its start, and an empty composition at its end.
public enum PGSWriter {
    /// A picture: when, where, its indices (row by row) and its palette (RGBA).
    public struct Picture {
        public var start: Double
        public var end: Double
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var indices: [UInt8]
        public var palette: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)]
        /// Shown even with subtitles off (the composition object's forced flag, 0x40).
        public var forced = false

        public init(start: Double, end: Double, x: Int, y: Int, width: Int, height: Int, indices: [UInt8], palette: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)])
        {
            self.start = start
            self.end = end
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.indices = indices
            self.palette = palette
        }
    }

    public static func sup(_ pictures: [Picture], frameWidth: Int, frameHeight: Int) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func segment(_ type: UInt8, _ time: Double, _ body: [UInt8]) {
            let pts = UInt32(max(0, (time * 90000).rounded()))
            out +=
                [0x50, 0x47, UInt8(pts >> 24), UInt8(pts >> 16 & 0xFF), UInt8(pts >> 8 & 0xFF), UInt8(pts & 0xFF), 0, 0, 0, 0, type] + u16(body.count) + body
        }
        for (n, picture) in pictures.enumerated() {
            let number = 2 * n
            // PCS: an epoch start showing object 0 in window 0 at (x, y).
            segment(
                0x16, picture.start,
                u16(frameWidth) + u16(frameHeight) + [0x10] + u16(number) + [0x80, 0x00, 0x00, 1] + u16(0) + [0, picture.forced ? 0x40 : 0]
                    + u16(picture.x) + u16(picture.y))
            segment(0x17, picture.start, [1, 0] + u16(picture.x) + u16(picture.y) + u16(picture.width) + u16(picture.height))
            var palette: [UInt8] = [0, 0]
            for (entry, color) in picture.palette.enumerated() {
                let r = Double(color.r), g = Double(color.g), b = Double(color.b)
                let y = 16 + 0.257 * r + 0.504 * g + 0.098 * b
                let cb = 128 - 0.148 * r - 0.291 * g + 0.439 * b
                let cr = 128 + 0.439 * r - 0.368 * g - 0.071 * b
                func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
                palette += [UInt8(entry), byte(y), byte(cr), byte(cb), color.a]
            }
            segment(0x14, picture.start, palette)
            let data = rle(picture)
            segment(
                0x15, picture.start,
                u16(0) + [0, 0xC0] + [UInt8((data.count + 4) >> 16), UInt8((data.count + 4) >> 8 & 0xFF), UInt8((data.count + 4) & 0xFF)]
                    + u16(picture.width) + u16(picture.height) + data)
            segment(0x80, picture.start, [])
            // The end: an empty composition.
            segment(0x16, picture.end, u16(frameWidth) + u16(frameHeight) + [0x10] + u16(number + 1) + [0x00, 0x00, 0x00, 0])
            segment(0x17, picture.end, [0])
            segment(0x80, picture.end, [])
        }
        return out
    }

    /// PGS run-length coding, line by line.
    static func rle(_ picture: Picture) -> [UInt8] {
        var out: [UInt8] = []
        for row in 0..<picture.height {
            var column = 0
            while column < picture.width {
                let color = picture.indices[row * picture.width + column]
                var run = 1
                while column + run < picture.width, run < 16383, picture.indices[row * picture.width + column + run] == color { run += 1 }
                if color != 0 && run < 3 {
                    out += [UInt8](repeating: color, count: run)
                } else if color == 0 {
                    out += run < 64 ? [0, UInt8(run)] : [0, 0x40 | UInt8(run >> 8), UInt8(run & 0xFF)]
                } else {
                    out += run < 64 ? [0, 0x80 | UInt8(run), color] : [0, 0xC0 | UInt8(run >> 8), UInt8(run & 0xFF), color]
                }
                column += run
            }
            out += [0, 0]
        }
        return out
    }
}
