/// ISO base media file format (ISO/IEC 14496-12) boxes, read as far as the timeline and the
/// caption reader need: the tracks of `moov` (track ID, timescale, handler, codec, NAL length
/// size, `trex` defaults) and the samples of each `moof` (decode time, composition offset, size,
/// position).
///
/// Every number read is checked against the box that holds it, so a malformed or hostile file is
/// an error with a byte offset, never a trap.
package enum ISOBMFF {
    /// A box: its type and the byte ranges of the whole box and of its body.
    package struct Box: Sendable, Equatable {
        package let type: String
        package let range: Range<Int>
        package let body: Range<Int>
    }

    /// The boxes directly inside `range`.
    ///
    /// A box that claims to run past the range is cut at it.
    package static func boxes(_ data: [UInt8], in range: Range<Int>) throws(ContainerError) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        while range.upperBound - offset >= 8 {
            var size = Int(readUInt32(data, offset))
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard range.upperBound - offset >= 16 else {
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
            guard size <= range.upperBound - offset else {
                // A truncated last box: keep what is there (a byte-range read may cut an mdat).
                result.append(Box(type: type, range: offset..<range.upperBound, body: (offset + header)..<range.upperBound))
                break
            }
            result.append(Box(type: type, range: offset..<(offset + size), body: (offset + header)..<(offset + size)))
            offset += size
        }
        return result
    }

    /// The first box of `type` directly inside `range`.
    static func child(_ type: String, _ data: [UInt8], in range: Range<Int>) throws(ContainerError) -> Box? {
        try boxes(data, in: range).first { $0.type == type }
    }

    /// True when `data` starts with a box type that ISO BMFF files start with.
    package static func looksLikeISOBMFF(_ data: [UInt8]) -> Bool {
        guard data.count >= 8 else { return false }
        let type = String(decoding: data[4..<8], as: UTF8.self)
        return ["ftyp", "styp", "moof", "sidx", "moov", "emsg", "prft", "free", "skip", "mdat"].contains(type)
    }

    /// A track of an initialisation segment.
    package struct Track: Sendable, Equatable {
        package let trackID: UInt32
        package let timescale: UInt32
        /// The handler type: `vide`, `soun`, `text`, and so on.
        package let handler: String
        /// The first sample entry's type: `avc1`, `avc3`, `hvc1`, `hev1`, `mp4a`, and so on.
        package let sampleEntry: String
        /// Bytes of each NAL unit's length prefix (from `avcC`/`hvcC`), for H.264 and HEVC.
        package let nalLengthSize: Int?
        /// `trex` defaults for samples whose `tfhd`/`trun` do not say.
        package let defaults: SampleDefaults
    }

    /// Sample defaults (`trex`, overridden by `tfhd`).
    package struct SampleDefaults: Sendable, Equatable {
        package var duration: UInt32 = 0
        package var size: UInt32 = 0
        package init() {}
    }

    /// The tracks in the `moov` box among `data`'s top-level boxes.
    package static func tracks(_ data: [UInt8]) throws(ContainerError) -> [Track] {
        guard let moov = try child("moov", data, in: 0..<data.count) else {
            throw ContainerError(.missing, offset: 0, "no 'moov' box: the initialisation segment must carry the movie header")
        }
        var extends: [UInt32: SampleDefaults] = [:]
        if let mvex = try child("mvex", data, in: moov.body) {
            for trex in try boxes(data, in: mvex.body) where trex.type == "trex" {
                // trex (§8.8.3): version/flags, track_ID, description index, duration, size, flags.
                guard let id = uint32(data, trex.body, 4), let duration = uint32(data, trex.body, 12),
                    let size = uint32(data, trex.body, 16)
                else {
                    throw ContainerError(.malformed, offset: trex.range.lowerBound, "'trex' is too short")
                }
                var d = SampleDefaults()
                d.duration = duration
                d.size = size
                extends[id] = d
            }
        }
        var tracks: [Track] = []
        for trak in try boxes(data, in: moov.body) where trak.type == "trak" {
            let children = try boxes(data, in: trak.body)
            guard let tkhd = children.first(where: { $0.type == "tkhd" }),
                let mdia = children.first(where: { $0.type == "mdia" })
            else { continue }
            // tkhd (§8.3.2): version, flags, then times of 4 or 8 bytes, then track_ID.
            guard let version = byte(data, tkhd.body, 0),
                let trackID = uint32(data, tkhd.body, version == 1 ? 4 + 16 : 4 + 8)
            else {
                throw ContainerError(.malformed, offset: tkhd.range.lowerBound, "'tkhd' is too short to hold its track_ID")
            }
            let mdiaChildren = try boxes(data, in: mdia.body)
            guard let mdhd = mdiaChildren.first(where: { $0.type == "mdhd" }) else {
                throw ContainerError(.missing, offset: mdia.range.lowerBound, "track \(trackID) has no 'mdhd' (media header with the timescale)")
            }
            // mdhd (§8.4.2): version, flags, creation and modification times, then timescale.
            guard let mdhdVersion = byte(data, mdhd.body, 0),
                let timescale = uint32(data, mdhd.body, mdhdVersion == 1 ? 4 + 16 : 4 + 8)
            else {
                throw ContainerError(.malformed, offset: mdhd.range.lowerBound, "'mdhd' is too short to hold its timescale")
            }
            var handler = ""
            if let hdlr = mdiaChildren.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12 {
                handler = String(decoding: data[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)], as: UTF8.self)
            }
            let (entry, lengthSize) = try sampleEntry(data, mdia: mdiaChildren)
            tracks.append(
                Track(
                    trackID: trackID, timescale: timescale, handler: handler, sampleEntry: entry,
                    nalLengthSize: lengthSize, defaults: extends[trackID] ?? SampleDefaults()))
        }
        return tracks
    }

    /// The first sample entry of `minf/stbl/stsd`, and the NAL length size its `avcC`/`hvcC` gives.
    private static func sampleEntry(_ data: [UInt8], mdia: [Box]) throws(ContainerError) -> (String, Int?) {
        guard let minf = mdia.first(where: { $0.type == "minf" }),
            let stbl = try child("stbl", data, in: minf.body),
            let stsd = try child("stsd", data, in: stbl.body), stsd.body.count > 8
        else { return ("", nil) }
        // stsd (§8.5.2): version/flags, entry_count, then the entries as boxes.
        guard let entry = try boxes(data, in: (stsd.body.lowerBound + 8)..<stsd.body.upperBound).first else { return ("", nil) }
        // A VisualSampleEntry (§12.1.3) has 78 bytes of fields before its child boxes.
        let visualFields = 78
        guard ["avc1", "avc3", "hvc1", "hev1"].contains(entry.type), entry.body.count > visualFields else { return (entry.type, nil) }
        let configs = try boxes(data, in: (entry.body.lowerBound + visualFields)..<entry.body.upperBound)
        if let avcC = configs.first(where: { $0.type == "avcC" }), let b = byte(data, avcC.body, 4) {
            return (entry.type, Int(b & 0x03) + 1)  // lengthSizeMinusOne (ISO/IEC 14496-15 §5.3.3.1)
        }
        if let hvcC = configs.first(where: { $0.type == "hvcC" }), let b = byte(data, hvcC.body, 21) {
            return (entry.type, Int(b & 0x03) + 1)  // lengthSizeMinusOne (ISO/IEC 14496-15 §8.3.3.1)
        }
        return (entry.type, nil)
    }

    /// One sample of a movie fragment, on its track's timescale.
    package struct FragmentSample: Sendable, Equatable {
        package let trackID: UInt32
        /// Which `moof` of the data it belongs to (0 for the first).
        package let fragment: Int
        package let decodeTime: Int64
        /// `trun` sample_composition_time_offset (signed in version 1).
        package let compositionOffset: Int64
        package let duration: UInt32
        /// Where the sample's bytes are in the data; check against the data before reading.
        package let offset: Int
        package let size: Int

        /// When the sample is shown: decode time plus composition offset.
        package var presentationTime: Int64 { decodeTime + compositionOffset }
    }

    /// The largest sample count accepted from one `trun` whose samples take no bytes in it.
    static let maximumImplicitSamples: UInt32 = 1 << 20

    /// The samples of every `moof` in `data` (or only the first with `firstOnly`), in `trun`
    /// order, for the tracks listed (unknown track IDs are skipped).
    ///
    /// Decode times start at each `traf`'s `tfdt` and advance by sample durations (from `trun`,
    /// else `tfhd`, else `trex`); data offsets follow §8.8.7: the `trun` data_offset from the base
    /// (the `tfhd` base_data_offset, else the `moof`), else where the previous `trun` ended.
    ///
    /// `origin` is the offset in its file of `data`'s first byte, for `base_data_offset`s that
    /// count from the start of the file (when `data` holds one fragment of a longer file).
    package static func fragmentSamples(_ data: [UInt8], tracks: [Track], firstOnly: Bool = false, origin: Int = 0) throws(ContainerError)
        -> [FragmentSample]
    {
        var samples: [FragmentSample] = []
        var fragment = 0
        var nextDecodeTime: [UInt32: Int64] = [:]
        for moof in try boxes(data, in: 0..<data.count) where moof.type == "moof" {
            for traf in try boxes(data, in: moof.body) where traf.type == "traf" {
                let children = try boxes(data, in: traf.body)
                guard let tfhd = children.first(where: { $0.type == "tfhd" }),
                    let flags = uint32(data, tfhd.body, 0), let trackID = uint32(data, tfhd.body, 4)
                else {
                    throw ContainerError(.malformed, offset: traf.range.lowerBound, "'traf' has no complete 'tfhd' (track fragment header)")
                }
                guard let track = tracks.first(where: { $0.trackID == trackID }) else { continue }
                // tfhd (§8.8.7): optional fields in this order, present by flag.
                var field = 8
                var base = moof.range.lowerBound
                var defaults = track.defaults
                func next32() throws(ContainerError) -> UInt32 {
                    guard let v = uint32(data, tfhd.body, field) else {
                        throw ContainerError(
                            .malformed, offset: tfhd.range.lowerBound, "'tfhd' flags 0x\(String(flags, radix: 16)) announce more fields than it holds")
                    }
                    field += 4
                    return v
                }
                if flags & 0x01 != 0 {
                    guard let v = uint64(data, tfhd.body, field), v >= UInt64(origin), v - UInt64(origin) <= UInt64(data.count) else {
                        throw ContainerError(.malformed, offset: tfhd.range.lowerBound, "'tfhd' base_data_offset is missing or beyond the data")
                    }
                    base = Int(v - UInt64(origin))
                    field += 8
                }
                if flags & 0x02 != 0 { _ = try next32() }
                if flags & 0x08 != 0 { defaults.duration = try next32() }
                if flags & 0x10 != 0 { defaults.size = try next32() }
                if flags & 0x20 != 0 { _ = try next32() }

                var decodeTime = nextDecodeTime[trackID] ?? 0
                if let tfdt = children.first(where: { $0.type == "tfdt" }) {
                    guard let version = byte(data, tfdt.body, 0) else {
                        throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' is empty")
                    }
                    let raw: UInt64?
                    raw = version == 1 ? uint64(data, tfdt.body, 4) : uint32(data, tfdt.body, 4).map(UInt64.init)
                    guard let raw else { throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' is too short for its version \(version)") }
                    guard raw <= UInt64(Int64.max / 2) else {
                        throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' baseMediaDecodeTime \(raw) is out of range")
                    }
                    decodeTime = Int64(raw)
                }
                var position = base
                for trun in children where trun.type == "trun" {
                    try readRun(
                        data, trun, trackID: trackID, fragment: fragment, defaults: defaults, base: base,
                        position: &position, decodeTime: &decodeTime, into: &samples)
                }
                nextDecodeTime[trackID] = decodeTime
            }
            fragment += 1
            if firstOnly { break }
        }
        return samples
    }

    /// Appends the samples of one `trun` (§8.8.8).
    private static func readRun(
        _ data: [UInt8], _ trun: Box, trackID: UInt32, fragment: Int, defaults: SampleDefaults, base: Int,
        position: inout Int, decodeTime: inout Int64, into samples: inout [FragmentSample]
    ) throws(ContainerError) {
        guard let version = byte(data, trun.body, 0), let flags = uint32(data, trun.body, 0).map({ $0 & 0xFFFFFF }),
            let count = uint32(data, trun.body, 4)
        else {
            throw ContainerError(.malformed, offset: trun.range.lowerBound, "'trun' is too short")
        }
        var field = 8
        if flags & 0x01 != 0 {
            guard let raw = uint32(data, trun.body, field) else {
                throw ContainerError(.malformed, offset: trun.range.lowerBound, "'trun' data_offset is cut short")
            }
            position = base + Int(Int32(bitPattern: raw))
            field += 4
        }
        if flags & 0x04 != 0 { field += 4 }
        let hasDuration = flags & 0x100 != 0, hasSize = flags & 0x200 != 0
        let hasFlags = flags & 0x400 != 0, hasOffset = flags & 0x800 != 0
        let record = (hasDuration ? 4 : 0) + (hasSize ? 4 : 0) + (hasFlags ? 4 : 0) + (hasOffset ? 4 : 0)
        let available = trun.body.count - field
        guard available >= 0 else { throw ContainerError(.malformed, offset: trun.range.lowerBound, "'trun' is too short for its flags") }
        if record > 0 {
            guard Int(count) <= available / record else {
                throw ContainerError(
                    .malformed, offset: trun.range.lowerBound,
                    "'trun' announces \(count) samples of \(record) bytes but holds \(available) bytes")
            }
        } else if count > maximumImplicitSamples {
            throw ContainerError(.malformed, offset: trun.range.lowerBound, "'trun' announces \(count) samples with no per-sample fields")
        }
        samples.reserveCapacity(samples.count + Int(count))
        for _ in 0..<count {
            var duration = defaults.duration, size = defaults.size
            var offset: Int64 = 0
            if hasDuration { duration = readUInt32(data, trun.body.lowerBound + field); field += 4 }
            if hasSize { size = readUInt32(data, trun.body.lowerBound + field); field += 4 }
            if hasFlags { field += 4 }
            if hasOffset {
                let raw = readUInt32(data, trun.body.lowerBound + field)
                offset = version == 0 ? Int64(raw) : Int64(Int32(bitPattern: raw))
                field += 4
            }
            samples.append(
                FragmentSample(
                    trackID: trackID, fragment: fragment, decodeTime: decodeTime, compositionOffset: offset,
                    duration: duration, offset: position, size: Int(size)))
            let (sum, overflow) = decodeTime.addingReportingOverflow(Int64(duration))
            guard !overflow else { throw ContainerError(.malformed, offset: trun.range.lowerBound, "sample decode times overflow") }
            decodeTime = sum
            position = position.addingReportingOverflow(Int(size)).partialValue
        }
    }

    static func readUInt32(_ d: [UInt8], _ o: Int) -> UInt32 {
        UInt32(d[o]) << 24 | UInt32(d[o + 1]) << 16 | UInt32(d[o + 2]) << 8 | UInt32(d[o + 3])
    }

    static func readUInt64(_ d: [UInt8], _ o: Int) -> UInt64 {
        UInt64(readUInt32(d, o)) << 32 | UInt64(readUInt32(d, o + 4))
    }

    /// The byte at `offset` into `body`, or nil past its end.
    static func byte(_ d: [UInt8], _ body: Range<Int>, _ offset: Int) -> UInt8? {
        offset >= 0 && offset < body.count ? d[body.lowerBound + offset] : nil
    }

    /// The big-endian UInt32 at `offset` into `body`, or nil when it does not fit.
    static func uint32(_ d: [UInt8], _ body: Range<Int>, _ offset: Int) -> UInt32? {
        offset >= 0 && offset <= body.count - 4 ? readUInt32(d, body.lowerBound + offset) : nil
    }

    /// The big-endian UInt64 at `offset` into `body`, or nil when it does not fit.
    static func uint64(_ d: [UInt8], _ body: Range<Int>, _ offset: Int) -> UInt64? {
        offset >= 0 && offset <= body.count - 8 ? readUInt64(d, body.lowerBound + offset) : nil
    }
}
