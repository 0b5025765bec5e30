/// CEA-708's code sets beyond G0 and G1 (CTA-708-E §7.1.8–7.1.9).
enum CharacterSets708 {
    /// G0: ASCII, except 0x7F, the music note.
    static func g0(_ byte: UInt8) -> Character {
        byte == 0x7F ? "♪" : Character(Unicode.Scalar(byte))
    }

    /// G1: ISO 8859-1 (Latin-1) at 0xA0–0xFF.
    static func g1(_ byte: UInt8) -> Character { Character(Unicode.Scalar(byte)) }

    /// G2 (after EXT1): the characters CTA-708 defines; an unassigned code shows as an
    /// underscore, as the standard asks of a decoder that cannot draw a character.
    static func g2(_ byte: UInt8) -> Character {
        switch byte {
        case 0x20: return " "  // TSP, transparent space
        case 0x21: return "\u{00A0}"  // NBTSP, non-breaking transparent space
        case 0x25: return "…"
        case 0x2A: return "Š"
        case 0x2C: return "Œ"
        case 0x30: return "█"
        case 0x31: return "‘"
        case 0x32: return "’"
        case 0x33: return "“"
        case 0x34: return "”"
        case 0x35: return "•"
        case 0x39: return "™"
        case 0x3A: return "š"
        case 0x3C: return "œ"
        case 0x3D: return "℠"
        case 0x3F: return "Ÿ"
        case 0x76: return "⅛"
        case 0x77: return "⅜"
        case 0x78: return "⅝"
        case 0x79: return "⅞"
        case 0x7A: return "│"
        case 0x7B: return "┐"
        case 0x7C: return "└"
        case 0x7D: return "─"
        case 0x7E: return "┘"
        case 0x7F: return "┌"
        default: return "_"
        }
    }

    /// G3 (after EXT1): 0xA0 is the closed-caption icon, drawn as "[CC]"; nothing else is
    /// assigned (an underscore).
    static func g3(_ byte: UInt8) -> String { byte == 0xA0 ? "[CC]" : "_" }

    /// How many parameter bytes follow an EXT1 code in C2 (0x00–0x1F) or C3 (0x80–0x9F); C3's
    /// 0x90–0x9F are variable-length commands whose next byte's low 6 bits give the length.
    static func extendedParameterCount(_ code: UInt8, next: UInt8?) -> Int {
        switch code {
        case 0x00...0x07: return 0
        case 0x08...0x0F: return 1
        case 0x10...0x17: return 2
        case 0x18...0x1F: return 3
        case 0x80...0x87: return 4
        case 0x88...0x8F: return 5
        case 0x90...0x9F: return 1 + Int((next ?? 0) & 0x3F)
        default: return 0
        }
    }
}
