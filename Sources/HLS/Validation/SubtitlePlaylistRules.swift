import Timebase

/// Rules for a subtitle rendition's media playlist, checked against the reference (video)
/// playlist it must mirror: RFC 8216bis §4.4.3, §6.2.4 and Apple's HLS Authoring Spec 5.x, 8.x.
package enum SubtitlePlaylistRules {
    static let extinfWithinTarget = RuleRow(
        "subtitle-playlist.extinf-within-target", .error, "RFC 8216bis §4.4.3.1",
        "each EXTINF duration, rounded to the nearest integer, is at most EXT-X-TARGETDURATION")
    static let decimalDurationVersion = RuleRow(
        "subtitle-playlist.decimal-duration-version", .error, "RFC 8216bis §7", "decimal EXTINF durations need EXT-X-VERSION 3 or higher")
    static let coversTheVideo = RuleRow(
        "subtitle-playlist.covers-the-video", .error, "Apple HLS Authoring Spec 5.5",
        "a subtitle playlist covers the same time range as the video, empty segments included")
    static let mirrorsEndList = RuleRow(
        "subtitle-playlist.mirrors-endlist", .error, "Apple HLS Authoring Spec 8.7", "a subtitle playlist mirrors the video's EXT-X-ENDLIST")
    static let mirrorsPlaylistType = RuleRow(
        "subtitle-playlist.mirrors-playlist-type", .warning, "Apple HLS Authoring Spec 8.7",
        "a subtitle playlist mirrors the video's EXT-X-PLAYLIST-TYPE")
    static let liveTargetDuration = RuleRow(
        "subtitle-playlist.live-target-duration", .error, "Apple HLS Authoring Spec 5.6", "a live subtitle playlist has the video's target duration")
    static let discontinuitySequence = RuleRow(
        "subtitle-playlist.discontinuity-sequence", .error, "RFC 8216bis §6.2.2",
        "renditions carry the same EXT-X-DISCONTINUITY-SEQUENCE as the variant")
    static let discontinuities = RuleRow(
        "subtitle-playlist.discontinuities", .error, "RFC 8216bis §6.2.4", "discontinuities in a rendition are at the same times as in the variant")
    static let programDateTime = RuleRow(
        "subtitle-playlist.program-date-time", .warning, "Apple HLS Authoring Spec 8.15", "renditions mirror the video's EXT-X-PROGRAM-DATE-TIME")
    static let mirrorsParts = RuleRow(
        "subtitle-playlist.mirrors-parts", .warning, "RFC 8216bis §4.4.3.7, §4.4.4.9",
        "a live subtitle playlist of a low-latency video has parts with the video's PART-TARGET and part durations, as written")
    static let partDuration = RuleRow(
        "subtitle-playlist.part-duration", .error, "RFC 8216bis §4.4.4.9", "each EXT-X-PART DURATION is at most the PART-TARGET")

    /// Every row, in the order the checks run.
    package static let rows: [RuleRow] = [
        extinfWithinTarget, decimalDurationVersion, coversTheVideo, mirrorsEndList, mirrorsPlaylistType, liveTargetDuration,
        discontinuitySequence, discontinuities, programDateTime, mirrorsParts, partDuration,
    ]

    /// Findings for `playlist` (read from `file`), mirroring `reference`.
    package static func check(_ playlist: MediaPlaylist, file: String, reference: MediaPlaylist) -> ValidationFindings {
        var sink = FindingSink(file: file)
        checkSegments(playlist, &sink)
        let difference = playlist.duration - reference.duration
        let tolerance = MediaTime(milliseconds: 500)
        if difference > tolerance || difference < -tolerance {
            sink.add(coversTheVideo, nil, "it covers \(playlist.duration.decimalSeconds) s, the video \(reference.duration.decimalSeconds) s")
        }
        if playlist.hasEndList != reference.hasEndList {
            sink.add(
                mirrorsEndList, nil,
                reference.hasEndList ? "the video playlist ends (EXT-X-ENDLIST) but this one does not" : "this playlist ends but the video's does not")
        }
        if playlist.playlistType != reference.playlistType {
            sink.add(
                mirrorsPlaylistType, nil,
                "PLAYLIST-TYPE \(playlist.playlistType?.rawValue ?? "absent") here, \(reference.playlistType?.rawValue ?? "absent") in the video")
        }
        if !reference.hasEndList && playlist.targetDuration != reference.targetDuration {
            sink.add(liveTargetDuration, nil, "TARGETDURATION \(playlist.targetDuration) here, \(reference.targetDuration) in the video")
        }
        if playlist.discontinuitySequence != reference.discontinuitySequence {
            sink.add(
                discontinuitySequence, nil,
                "DISCONTINUITY-SEQUENCE \(playlist.discontinuitySequence) here, \(reference.discontinuitySequence) in the video")
        }
        // Discontinuities at the same points of the timeline (§6.2.4, AAS 8.15).
        let ours = Set(playlist.segments.filter(\.discontinuity).map { $0.start.milliseconds })
        let theirs = Set(reference.segments.filter(\.discontinuity).map { $0.start.milliseconds })
        if ours != theirs {
            let missing = theirs.subtracting(ours).sorted().map { MediaTime(milliseconds: $0).decimalSeconds + " s" }
            let extra = ours.subtracting(theirs).sorted().map { MediaTime(milliseconds: $0).decimalSeconds + " s" }
            sink.add(discontinuities, nil, "missing at [\(missing.joined(separator: ", "))], extra at [\(extra.joined(separator: ", "))]")
        }
        if reference.segments.contains(where: { $0.programDateTime != nil }) && !playlist.segments.contains(where: { $0.programDateTime != nil }) {
            sink.add(programDateTime, nil, "the video has PROGRAM-DATE-TIME tags, this playlist has none")
        }
        checkParts(playlist, reference: reference, &sink)
        return sink.findings
    }

    /// Low-latency parts: mirrored from a live low-latency video (PART-TARGET, and the durations
    /// of the parts both list for a segment, digit for digit: hls.js stalls on a one-ULP
    /// difference), and each no longer than the PART-TARGET.
    private static func checkParts(_ playlist: MediaPlaylist, reference: MediaPlaylist, _ sink: inout FindingSink) {
        if let target = playlist.partTarget.flatMap({ MediaTime(decimalSeconds: Substring($0)) }) {
            let parts = playlist.segments.flatMap(\.parts) + playlist.trailingParts
            if let long = parts.first(where: { $0.duration > target }) {
                sink.add(partDuration, nil, "the part \(long.uri) lasts \(long.durationText) s, past PART-TARGET \(playlist.partTarget ?? "")")
            }
        }
        guard let videoTarget = reference.partTarget, !reference.hasEndList else { return }
        guard let target = playlist.partTarget else {
            sink.add(
                mirrorsParts, nil,
                "the video is low-latency (PART-TARGET \(videoTarget)) but this playlist has no parts: a low-latency player gets its text a segment late")
            return
        }
        if target != videoTarget { sink.add(mirrorsParts, nil, "PART-TARGET \(target) here, \(videoTarget) in the video") }
        guard playlist.mediaSequence == reference.mediaSequence else { return }
        if playlist.segments.count == reference.segments.count,
            let mismatch = zip(playlist.trailingParts, reference.trailingParts).first(where: { $0.durationText != $1.durationText })
        {
            sink.add(mirrorsParts, nil, "the part \(mismatch.0.uri) lasts \(mismatch.0.durationText) s, the video's \(mismatch.1.durationText) s")
            return
        }
        for (index, (ours, theirs)) in zip(playlist.segments, reference.segments).enumerated() where !ours.parts.isEmpty && !theirs.parts.isEmpty {
            if ours.parts.map(\.durationText) != theirs.parts.map(\.durationText) {
                sink.add(
                    mirrorsParts, ours.line,
                    "the parts of media sequence \(playlist.mediaSequence + index) last [\(ours.parts.map(\.durationText).joined(separator: ", "))], the video's [\(theirs.parts.map(\.durationText).joined(separator: ", "))]"
                )
                return
            }
        }
    }

    /// The per-segment rules: EXTINF against the target duration and the version.
    private static func checkSegments(_ playlist: MediaPlaylist, _ sink: inout FindingSink) {
        for segment in playlist.segments {
            // EXTINF rounded to the nearest integer must not exceed the target duration (compared
            // in whole seconds: a target duration read from a file may be any decimal-integer).
            let rounded = (segment.duration + MediaTime(milliseconds: 500)).ticks / MediaTime.ticksPerSecond
            if rounded > Int64(playlist.targetDuration) {
                sink.add(extinfWithinTarget, segment.line, "EXTINF \(segment.durationText) exceeds TARGETDURATION \(playlist.targetDuration)")
            }
            if segment.durationText.contains("."), (playlist.version ?? 1) < 3 {
                sink.add(decimalDurationVersion, segment.line, "EXTINF \(segment.durationText) with EXT-X-VERSION \(playlist.version ?? 1)")
                break
            }
        }
    }
}
