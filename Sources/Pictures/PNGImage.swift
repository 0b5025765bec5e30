/// A picture as a PNG file (RGBA, 8 bits; the zlib stream in stored blocks: no compression, so
/// no compressor is needed and the bytes are what any viewer reads).
public enum PNGImage {
    /// `picture` over a mid-grey ground, as a reviewer sees it beside the text read from it.
    public static func png(_ picture: SubtitlePicture) -> [UInt8] {
        var rgba: [UInt8] = []
        rgba.reserveCapacity(picture.width * picture.height * 4)
        for index in picture.indices {
            let color = Int(index) < picture.palette.count ? picture.palette[Int(index)] : PaletteColor(red: 0, green: 0, blue: 0, alpha: 0)
            let a = Int(color.alpha)
            func over(_ c: UInt8) -> UInt8 { UInt8((Int(c) * a + 128 * (255 - a)) / 255) }
            rgba += [over(color.red), over(color.green), over(color.blue), 255]
        }
        return png(width: picture.width, height: picture.height, rgba: rgba)
    }

    /// A PNG of `width` × `height` RGBA pixels, row by row.
    public static func png(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 4 + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw += rgba[row * width * 4..<(row + 1) * width * 4]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        zlib += bigEndian(adler32(raw))
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
        out += chunk("IDAT", zlib)
        out += chunk("IEND", [])
        return out
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
