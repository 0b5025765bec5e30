/// Writes an IMSC1 text track as fragmented MP4 (CMAF, ISO/IEC 14496-12 and -30): the
/// initialisation segment with an `stpp` sample entry, and one fragment per media segment, its
/// one sample a TTML document.
///
/// Apple's HLS Authoring Specification (5.4, 5.10) takes IMSC1 subtitles so: `EXT-X-MAP` naming
/// the initialisation segment, `CODECS="stpp.ttml.im1t"`. The track's timescale is 90 kHz, so
/// `tfdt` is the video's MPEG-TS timestamp of the segment's start, exactly.
package enum IMSCTrackWriter {
    /// The track's timescale.
    package static let timescale: UInt32 = 90_000

    /// The initialisation segment: `ftyp`, then `moov` with one `subt` track whose sample entry
    /// is `stpp` (namespace `http://www.w3.org/ns/ttml`, the IMSC1 text profile as its schema
    /// location), in `language` (ISO 639-2/T, three letters; `und` when unknown).
    package static func initialization(language: String) -> [UInt8] {
        let ftyp = box("ftyp", fourCC("iso6") + u32(0) + fourCC("isom") + fourCC("iso6") + fourCC("cmfc") + fourCC("im1t"))
        let mvhd = fullBox(
            "mvhd", version: 0, flags: 0,
            u32(0) + u32(0) + u32(1000) + u32(0) + u32(0x0001_0000) + u16(0x0100) + u16(0) + u32(0) + u32(0) + matrix + [UInt8](repeating: 0, count: 24)
                + u32(2))
        let tkhd = fullBox(
            "tkhd", version: 0, flags: 0x3,
            u32(0) + u32(0) + u32(1) + u32(0) + u32(0) + u32(0) + u32(0) + u16(0) + u16(0) + u16(0) + u16(0) + matrix + u32(0) + u32(0))
        let mdhd = fullBox("mdhd", version: 0, flags: 0, u32(0) + u32(0) + u32(timescale) + u32(0) + packedLanguage(language) + u16(0))
        let hdlr = fullBox("hdlr", version: 0, flags: 0, u32(0) + fourCC("subt") + u32(0) + u32(0) + u32(0) + Array("SubtitleHandler".utf8) + [0])
        let sthd = fullBox("sthd", version: 0, flags: 0, [])
        let dref = fullBox("dref", version: 0, flags: 0, u32(1) + fullBox("url ", version: 0, flags: 1, []))
        let stpp = box(
            "stpp",
            [UInt8](repeating: 0, count: 6) + u16(1) + Array("http://www.w3.org/ns/ttml".utf8) + [0] + Array(imscProfile.utf8) + [0] + [0]
                + box("mime", u32(0) + Array("application/ttml+xml;codecs=im1t".utf8) + [0]))
        let stsd = fullBox("stsd", version: 0, flags: 0, u32(1) + stpp)
        let stbl = box(
            "stbl",
            stsd + fullBox("stts", version: 0, flags: 0, u32(0)) + fullBox("stsc", version: 0, flags: 0, u32(0))
                + fullBox("stsz", version: 0, flags: 0, u32(0) + u32(0)) + fullBox("stco", version: 0, flags: 0, u32(0)))
        let minf = box("minf", sthd + box("dinf", dref) + stbl)
        let trak = box("trak", tkhd + box("mdia", mdhd + hdlr + minf))
        let mvex = box("mvex", fullBox("trex", version: 0, flags: 0, u32(1) + u32(1) + u32(0) + u32(0) + u32(0)))
        return ftyp + box("moov", mvhd + trak + mvex)
    }

    /// The IMSC1 text profile, the sample entry's schema location.
    static let imscProfile = "http://www.w3.org/ns/ttml/profile/imsc1/text"

    /// One fragment: `moof` (sequence `sequence`, from 1; `tfdt` `start`; one sample lasting
    /// `duration`, both in 90 kHz ticks) and `mdat` holding `document`.
    package static func fragment(sequence: UInt32, start: UInt64, duration: UInt32, document: [UInt8]) -> [UInt8] {
        let mfhd = fullBox("mfhd", version: 0, flags: 0, u32(sequence))
        // default-base-is-moof: the data offset counts from the moof's first byte.
        let tfhd = fullBox("tfhd", version: 0, flags: 0x02_0000, u32(1))
        let tfdt = fullBox("tfdt", version: 1, flags: 0, u64(start))
        // data-offset, sample-duration and sample-size present; the one sample is a sync sample.
        func moof(dataOffset: UInt32) -> [UInt8] {
            let trun = fullBox("trun", version: 0, flags: 0x000301, u32(1) + u32(dataOffset) + u32(duration) + u32(UInt32(document.count)))
            return box("moof", mfhd + box("traf", tfhd + tfdt + trun))
        }
        let size = moof(dataOffset: 0).count
        return moof(dataOffset: UInt32(size + 8)) + box("mdat", document)
    }

    /// A language as `mdhd` packs it: three letters, five bits each (ISO/IEC 14496-12 §8.4.2.3).
    static func packedLanguage(_ code: String) -> [UInt8] {
        var letters = Array(code.lowercased().utf8)
        if letters.count != 3 || !letters.allSatisfy({ (0x61...0x7A).contains($0) }) { letters = Array("und".utf8) }
        let value = letters.reduce(UInt16(0)) { $0 << 5 | UInt16($1 - 0x60) }
        return u16(value)
    }

    static let matrix: [UInt8] = u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x0001_0000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(UInt32(8 + payload.count)) + fourCC(type) + payload }
    static func fullBox(_ type: String, version: UInt8, flags: UInt32, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(truncatingIfNeeded: flags >> 16), UInt8(truncatingIfNeeded: flags >> 8), UInt8(truncatingIfNeeded: flags)] + payload)
    }
    static func fourCC(_ text: String) -> [UInt8] { Array(text.utf8.prefix(4)) }
    static func u16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    static func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    static func u64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (56 - 8 * $0)) } }
}
