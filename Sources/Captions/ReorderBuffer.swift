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
    private static let capacity = depth + 1
    /// A ring of `capacity` slots: the `count` units held start at `head`, in the order they are
    /// released (earliest time first, equal times in arrival order).
    private var slots = [(time: MediaTime, data: ArraySlice<CCData>)](repeating: (.zero, []), count: capacity)
    private var head = 0
    private var count = 0

    /// Adds an access unit's caption data; returns the one that can no longer be preceded, if any.
    mutating func add(_ data: ArraySlice<CCData>, time: MediaTime) -> (MediaTime, ArraySlice<CCData>)? {
        var at = (head + count) % Self.capacity
        slots[at] = (time, data)
        count += 1
        // Moved back past each unit shown later (a unit in decode order belongs at the end or
        // a few places before it); equal times keep arrival order.
        for _ in 1..<count {
            let before = (at + Self.capacity - 1) % Self.capacity
            guard slots[before].time > time else { break }
            slots.swapAt(before, at)
            at = before
        }
        guard count > Self.depth else { return nil }
        return releaseFirst()
    }

    mutating func drain() -> [(MediaTime, ArraySlice<CCData>)] {
        var out: [(MediaTime, ArraySlice<CCData>)] = []
        while count > 0 { out.append(releaseFirst()) }
        return out
    }

    private mutating func releaseFirst() -> (MediaTime, ArraySlice<CCData>) {
        let first = slots[head]
        slots[head].data = []
        head = (head + 1) % Self.capacity
        count -= 1
        return first
    }
}
