/// How fast a subtitle file's clock runs against the programme's, as an exact ratio: 25/23.976
/// for a file timed on the 25 fps version of a 23.976 fps programme (its times 4.27 % long).
///
/// Cue times are divided by it: `ClockRate(parsing: "25/23.976")` turns 104.27 s into 100 s.
/// Written as `A/B` or a decimal; the NTSC rates are read as what they stand for (23.976 as
/// 24000/1001, 29.97 as 30000/1001, 59.94 as 60000/1001), so `24/23.976` is exactly 1.001.
public struct ClockRate: Sendable, Hashable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    /// The ratio `numerator`/`denominator`, both positive, reduced.
    public init?(numerator: Int64, denominator: Int64) {
        guard numerator > 0, denominator > 0 else { return nil }
        var (a, b) = (numerator, denominator)
        while b != 0 { (a, b) = (b, a % b) }
        self.numerator = numerator / a
        self.denominator = denominator / a
    }

    /// Reads `A/B` (each an integer, a decimal or an NTSC rate) or a decimal, between 0.5 and 2.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let top = Self.exact(parts[0]), let bottom = parts.count == 2 ? Self.exact(parts[1]) : (1, 1) else {
            return nil
        }
        let n = top.0.multipliedReportingOverflow(by: bottom.1), d = top.1.multipliedReportingOverflow(by: bottom.0)
        guard !n.overflow, !d.overflow, let rate = ClockRate(numerator: n.partialValue, denominator: d.partialValue), rate.value >= 0.5, rate.value <= 2
        else { return nil }
        self = rate
    }

    /// A decimal or an NTSC rate as an exact fraction (numerator, denominator); nil when it is
    /// not one, or too long to hold exactly.
    private static func exact(_ text: Substring) -> (Int64, Int64)? {
        let ntsc: [String: (Int64, Int64)] = ["23.976": (24000, 1001), "29.97": (30000, 1001), "59.94": (60000, 1001), "119.88": (120000, 1001)]
        if let known = ntsc[String(text)] { return known }
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first else { return nil }
        let fraction = pieces.count == 2 ? pieces[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.count <= 18, fraction.count <= 9,
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var scale: Int64 = 1
        for _ in fraction { scale *= 10 }
        guard let units = Int64(whole.isEmpty ? "0" : String(whole)), let part = fraction.isEmpty ? 0 : Int64(fraction) else { return nil }
        let scaled = units.multipliedReportingOverflow(by: scale)
        guard !scaled.overflow else { return nil }
        let value = scaled.partialValue.addingReportingOverflow(part)
        guard !value.overflow, value.partialValue > 0 else { return nil }
        return (value.partialValue, scale)
    }

    /// The ratio as a number.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// 1: no change.
    public var isOne: Bool { numerator == denominator }

    public static let one = ClockRate(reduced: 1, 1)

    /// A ratio already in lowest terms.
    private init(reduced numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// `time` divided by the rate, rounded to the nearest tick.
    public func divide(_ time: MediaTime) -> MediaTime {
        guard !isOne else { return time }
        let product = time.ticks.multipliedFullWidth(by: denominator)
        let (quotient, remainder) = numerator.dividingFullWidth(product)
        let rounded = 2 * abs(remainder) >= numerator ? quotient + (time.ticks < 0 ? -1 : 1) : quotient
        return MediaTime(ticks: rounded)
    }

    /// The way the rate is written in a descriptor: the named film and TV ratios by their frame
    /// rates (`25/23.976`), any other as `numerator/denominator`.
    public var description: String {
        let named: [ClockRate: String] = Self.namedRates
        if let name = named[self] { return name }
        return "\(numerator)/\(denominator)"
    }

    /// The film and TV speed changes, as frame-rate pairs: the one list the sync check searches.
    ///
    /// A sidecar made for another version of a programme is off by one of them: 24000/1001 ↔ 24
    /// (the same ratio as 30000/1001 ↔ 30), 24 ↔ 25, 24000/1001 ↔ 25.
    static let standardPairs = [("24", "23.976"), ("25", "24"), ("25", "23.976")]

    /// The standard speed changes, each way (``standardPairs``), faster one first in each pair.
    public static let standardChanges: [ClockRate] = standardPairs.flatMap { a, b in
        [ClockRate(parsing: "\(a)/\(b)"), ClockRate(parsing: "\(b)/\(a)")].compactMap { $0 }
    }

    private static let namedRates: [ClockRate: String] = {
        var names: [ClockRate: String] = [:]
        for (a, b) in standardPairs + [("30", "29.97"), ("30", "25"), ("25", "29.97")] {
            if let rate = ClockRate(parsing: "\(a)/\(b)"), names[rate] == nil { names[rate] = "\(a)/\(b)" }
            if let rate = ClockRate(parsing: "\(b)/\(a)"), names[rate] == nil { names[rate] = "\(b)/\(a)" }
        }
        names[.one] = "1"
        return names
    }()
}
