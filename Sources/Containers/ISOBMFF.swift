import Timebase

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
        /// The size the box declares when it runs past the data it is in (it was cut at the end).
        package var declaredSize: UInt64? = nil
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
                guard large <= UInt64(range.upperBound - offset) else {
                    // Cut at the end of the data, as a box that runs past it.
                    result.append(Box(type: type, range: offset..<range.upperBound, body: (offset + 16)..<range.upperBound, declaredSize: large))
                    break
                }
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
                result.append(
                    Box(type: type, range: offset..<range.upperBound, body: (offset + header)..<range.upperBound, declaredSize: UInt64(size)))
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
        /// The `edts/elst` entries: (segment duration on the movie timescale, media time on the
        /// track's; -1 for an empty edit).
        package var edits: [(duration: UInt64, mediaTime: Int64)] = []
        /// The movie (`mvhd`) timescale that edit durations count in.
        package var movieTimescale: UInt32 = 0

        package static func == (a: Track, b: Track) -> Bool {
            a.trackID == b.trackID && a.timescale == b.timescale && a.handler == b.handler && a.sampleEntry == b.sampleEntry
                && a.nalLengthSize == b.nalLengthSize && a.defaults == b.defaults && a.movieTimescale == b.movieTimescale
                && a.edits.elementsEqual(b.edits) { $0.duration == $1.duration && $0.mediaTime == $1.mediaTime }
        }

        /// What the edit list moves presentation by, on the track's timescale, as the players
        /// measured apply it: Chromium's MSE (and so hls.js) applies an edit list of exactly one
        /// entry that is not empty, by starting presentation at its media time (ffmpeg's mp4
        /// muxer writes one of two frames with B-frames); it ignores longer lists, such as the
        /// hls muxer's empty edit plus media time (which cancel out) or a 10 s empty edit.
        package var presentationShift: Int64 {
            guard edits.count == 1, let only = edits.first, only.mediaTime >= 0 else { return 0 }
            return only.mediaTime
        }

        /// What an edit list the players measured ignore would change, for a warning: nil when
        /// there is none, it is applied, or it changes nothing.
        package var ignoredEdits: String? {
            guard edits.count > 1, movieTimescale > 0, timescale > 0 else { return nil }
            var empty: UInt64 = 0
            var media: Int64?
            for edit in edits {
                if edit.mediaTime < 0 { empty = empty &+ edit.duration } else if media == nil { media = edit.mediaTime }
            }
            let emptySeconds = Double(empty) / Double(movieTimescale), mediaSeconds = Double(media ?? 0) / Double(timescale)
            let net = emptySeconds - mediaSeconds
            guard abs(net) >= 0.001 else { return nil }
            return
                "track \(trackID)'s edit list (\(edits.count) entries: \(emptySeconds.decimalSeconds) s empty, media from \(mediaSeconds.decimalSeconds) s) is ignored, as Chromium and hls.js ignore an edit list of more than one entry; ffmpeg and players that apply it show this video \(net.decimalSeconds) s later than the cues assume"
        }
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
            var track = Track(
                trackID: trackID, timescale: timescale, handler: handler, sampleEntry: entry,
                nalLengthSize: lengthSize, defaults: extends[trackID] ?? SampleDefaults())
            if let edts = children.first(where: { $0.type == "edts" }), let elst = try child("elst", data, in: edts.body) {
                track.edits = try editList(data, elst)
                track.movieTimescale = try movieTimescale(data, moov: moov)
            }
            tracks.append(track)
        }
        return tracks
    }

    /// The entries of an `elst` (§8.6.6): version 0 with 32-bit fields, 1 with 64-bit.
    static func editList(_ data: [UInt8], _ elst: Box) throws(ContainerError) -> [(duration: UInt64, mediaTime: Int64)] {
        guard let version = byte(data, elst.body, 0), let count = uint32(data, elst.body, 4) else {
            throw ContainerError(.malformed, offset: elst.range.lowerBound, "'elst' is too short")
        }
        let entrySize = version == 1 ? 20 : 12
        guard Int(count) <= (elst.body.count - 8) / entrySize else {
            throw ContainerError(.malformed, offset: elst.range.lowerBound, "'elst' announces \(count) entries but holds \((elst.body.count - 8) / entrySize)")
        }
        var result: [(UInt64, Int64)] = []
        for index in 0..<Int(count) {
            let at = 8 + index * entrySize
            if version == 1 {
                guard let d = uint64(data, elst.body, at), let m = uint64(data, elst.body, at + 8) else { break }
                result.append((d, Int64(bitPattern: m)))
            } else {
                guard let d = uint32(data, elst.body, at), let m = uint32(data, elst.body, at + 4) else { break }
                result.append((UInt64(d), Int64(Int32(bitPattern: m))))
            }
        }
        return result
    }

    /// The `mvhd` timescale (§8.2.2).
    static func movieTimescale(_ data: [UInt8], moov: Box) throws(ContainerError) -> UInt32 {
        guard let mvhd = try child("mvhd", data, in: moov.body), let version = byte(data, mvhd.body, 0),
            let timescale = uint32(data, mvhd.body, version == 1 ? 4 + 16 : 4 + 8)
        else { return 0 }
        return timescale
    }

    /// What is wrong but read anyway in an initialisation segment: a top-level box that claims
    /// to run past the end of the file (it is cut there).
    package static func initializationNotes(_ data: [UInt8]) -> [String] {
        guard let top = try? boxes(data, in: 0..<data.count) else { return [] }
        return top.compactMap { box in
            box.declaredSize.map {
                "box '\(LabelText.excerpt(box.type))' at byte \(box.range.lowerBound) declares \($0) bytes but the file ends \(box.range.count) bytes after its start; it was read as cut there"
            }
        }
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
