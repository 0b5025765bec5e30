import Containers
import Timebase
import TimedText

/// Puts caption data back in presentation order before it reaches the decoder.
///
/// A/53 caption data travels with each coded picture, in decode order; with B-frames that is not
/// the order the pictures are shown. Decoding in decode order shows the caption before last, or
/// scrambles text. The buffer holds as many access units as H.264 may reorder (a DPB of 16
/// frames) and releases the earliest-presented one as each new one arrives.
///
/// The triplets are copied into storage of its own (a few bytes a unit), so that holding a unit
/// keeps no reference to the caller's storage and releasing one hands out a view of it: no
/// reference count changes per unit.
struct ReorderBuffer {
    static let depth = 16
    private static let capacity = depth + 1
    /// What slot `k` holds: its time and how many triplets (``pool`` from `k * stride` on).
    private var slots = [(time: MediaTime, count: Int)](repeating: (.zero, 0), count: capacity)
    /// Every slot's triplets, `stride` places each.
    private var pool: [CCData]
    /// Places per slot in ``pool``: one cc_data() holds at most 31 triplets (cc_count is 5 bits);
    /// widened when a unit carries more.
    private var stride = 32
    /// The slots in release order: the `count` held are at positions `head..<head + count` of
    /// this ring (earliest time first, equal times in arrival order); the other positions hold
    /// the free slots.
    private var order = Array(0..<capacity)
    private var head = 0
    private var count = 0

    init() { pool = Array(repeating: CCData(type: 0, valid: false, byte1: 0, byte2: 0), count: Self.capacity * stride) }

    /// Adds an access unit's caption data; hands `release` the unit that can no longer be
    /// preceded, if any (its triplets are valid during the call only).
    mutating func add(_ data: UnsafeBufferPointer<CCData>, time: MediaTime, release: (MediaTime, UnsafeBufferPointer<CCData>) -> Void) {
        var at = (head + count) % Self.capacity
        let slot = order[at]
        if data.count > stride { widen(to: data.count) }
        slots[slot] = (time, data.count)
        if let source = data.baseAddress {
            pool.withUnsafeMutableBufferPointer { p in
                guard let base = p.baseAddress else { return }
                (base + slot * stride).update(from: source, count: data.count)
            }
        }
        count += 1
        // Moved back past each unit shown later (a unit in decode order belongs at the end or
        // a few places before it); equal times keep arrival order.
        for _ in 1..<count {
            let before = (at + Self.capacity - 1) % Self.capacity
            guard slots[order[before]].time > time else { break }
            order.swapAt(before, at)
            at = before
        }
        guard count > Self.depth else { return }
        releaseFirst(release)
    }

    /// Hands `release` every unit held, in order, and empties the buffer.
    mutating func drain(_ release: (MediaTime, UnsafeBufferPointer<CCData>) -> Void) {
        while count > 0 { releaseFirst(release) }
    }

    private mutating func releaseFirst(_ release: (MediaTime, UnsafeBufferPointer<CCData>) -> Void) {
        let slot = order[head]
        head = (head + 1) % Self.capacity
        count -= 1
        let (time, held) = slots[slot]
        let start = slot * stride
        pool.withUnsafeBufferPointer { p in release(time, UnsafeBufferPointer(rebasing: p[start..<(start + held)])) }
    }

    /// Gives every slot `places` places at least (the units held keep their triplets).
    private mutating func widen(to places: Int) {
        let wider = max(places, stride * 2)
        var grown = Array(repeating: CCData(type: 0, valid: false, byte1: 0, byte2: 0), count: Self.capacity * wider)
        for slot in 0..<Self.capacity {
            for i in 0..<slots[slot].count { grown[slot * wider + i] = pool[slot * stride + i] }
        }
        pool = grown
        stride = wider
    }
}
