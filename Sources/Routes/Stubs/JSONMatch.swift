import HTTPServer

/// `equalToJson`: structural equality, numbers by value, with WireMock's two relaxations. Every
/// step is taken from a `StubBudget`, so no body makes it run long: out of budget is "no match".
enum JSONMatch {
    /// Whether `actual` matches `expected`; false too when the budget ran out (`budget.exhausted`).
    /// `placeholders`: the json-unit placeholders of `expected` (nil when it has none).
    static func equal(_ expected: JSONValue, _ actual: JSONValue, ignoreArrayOrder: Bool, ignoreExtra: Bool,
                      placeholders: JSONPlaceholders? = nil, budget: inout StubBudget) -> Bool {
        guard budget.spend() else { return false }
        if let placeholders, case .string(let text) = expected, let verdict = placeholders.match(text, actual) { return verdict }
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            guard budget.spend(e.count + a.count) else { return false }
            // The last member of a name counts, on both sides (as lookups read it); a table keeps
            // a big object linear instead of a scan per member.
            let actualAt = JSONMatch.lastIndexes(a)
            let expectedAt = JSONMatch.lastIndexes(e)
            if !ignoreExtra && actualAt.keys.contains(where: { expectedAt[$0] == nil }) { return false }
            for (key, i) in expectedAt {
                guard let j = actualAt[key] else {
                    // `${json-unit.ignore-element}`: the member may be missing too.
                    if let placeholders, placeholders.ignoresElement(e[i].value) { continue }
                    return false
                }
                if !equal(e[i].value, a[j].value, ignoreArrayOrder: ignoreArrayOrder, ignoreExtra: ignoreExtra,
                          placeholders: placeholders, budget: &budget) { return false }
            }
            return true
        case (.array(let e), .array(let a)):
            if ignoreExtra ? e.count > a.count : e.count != a.count { return false }
            if !ignoreArrayOrder {
                for (x, y) in zip(e, a) where !equal(x, y, ignoreArrayOrder: false, ignoreExtra: ignoreExtra, placeholders: placeholders,
                                                     budget: &budget) { return false }
                return true
            }
            return unordered(e, a, ignoreExtra: ignoreExtra, placeholders: placeholders, budget: &budget)
        default:
            return expected == actual
        }
    }

    private static func lastIndexes(_ members: [(key: String, value: JSONValue)]) -> [String: Int] {
        var at: [String: Int] = [:]
        at.reserveCapacity(members.count)
        for (i, member) in members.enumerated() { at[member.key] = i }
        return at
    }

    /// Each expected element takes its own actual element, in any order. Identical elements
    /// (same canonical text) are paired first by hash: an identical pair can stand in for any
    /// other pairing of either of them, so this never loses a match, and it settles the common
    /// case in near-linear time. What is left is a bipartite matching (Hopcroft–Karp), needed
    /// only when `ignoreExtra` lets an object or array match a larger one.
    /// With placeholders an element may match one that is not identical, so the matching is
    /// tried whatever the options.
    private static func unordered(_ e: [JSONValue], _ a: [JSONValue], ignoreExtra: Bool, placeholders: JSONPlaceholders?,
                                  budget: inout StubBudget) -> Bool {
        var unusedByForm: [[UInt8]: [Int]] = [:]
        for (j, value) in a.enumerated() {
            guard let form = JSONCanonical.form(value, budget: &budget) else { return false }
            unusedByForm[form, default: []].append(j)
        }
        var used = [Bool](repeating: false, count: a.count)
        var left: [(value: JSONValue, form: [UInt8])] = []
        for value in e {
            guard let form = JSONCanonical.form(value, budget: &budget) else { return false }
            if let j = unusedByForm[form]?.popLast() { used[j] = true } else { left.append((value, form)) }
        }
        if left.isEmpty { return true }
        // Without ignoreExtra, equal up to order is identical canonical text: nothing else can match.
        guard ignoreExtra || placeholders != nil else { return false }
        let right = a.indices.filter { !used[$0] }.map { a[$0] }
        var adjacency: [[Int]] = []
        adjacency.reserveCapacity(left.count)
        // Identical expected elements have the same candidates: worked out once.
        var edgesByForm: [[UInt8]: [Int]] = [:]
        for (x, form) in left {
            if let edges = edgesByForm[form] {
                adjacency.append(edges)
                continue
            }
            // Without placeholders a scalar matches only an identical value, and those are taken.
            var edges: [Int] = []
            switch x {
            case .object:
                for (k, y) in right.enumerated() where y.isObject {
                    if equal(x, y, ignoreArrayOrder: true, ignoreExtra: ignoreExtra, placeholders: placeholders, budget: &budget) { edges.append(k) }
                    if budget.exhausted { return false }
                }
            case .array:
                for (k, y) in right.enumerated() {
                    guard case .array = y else { continue }
                    if equal(x, y, ignoreArrayOrder: true, ignoreExtra: ignoreExtra, placeholders: placeholders, budget: &budget) { edges.append(k) }
                    if budget.exhausted { return false }
                }
            case .string where placeholders != nil:
                for (k, y) in right.enumerated() {
                    if equal(x, y, ignoreArrayOrder: true, ignoreExtra: ignoreExtra, placeholders: placeholders, budget: &budget) { edges.append(k) }
                    if budget.exhausted { return false }
                }
            default: return false
            }
            if edges.isEmpty { return false }
            edgesByForm[form] = edges
            adjacency.append(edges)
        }
        return BipartiteMatching.coversLeft(adjacency, rightCount: right.count, budget: &budget)
    }
}
