import HTTPServer

/// What every emulated system is given besides its seed: time, randomness, the outbox and the log.
public struct MockEnvironment: Sendable {
    public var clock: any Clock
    public var random: any RandomSource
    public var outbox: Outbox
    public var logger: Logger

    public init(clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource(),
                outbox: Outbox? = nil, logger: Logger = Logger()) {
        // Every reader shares one offset clock, so /__mock/clock moves them all (outbox included).
        let clock = clock as? OffsetClock ?? OffsetClock(base: clock)
        self.clock = clock
        self.random = random
        self.outbox = outbox ?? Outbox(clock: clock, logger: logger)
        self.logger = logger
    }
}

/// One emulated backend: its routes over its own state, which `reset` puts back to the seed.
public protocol EmulatedSystem: Sendable {
    func register(in router: inout Router)
    func reset()
    /// Control plane (API.md §6.1): expire or revoke one token, or every token with nil; returns how many.
    func expireTokens(_ token: String?) -> Int
    func revokeTokens(_ token: String?) -> Int
}
