import Foundation
import HTTPServer

/// The clock every system reads: a base clock (the real one, or a test's) plus an offset the
/// control plane moves forward (`POST /__mock/clock`) and puts back (`DELETE`, reset).
public final class OffsetClock: Clock {
    /// The clock the offset is added to.
    public let base: any Clock
    private let offset = Locked<TimeInterval>(0)

    public init(base: any Clock = SystemClock()) {
        // Never stack offsets: wrapping an offset clock wraps its base.
        self.base = (base as? OffsetClock)?.base ?? base
    }

    public func now() -> Date { base.now().addingTimeInterval(offset.withLock { $0 }) }

    /// Seconds the mock is ahead of its base clock.
    public var offsetSeconds: TimeInterval { offset.withLock { $0 } }

    /// Moves the clock forward by `seconds` (callers check that it is positive and finite).
    public func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    /// Back to the base clock.
    public func reset() { offset.withLock { $0 = 0 } }
}
