#if os(Linux)
import Synchronization
#else
import HTTPServer
#endif

/// A yes/no published for the hot path (any fault rule? any event subscriber?), read on every
/// request without a lock where `Atomic` is available on the deployment target (Linux; macOS 13
/// lacks it, so a mutex there).
final class LockFreeFlag: Sendable {
    #if os(Linux)
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set(_ new: Bool) { value.store(new, ordering: .releasing) }
    #else
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set(_ new: Bool) { value.withLock { $0 = new } }
    #endif
}

/// A number of seconds published the same way (the clock's offset, read by every journaled
/// request); writers serialise among themselves.
final class LockFreeSeconds: Sendable {
    #if os(Linux)
    private let bits = Atomic<UInt64>(0)
    var value: Double {
        get { Double(bitPattern: bits.load(ordering: .acquiring)) }
        set { bits.store(newValue.bitPattern, ordering: .releasing) }
    }
    #else
    private let locked = Locked(0.0)
    var value: Double {
        get { locked.withLock { $0 } }
        set { locked.withLock { $0 = newValue } }
    }
    #endif
}
