/// Arithmetic on the 33-bit MPEG-TS presentation clock (ISO/IEC 13818-1 §2.4.3.7).
///
/// PTS and DTS values are 33-bit counters of the 90 kHz clock that wrap to 0 after 2^33 ticks
/// (about 26.5 hours). A stream may cross the wrap at any point, so comparing two raw values means
/// first bringing one next to the other.
package enum PresentationTimestamp {
    /// 2^33: the modulus of PTS, DTS and `X-TIMESTAMP-MAP`'s MPEGTS value.
    package static let modulus: Int64 = 1 << 33

    /// `value` reduced into `0 ..< 2^33`.
    package static func wrapped(_ value: Int64) -> Int64 {
        let r = value % modulus
        return r < 0 ? r + modulus : r
    }

    /// The unwrapped value congruent to `value` (mod 2^33) that lies nearest to `reference`.
    ///
    /// `unwrapped(5, near: 2^33 - 10)` is `2^33 + 5`: a timestamp just after the wrap follows
    /// one just before it.
    package static func unwrapped(_ value: Int64, near reference: Int64) -> Int64 {
        reference + wrappedDifference(value, reference)
    }

    /// `a - b` on the wrapping clock, in `-2^32 ..< 2^32`.
    package static func wrappedDifference(_ a: Int64, _ b: Int64) -> Int64 {
        let half = modulus / 2
        var d = wrapped(a - b)
        if d >= half { d -= modulus }
        return d
    }
}
