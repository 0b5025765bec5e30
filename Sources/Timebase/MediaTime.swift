/// A point or span on a media timeline, counted in 90 kHz ticks.
///
/// 90 kHz is the MPEG-TS system clock that `X-TIMESTAMP-MAP` speaks, and every WebVTT or SubRip
/// millisecond is exactly 90 ticks, so cue times convert without loss. All cue and segment
/// arithmetic in Subweave happens in this type; `Double` seconds appear only in reports.
///
/// ```swift
/// let t = MediaTime(milliseconds: 1_500)   // 135_000 ticks
/// t.milliseconds                           // 1500
/// ```
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Ticks per second of the 90 kHz clock.
    public static let ticksPerSecond: Int64 = 90_000

    /// The time in 90 kHz ticks.
    public var ticks: Int64

    /// A time of `ticks` 90 kHz ticks.
    public init(ticks: Int64) { self.ticks = ticks }

    /// A time of whole milliseconds (exact: one millisecond is 90 ticks).
    public init(milliseconds: Int64) { self.ticks = milliseconds * 90 }

    /// A time of whole seconds.
    public init(seconds: Int64) { self.ticks = seconds * Self.ticksPerSecond }

    /// A time of `value` units on a clock of `timescale` units per second, rounded to the nearest
    /// tick, for constants such as 1001/30000 s; numbers read from files go through
    /// ``init(exactly:timescale:)``, which cannot trap.
    public init(_ value: Int64, timescale: Int64) {
        precondition(timescale > 0, "timescale must be positive")
        self.ticks = Self.divideRounding(value.multipliedFullWidth(by: Self.ticksPerSecond), by: timescale)
    }

    /// Zero.
    public static let zero = MediaTime(ticks: 0)

    /// The largest magnitude, in ticks, of a time read from a file: 2^50 ticks (about 396 years).
    ///
    /// Every reader rejects a time beyond it, so sums and differences of a few such times, and of
    /// a segment count's worth of EXTINF durations checked as they accumulate, cannot overflow.
    public static let limit: Int64 = 1 << 50

    /// The time `hours:minutes:seconds.milliseconds`, or nil when a field is negative or the
    /// result is beyond ``limit`` (no arithmetic here can overflow, whatever the fields).
    public init?(hours: Int64, minutes: Int64, seconds: Int64, milliseconds: Int64) {
        guard hours >= 0, minutes >= 0, seconds >= 0, milliseconds >= 0 else { return nil }
        let maximumHours = Self.limit / (3_600_000 * 90)
        guard hours <= maximumHours, minutes <= maximumHours * 60, seconds <= maximumHours * 3600,
            milliseconds <= maximumHours * 3_600_000
        else { return nil }
        let total = ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
        guard total <= Self.limit / 90 else { return nil }
        self.ticks = total * 90
    }

    /// `value` units of a clock with `timescale` units per second, rounded to the nearest tick;
    /// nil when the timescale is not positive or the result is beyond ``limit``.
    ///
    /// The form for numbers read from files (`tfdt`, `mdhd`): it cannot trap.
    public init?(exactly value: Int64, timescale: Int64) {
        guard timescale > 0 else { return nil }
        // |value| · 90000 ≤ limit · timescale, compared on 128 bits, keeps the quotient in range.
        let scaled = value.magnitude.multipliedFullWidth(by: UInt64(Self.ticksPerSecond))
        let bound = UInt64(Self.limit).multipliedFullWidth(by: UInt64(timescale))
        guard scaled.high < bound.high || (scaled.high == bound.high && scaled.low <= bound.low) else { return nil }
        let product = value.multipliedFullWidth(by: Self.ticksPerSecond)
        self.ticks = Self.divideRounding(product, by: timescale)
    }

    /// `a + b`, or nil when it leaves `-limit ... limit`.
    public static func checkedSum(_ a: MediaTime, _ b: MediaTime) -> MediaTime? {
        let (sum, overflow) = a.ticks.addingReportingOverflow(b.ticks)
        guard !overflow, sum.magnitude <= UInt64(limit) else { return nil }
        return MediaTime(ticks: sum)
    }

    /// The time rounded to the nearest millisecond (halves away from zero).
    public var milliseconds: Int64 {
        // On 64 bits (a millisecond is 90 ticks): the 128-bit division is a library call.
        let (quotient, remainder) = ticks.quotientAndRemainder(dividingBy: 90)
        guard remainder.magnitude * 2 >= 90 else { return quotient }
        return remainder < 0 ? quotient - 1 : quotient + 1
    }

    /// The smallest whole-millisecond time at or after this one.
    public var roundedUpToMillisecond: MediaTime {
        let r = ticks % 90
        return r == 0 ? self : MediaTime(ticks: ticks - r + (r > 0 ? 90 : 0))
    }

    /// The time in seconds, for reports and JSON only: never for arithmetic.
    public var seconds: Double { Double(ticks) / Double(Self.ticksPerSecond) }

    public var description: String { "\(ticks)t" }

    public static func < (a: MediaTime, b: MediaTime) -> Bool { a.ticks < b.ticks }
    public static func + (a: MediaTime, b: MediaTime) -> MediaTime { MediaTime(ticks: a.ticks + b.ticks) }
    public static func - (a: MediaTime, b: MediaTime) -> MediaTime { MediaTime(ticks: a.ticks - b.ticks) }
    public static func += (a: inout MediaTime, b: MediaTime) { a.ticks += b.ticks }
    public static func -= (a: inout MediaTime, b: MediaTime) { a.ticks -= b.ticks }
    public static prefix func - (a: MediaTime) -> MediaTime { MediaTime(ticks: -a.ticks) }

    /// Rounds `numerator / denominator` to the nearest integer, halves away from zero.
    private static func divideRounding(_ numerator: (high: Int64, low: UInt64), by denominator: Int64) -> Int64 {
        let (q, r) = denominator.dividingFullWidth(numerator)
        if r.magnitude * 2 >= denominator.magnitude {
            return (r < 0) != (denominator < 0) ? q - 1 : q + 1
        }
        return q
    }
}

extension MediaTime {
    /// Parses a non-negative decimal number of seconds, as written in `EXTINF` (`6.006000`, `10`),
    /// exactly: digits beyond the ninth decimal place are ignored, the rest rounds to the nearest tick.
    ///
    /// Returns nil for anything that is not `digits[.digits]`.
    public init?(decimalSeconds text: Substring) {
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var seenPoint = false
        var seenDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                seenDigit = true
                let digit = Int64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    if fractionDigits < 9 {
                        fraction = fraction * 10 + digit
                        fractionDigits += 1
                    }
                } else {
                    let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(digit)
                    if o1 || o2 || s > 10_000_000_000 { return nil }
                    whole = s
                }
            case UInt8(ascii: "."):
                if seenPoint { return nil }
                seenPoint = true
            default:
                return nil
            }
        }
        guard seenDigit else { return nil }
        var scale: Int64 = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        self.ticks = whole * Self.ticksPerSecond + MediaTime(fraction, timescale: scale).ticks
    }

    /// The time as decimal seconds with three decimals (`12.345`), for reports and messages.
    public var decimalSeconds: String {
        let ms = milliseconds
        let sign = ms < 0 ? "-" : ""
        let magnitude = ms.magnitude
        return "\(sign)\(magnitude / 1000).\(String(magnitude % 1000).zeroPadded(to: 3))"
    }
}
