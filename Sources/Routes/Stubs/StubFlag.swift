#if os(Linux)
import Synchronization
#else
import HTTPServer
#endif

/// "Any stub loaded?", read by every request without a lock where `Atomic` is available on the
/// deployment target (Linux; the Apple floors lack it, so a mutex there).
@usableFromInline
final class StubFlag: Sendable {
    #if os(Linux)
    @usableFromInline let value = Atomic<Bool>(false)
    @inlinable var isSet: Bool { value.load(ordering: .acquiring) }
    func set(_ new: Bool) { value.store(new, ordering: .releasing) }
    #else
    @usableFromInline let value = Locked(false)
    @inlinable var isSet: Bool { value.withLock { $0 } }
    func set(_ new: Bool) { value.withLock { $0 = new } }
    #endif
}
