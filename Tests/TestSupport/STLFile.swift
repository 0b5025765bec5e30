import Foundation

/// EBU STL files (EBU Tech 3264) built byte by byte for tests: a GSI block, then TTI blocks.
public struct STLFile: Sendable {
    public struct Block: Sendable {
        public var number: UInt16
        public var timeIn: (UInt8, UInt8, UInt8, UInt8)
        public var timeOut: (UInt8, UInt8, UInt8, UInt8)
        public var text: [UInt8]
        public var verticalPosition: UInt8 = 20
        public var justification: UInt8 = 2
        public var cumulative: UInt8 = 0
        public var extensionNumber: UInt8 = 0xFF
        public var comment = false

        public init(
            _ number: UInt16, _ timeIn: (UInt8, UInt8, UInt8, UInt8), _ timeOut: (UInt8, UInt8, UInt8, UInt8), _ text: [UInt8],
            verticalPosition: UInt8 = 20, justification: UInt8 = 2, cumulative: UInt8 = 0, extensionNumber: UInt8 = 0xFF, comment: Bool = false
        ) {
            self.number = number
            self.timeIn = timeIn
            self.timeOut = timeOut
            self.text = text
            self.verticalPosition = verticalPosition
            self.justification = justification
            self.cumulative = cumulative
            self.extensionNumber = extensionNumber
            self.comment = comment
        }

        var bytes: [UInt8] {
            var b = [UInt8](repeating: 0, count: 128)
            b[1] = UInt8(number & 0xFF)
            b[2] = UInt8(number >> 8)
            b[3] = extensionNumber
            b[4] = cumulative
            (b[5], b[6], b[7], b[8]) = timeIn
            (b[9], b[10], b[11], b[12]) = timeOut
            b[13] = verticalPosition
            b[14] = justification
            b[15] = comment ? 1 : 0
            let field = Array(text.prefix(112))
            b.replaceSubrange(16..<(16 + field.count), with: field)
            for i in (16 + field.count)..<128 { b[i] = 0x8F }
            return b
        }
    }

    public var diskFormat = "STL25.01"
    /// "0" open subtitling, "1" teletext level 1.
    public var displayStandard = "1"
    public var characterTable = "00"
    public var timeCodeStatus = "0"
    public var programmeStart = "00000000"
    public var maximumRows = "23"
    public var blocks: [Block] = []

    public init(blocks: [Block] = []) { self.blocks = blocks }

    public var bytes: [UInt8] {
        var g = [UInt8](repeating: 0x20, count: 1024)
        func put(_ text: String, at offset: Int) { for (i, byte) in text.utf8.enumerated() { g[offset + i] = byte } }
        put("850", at: 0)
        put(diskFormat, at: 3)
        put(displayStandard, at: 11)
        put(characterTable, at: 12)
        put("09", at: 14)
        put("Test programme", at: 16)
        put(String(format: "%05d", blocks.count), at: 238)
        put(String(format: "%05d", blocks.count), at: 243)
        put("001", at: 248)
        put("40", at: 251)
        put(maximumRows, at: 253)
        put(timeCodeStatus, at: 255)
        put(programmeStart, at: 256)
        put(programmeStart, at: 264)
        put("11GBR", at: 272)
        return g + blocks.flatMap(\.bytes)
    }
}
