import Timebase

/// Rules for a subtitle rendition's media playlist, checked against the reference (video)
/// playlist it must mirror: RFC 8216bis §4.4.3, §6.2.4 and Apple's HLS Authoring Spec 5.x, 8.x.
package enum SubtitlePlaylistRules {
    /// Findings for `playlist` (read from `file`), mirroring `reference`.
    package static func check(_ playlist: MediaPlaylist, file: String, reference: MediaPlaylist) -> ValidationFindings {
        var sink = FindingSink(file: file)
        sink.ruleID = "subtitle-playlist"
        func add(_ severity: ValidationFinding.Severity, _ line: Int?, _ rule: String, _ requirement: String, _ message: String) {
            sink.add(severity, line, rule, requirement, message)
        }
        for segment in playlist.segments {
            // EXTINF rounded to the nearest integer must not exceed the target duration (compared
            // in whole seconds: a target duration read from a file may be any decimal-integer).
            let rounded = (segment.duration + MediaTime(milliseconds: 500)).ticks / MediaTime.ticksPerSecond
            if rounded > Int64(playlist.targetDuration) {
                add(
                    .error, segment.line, "RFC 8216bis §4.4.3.1", "each EXTINF duration, rounded to the nearest integer, is at most EXT-X-TARGETDURATION",
                    "EXTINF \(segment.durationText) exceeds TARGETDURATION \(playlist.targetDuration)")
            }
            if segment.durationText.contains("."), (playlist.version ?? 1) < 3 {
                add(
                    .error, segment.line, "RFC 8216bis §7", "decimal EXTINF durations need EXT-X-VERSION 3 or higher",
                    "EXTINF \(segment.durationText) with EXT-X-VERSION \(playlist.version ?? 1)")
                break
            }
        }
        let difference = playlist.duration - reference.duration
        let tolerance = MediaTime(milliseconds: 500)
        if difference > tolerance || difference < -tolerance {
            add(
                .error, nil, "Apple HLS Authoring Spec 5.5", "a subtitle playlist covers the same time range as the video, empty segments included",
                "it covers \(playlist.duration.decimalSeconds) s, the video \(reference.duration.decimalSeconds) s")
        }
        if playlist.hasEndList != reference.hasEndList {
            add(
                .error, nil, "Apple HLS Authoring Spec 8.7", "a subtitle playlist mirrors the video's EXT-X-ENDLIST",
                reference.hasEndList ? "the video playlist ends (EXT-X-ENDLIST) but this one does not" : "this playlist ends but the video's does not")
        }
        if playlist.playlistType != reference.playlistType {
            add(
                .warning, nil, "Apple HLS Authoring Spec 8.7", "a subtitle playlist mirrors the video's EXT-X-PLAYLIST-TYPE",
                "PLAYLIST-TYPE \(playlist.playlistType?.rawValue ?? "absent") here, \(reference.playlistType?.rawValue ?? "absent") in the video")
        }
        if !reference.hasEndList && playlist.targetDuration != reference.targetDuration {
            add(
                .error, nil, "Apple HLS Authoring Spec 5.6", "a live subtitle playlist has the video's target duration",
                "TARGETDURATION \(playlist.targetDuration) here, \(reference.targetDuration) in the video")
        }
        if playlist.discontinuitySequence != reference.discontinuitySequence {
            add(
                .error, nil, "RFC 8216bis §6.2.2", "renditions carry the same EXT-X-DISCONTINUITY-SEQUENCE as the variant",
                "DISCONTINUITY-SEQUENCE \(playlist.discontinuitySequence) here, \(reference.discontinuitySequence) in the video")
        }
        // Discontinuities at the same points of the timeline (§6.2.4, AAS 8.15).
        let ours = Set(playlist.segments.filter(\.discontinuity).map { $0.start.milliseconds })
        let theirs = Set(reference.segments.filter(\.discontinuity).map { $0.start.milliseconds })
        if ours != theirs {
            let missing = theirs.subtracting(ours).sorted().map { MediaTime(milliseconds: $0).decimalSeconds + " s" }
            let extra = ours.subtracting(theirs).sorted().map { MediaTime(milliseconds: $0).decimalSeconds + " s" }
            add(
                .error, nil, "RFC 8216bis §6.2.4", "discontinuities in a rendition are at the same times as in the variant",
                "missing at [\(missing.joined(separator: ", "))], extra at [\(extra.joined(separator: ", "))]")
        }
        if reference.segments.contains(where: { $0.programDateTime != nil }) && !playlist.segments.contains(where: { $0.programDateTime != nil }) {
            add(
                .warning, nil, "Apple HLS Authoring Spec 8.15", "renditions mirror the video's EXT-X-PROGRAM-DATE-TIME",
                "the video has PROGRAM-DATE-TIME tags, this playlist has none")
        }
        return sink.findings
    }
}
