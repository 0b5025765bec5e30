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
        static func parse(_ line: UnsafeBufferPointer<UInt8>) -> (MediaTime, MediaTime)? {
            if let times = canonical(line) { return times }
            return parseFields(line[...])
        }

        /// The times of a line in the form nearly every file writes, `hh:mm:ss,mmm --> hh:mm:ss,mmm`
        /// (or with `.`), alone or followed by a space or tab, read at their fixed places; nil for
        /// any other line, which ``parseFields(_:)`` reads to the same result.
        static func canonical(_ line: UnsafeBufferPointer<UInt8>) -> (MediaTime, MediaTime)? {
            guard line.count >= 29, line.count == 29 || line[29] == 0x20 || line[29] == 0x09,
                line[12] == 0x20, line[13] == 0x2D, line[14] == 0x2D, line[15] == 0x3E, line[16] == 0x20,
                let start = canonicalTime(line, at: 0), let end = canonicalTime(line, at: 17)
            else { return nil }
            return (start, end)
        }

        /// `hh:mm:ss,mmm` (or `.`) at `at`, with minutes and seconds under 60.
        private static func canonicalTime(_ s: UnsafeBufferPointer<UInt8>, at: Int) -> MediaTime? {
            guard s[at + 2] == 0x3A, s[at + 5] == 0x3A, s[at + 8] == 0x2C || s[at + 8] == 0x2E else { return nil }
            // Each digit's value; a byte that is not a digit gives 10 or more.
            let d = (
                s[at] &- 0x30, s[at + 1] &- 0x30, s[at + 3] &- 0x30, s[at + 4] &- 0x30, s[at + 6] &- 0x30, s[at + 7] &- 0x30,
                s[at + 9] &- 0x30, s[at + 10] &- 0x30, s[at + 11] &- 0x30
            )
            guard max(d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7, d.8) < 10, d.2 < 6, d.4 < 6 else { return nil }
            let h = Int64(d.0) * 10 + Int64(d.1)
            let m = Int64(d.2) * 10 + Int64(d.3)
            let sec = Int64(d.4) * 10 + Int64(d.5)
            let ms = Int64(d.6) * 100 + Int64(d.7) * 10 + Int64(d.8)
            return MediaTime(milliseconds: ((h * 60 + m) * 60 + sec) * 1000 + ms)
        }

        /// ``parse(_:)`` field by field, for any line.
        static func parseFields<Bytes: RandomAccessCollection<UInt8>>(_ s: Bytes) -> (MediaTime, MediaTime)? where Bytes.Index == Int {
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
