import EmulationKit

/// SMS codes sent and not yet used, by normalised phone, bounded: past `capacity` the oldest
/// is dropped first. Every operation is O(1) (amortised): a FIFO of phones with a generation
/// number, where entries replaced by a newer code are skipped when they reach the front.
struct PendingCodes: Sendable {
    private var codes: [String: (code: String, generation: Int)] = [:]
    private var queue: [(phone: String, generation: Int)] = []
    private var head = 0
    private var generation = 0
    let capacity: Int
    /// Phones whose code was set or dropped since the change log last looked.
    var touched = TouchedKeys()

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { codes.count }

    subscript(phone: String) -> String? { codes[phone]?.code }

    /// Stores the phone's code (replacing an older one); returns the phone whose code was
    /// dropped to stay within the capacity, if any.
    mutating func set(_ code: String, for phone: String) -> String? {
        generation += 1
        touched.touch(phone)
        codes[phone] = (code, generation)
        queue.append((phone, generation))
        var dropped: String?
        while codes.count > capacity, head < queue.count {
            let oldest = queue[head]
            head += 1
            if codes[oldest.phone]?.generation == oldest.generation {
                codes[oldest.phone] = nil
                touched.touch(oldest.phone)
                dropped = oldest.phone
            }
        }
        compact()
        return dropped
    }

    mutating func remove(_ phone: String) {
        touched.touch(phone)
        codes[phone] = nil
        compact()
    }

    /// Drops queue entries already passed or stale, once they are most of the queue.
    private mutating func compact() {
        let waiting = queue.count - head
        // Each rebuild leaves at most `codes.count` entries, so the next one is as many appends away.
        guard (head > 64 && head > queue.count / 2) || waiting > 2 * codes.count + 64 else { return }
        queue = queue[head...].filter { codes[$0.phone]?.generation == $0.generation }
        head = 0
    }

    /// The pending codes, oldest first (what the state file keeps; `set` in this order rebuilds them).
    var ordered: [(phone: String, code: String)] {
        queue[head...].compactMap { entry in
            guard let current = codes[entry.phone], current.generation == entry.generation else { return nil }
            return (entry.phone, current.code)
        }
    }
}
