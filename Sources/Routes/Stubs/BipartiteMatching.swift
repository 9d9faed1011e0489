/// Hopcroft–Karp maximum matching on a bipartite graph given as adjacency lists (left vertex →
/// right vertices), for `equalToJson`'s unordered arrays. Iterative, so a long augmenting path
/// never deepens the stack; every edge looked at is taken from the budget.
enum BipartiteMatching {
    /// Whether every left vertex can be given its own right vertex (false, too, when the budget
    /// ran out).
    static func coversLeft(_ adjacency: [[Int]], rightCount: Int, budget: inout StubBudget) -> Bool {
        let n = adjacency.count
        if n > rightCount { return false }
        var leftMatch = [Int](repeating: -1, count: n), rightMatch = [Int](repeating: -1, count: rightCount)
        var matched = 0
        // A greedy start settles most vertices before any search.
        for u in 0..<n {
            for v in adjacency[u] where rightMatch[v] < 0 {
                guard budget.spend() else { return false }
                leftMatch[u] = v; rightMatch[v] = u; matched += 1
                break
            }
        }
        var layer = [Int](repeating: -1, count: n)
        while matched < n {
            // Layers from the free left vertices, alternating along matched edges.
            var queue: [Int] = []
            for u in 0..<n {
                if leftMatch[u] < 0 { layer[u] = 0; queue.append(u) } else { layer[u] = -1 }
            }
            var reachesFree = false, head = 0
            while head < queue.count {
                let u = queue[head]
                head += 1
                for v in adjacency[u] {
                    guard budget.spend() else { return false }
                    let w = rightMatch[v]
                    if w < 0 { reachesFree = true } else if layer[w] < 0 { layer[w] = layer[u] + 1; queue.append(w) }
                }
            }
            if !reachesFree { return false }
            // Vertex-disjoint augmenting paths along the layers, by an explicit stack.
            var cursor = [Int](repeating: 0, count: n)
            for root in 0..<n where leftMatch[root] < 0 {
                var stack = [root]
                while let u = stack.last {
                    if cursor[u] == adjacency[u].count {
                        layer[u] = -1  // a dead end for the rest of this phase
                        stack.removeLast()
                        continue
                    }
                    let v = adjacency[u][cursor[u]]
                    cursor[u] += 1
                    guard budget.spend() else { return false }
                    let w = rightMatch[v]
                    if w < 0 {
                        // Each vertex on the stack takes the right vertex it stepped through.
                        for x in stack {
                            let y = adjacency[x][cursor[x] - 1]
                            leftMatch[x] = y; rightMatch[y] = x
                        }
                        matched += 1
                        break
                    }
                    if layer[w] == layer[u] + 1 { stack.append(w) }
                }
            }
        }
        return true
    }
}
