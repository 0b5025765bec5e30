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
    ///
    /// With `parts` (a low-latency reference, RFC 8216bis §4.4.3.7-4.4.5), the playlist mirrors
    /// its parts too: `EXT-X-PART-INF`, `EXT-X-SERVER-CONTROL` (without CAN-SKIP-UNTIL and
    /// CAN-SKIP-DATERANGES: a file on a static server cannot answer a delta update), an
    /// `EXT-X-PART` per part named in `parts` with the reference's DURATION as written and its
    /// INDEPENDENT, and an `EXT-X-PRELOAD-HINT` of TYPE=PART for the part to come.
    package static func text(
        mirroring reference: MediaPlaylist, segmentURIs: [String], keyTag: String? = nil, map: String? = nil, parts: PartURIs? = nil
    ) -> String {
        precondition(segmentURIs.count == reference.segments.count, "one subtitle segment per reference segment")
        // The lines gathered in one buffer sized once (a playlist of thousands of segments).
        var lines = Lines(capacity: 64 + reference.segments.count * (24 + (segmentURIs.first?.utf8.count ?? 0)))
        lines.append("#EXTM3U")
        // Decimal EXTINF durations need version 3, EXT-X-MAP without I-frames version 6 (§7).
        lines.append("#EXT-X-VERSION:\(map == nil ? 3 : 6)")
        lines.append("#EXT-X-TARGETDURATION:\(reference.targetDuration)")
        if parts != nil, let target = reference.partTarget {
            if var control = reference.serverControl {
                control.remove("CAN-SKIP-UNTIL")
                control.remove("CAN-SKIP-DATERANGES")
                if !control.attributes.isEmpty { lines.append("\(TagName.serverControl):\(control.text)") }
            }
            lines.append("\(TagName.partInf):PART-TARGET=\(target)")
        }
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(reference.mediaSequence)")
        if reference.discontinuitySequence != 0 || reference.segments.contains(where: \.discontinuity) {
            lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(reference.discontinuitySequence)")
        }
        if let type = reference.playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(type.rawValue)") }
        if let map { lines.append("\(TagName.map):URI=\"\(map)\"") }
        if let keyTag { lines.append(keyTag) }
        for (index, (segment, uri)) in zip(reference.segments, segmentURIs).enumerated() {
            if segment.discontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            if let date = segment.programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(date)") }
            if let names = parts?.segments[index], names.count == segment.parts.count {
                for (part, name) in zip(segment.parts, names) { lines.append(partLine(part, uri: name)) }
            }
            lines.append("#EXTINF:", segment.durationText, ",")
            lines.append(uri)
        }
        if let parts, reference.partTarget != nil {
            if reference.trailingDiscontinuity && !parts.trailing.isEmpty { lines.append("#EXT-X-DISCONTINUITY") }
            for (part, name) in zip(reference.trailingParts, parts.trailing) { lines.append(partLine(part, uri: name)) }
            if let hint = parts.hint, reference.preloadHint?["TYPE"]?.rawValue == "PART", !reference.hasEndList {
                lines.append("\(TagName.preloadHint):TYPE=PART,URI=\"\(hint)\"")
            }
        }
        if reference.hasEndList { lines.append("#EXT-X-ENDLIST") }
        return lines.text
    }

    /// Lines of text, each ended by LF as it is added, gathered as bytes (appending to a string
    /// costs more per line) and made a string once.
    private struct Lines {
        private var bytes: [UInt8] = []

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func append(_ line: String) {
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
        }

        /// A line of three pieces, without making it first.
        mutating func append(_ first: String, _ second: String, _ third: String) {
            bytes.append(contentsOf: first.utf8)
            bytes.append(contentsOf: second.utf8)
            bytes.append(contentsOf: third.utf8)
            bytes.append(0x0A)
        }
    }

    /// An `EXT-X-PART` line for the subtitle part `uri` mirroring the reference's `part`.
    static func partLine(_ part: MediaPart, uri: String) -> String {
        "\(TagName.part):DURATION=\(part.durationText),URI=\"\(uri)\"\(part.independent ? ",INDEPENDENT=YES" : "")"
    }

    /// The URIs of a subtitle playlist's parts: per reference segment (nil where its parts are
    /// not mirrored: none were written), the trailing parts written, and the part the preload
    /// hint names.
    package struct PartURIs: Sendable, Equatable {
        package var segments: [[String]?]
        package var trailing: [String]
        package var hint: String?

        package init(segments: [[String]?], trailing: [String], hint: String?) {
            self.segments = segments
            self.trailing = trailing
            self.hint = hint
        }
    }
}
