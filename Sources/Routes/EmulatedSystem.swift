import HTTPServer

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
/// A new system is its folder, its `seed.json` section and one line in `SystemRegistry.types`.
public protocol EmulatedSystem: Sendable {
    /// The type of its section of `seed.json`.
    associatedtype SeedSection: Decodable & Sendable
    /// The name logs, the journal and the admin API use (API.md §6.1); stable forever.
    static var name: String { get }
    /// How the console and the documents title it.
    static var title: String { get }
    /// Its section's key in `seed.json`.
    static var seedKey: String { get }
    /// Builds it over its seed section and the shared environment.
    init(seed: SeedSection, environment: MockEnvironment)
    /// One line saying what it emulates.
    var summary: String { get }
    /// Every endpoint, in the order a person reads them.
    var endpoints: [Endpoint] { get }
    /// The seed's account to try first, as the banner prints it (`fpi@bk.ru / 123123`), if any.
    var seedAccount: String? { get }
    /// The paths it owns, its error shape and its letter-case rule: the one rule of which system
    /// a path belongs to (routing, journal, faults, tokens, logs).
    var routeGroup: RouteGroup { get }
    /// Adds its routes (called inside its route group).
    func register(in router: inout Router)
    func reset()
    /// Makes a token (nil: every token of this system) expired: the next request with it gets the
    /// system's expired answer, or its unknown-token answer where it has none. Returns how many.
    func expireTokens(_ token: String?) -> Int
    /// Forgets a token (nil: every token): the next request with it gets the unknown-token answer.
    func revokeTokens(_ token: String?) -> Int
    /// One page of the system's accounts for the web console (`GET /__mock/accounts`), with how
    /// many there are in all; default: none.
    func accountListing(_ page: AccountPage) -> AccountListing?
    /// Whether its WebSocket messages are JSON with a `type` that fault rules match (API.md §6.1,
    /// `"path": "LOGIN_CUSTOMER"`); default: no.
    static var faultsMatchMessageTypes: Bool { get }
    /// Its operator settings (flags, `settings` keys in `seed.json`); default: none.
    static var settings: [SystemSetting] { get }
    /// Its WebSocket reply to a message whose state change the state file did not take
    /// (`--state`, a full disk), in its own error shape; default: nil (a generic JSON error).
    func stateRefusal(to message: WebSocketMessage, reason: String) -> String?
}

extension EmulatedSystem {
    /// The type's name, on the instance.
    public var name: String { Self.name }
    public static var faultsMatchMessageTypes: Bool { false }
    public static var settings: [SystemSetting] { [] }
    public func stateRefusal(to message: WebSocketMessage, reason: String) -> String? { nil }

    /// Its seed section read from a decoding `Seed`, under `seedKey`.
    static func decodeSection(from container: KeyedDecodingContainer<SeedKey>) throws -> any Sendable {
        try container.decode(SeedSection.self, forKey: SeedKey(seedKey))
    }

    /// An instance over its section of `seed`.
    static func make(seed: Seed, environment: MockEnvironment) -> any EmulatedSystem {
        Self(seed: seed.section(Self.self), environment: environment)
    }
}
