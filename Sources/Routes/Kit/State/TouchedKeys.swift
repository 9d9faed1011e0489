/// The keys of a collection changed since the change log last looked, in the order they were
/// first changed, so a write looks at those elements only. Starts (and, past a bound or after a
/// wholesale change, falls back to) "all": the next write compares every element once.
package struct TouchedKeys: Sendable {
    /// Every element may have changed.
    package private(set) var all = true
    package private(set) var keys: [String] = []
    private var seen: Set<String> = []
    /// Past this many, one full comparison is cheaper than the list (and without `--state`
    /// nobody takes the list: it must stay bounded).
    private static let bound = 4096

    package init() {}

    package mutating func touch(_ key: String) {
        guard !all else { return }
        guard keys.count < TouchedKeys.bound else { return touchAll() }
        if seen.insert(key).inserted { keys.append(key) }
    }

    package mutating func touchAll() {
        all = true
        keys = []
        seen = []
    }

    /// What was touched; from now on nothing is.
    package mutating func take() -> TouchedKeys {
        let taken = self
        all = false
        keys = []
        seen = []
        return taken
    }
}
