import Timebase

/// One subtitle shown as a picture (DVD VobSub, DVB subtitles, Blu-ray PGS): where and when it
/// shows, and its pixels as palette indices.
public struct SubtitlePicture: Sendable, Equatable {
    /// When it shows, on the stream's timeline; `end` nil until the stream says (the next
    /// picture, or a time-out, ends it).
    public var start: MediaTime
    public var end: MediaTime?
    /// Its place on the video frame, in the frame's pixels.
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The frame it is placed on (the display size), when the stream says it.
    public var frameWidth: Int?
    public var frameHeight: Int?
    /// `width` × `height` palette indices, row by row.
    public var indices: [UInt8]
    /// The colours the indices name.
    public var palette: [PaletteColor]
    /// Shown whatever the viewer chose (a forced subtitle: DVD FSTA_DSP, PGS's forced flag).
    public var forced = false
    /// Where in the source it was read (a byte offset), for messages.
    public var offset: Int

    public init(
        start: MediaTime, end: MediaTime?, x: Int, y: Int, width: Int, height: Int, indices: [UInt8], palette: [PaletteColor], offset: Int
    ) {
        self.start = start
        self.end = end
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.indices = indices
        self.palette = palette
        self.offset = offset
    }

    /// The largest picture a decoder makes, in pixels (a 4K frame); a stream that claims more is
    /// damaged or hostile and its picture is refused.
    public static let largestArea = 4096 * 2160

    /// The most pixels a decoder makes from `inputBytes` bytes of a stream, all pictures together:
    /// 256 a byte (real subtitles take 30 to 100) and a 4K frame's worth, so that a small hostile
    /// file claiming huge pictures cannot make memory grow faster than its size.
    public static func pixelBudget(inputBytes: Int) -> Int { 256 * inputBytes + largestArea }

    /// `pictures` with each one a stream shows again unchanged from the moment it ended (a DVB
    /// page repeated at an acquisition point, a PGS epoch re-sent) joined to it: one picture,
    /// one cue, however often a broadcaster repeats it.
    public static func joiningRepeats(_ pictures: [SubtitlePicture]) -> [SubtitlePicture] {
        var result: [SubtitlePicture] = []
        // Pictures by the time they end, for the next one to find.
        var byEnd: [MediaTime: [Int]] = [:]
        for picture in pictures {
            if let candidates = byEnd[picture.start],
                let k = candidates.first(where: { result[$0].showsSame(as: picture) })
            {
                byEnd[picture.start]?.removeAll { $0 == k }
                result[k].end = picture.end
                if let end = picture.end { byEnd[end, default: []].append(k) }
                continue
            }
            if let end = picture.end { byEnd[end, default: []].append(result.count) }
            result.append(picture)
        }
        return result
    }

    /// Whether `other` shows the same pixels in the same place (a picture whose pixels were
    /// released shows nothing known).
    func showsSame(as other: SubtitlePicture) -> Bool {
        !indices.isEmpty && x == other.x && y == other.y && width == other.width && height == other.height && forced == other.forced && palette == other.palette
            && indices == other.indices
    }

    /// Whether anything in it is visible.
    public var isBlank: Bool {
        indices.allSatisfy { Int($0) >= palette.count || palette[Int($0)].alpha == 0 }
    }
}

/// A palette entry: red, green, blue and opacity (0 transparent, 255 opaque).
public struct PaletteColor: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From Y'CbCr (BT.601, video range), as DVB and PGS give their palettes.
    public init(y: UInt8, cb: UInt8, cr: UInt8, alpha: UInt8) {
        let luma = 1.164 * (Double(y) - 16)
        let b = Double(cb) - 128, r = Double(cr) - 128
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        self.init(red: clamp(luma + 1.596 * r), green: clamp(luma - 0.392 * b - 0.813 * r), blue: clamp(luma + 2.017 * b), alpha: alpha)
    }

    /// Perceived lightness, 0-255 (BT.601 weights).
    public var luma: Int { (299 * Int(red) + 587 * Int(green) + 114 * Int(blue)) / 1000 }
}
