#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPServer

/// Where handlers read the time from, so expiry is testable without waiting.
public protocol Clock: Sendable {
    func now() -> Date
}

/// The real wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to (tests).
public final class ManualClock: Clock {
    private let current: Locked<Date>
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }
    public func now() -> Date { current.withLock { $0 } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
