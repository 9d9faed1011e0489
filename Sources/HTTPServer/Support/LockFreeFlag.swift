#if os(Linux)
import Synchronization
#endif

/// A yes/no published for the hot path (any fault rule? any event subscriber?), read on every
/// request without a lock where `Atomic` is available on the deployment target (Linux; macOS 13
/// lacks it, so a mutex there). Inlinable: its readers are in other modules, on the hot path.
@usableFromInline package final class LockFreeFlag: Sendable {
    #if os(Linux)
    @usableFromInline let value = Atomic<Bool>(false)
    @inlinable package var isSet: Bool { value.load(ordering: .acquiring) }
    @inlinable package func set(_ new: Bool) { value.store(new, ordering: .releasing) }
    #else
    @usableFromInline let value = Locked(false)
    @inlinable package var isSet: Bool { value.withLock { $0 } }
    @inlinable package func set(_ new: Bool) { value.withLock { $0 = new } }
    #endif

    @usableFromInline package init() {}
}

/// A number of seconds published the same way (the clock's offset, read by every journaled
/// request); writers serialise among themselves.
@usableFromInline package final class LockFreeSeconds: Sendable {
    #if os(Linux)
    @usableFromInline let bits = Atomic<UInt64>(0)
    @inlinable package var value: Double {
        get { Double(bitPattern: bits.load(ordering: .acquiring)) }
        set { bits.store(newValue.bitPattern, ordering: .releasing) }
    }
    #else
    @usableFromInline let locked = Locked(0.0)
    @inlinable package var value: Double {
        get { locked.withLock { $0 } }
        set { locked.withLock { $0 = newValue } }
    }
    #endif

    @usableFromInline package init() {}
}
