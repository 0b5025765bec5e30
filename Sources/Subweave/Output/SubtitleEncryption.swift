import HLS

/// How a title's subtitle segments are encrypted: AES-128 under the video's key, the key URI
/// the video's, written relative to the subtitle playlist where the video's is relative.
///
/// One `EXT-X-KEY:METHOD=AES-128,URI="…"` before the first segment, without an IV: each
/// segment's IV is its media sequence number (RFC 8216bis §5.2), which the subtitle playlist
/// shares with the video's, so a segment appended later never changes an earlier one's IV.
/// The cues kept beside the rendition (`cues.vtt`) are encrypted too: a web server serves
/// the generation folder whole.
package struct SubtitleEncryption: Sendable {
    let key: ContentKey
    /// The URI as the subtitle playlist writes it.
    package let keyURI: String

    init(key: ContentKey, keyURI: String) {
        self.key = key
        self.keyURI = keyURI
    }

    /// The tag written before the first segment.
    var tag: String {
        var list = AttributeList()
        list.set("METHOD", .enumerated("AES-128"), order: [])
        list.set("URI", .quoted(keyURI), order: [])
        return "\(TagName.key):\(list.text)"
    }

    /// What decides the encrypted bytes, for a generation's hash: the URI and the key's check
    /// value (never the key).
    func add(to hash: inout WordHash) {
        hash.add("aes-128\u{0}\(keyURI)\u{0}")
        hash.add(key.checkValue)
    }
}
