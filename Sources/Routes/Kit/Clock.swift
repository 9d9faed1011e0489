#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Where handlers read the time from, so expiry is testable without waiting.
@usableFromInline package protocol Clock: Sendable {
    func now() -> Date
}

/// The real wall clock.
package struct SystemClock: Clock {
    package init() {}
    package func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests).
package final class ManualClock: Clock {
    private let current: Locked<Date>
    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }
    package func now() -> Date { current.withLock { $0 } }
    package func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    package func set(_ date: Date) { current.withLock { $0 = date } }
}
