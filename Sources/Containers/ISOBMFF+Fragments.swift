import Timebase

extension ISOBMFF {
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
        /// The track's edit-list shift (``Track/presentationShift``).
        package var editShift: Int64 = 0
        /// The fragment had no `tfdt`: the decode time is where the previous fragment ended, or 0.
        package var decodeTimeAssumed = false

        /// When the sample is shown: decode time plus composition offset, less the edit list's
        /// media time where the players measured apply it.
        package var presentationTime: Int64 { decodeTime + compositionOffset - editShift }
    }

    /// The largest sample count accepted from one `trun` whose samples take no bytes in it (and
    /// the samples of all `trun`s may not outnumber the bytes read).
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
                let (base, defaults) = try headerFields(
                    data, tfhd, flags: flags, defaults: track.defaults, moof: moof, origin: origin)

                var decodeTime = nextDecodeTime[trackID] ?? 0
                let tfdtBox = children.first(where: { $0.type == "tfdt" })
                let first = samples.count
                if let tfdt = tfdtBox { decodeTime = try baseMediaDecodeTime(data, tfdt) }
                var position = base
                for trun in children where trun.type == "trun" {
                    try readRun(
                        data, trun, trackID: trackID, fragment: fragment, defaults: defaults, base: base,
                        position: &position, decodeTime: &decodeTime, into: &samples)
                }
                nextDecodeTime[trackID] = decodeTime
                for index in first..<samples.count {
                    samples[index].editShift = track.presentationShift
                    samples[index].decodeTimeAssumed = tfdtBox == nil
                }
            }
            fragment += 1
            if firstOnly { break }
        }
        return samples
    }

    /// The `tfhd` fields (§8.8.7) that place and size samples: the base data offset (the
    /// `moof`'s start unless given) and the track's defaults as this fragment overrides them.
    private static func headerFields(
        _ data: [UInt8], _ tfhd: Box, flags: UInt32, defaults trackDefaults: SampleDefaults, moof: Box, origin: Int
    ) throws(ContainerError) -> (base: Int, defaults: SampleDefaults) {
        // Optional fields in this order, present by flag.
        var field = 8
        var base = moof.range.lowerBound
        var defaults = trackDefaults
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
        return (base, defaults)
    }

    /// A `tfdt`'s baseMediaDecodeTime (§8.8.12), version 0 or 1.
    private static func baseMediaDecodeTime(_ data: [UInt8], _ tfdt: Box) throws(ContainerError) -> Int64 {
        guard let version = byte(data, tfdt.body, 0) else {
            throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' is empty")
        }
        let raw: UInt64?
        raw = version == 1 ? uint64(data, tfdt.body, 4) : uint32(data, tfdt.body, 4).map(UInt64.init)
        guard let raw else { throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' is too short for its version \(version)") }
        guard raw <= UInt64(Int64.max / 2) else {
            throw ContainerError(.malformed, offset: tfdt.range.lowerBound, "'tfdt' baseMediaDecodeTime \(raw) is out of range")
        }
        return Int64(raw)
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
        } else if count > maximumImplicitSamples || samples.count + Int(count) > data.count {
            // Samples that take no bytes in the trun each take one at least in the media data: more
            // than the input has bytes is no stream, and counting them would cost time without bound.
            throw ContainerError(
                .malformed, offset: trun.range.lowerBound,
                "'trun' announces \(count) samples with no per-sample fields, more than the \(data.count) bytes read hold")
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
}
