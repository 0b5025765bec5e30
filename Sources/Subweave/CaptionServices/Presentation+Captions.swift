import Captions
import Containers
import Foundation
import HLS
import Timebase
import TimedText

extension Presentation {
    /// Decodes every segment of the reference variant: its CEA-608 services on the programme
    /// timeline (what `subweave captions` prints for a master).
    public func captions() async throws(SubweaveError) -> ProgrammeCaptions {
        var scanner = CaptionScanner(reader: reader)
        scanner.onProgress = onProgress
        return try await scanner.scan(timeline, playlistURL: reference.url)
    }

    /// A bounded look at the reference variant's captions: its segments in order until the first
    /// character or ``CaptionScanner/detectionAccessUnits`` access units; the coverage says how
    /// far it read (finding nothing says nothing of what comes after).
    public func detectCaptions() async throws(SubweaveError) -> ProgrammeCaptions {
        try await CaptionScanner(reader: reader)
            .scan(timeline, playlistURL: reference.url, accessUnitLimit: CaptionScanner.detectionAccessUnits)
    }
}
