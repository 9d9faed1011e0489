#if os(Linux)
import Synchronization
#else
import HTTPServer
#endif

/// A count the request path adds to without a lock where `Atomic` is available (Linux; a mutex
/// on the Apple floors), read by tests to check how much work matching did.
final class StubCounter: Sendable {
    #if os(Linux)
    private let value = Atomic<Int>(0)
    var count: Int { value.load(ordering: .relaxed) }
    func add(_ n: Int) { if n != 0 { value.add(n, ordering: .relaxed) } }
    #else
    private let value = Locked(0)
    var count: Int { value.withLock { $0 } }
    func add(_ n: Int) { if n != 0 { value.withLock { $0 += n } } }
    #endif
}
