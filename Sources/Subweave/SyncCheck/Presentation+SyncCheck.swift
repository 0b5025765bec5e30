import Foundation
import Sync
import Timebase
import TimedText

extension Presentation {
    /// Checks each track's cues against the speech in the programme's sound (decoded by ffmpeg;
    /// ``SubweaveError/missingTool(name:purpose:)`` when there is none); writes nothing.
    public func checkSync(_ tracks: [SubtitleTrack]) async throws(SubweaveError) -> SyncReport {
        let (speech, audio) = try await ProgrammeSpeech(presentation: self).read()
        let findings = try await TrackLoader(loader: loader).load(tracks) { _, track, ingested throws(SubweaveError) in
            let cues = SubtitleIngest.applyDelay(track.timing.shift, rate: track.timing.rate, to: ingested.cues).0
            return SyncCheck.finding(for: track, cues: cues, speech: speech)
        }
        return SyncReport(tracks: findings, audio: audio, speechShare: speech.speechShare, speech: speech)
    }
}
