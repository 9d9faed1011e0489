/// The mappings with an exact path (`url`, `urlPath`), by path: an open-addressing table keyed
/// by an FNV-1a hash of the path's bytes, so a request whose path has no mapping is told so
/// without hashing a String through `Hasher` (the systems' requests pay for this lookup).
struct StubPathTable: Sendable {
    /// Each path's mappings, best first.
    private(set) var groups: [(path: String, hash: UInt64, entries: [StubStore.Entry])] = []
    /// Index into `groups`, or -1; the count is a power of two.
    private var slots: [Int] = Array(repeating: -1, count: 16)

    var isEmpty: Bool { groups.isEmpty }

    static func hash(_ path: String) -> UInt64 {
        // Over the contiguous bytes of a native string (the parser's), else byte by byte.
        if let h = path.utf8.withContiguousStorageIfAvailable(hash) { return h }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    /// Whether any mapping has exactly this path.
    func contains(_ path: String) -> Bool {
        guard !groups.isEmpty else { return false }
        let h = StubPathTable.hash(path)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let g = slots[i]
            if g < 0 { return false }
            if groups[g].hash == h && groups[g].path == path { return true }
            i = (i + 1) & mask
        }
    }

    /// The mappings of `path`, best first (empty when none).
    func entries(for path: String) -> ArraySlice<StubStore.Entry> {
        guard !groups.isEmpty else { return [] }
        let h = StubPathTable.hash(path)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let g = slots[i]
            if g < 0 { return [] }
            if groups[g].hash == h && groups[g].path == path { return groups[g].entries[...] }
            i = (i + 1) & mask
        }
    }

    /// Adds a mapping under `path`, keeping each path's list in precedence order.
    mutating func insert(_ entry: StubStore.Entry, path: String) {
        let h = StubPathTable.hash(path)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] >= 0 {
            let g = slots[i]
            if groups[g].hash == h && groups[g].path == path {
                StubStore.insertSorted(entry, into: &groups[g].entries)
                return
            }
            i = (i + 1) & mask
        }
        slots[i] = groups.count
        groups.append((path: path, hash: h, entries: [entry]))
        // At most half full, so a probe for a missing path ends soon.
        if groups.count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (g, group) in groups.enumerated() {
            var i = Int(truncatingIfNeeded: group.hash) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = g
        }
    }
}
