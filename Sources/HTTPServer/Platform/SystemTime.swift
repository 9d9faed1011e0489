/// The system's clocks for code outside the transport (the mock's clock, journal durations),
/// read through the platform layer like every other system call.
@usableFromInline package enum SystemTime {
    /// Nanoseconds of a clock that never goes backwards (for durations, not wall time).
    package static func monotonicNanos() -> UInt64 { Sys.monotonicNanos() }

    /// Seconds since 1970, to the nanosecond: what `Date()` gives, without Foundation's overhead.
    @usableFromInline package static func wallSeconds() -> Double { Sys.wallTime() }
}
