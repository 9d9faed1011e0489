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

/// One endpoint a system declares: for the banner, the README and the OpenAPI document.
public struct Endpoint: Sendable, Equatable {
    /// `GET`, `POST`, … or `WS` for a WebSocket.
    public let method: String
    public let path: String
    public let summary: String

    public init(_ method: String, _ path: String, _ summary: String) {
        self.method = method
        self.path = path
        self.summary = summary
    }
}

/// One emulated backend: its routes over its own state, which `reset` puts back to the seed.
/// A new system is its folder, its seed section and one line in `MockApp`'s list.
public protocol EmulatedSystem: Sendable {
    /// `rows`, `gateway`, `skyzone`, `musbooking`, `rsschool`: the name logs, the journal and
    /// the admin API use.
    var name: String { get }
    /// One line saying what it emulates.
    var summary: String { get }
    /// Every endpoint, in the order a person reads them.
    var endpoints: [Endpoint] { get }
    /// The seed's account to try first, as the banner prints it (`fpi@bk.ru / 123123`), if any.
    var seedAccount: String? { get }
    /// The paths it owns, its error shape and its letter-case rule.
    var routeGroup: RouteGroup { get }
    /// Adds its routes (called inside its route group).
    func register(in router: inout Router)
    func reset()
    /// Makes a token (nil: every token of this system) expired: the next request with it gets the
    /// system's expired answer, or its unknown-token answer where it has none. Returns how many.
    func expireTokens(_ token: String?) -> Int
    /// Forgets a token (nil: every token): the next request with it gets the unknown-token answer.
    func revokeTokens(_ token: String?) -> Int
    /// The system's accounts for the web console (`GET /__mock/accounts`); default: none.
    func accountListing() -> AccountListing?
}
