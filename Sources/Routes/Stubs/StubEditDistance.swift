/// How different two texts are, 0 (equal) to 1: the Levenshtein distance over the longer one's
/// length, as WireMock scores an exact URL that a near miss gets wrong.
enum StubEditDistance {
    /// Past this many characters a text is not graded (1 when different): the table is quadratic
    /// and a near miss is asked of every mapping.
    static let maxLength = 512
    /// Table cells one near-miss call may fill in all (about a tenth of a second): the unmatched
    /// journal against every mapping multiplies, so past it a different URL counts as a plain miss
    /// (1), as one longer than `maxLength` does, and the call still answers at once.
    static let cellsPerCall = 50_000_000

    /// `budget`: the cells the call has left; this pair's are taken from it when it fits.
    static func fraction(_ a: String, _ b: String, budget: inout Int) -> Double {
        if a == b { return 0 }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard !x.isEmpty, !y.isEmpty, x.count <= maxLength, y.count <= maxLength, x.count * y.count <= budget else { return 1 }
        budget -= x.count * y.count
        var previous = Array(0...y.count)
        var current = previous
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return Double(previous[y.count]) / Double(max(x.count, y.count))
    }
}
