/// "Did you mean" by Damerau–Levenshtein distance (optimal string alignment): for
/// commands and options here, and for dialog names (Messaging), so that both suggest alike.
package enum EditDistance {
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The closest candidate within ⌈len/3⌉ edits of `typed` (earliest on ties), if any.
    package static func bestMatch(for typed: String, among candidates: [String]) -> String? {
        let threshold = max(1, (typed.count + 2) / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(typed, candidate)
            if d <= threshold, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.candidate
    }
}
