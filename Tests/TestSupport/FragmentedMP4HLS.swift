import Foundation

/// Serves one fragmented MP4 file (ffmpeg's mp4 muxer with `+frag_keyframe`) as an HLS media
/// playlist of byte ranges: the `ftyp`+`moov` as the EXT-X-MAP, each `moof`+`mdat` a segment, so
/// that the file's own edit list reaches the player as the muxer wrote it.
public enum FragmentedMP4HLS {
    /// Writes `playlist` (beside `file`) for the fragments of `file`, whose video has `frames`
    /// frames of 3003/90000 s; a master `master.m3u8` names it.
    public static func write(file: String, frames: Int, playlist: String = "prog.m3u8") throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        var boxes: [(type: String, range: Range<Int>)] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 0 { size = bytes.count - offset }
            guard size >= 8, offset + size <= bytes.count else { break }
            boxes.append((type, offset..<(offset + size)))
            offset += size
        }
        guard let moov = boxes.first(where: { $0.type == "moov" }) else { throw MissingTool(name: "a moov box in \(file)") }
        var fragments: [(range: Range<Int>, decodeTime: Int64)] = []
        for (index, box) in boxes.enumerated() where box.type == "moof" {
            guard index + 1 < boxes.count, boxes[index + 1].type == "mdat" else { continue }
            fragments.append((box.range.lowerBound..<boxes[index + 1].range.upperBound, try decodeTime(bytes, moof: box.range)))
        }
        let timescale = Int64(try mediaTimescale(bytes, moov: moov.range))
        let name = (file as NSString).lastPathComponent
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        text += "#EXT-X-MAP:URI=\"\(name)\",BYTERANGE=\"\(moov.range.upperBound)@0\"\n"
        let end = Int64(frames) * 3003 * timescale / 90000
        for (index, fragment) in fragments.enumerated() {
            let next = index + 1 < fragments.count ? fragments[index + 1].decodeTime : end
            text += String(format: "#EXTINF:%.6f,\n", Double(next - fragment.decodeTime) / Double(timescale))
            text += "#EXT-X-BYTERANGE:\(fragment.range.count)@\(fragment.range.lowerBound)\n\(name)\n"
        }
        text += "#EXT-X-ENDLIST\n"
        let folder = (file as NSString).deletingLastPathComponent
        try text.write(toFile: folder + "/" + playlist, atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.640014\",RESOLUTION=160x90\n\(playlist)\n"
            .write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
    }

    /// The children of the box at `range` (after a header of `skip` bytes).
    static func children(_ bytes: [UInt8], _ range: Range<Int>, skip: Int = 8) -> [(type: String, range: Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var offset = range.lowerBound + skip
        while offset + 8 <= range.upperBound {
            let size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard size >= 8, offset + size <= range.upperBound else { break }
            result.append((String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), offset..<(offset + size)))
            offset += size
        }
        return result
    }

    static func integer(_ bytes: [UInt8], at offset: Int, count: Int) -> Int64 {
        (0..<count).reduce(Int64(0)) { $0 << 8 | Int64(bytes[offset + $1]) }
    }

    /// The `tfdt` base media decode time of the first `traf` of a `moof`.
    static func decodeTime(_ bytes: [UInt8], moof: Range<Int>) throws -> Int64 {
        guard let traf = children(bytes, moof).first(where: { $0.type == "traf" }),
            let tfdt = children(bytes, traf.range).first(where: { $0.type == "tfdt" })
        else { throw MissingTool(name: "a tfdt in a moof") }
        let version = bytes[tfdt.range.lowerBound + 8]
        return integer(bytes, at: tfdt.range.lowerBound + 12, count: version == 1 ? 8 : 4)
    }

    /// The video track's `mdhd` timescale.
    static func mediaTimescale(_ bytes: [UInt8], moov: Range<Int>) throws -> Int {
        for trak in children(bytes, moov) where trak.type == "trak" {
            guard let mdia = children(bytes, trak.range).first(where: { $0.type == "mdia" }),
                let mdhd = children(bytes, mdia.range).first(where: { $0.type == "mdhd" })
            else { continue }
            let version = bytes[mdhd.range.lowerBound + 8]
            return Int(integer(bytes, at: mdhd.range.lowerBound + (version == 1 ? 28 : 20), count: 4))
        }
        throw MissingTool(name: "an mdhd in the moov")
    }
}
