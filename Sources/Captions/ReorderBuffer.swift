import Containers
import Timebase
import TimedText

/// Puts caption data back in presentation order before it reaches the decoder.
///
/// A/53 caption data travels with each coded picture, in decode order; with B-frames that is not
/// the order the pictures are shown. Decoding in decode order shows the caption before last, or
/// scrambles text. The buffer holds as many access units as H.264 may reorder (a DPB of 16
/// frames) and releases the earliest-presented one as each new one arrives.
struct ReorderBuffer {
    static let depth = 16
    private var pending: [(time: MediaTime, data: [CCData], sequence: Int)] = []
    private var sequence = 0

    /// Adds an access unit's caption data; returns the one that can no longer be preceded, if any.
    mutating func add(_ data: [CCData], time: MediaTime) -> (MediaTime, [CCData])? {
        pending.append((time, data, sequence))
        sequence += 1
        guard pending.count > Self.depth else { return nil }
        return popEarliest()
    }

    mutating func drain() -> [(MediaTime, [CCData])] {
        var out: [(MediaTime, [CCData])] = []
        while !pending.isEmpty { out.append(popEarliest()) }
        return out
    }

    private mutating func popEarliest() -> (MediaTime, [CCData]) {
        var best = 0
        for i in pending.indices.dropFirst() where (pending[i].time, pending[i].sequence) < (pending[best].time, pending[best].sequence) { best = i }
        let item = pending.remove(at: best)
        return (item.time, item.data)
    }
}
