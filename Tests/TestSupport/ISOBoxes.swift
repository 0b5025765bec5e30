/// ISO BMFF boxes composed by hand (ISO/IEC 14496-12), for text tracks no encoder on Debian
/// writes: every field named as the standard names it.
public enum ISOBoxes {
    /// A box: 32-bit size, four-character type, payload.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A full box: a box whose payload starts with version (8 bits) and flags (24 bits).
    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(uint32(flags).dropFirst()) + payload)
    }

    public static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
    public static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
    /// The unity matrix of mvhd and tkhd.
    static let matrix: [UInt8] = [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].flatMap { uint32(UInt32($0)) }

    /// An initialisation segment (`ftyp`, `moov` with `mvex`) of one text track whose sample entry
    /// is `entry` (`wvtt` with its `vttC`, or `stpp` with its namespace), on a 1000 Hz timescale.
    public static func textInitialization(entry: String) -> [UInt8] {
        let ftyp = box("ftyp", Array("iso6".utf8) + uint32(0) + Array("iso6dash".utf8))
        // mvhd: creation, modification, timescale, duration, rate, volume, reserved, matrix,
        // pre_defined, next_track_ID.
        let mvhd = fullBox(
            "mvhd", uint32(0) + uint32(0) + uint32(1000) + uint32(0) + uint32(0x0001_0000) + uint16(0x0100) + zeros(10) + matrix + zeros(24) + uint32(2))
        // tkhd (enabled, in movie): creation, modification, track_ID, reserved, duration,
        // reserved, layer, alternate_group, volume, reserved, matrix, width, height.
        let tkhd = fullBox(
            "tkhd", flags: 3,
            uint32(0) + uint32(0) + uint32(1) + uint32(0) + uint32(0) + zeros(8) + uint16(0) + uint16(0) + uint16(0) + uint16(0) + matrix + uint32(0)
                + uint32(0))
        // mdhd: creation, modification, timescale, duration, language ("und", packed), pre_defined.
        let mdhd = fullBox("mdhd", uint32(0) + uint32(0) + uint32(1000) + uint32(0) + uint16(0x55C4) + uint16(0))
        let handler = entry == "stpp" ? "subt" : "text"
        let hdlr = fullBox("hdlr", uint32(0) + Array(handler.utf8) + zeros(12) + [0])
        let sampleEntry: [UInt8]
        if entry == "wvtt" {
            sampleEntry = box("wvtt", zeros(6) + uint16(1) + box("vttC", Array("WEBVTT".utf8)))
        } else {
            // XMLSubtitleSampleEntry: namespace, schema_location, auxiliary_mime_types (C strings).
            sampleEntry = box(entry, zeros(6) + uint16(1) + Array("http://www.w3.org/ns/ttml\0\0\0".utf8))
        }
        let stsd = fullBox("stsd", uint32(1) + sampleEntry)
        let stbl = box(
            "stbl", stsd + fullBox("stts", uint32(0)) + fullBox("stsc", uint32(0)) + fullBox("stsz", uint32(0) + uint32(0)) + fullBox("stco", uint32(0)))
        let dinf = box("dinf", fullBox("dref", uint32(1) + fullBox("url ", flags: 1, [])))
        let minf = box("minf", fullBox(entry == "stpp" ? "sthd" : "nmhd", []) + dinf + stbl)
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + minf))
        // trex: track_ID, default sample description index, duration, size, flags.
        let mvex = box("mvex", fullBox("trex", uint32(1) + uint32(1) + uint32(0) + uint32(0) + uint32(0)))
        return ftyp + box("moov", mvhd + trak + mvex)
    }
}
