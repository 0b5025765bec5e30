/// CEA-708 (CTA-708-E) caption channel packets and service-block commands, composed by hand.
///
/// For tests; every field is named as the standard names it.
public enum DTVCC {
    /// A caption channel packet (§5): the header byte — `sequence_number` (2 bits) and
    /// `packet_size_code` (6 bits: the packet's length in bytes, header included, is twice it;
    /// 0 means 128) — then service blocks, padded with a null byte to an even length.
    public static func packet(sequence: Int, blocks: [(service: Int, data: [UInt8])]) -> [UInt8] {
        var body: [UInt8] = []
        for block in blocks {
            precondition(block.data.count <= 31, "a service block holds at most 31 bytes")
            if block.service < 7 {
                body.append(UInt8(block.service) << 5 | UInt8(block.data.count))  // service_number, block_size
            } else {
                body.append(7 << 5 | UInt8(block.data.count))  // service_number 7: extended
                body.append(UInt8(block.service) & 0x3F)  // null_fill (2 bits), extended_service_number
            }
            body += block.data
        }
        if (body.count + 1) % 2 != 0 { body.append(0x00) }  // a null block header pads to an even size
        let size = (body.count + 1) / 2
        precondition(size <= 64)
        return [UInt8(sequence & 3) << 6 | UInt8(size == 64 ? 0 : size)] + body
    }

    /// `commands` for `service` as service blocks of at most 31 bytes each (a block's limit).
    public static func blocks(_ commands: [UInt8], service: Int) -> [(service: Int, data: [UInt8])] {
        stride(from: 0, to: commands.count, by: 31).map { (service, Array(commands[$0..<min($0 + 31, commands.count)])) }
    }

    /// The cc_data triplets of a packet: the first with cc_type 3 (DTVCC_PACKET_START), the rest
    /// with cc_type 2 (DTVCC_PACKET_DATA); each first byte is marker bits, cc_valid and cc_type.
    public static func triplets(_ packet: [UInt8]) -> [(UInt8, UInt8, UInt8)] {
        stride(from: 0, to: packet.count, by: 2).map { i in
            (i == 0 ? 0xFF : 0xFE, packet[i], i + 1 < packet.count ? packet[i + 1] : 0)
        }
    }

    /// DefineWindow DFn (§8.10.5.2), six parameter bytes.
    public static func defineWindow(
        _ id: Int, visible: Bool, priority: Int = 0, anchorVertical: Int = 0, anchorHorizontal: Int = 0, rows: Int = 2, columns: Int = 32,
        relative: Bool = false, anchorPoint: Int = 0, windowStyle: Int = 0, penStyle: Int = 0
    ) -> [UInt8] {
        [
            0x98 + UInt8(id),
            // 00, visible, row_lock, column_lock, priority (3 bits)
            (visible ? 0x20 : 0) | 0x18 | UInt8(priority & 7),
            // relative_positioning, anchor_vertical (7 bits)
            (relative ? 0x80 : 0) | UInt8(anchorVertical & 0x7F),
            // anchor_horizontal
            UInt8(anchorHorizontal & 0xFF),
            // anchor_point (4 bits), row_count - 1 (4 bits)
            UInt8(anchorPoint & 0x0F) << 4 | UInt8((rows - 1) & 0x0F),
            // 00, column_count - 1 (6 bits)
            UInt8((columns - 1) & 0x3F),
            // 00, window_style (3 bits), pen_style (3 bits)
            UInt8(windowStyle & 7) << 3 | UInt8(penStyle & 7),
        ]
    }

    /// SetCurrentWindow CWn.
    public static func setCurrentWindow(_ id: Int) -> [UInt8] { [0x80 + UInt8(id)] }
    /// The window-bitmap commands: ClearWindows, DisplayWindows, HideWindows, ToggleWindows, DeleteWindows.
    public static func clearWindows(_ ids: [Int]) -> [UInt8] { [0x88, bitmap(ids)] }
    public static func displayWindows(_ ids: [Int]) -> [UInt8] { [0x89, bitmap(ids)] }
    public static func hideWindows(_ ids: [Int]) -> [UInt8] { [0x8A, bitmap(ids)] }
    public static func toggleWindows(_ ids: [Int]) -> [UInt8] { [0x8B, bitmap(ids)] }
    public static func deleteWindows(_ ids: [Int]) -> [UInt8] { [0x8C, bitmap(ids)] }
    /// Delay (DLY), in tenths of a second; DelayCancel (DLC); Reset (RST).
    public static func delay(tenths: Int) -> [UInt8] { [0x8D, UInt8(tenths)] }
    public static let delayCancel: [UInt8] = [0x8E]
    public static let reset: [UInt8] = [0x8F]
    /// SetPenAttributes (§8.10.5.9): pen size, offset, text tag; italics, underline, edge, font.
    public static func setPenAttributes(italic: Bool = false, underline: Bool = false) -> [UInt8] {
        [0x90, 0x05, (italic ? 0x80 : 0) | (underline ? 0x40 : 0)]
    }
    /// SetPenColor: foreground, background, edge.
    public static let setPenColor: [UInt8] = [0x91, 0x2A, 0x00, 0x00]
    /// SetPenLocation (§8.10.5.11): row (4 bits), column (6 bits).
    public static func setPenLocation(row: Int, column: Int) -> [UInt8] { [0x92, UInt8(row & 0x0F), UInt8(column & 0x3F)] }
    /// SetWindowAttributes: fill, border, justify/print/scroll direction and word wrap, effect.
    public static let setWindowAttributes: [UInt8] = [0x97, 0x00, 0x00, 0x00, 0x00]
    /// The C0 codes.
    public static let etx: [UInt8] = [0x03], backspace: [UInt8] = [0x08], formFeed: [UInt8] = [0x0C]
    public static let carriageReturn: [UInt8] = [0x0D], horizontalCarriageReturn: [UInt8] = [0x0E]
    /// A G2 or G3 character: EXT1 then its code.
    public static func extended(_ code: UInt8) -> [UInt8] { [0x10, code] }
    /// P16: a 16-bit character.
    public static func p16(_ value: UInt16) -> [UInt8] { [0x18, UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// Text in G0 (ASCII) and G1 (Latin-1); other characters are not representable here.
    public static func text(_ s: String) -> [UInt8] {
        s.unicodeScalars.map { scalar in
            precondition(scalar.value >= 0x20 && scalar.value <= 0xFF && !(0x80...0x9F).contains(scalar.value), "not in G0/G1: \(scalar)")
            return UInt8(scalar.value)
        }
    }

    private static func bitmap(_ ids: [Int]) -> UInt8 { ids.reduce(0) { $0 | UInt8(1 << $1) } }
}
