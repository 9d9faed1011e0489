/// A match and its groups, as ranges of the text it was found in.
package struct RegexMatch: Sendable {
    /// The whole match (group 0).
    package let range: Range<String.Index>
    /// Groups 1…n; nil for a group that took no part in the match.
    package let groups: [Range<String.Index>?]
    /// Named groups' numbers (1-based, as in `groups[number - 1]`).
    package let names: [String: Int]

    /// The range of the named group, nil when it took no part or there is no such name.
    package subscript(name name: String) -> Range<String.Index>? {
        guard let n = names[name], n >= 1, n <= groups.count else { return nil }
        return groups[n - 1]
    }

    /// Reads capture slots (byte offsets) back as ranges of `text`.
    init(slots: [Int], in text: String, names: [String: Int]) {
        let utf8 = text.utf8
        func range(_ k: Int) -> Range<String.Index>? {
            guard 2 * k + 1 < slots.count, slots[2 * k] >= 0, slots[2 * k + 1] >= slots[2 * k] else { return nil }
            let lower = utf8.index(utf8.startIndex, offsetBy: slots[2 * k])
            let upper = utf8.index(lower, offsetBy: slots[2 * k + 1] - slots[2 * k])
            return lower..<upper
        }
        self.range = range(0) ?? text.startIndex..<text.startIndex
        self.groups = stride(from: 1, to: slots.count / 2, by: 1).map(range)
        self.names = names
    }
}
