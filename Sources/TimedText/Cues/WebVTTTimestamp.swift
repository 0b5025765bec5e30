import Timebase

/// WebVTT timestamps: `[hh:]mm:ss.ttt` (W3C WebVTT §6.2 "collect a WebVTT timestamp").
package enum WebVTTTimestamp {
    /// Collects a timestamp from the UTF-8 `bytes` at `position`, advancing it; nil on failure.
    ///
    /// Follows the spec: the first component is hours when it is not exactly two digits or is over
    /// 59, minutes and seconds must be two digits and ≤ 59, the fraction exactly three digits.
    static func collect(_ bytes: ArraySlice<UInt8>, _ position: inout Int) -> MediaTime? {
        /// The digits at `position`: how many, and their value (nil past Int64).
        func digits() -> (count: Int, value: Int64)? {
            let start = position
            while position < bytes.endIndex, bytes[position].isASCIIDigit { position += 1 }
            guard position > start else { return nil }
            // Leading zeros aside, more than 18 digits cannot fit; MediaTime bounds the rest.
            var value: Int64 = 0
            for byte in bytes[start..<position] {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(byte - 0x30))
                guard !o1, !o2 else { return nil }
                value = s
            }
            return (position - start, value)
        }
        guard position < bytes.endIndex, bytes[position].isASCIIDigit, let (firstCount, first) = digits() else { return nil }
        var hoursFirst = false
        if firstCount != 2 || first > 59 { hoursFirst = true }
        guard position < bytes.endIndex, bytes[position] == 0x3A else { return nil }
        position += 1
        guard let (secondCount, second) = digits(), secondCount == 2 else { return nil }
        var hours: Int64 = 0
        var minutes: Int64
        var seconds: Int64
        if hoursFirst || (position < bytes.endIndex && bytes[position] == 0x3A) {
            guard position < bytes.endIndex, bytes[position] == 0x3A else { return nil }
            position += 1
            guard let (thirdCount, third) = digits(), thirdCount == 2 else { return nil }
            hours = first
            minutes = second
            seconds = third
        } else {
            minutes = first
            seconds = second
        }
        guard position < bytes.endIndex, bytes[position] == 0x2E else { return nil }
        position += 1
        guard let (fractionCount, fraction) = digits(), fractionCount == 3 else { return nil }
        guard minutes <= 59, seconds <= 59 else { return nil }
        // Beyond MediaTime.limit (about 3.5 million hours) a timestamp is treated as malformed.
        return MediaTime(hours: hours, minutes: minutes, seconds: seconds, milliseconds: fraction)
    }

    /// Parses a whole string as a timestamp.
    package static func parse(_ text: String) -> MediaTime? {
        let bytes = Array(text.utf8)[...]
        var position = bytes.startIndex
        guard let time = collect(bytes, &position), position == bytes.endIndex else { return nil }
        return time
    }

    /// Formats `time` as `hh:mm:ss.ttt` (at least two hour digits), rounded to the millisecond.
    ///
    /// Negative times are written as zero: WebVTT has no negative timestamps.
    package static func format(_ time: MediaTime) -> String {
        let total = max(0, time.milliseconds)
        let ms = total % 1000
        let s = (total / 1000) % 60
        let m = (total / 60_000) % 60
        let h = total / 3_600_000
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(ms, 3))"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String { String(value).zeroPadded(to: width) }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }
    var isASCIIWhitespace: Bool { value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D }
}

extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0C || self == 0x0D }
}
