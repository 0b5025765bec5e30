import Foundation
import HLS
import Sync
import Timebase
import TimedText

extension Presentation {
    /// The overview of this presentation; with `listening`, the sound is decoded (ffmpeg) for the
    /// speech lane, and every lane's cues are checked against it.
    public func overview(listening: Bool) async throws(SubweaveError) -> ProgrammeOverview {
        let duration = timeline.duration
        let segments = timeline.playlist.segments.map { $0.start..<($0.start + $0.duration) }
        var speech: SpeechActivity?
        if listening { speech = try await ProgrammeSpeech(presentation: self).read().speech }
        let speechRanges = speech.map { activity in
            activity.stretches.map { MediaTime(milliseconds: Int64($0.lowerBound * 10))..<MediaTime(milliseconds: Int64($0.upperBound * 10)) }
        }
        var lanes: [ProgrammeOverview.Lane] = []
        let templates = ((try? TitleIntent.recorded(for: masterURL, loader: loader)) ?? nil)?.folderTemplates ?? [.standard]
        for existing in await ExistingRendition.read(self, templates: templates) {
            let rendition = existing.rendition
            var cues: [Cue]?
            var note: String?
            if existing.isManaged {
                cues = try await existing.keptCues(self)?.cues
                if cues == nil { note = "made before Subweave kept its cues: not drawn" }
            } else if let retimed = try? await RetimedRendition.read(existing, presentation: self) {
                cues = retimed.cues
            } else {
                note = "another tool's rendition with a timestamp map: not drawn"
            }
            let ranges = (cues ?? []).map { $0.start..<max($0.start, $0.end) }
            var lane = ProgrammeOverview.Lane(
                identity: existing.identity ?? rendition.name ?? "?", name: rendition.name ?? "", language: rendition.language,
                kind: rendition.type == .closedCaptions || RenditionIdentity.inBandService(existing.identity ?? "") != nil ? "captions" : "subtitles",
                cues: ranges,
                findings: cues == nil ? [] : ProgrammeOverview.findings(ranges, duration: duration, segments: segments, speech: speechRanges), note: note)
            if let speech, let cues, !cues.isEmpty {
                let check = SyncCheck.finding(identity: lane.identity, source: lane.name, cues: cues, speech: speech)
                lane.sync = check
                lane.findings = ProgrammeOverview.findings(check, duration: duration) + lane.findings
            }
            lanes.append(lane)
        }
        return ProgrammeOverview(master: MediaReader.display(masterURL), duration: duration, segments: segments, speech: speechRanges, lanes: lanes)
    }
}
