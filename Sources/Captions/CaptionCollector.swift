import Containers
import Timebase
import TimedText

/// Collects decoded captions as cues, per service.
package struct CaptionCollector: CaptionSink {
    package private(set) var cues: [CaptionService: [Cue]] = [:]

    package init() {}

    package mutating func caption(_ text: String, service: CaptionService, from start: MediaTime, to end: MediaTime, placement: CueSettings) {
        cues[service, default: []].append(Cue(start: start, end: end, settings: placement, text: CaptionStyle.webVTT(text)))
    }

    /// The cues collected so far, in service order then time, emptying the collector (a reader
    /// that streams cues out keeps memory flat).
    package mutating func take() -> [(service: CaptionService, cue: Cue)] {
        var out: [(CaptionService, Cue)] = []
        for service in cues.keys.sorted() { for cue in cues[service] ?? [] { out.append((service, cue)) } }
        cues = [:]
        return out
    }
}
