import Timebase

extension SubRipParser {
    /// A SubRip timing line: `start --> end` and anything after it.
    struct Timing {
        let start: MediaTime
        let end: MediaTime

        init(start: MediaTime, end: MediaTime) {
            self.start = start
            self.end = end
        }

        /// The start and end of a timing line's UTF-8 bytes.
        static func parse<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes) -> (MediaTime, MediaTime)? where Bytes.Index == Int {
            var i = s.startIndex
            func skipSpaces() { while i < s.endIndex, s[i] == 0x20 || s[i] == 0x09 { i += 1 } }
            skipSpaces()
            guard let start = timestamp(s, &i) else { return nil }
            skipSpaces()
            // `-->`, or `->`, `--->`: one or more dashes then `>`.
            var dashes = 0
            while i < s.endIndex, s[i] == 0x2D { dashes += 1; i += 1 }
            guard dashes >= 1, i < s.endIndex, s[i] == 0x3E else { return nil }
            i += 1
            skipSpaces()
            guard let end = timestamp(s, &i) else { return nil }
            // Whatever follows (X1:… coordinates) is ignored, but it must be separated.
            guard i == s.endIndex || s[i] == 0x20 || s[i] == 0x09 else { return nil }
            return (start, end)
        }

        /// `[h:]m:s[,.:]f` with one or more digits per field; the fraction is a decimal fraction
        /// of a second (`1,5` is 1.500 s), read to the millisecond.
        static func timestamp<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes, _ i: inout Int) -> MediaTime? where Bytes.Index == Int {
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            // Up to three fields, held in place (no allocation per timestamp).
            var fields: (Int64, Int64, Int64) = (0, 0, 0)
            var count = 0
            while true {
                let start = i
                var value: Int64 = 0
                // At most ten digits a field: no overflow, and longer runs are not a timestamp.
                while i < s.endIndex, isDigit(s[i]), i - start < 10 {
                    value = value * 10 + Int64(s[i] - 0x30)
                    i += 1
                }
                guard i > start else { return nil }
                switch count {
                case 0: fields.0 = value
                case 1: fields.1 = value
                default: fields.2 = value
                }
                count += 1
                guard count < 3 else { break }
                guard i < s.endIndex, s[i] == 0x3A else {
                    if count == 2, i < s.endIndex, s[i] == 0x2C || s[i] == 0x2E { break }
                    return nil
                }
                i += 1
            }
            guard i < s.endIndex, s[i] == 0x2C || s[i] == 0x2E || s[i] == 0x3A else { return nil }
            i += 1
            let fractionStart = i
            var ms: Int64 = 0
            while i < s.endIndex, isDigit(s[i]) {
                // Read to the millisecond: `5` is 500, `05` is 50, digits past the third are dropped.
                if i - fractionStart < 3 { ms = ms * 10 + Int64(s[i] - 0x30) }
                i += 1
            }
            guard i > fractionStart else { return nil }
            for _ in min(i - fractionStart, 3)..<3 { ms *= 10 }
            let (h, m, sec) = count == 3 ? fields : (0, fields.0, fields.1)
            guard m < 60, sec < 60 else { return nil }
            return MediaTime(hours: h, minutes: m, seconds: sec, milliseconds: ms)
        }
    }
}
