/// Writes the media playlist of a subtitle rendition that mirrors a reference (video) playlist.
///
/// The result has the reference's segment count, EXTINF durations (as written), discontinuity
/// positions and sequence numbers, PROGRAM-DATE-TIME tags, target duration, playlist type and
/// ENDLIST (RFC 8216bis §6.2.4, Apple HLS Authoring Spec 5.5, 8.7, 8.15), so every player lines
/// the two up segment for segment.
package enum SubtitlePlaylistWriter {
    /// The playlist text, LF line endings.
    ///
    /// `segmentURIs` has one entry per reference segment; `keyTag`, an `EXT-X-KEY` line, goes
    /// before the first segment (it applies to every segment); `map`, the URI of an
    /// initialisation segment, is written as `EXT-X-MAP` before it (clear: before the key).
    package static func text(mirroring reference: MediaPlaylist, segmentURIs: [String], keyTag: String? = nil, map: String? = nil) -> String {
        precondition(segmentURIs.count == reference.segments.count, "one subtitle segment per reference segment")
        var lines: [String] = ["#EXTM3U"]
        // Decimal EXTINF durations need version 3, EXT-X-MAP without I-frames version 6 (§7).
        lines.append("#EXT-X-VERSION:\(map == nil ? 3 : 6)")
        lines.append("#EXT-X-TARGETDURATION:\(reference.targetDuration)")
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(reference.mediaSequence)")
        if reference.discontinuitySequence != 0 || reference.segments.contains(where: \.discontinuity) {
            lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(reference.discontinuitySequence)")
        }
        if let type = reference.playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
        if let map { lines.append("\(TagName.map):URI=\"\(map)\"") }
        if let keyTag { lines.append(keyTag) }
        for (segment, uri) in zip(reference.segments, segmentURIs) {
            if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            if let date = segment.programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(date)") }
            lines.append("#EXTINF:\(segment.durationText),")
            lines.append(uri)
        }
        if reference.hasEndList { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }
}
