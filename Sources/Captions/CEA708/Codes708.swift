/// The code points of a CEA-708 service block (CTA-708-E §7.1), by name.
///
/// What the service decoder switches on: ranges are the code spaces, single codes the commands.
enum Codes708 {
    // Code spaces (§7.1.1).
    /// C0: control codes (§7.1.4).
    static let c0: ClosedRange<UInt8> = 0x00...0x1F
    /// G0: the ASCII-like printable characters (§7.1.6).
    static let g0: ClosedRange<UInt8> = 0x20...0x7F
    /// C1: the caption commands (§7.1.5).
    static let c1: ClosedRange<UInt8> = 0x80...0x9F
    /// After EXT1: G2, more characters (§7.1.8).
    static let g2: ClosedRange<UInt8> = 0x20...0x7F
    /// After EXT1: G3, the caption icon and future characters (§7.1.9).
    static let g3: ClosedRange<UInt8> = 0xA0...0xFF

    // C0 (§7.1.4).
    /// ETX: the text so far is complete.
    static let endOfText: UInt8 = 0x03
    /// BS: backspace.
    static let backspace: UInt8 = 0x08
    /// FF: form feed, the window cleared and the pen home.
    static let formFeed: UInt8 = 0x0C
    /// CR: carriage return.
    static let carriageReturn: UInt8 = 0x0D
    /// HCR: horizontal carriage return, the row cleared.
    static let horizontalCarriageReturn: UInt8 = 0x0E
    /// EXT1: the next byte is from the extended code spaces (C2, C3, G2, G3).
    static let extended: UInt8 = 0x10
    /// Unassigned C0 codes with one parameter byte.
    static let c0OneParameter: ClosedRange<UInt8> = 0x11...0x17
    /// P16: a 16-bit character code follows.
    static let p16: UInt8 = 0x18
    /// Unassigned C0 codes with two parameter bytes.
    static let c0TwoParameters: ClosedRange<UInt8> = 0x19...0x1F

    // C1 (§7.1.5, §8.10.5).
    /// CW0–CW7: SetCurrentWindow.
    static let setCurrentWindow: ClosedRange<UInt8> = 0x80...0x87
    /// CLW: ClearWindows (a window bitmap follows, as for the next four).
    static let clearWindows: UInt8 = 0x88
    /// DSW: DisplayWindows.
    static let displayWindows: UInt8 = 0x89
    /// HDW: HideWindows.
    static let hideWindows: UInt8 = 0x8A
    /// TGW: ToggleWindows.
    static let toggleWindows: UInt8 = 0x8B
    /// DLW: DeleteWindows.
    static let deleteWindows: UInt8 = 0x8C
    /// CLW, DSW, HDW, TGW and DLW: each with a window bitmap.
    static let windowBitmapCommands: ClosedRange<UInt8> = 0x88...0x8C
    /// DLY: Delay, in tenths of a second.
    static let delay: UInt8 = 0x8D
    /// DLC: DelayCancel.
    static let delayCancel: UInt8 = 0x8E
    /// RST: Reset.
    static let reset: UInt8 = 0x8F
    /// SPA: SetPenAttributes.
    static let setPenAttributes: UInt8 = 0x90
    /// SPC: SetPenColor.
    static let setPenColor: UInt8 = 0x91
    /// SPL: SetPenLocation.
    static let setPenLocation: UInt8 = 0x92
    /// SWA: SetWindowAttributes.
    static let setWindowAttributes: UInt8 = 0x97
    /// DF0–DF7: DefineWindow.
    static let defineWindow: ClosedRange<UInt8> = 0x98...0x9F
}
