#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// The clock every system reads: a base clock (the real one, or a test's) plus an offset the
/// control plane moves forward (`POST /__mock/clock`) and puts back (`DELETE`, reset).
@usableFromInline package final class OffsetClock: Clock {
    /// The clock the offset is added to.
    @usableFromInline package let base: any Clock
    /// The base is the real clock: read the system's wall clock directly (every journaled
    /// request reads this clock; `Date()` and the existential call cost more).
    @usableFromInline package let baseIsSystem: Bool
    /// Changes of the offset are serialised by this lock and published to `current`, which
    /// readers load without one.
    private let writer = Locked<TimeInterval>(0)
    @usableFromInline package let current = LockFreeSeconds()

    package init(base: any Clock = SystemClock()) {
        // Never stack offsets: wrapping an offset clock wraps its base.
        let base = (base as? OffsetClock)?.base ?? base
        self.base = base
        baseIsSystem = base is SystemClock
    }

    @inlinable package func now() -> Date {
        let offset = current.value
        guard baseIsSystem else { return base.now().addingTimeInterval(offset) }
        return Date(timeIntervalSince1970: SystemTime.wallSeconds() + offset)
    }

    /// Seconds the mock is ahead of its base clock.
    package var offsetSeconds: TimeInterval { current.value }

    /// How far ahead the clock may run in all: repeated advances must not carry dates past
    /// year 9999, where they wrap (a token "expiring" in 1850).
    package static let maxOffsetSeconds: TimeInterval = 3_153_600_000  // 100 years

    /// Moves the clock forward by `seconds` (callers check that it is positive and finite);
    /// false, and unchanged, when that would put it more than `maxOffsetSeconds` ahead.
    @discardableResult
    package func advance(by seconds: TimeInterval) -> Bool {
        writer.withLock { offset in
            guard offset + seconds <= OffsetClock.maxOffsetSeconds else { return false }
            offset += seconds
            current.value = offset
            return true
        }
    }

    /// Back to the base clock.
    package func reset() {
        writer.withLock { offset in
            offset = 0
            current.value = 0
        }
    }
}

