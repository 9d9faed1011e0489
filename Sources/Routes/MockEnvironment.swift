import HTTPServer

/// What every emulated system is given besides its seed: time, randomness, the outbox, the log,
/// and the operator's settings (command-line flags; nil leaves the seed's `settings`, then the default).
public struct MockEnvironment: Sendable {
    public var clock: any Clock
    public var random: any RandomSource
    public var outbox: Outbox
    public var logger: Logger
    /// Every musbooking SMS code is this value when set (`--sms-code`), so a UI test can type it.
    public var fixedSMSCode: String?
    /// Pending (sent, not yet used) musbooking SMS codes kept; past it the oldest is dropped.
    public var maxPendingSMSCodes: Int?
    /// Musbooking accounts (seeded and registered); past it registration is refused.
    public var maxMusbookingAccounts: Int?
    /// SkyZone accounts (seeded and created); past it creation is refused.
    public var maxSkyZoneAccounts: Int?

    public init(clock: any Clock = SystemClock(), random: any RandomSource = SystemRandomSource(),
                outbox: Outbox? = nil, logger: Logger = Logger()) {
        // Every reader shares one offset clock, so /__mock/clock moves them all (outbox included).
        let clock = clock as? OffsetClock ?? OffsetClock(base: clock)
        self.clock = clock
        self.random = random
        self.outbox = outbox ?? Outbox(clock: clock, logger: logger)
        self.logger = logger
    }

    /// These settings completed from the seed's, then the defaults: every value set.
    func resolved(with seed: MockSettings?) -> MockEnvironment {
        var copy = self
        let defaults = MockSettings.defaults
        copy.fixedSMSCode = fixedSMSCode ?? seed?.smsCode
        copy.maxPendingSMSCodes = maxPendingSMSCodes ?? seed?.maxPendingSMSCodes ?? defaults.maxPendingSMSCodes
        copy.maxMusbookingAccounts = maxMusbookingAccounts ?? seed?.maxMusbookingAccounts ?? defaults.maxMusbookingAccounts
        copy.maxSkyZoneAccounts = maxSkyZoneAccounts ?? seed?.maxSkyZoneAccounts ?? defaults.maxSkyZoneAccounts
        return copy
    }
}

/// The `settings` section of `seed.json`: the same knobs as the command-line flags, which win.
public struct MockSettings: Codable, Sendable, Equatable {
    public var smsCode: String?
    public var maxPendingSMSCodes: Int?
    public var maxMusbookingAccounts: Int?
    public var maxSkyZoneAccounts: Int?

    public init(smsCode: String? = nil, maxPendingSMSCodes: Int? = nil, maxMusbookingAccounts: Int? = nil,
                maxSkyZoneAccounts: Int? = nil) {
        self.smsCode = smsCode
        self.maxPendingSMSCodes = maxPendingSMSCodes
        self.maxMusbookingAccounts = maxMusbookingAccounts
        self.maxSkyZoneAccounts = maxSkyZoneAccounts
    }

    /// Bounds an unauthenticated flood cannot pass, far above what any app or test needs.
    public static let defaults = MockSettings(maxPendingSMSCodes: 10_000, maxMusbookingAccounts: 100_000, maxSkyZoneAccounts: 100_000)
}
