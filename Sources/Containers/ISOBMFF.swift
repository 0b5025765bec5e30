/// ISO base media file format (ISO/IEC 14496-12) boxes, read just far enough for the timeline:
/// `moov/trak/tkhd` track IDs, `mdia/mdhd` timescales, `hdlr` handler types and `moof/traf/tfdt`
/// decode times.
public enum ISOBMFF {
    /// A box: its type and the byte ranges of the whole box and of its body.
    public struct Box: Sendable, Equatable {
        public let type: String
        public let range: Range<Int>
        public let body: Range<Int>
    }

    /// The boxes directly inside `range`. Stops at a box that claims to run past the range.
    public static func boxes(_ data: [UInt8], in range: Range<Int>) throws(ContainerError) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(readUInt32(data, offset))
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else {
                    throw ContainerError(.malformed, offset: offset, "box '\(type)' has a 64-bit size that is cut short")
                }
                let large = readUInt64(data, offset + 8)
                guard large <= UInt64(Int.max) else { throw ContainerError(.malformed, offset: offset, "box '\(type)' is impossibly large") }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header else {
                throw ContainerError(.malformed, offset: offset, "box '\(type)' declares size \(size), smaller than its header")
            }
            guard offset + size <= range.upperBound else {
                // A truncated last box: keep what is there (a byte-range read may cut an mdat).
                result.append(Box(type: type, range: offset..<range.upperBound, body: (offset + header)..<range.upperBound))
                break
            }
            result.append(Box(type: type, range: offset..<(offset + size), body: (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }

    /// True when `data` starts with a box type that ISO BMFF files start with.
    public static func looksLikeISOBMFF(_ data: [UInt8]) -> Bool {
        guard data.count >= 8 else { return false }
        let type = String(decoding: data[4..<8], as: UTF8.self)
        return ["ftyp", "styp", "moof", "sidx", "moov", "emsg", "prft", "free", "skip", "mdat"].contains(type)
    }

    /// A track of an initialisation segment.
    public struct Track: Sendable, Equatable {
        public let trackID: UInt32
        public let timescale: UInt32
        /// `vide`, `soun`, `text`, …
        public let handler: String
    }

    /// The tracks in a `moov` box found among `data`'s top-level boxes.
    public static func tracks(_ data: [UInt8]) throws(ContainerError) -> [Track] {
        guard let moov = try boxes(data, in: 0..<data.count).first(where: { $0.type == "moov" }) else {
            throw ContainerError(.missing, offset: 0, "no 'moov' box: the initialisation segment must carry the movie header")
        }
        var tracks: [Track] = []
        for trak in try boxes(data, in: moov.body) where trak.type == "trak" {
            let children = try boxes(data, in: trak.body)
            guard let tkhd = children.first(where: { $0.type == "tkhd" }),
                  let mdia = children.first(where: { $0.type == "mdia" }) else { continue }
            let version = data[tkhd.body.lowerBound]
            let idOffset = tkhd.body.lowerBound + (version == 1 ? 4 + 16 : 4 + 8)
            guard idOffset + 4 <= tkhd.body.upperBound else {
                throw ContainerError(.malformed, offset: tkhd.range.lowerBound, "'tkhd' is too short")
            }
            let trackID = readUInt32(data, idOffset)
            let mdiaChildren = try boxes(data, in: mdia.body)
            guard let mdhd = mdiaChildren.first(where: { $0.type == "mdhd" }) else {
                throw ContainerError(.missing, offset: mdia.range.lowerBound, "track \(trackID) has no 'mdhd' (media header with the timescale)")
            }
            let mdhdVersion = data[mdhd.body.lowerBound]
            let scaleOffset = mdhd.body.lowerBound + (mdhdVersion == 1 ? 4 + 16 : 4 + 8)
            guard scaleOffset + 4 <= mdhd.body.upperBound else {
                throw ContainerError(.malformed, offset: mdhd.range.lowerBound, "'mdhd' is too short")
            }
            let timescale = readUInt32(data, scaleOffset)
            var handler = ""
            if let hdlr = mdiaChildren.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12 {
                handler = String(decoding: data[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)], as: UTF8.self)
            }
            tracks.append(Track(trackID: trackID, timescale: timescale, handler: handler))
        }
        return tracks
    }

    /// The `tfdt` baseMediaDecodeTime of each track in the first `moof` of `data`, by track ID.
    public static func firstFragmentDecodeTimes(_ data: [UInt8]) throws(ContainerError) -> (offset: Int, times: [UInt32: UInt64]) {
        guard let moof = try boxes(data, in: 0..<data.count).first(where: { $0.type == "moof" }) else {
            throw ContainerError(.missing, offset: 0, "no 'moof' box: an fMP4 media segment must start with a movie fragment")
        }
        var times: [UInt32: UInt64] = [:]
        for traf in try boxes(data, in: moof.body) where traf.type == "traf" {
            let children = try boxes(data, in: traf.body)
            guard let tfhd = children.first(where: { $0.type == "tfhd" }), tfhd.body.count >= 8,
                  let tfdt = children.first(where: { $0.type == "tfdt" }), tfdt.body.count >= 8 else { continue }
            let trackID = readUInt32(data, tfhd.body.lowerBound + 4)
            let version = data[tfdt.body.lowerBound]
            let time: UInt64
            if version == 1 {
                guard tfdt.body.count >= 12 else { throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' version 1 is too short") }
                time = readUInt64(data, tfdt.body.lowerBound + 4)
            } else {
                time = UInt64(readUInt32(data, tfdt.body.lowerBound + 4))
            }
            times[trackID] = time
        }
        return (moof.range.lowerBound, times)
    }

    static func readUInt32(_ d: [UInt8], _ o: Int) -> UInt32 {
        UInt32(d[o]) << 24 | UInt32(d[o + 1]) << 16 | UInt32(d[o + 2]) << 8 | UInt32(d[o + 3])
    }

    static func readUInt64(_ d: [UInt8], _ o: Int) -> UInt64 {
        UInt64(readUInt32(d, o)) << 32 | UInt64(readUInt32(d, o + 4))
    }
}
