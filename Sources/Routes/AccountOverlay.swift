import HTTPServer

/// Accounts of a system whose seed accounts are read on its hot path (a login): the seed's,
/// immutable and read without a lock, plus the ones a test added or removed through
/// `/__mock/accounts`. The lock is taken only once something was changed (until a reset).
final class AccountOverlay<Value: Sendable>: Sendable {
    private let seed: [String: Value]
    private let changes = Locked<(added: [String: Value], removed: Set<String>)>(([:], []))
    private let changed = LockFreeFlag()

    init(_ seed: [String: Value]) { self.seed = seed }

    subscript(key: String) -> Value? {
        guard changed.isSet else { return seed[key] }
        return changes.withLock { c in c.removed.contains(key) ? nil : c.added[key] ?? seed[key] }
    }

    /// Every account now, by key.
    var all: [String: Value] {
        guard changed.isSet else { return seed }
        return changes.withLock { c in
            seed.filter { !c.removed.contains($0.key) }.merging(c.added) { _, added in added }
        }
    }

    /// Adds one; false (and nothing changed) when the key has an account.
    func add(_ key: String, _ value: Value) -> Bool {
        changes.withLock { c in
            if c.added[key] != nil || (seed[key] != nil && !c.removed.contains(key)) { return false }
            c.added[key] = value
            c.removed.remove(key)
            changed.set(true)
            return true
        }
    }

    /// Removes one; false when there is none.
    func remove(_ key: String) -> Bool {
        changes.withLock { c in
            if c.added.removeValue(forKey: key) != nil { return true }
            guard seed[key] != nil, c.removed.insert(key).inserted else { return false }
            changed.set(true)
            return true
        }
    }

    /// Back to the seed's accounts.
    func reset() {
        changes.withLock { c in
            c = ([:], [])
            changed.set(false)
        }
    }
}
