#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import Synchronization
#endif
import HTTPServer

/// "Could a stub answer this request, and which pattern mappings?", asked by every request
/// while stubs are loaded, without the store's lock: each thread keeps its own copy of the
/// exact-path table and of the pattern sets (with its own DFA caches), taken under the lock and
/// refreshed when the store's generation moves on.
final class StubPathFilter: Sendable {
    /// One thread's copy, immutable but for its DFA caches (replaced whole, and only its thread reads it).
    private final class Copy {
        let generation: UInt64
        let table: StubPathTable
        let sets: StubPatternSets
        lazy var caches = StubPatternSets.Caches(sets)

        init(generation: UInt64, table: StubPathTable, sets: StubPatternSets) {
            self.generation = generation
            self.table = table
            self.sets = sets
        }
    }

    /// Passes of the pattern sets over a request's path or URL, for the store's `patternWork`.
    let passes = StubCounter()

    /// What the first look found, from the index at `generation`.
    struct Look {
        let generation: UInt64
        /// The pattern mappings whose URL matcher accepts the request, best first.
        let patterns: [StubStore.Entry]
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // A thread's copy is released when the thread ends.
        _ = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    #if os(Linux)
    private let current = Atomic<UInt64>(0)
    var generation: UInt64 { current.load(ordering: .acquiring) }
    /// Called under the store's lock after every change of its index.
    func advance() { current.add(1, ordering: .releasing) }
    #else
    private let current = Locked<UInt64>(0)
    var generation: UInt64 { current.withLock { $0 } }
    func advance() { current.withLock { $0 += 1 } }
    #endif

    /// The request's pattern candidates, or nil when neither an exact mapping of `path` nor a
    /// pattern mapping can answer; `refresh` gives the store's current table and pattern sets
    /// (under its lock) when this thread's copy is out of date.
    func look(path: String, url: String, refresh: () -> (StubPathTable, StubPatternSets)) -> Look? {
        let copy = threadCopy(refresh)
        if copy.sets.isEmpty { return copy.table.contains(path) ? Look(generation: copy.generation, patterns: []) : nil }
        let (patterns, passes) = copy.sets.candidates(path: path, url: url, caches: copy.caches)
        self.passes.add(passes)
        guard !patterns.isEmpty || copy.table.contains(path) else { return nil }
        return Look(generation: copy.generation, patterns: patterns)
    }

    private func threadCopy(_ refresh: () -> (StubPathTable, StubPatternSets)) -> Copy {
        let now = generation
        let pointer = pthread_getspecific(StubPathFilter.key)
        if let pointer {
            let copy = Unmanaged<Copy>.fromOpaque(pointer).takeUnretainedValue()
            if copy.generation == now { return copy }
        }
        // The generation is read first: a change after it only makes the next request refresh again.
        let (table, sets) = refresh()
        let copy = Copy(generation: now, table: table, sets: sets)
        _ = pthread_setspecific(StubPathFilter.key, Unmanaged.passRetained(copy).toOpaque())
        if let pointer { Unmanaged<Copy>.fromOpaque(pointer).release() }
        return copy
    }
}
