/// A subtitle picture cleaned for OCR: black ink on white paper, grey levels, scaled up and with
/// a margin (Tesseract reads dark text on a light ground best, with letters some 20-30 pixels high).
public struct OCRImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width` × `height` grey levels, 0 black, 255 white, row by row.
    public let pixels: [UInt8]
    /// Whether its letters lean as italics do (``slant(ink:width:height:)``).
    public private(set) var italic = false

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The picture's text as ink: its letters' fill, not their outline or shadow.
    ///
    /// The visible colours split into a light and a dark class when they differ (a fill and its
    /// outline); the fill is the class whose pixels touch the transparent ground less (an outline
    /// surrounds its letter). One visible colour (no outline) is all ink. `scale` enlarges
    /// (nearest neighbour); `margin` pixels of paper go around.
    public init(_ picture: SubtitlePicture, scale: Int = 2, margin: Int = 12) {
        let w = picture.width, h = picture.height
        let palette = picture.palette
        func visible(_ index: UInt8) -> Bool { Int(index) < palette.count && palette[Int(index)].alpha >= 64 }
        // The colours used, found in one pass (a 256-colour palette is not searched per colour).
        var used = [Bool](repeating: false, count: 256)
        for index in picture.indices { used[Int(index)] = true }
        var lumas: [Int] = []
        for (i, color) in palette.enumerated() where i < 256 && used[i] && visible(UInt8(i)) { lumas.append(color.luma) }
        let ink: [Bool]
        if let low = lumas.min(), let high = lumas.max(), high - low >= 48 {
            let middle = (low + high) / 2
            func light(_ index: UInt8) -> Bool { palette[Int(index)].luma > middle }
            // How often each class touches the ground (or the picture's edge).
            var touching = [0, 0], counts = [0, 0]
            for row in 0..<h {
                for column in 0..<w {
                    let index = picture.indices[row * w + column]
                    guard visible(index) else { continue }
                    let cls = light(index) ? 1 : 0
                    counts[cls] += 1
                    var border = false
                    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                        let r = row + dr, c = column + dc
                        if r < 0 || r >= h || c < 0 || c >= w || !visible(picture.indices[r * w + c]) { border = true }
                    }
                    if border { touching[cls] += 1 }
                }
            }
            let lightRatio = Double(touching[1]) / Double(max(1, counts[1]))
            let darkRatio = Double(touching[0]) / Double(max(1, counts[0]))
            let fillIsLight = counts[0] == 0 || (counts[1] > 0 && lightRatio <= darkRatio)
            ink = picture.indices.map { visible($0) && light($0) == fillIsLight }
        } else {
            ink = picture.indices.map(visible)
        }
        let s = max(1, scale)
        // Letters that lean are italics (kept as they are: set upright, Tesseract read them worse).
        italic = Self.slant(ink: ink, width: w, height: h) >= 0.12
        width = w * s + 2 * margin
        height = h * s + 2 * margin
        var out = [UInt8](repeating: 255, count: width * height)
        for row in 0..<h {
            for column in 0..<w where ink[row * w + column] {
                for dy in 0..<s {
                    let base = (margin + row * s + dy) * width + margin + column * s
                    for dx in 0..<s { out[base + dx] = 0 }
                }
            }
        }
        pixels = out
    }

    /// How far the letters lean right, as a shear: horizontal pixels per row.
    ///
    /// The shear that makes their strokes most upright: the one whose column profile of ink is
    /// sharpest (the largest sum of squared column counts). Upright type gives about 0; italics
    /// and obliques 0.15-0.25.
    public static func slant(ink: [Bool], width: Int, height: Int) -> Double {
        guard width > 0, height > 1, ink.count == width * height else { return 0 }
        // Each line of text (a band of rows with ink) on its own: lines sit at their own offsets.
        var bands: [Range<Int>] = []
        var start: Int?
        for row in 0...height {
            let inked = row < height && ink[row * width..<(row + 1) * width].contains(true)
            if inked && start == nil { start = row }
            if !inked, let s = start {
                if row - s >= 4 { bands.append(s..<row) }
                start = nil
            }
        }
        var best = (shear: 0.0, sharpness: 0.0)
        var upright = 0.0
        for shear in stride(from: -0.1, through: 0.35, by: 0.05) {
            var sharpness = 0.0
            for band in bands {
                var columns = [Int](repeating: 0, count: width + band.count)
                for row in band {
                    // Rows higher up move left by `shear` per row, straightening a right lean.
                    let shift = Int((Double(band.upperBound - 1 - row) * shear).rounded())
                    for column in 0..<width where ink[row * width + column] {
                        let x = column - shift + band.count / 2
                        if x >= 0 && x < columns.count { columns[x] += 1 }
                    }
                }
                sharpness += columns.reduce(0.0) { $0 + Double($1 * $1) }
            }
            if abs(shear) < 0.001 { upright = sharpness }
            if sharpness > best.sharpness { best = (shear, sharpness) }
        }
        // A lean counts only when it is clearly sharper than upright.
        return best.sharpness > upright * 1.04 ? best.shear : 0
    }

    /// Images one above the other, `gap` rows of paper between them; the first row of each.
    public static func stacked(_ images: [OCRImage], gap: Int = 40) -> (image: OCRImage, tops: [Int]) {
        let width = images.map(\.width).max() ?? 1
        var pixels: [UInt8] = []
        var tops: [Int] = []
        for (n, image) in images.enumerated() {
            if n > 0 { pixels += [UInt8](repeating: 255, count: gap * width) }
            tops.append(pixels.count / width)
            for row in 0..<image.height {
                pixels += image.pixels[row * image.width..<(row + 1) * image.width]
                pixels += [UInt8](repeating: 255, count: width - image.width)
            }
        }
        return (OCRImage(width: width, height: max(1, pixels.count / max(1, width)), pixels: pixels.isEmpty ? [255] : pixels), tops)
    }

    /// The image as a binary PGM (P5), which Tesseract reads from its standard input.
    public var pgm: [UInt8] { Array("P5\n\(width) \(height)\n255\n".utf8) + pixels }
}
