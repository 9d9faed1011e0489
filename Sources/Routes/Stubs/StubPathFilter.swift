#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
#if os(Linux)
import Synchronization
#endif
import HTTPServer

/// "Could a stub answer this path?", asked by every request while stubs are loaded, without the
/// store's lock: each thread keeps its own copy of the exact-path table and of whether any
/// pattern exists, taken under the lock and refreshed when the store's generation moves on.
final class StubPathFilter: Sendable {
    /// One thread's copy, immutable (replaced whole, so reading it needs no exclusivity check).
    private final class Copy {
        let generation: UInt64
        let table: StubPathTable
        let hasPatterns: Bool

        init(generation: UInt64, table: StubPathTable, hasPatterns: Bool) {
            self.generation = generation
            self.table = table
            self.hasPatterns = hasPatterns
        }
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

    /// Whether `path` has a mapping or any pattern exists; `refresh` gives the store's current
    /// table (under its lock) when this thread's copy is out of date.
    func mayMatch(_ path: String, refresh: () -> (StubPathTable, Bool)) -> Bool {
        let now = generation
        let pointer = pthread_getspecific(StubPathFilter.key)
        if let pointer {
            let copy = Unmanaged<Copy>.fromOpaque(pointer).takeUnretainedValue()
            if copy.generation == now { return copy.hasPatterns || copy.table.contains(path) }
        }
        // The generation is read first: a change after it only makes the next request refresh again.
        let (table, hasPatterns) = refresh()
        let copy = Copy(generation: now, table: table, hasPatterns: hasPatterns)
        _ = pthread_setspecific(StubPathFilter.key, Unmanaged.passRetained(copy).toOpaque())
        if let pointer { Unmanaged<Copy>.fromOpaque(pointer).release() }
        return hasPatterns || table.contains(path)
    }
}
