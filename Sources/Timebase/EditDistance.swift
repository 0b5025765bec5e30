/// Levenshtein distance, for "did you mean …?" suggestions.
package enum EditDistance {
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in 1...b.count {
                let old = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = old
            }
        }
        return row[b.count]
    }

    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    package static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard let best = candidates.min(by: { between($0, word) < between($1, word) }) else { return nil }
        return between(best, word) <= max(2, word.count / 3) ? best : nil
    }
}
