/// Writing numbers and counts into text: zero padding, seconds, plurals; and compact storage.
extension String {
    /// `self` (digits) with zeros before it to at least `width` characters: the one home for
    /// zero padding (segment names, timestamps, hashes, code points).
    package func zeroPadded(to width: Int) -> String {
        let missing = width - utf8.count
        return missing > 0 ? String(repeating: "0", count: missing) + self : self
    }

    /// The same text in storage of its own size: a string built by appending keeps the capacity it
    /// grew to, which a list of millions of cue texts should not.
    package var compacted: String {
        let count = utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var copy = self
            return copy.withUTF8 {
                UnsafeMutableRawBufferPointer(buffer).copyBytes(from: $0); return $0.count
            }
        }
    }
}

extension Double {
    /// Seconds written with three decimals (`12.345`), as ``MediaTime/decimalSeconds`` writes them.
    package var decimalSeconds: String {
        // Beyond what a media time holds (or not a number), the plain form: never a trap.
        let ticks = (self * Double(MediaTime.ticksPerSecond)).rounded()
        guard ticks.isFinite, abs(ticks) < Double(MediaTime.limit) else { return "\(self)" }
        return MediaTime(ticks: Int64(ticks)).decimalSeconds
    }
}

extension Int {
    /// The count with its noun in the right number: `1.counted("cue")` is "1 cue",
    /// `2.counted("cue")` "2 cues" (the one home for plurals in messages).
    package func counted(_ singular: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? singular : plural ?? singular + "s")"
    }
}
