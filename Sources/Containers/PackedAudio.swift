/// Packed audio segments (RFC 8216bis §3.4), and where their timeline starts.
///
/// ADTS AAC, AC-3, E-AC-3 or MP3 frames after an ID3 tag whose `PRIV` frame, owned by `com.apple.streaming.transportStreamTimestamp`, gives the
/// MPEG-2 presentation time of the segment's first sample (33 bits in an 8-byte big-endian field).
/// Decoders that read the frames alone start such a segment at time 0.
package enum PackedAudio {
    static let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]

    /// The first sample's 90 kHz timestamp, when `bytes` begin with an ID3 tag that carries one.
    package static func timestamp(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return nil }  // "ID3"
        let version = bytes[3], flags = bytes[5]
        func syncsafe(_ i: Int) -> Int { Int(bytes[i]) << 21 | Int(bytes[i + 1]) << 14 | Int(bytes[i + 2]) << 7 | Int(bytes[i + 3]) }
        func plain(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        let end = min(bytes.count, 10 + syncsafe(6))
        var i = 10
        if flags & 0x40 != 0, i + 4 <= end { i += version >= 4 ? syncsafe(i) : plain(i) + 4 }  // extended header
        while i + 10 <= end {
            let size = version >= 4 ? syncsafe(i + 4) : plain(i + 4)
            guard size >= 0, bytes[i] != 0 else { return nil }  // padding: no more frames
            let body = i + 10
            if bytes[i..<i + 4].elementsEqual(Array("PRIV".utf8)), body + size <= end, size >= owner.count + 8,
                bytes[body..<body + owner.count].elementsEqual(owner)
            {
                let at = body + owner.count
                let value = (0..<8).reduce(Int64(0)) { $0 << 8 | Int64(bytes[at + $1]) }
                return value & ((1 << 33) - 1)
            }
            i = body + size
        }
        return nil
    }
}
