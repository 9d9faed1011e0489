import EmulationKit

/// Issued tokens and what each stands for, forgetting the oldest past a bound.
///
/// The emulated servers never revoke tokens, so a login benchmark would otherwise grow memory
/// without end; only tokens far older than any client keeps are forgotten. Not thread-safe:
/// it lives inside a system's `Locked` state.
struct TokenStore<Value> {
    private(set) var values: [String: Value] = [:]
    /// Issue order as a ring of `capacity` slots, so eviction is O(1).
    private var order: [String] = []
    private var nextSlot = 0
    let capacity: Int
    /// Tokens issued, evicted or removed since the change log last looked.
    var touched = TouchedKeys()

    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    subscript(token: String) -> Value? { values[token] }

    var count: Int { values.count }

    mutating func insert(_ token: String, _ value: Value) {
        touched.touch(token)
        if values.updateValue(value, forKey: token) != nil { return }
        if order.count < capacity {
            order.append(token)
        } else {
            touched.touch(order[nextSlot])
            values.removeValue(forKey: order[nextSlot])
            order[nextSlot] = token
            nextSlot = (nextSlot + 1) % capacity
        }
    }

    mutating func remove(_ token: String) {
        touched.touch(token)
        values.removeValue(forKey: token)
    }

    /// The live tokens, oldest first: inserting them in this order into an empty store rebuilds
    /// this one (what the state file keeps; the ring's slots are never written, so a file cannot
    /// hand a restore an impossible slot or a count beyond the capacity).
    var ordered: [(token: String, value: Value)] {
        let oldestFirst = order.count < capacity ? order : Array(order[nextSlot...] + order[..<nextSlot])
        // A token removed and issued again sits in two slots; it is listed once.
        var seen = Set<String>()
        return oldestFirst.compactMap { token in
            guard let value = values[token], seen.insert(token).inserted else { return nil }
            return (token, value)
        }
    }
}

extension TokenStore: Sendable where Value: Sendable {}
