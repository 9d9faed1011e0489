import HTTPServer

/// One endpoint a system declares: for the banner, the README and the OpenAPI document.
package struct Endpoint: Sendable, Equatable {
    /// `GET`, `POST`, … or `WS` for a WebSocket.
    package let method: String
    package let path: String
    package let summary: String

    package init(_ method: String, _ path: String, _ summary: String) {
        self.method = method
        self.path = path
        self.summary = summary
    }
}

/// One emulated backend: its routes over its own state, which `reset` puts back to the seed.
/// A new system is its target (importing only `EmulationKit` and `HTTPServer`), its `seed.json`
/// section and one line in `SystemRegistry.types`.
package protocol EmulatedSystem: Sendable {
    /// The type of its section of `seed.json`.
    associatedtype SeedSection: Decodable & Sendable
    /// The name logs, the journal and the admin API use (docs/control-plane.md); stable forever.
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
    /// Whether its WebSocket messages are JSON with a `type` that fault rules match (docs/control-plane.md,
    /// `"path": "LOGIN_CUSTOMER"`); default: no.
    static var faultsMatchMessageTypes: Bool { get }
    /// Reads one of its WebSocket messages (its payload bytes, text or binary) once: its JSON, its
    /// type (`LOGIN_CUSTOMER`, what fault rules match and the journal shows as the path) and the
    /// id that ties it to its reply (the gateway's `sequence_id`, for log lines); default: nil (its
    /// messages have no vocabulary).
    static func readMessage(_ message: [UInt8]) -> MessageReading?
    /// A scripted fault reply (`"reply"`, its UTF-8) to `message`, its placeholders filled in from
    /// the message (the gateway's `{{sequence_id}}`); default: the text as it is.
    static func scriptedReply(_ text: [UInt8], to message: MessageReading, random: any RandomSource) -> [UInt8]
    /// How it writes a phone number it sends an SMS to (`+7 (912) 345-67-89` → `9123456789`): the
    /// outbox keeps an SMS under that form and finds it by any form a test writes; default: nil
    /// (it sends none).
    static func phoneNumber(_ raw: String) -> String?
    /// Its operator settings (flags, `settings` keys in `seed.json`); default: none.
    static var settings: [SystemSetting] { get }
    /// Field names (any case) whose values the journal shows as `***`, beyond the passwords every
    /// system hides (`password`, `newPassword`, `oldPassword`): its codes and the like; default: none.
    static var secretFields: Set<String> { get }
    /// Field and header names (any case) whose values are bearer credentials, shown as their first
    /// 4 characters, beyond `token`, `Authorization`, `Cookie` and the like; default: none.
    static var tokenFields: Set<String> { get }
    /// Its WebSocket reply to a message whose state change the state file did not take
    /// (`--state`, a full disk), in its own error shape; default: nil (a generic JSON error).
    func stateRefusal(to message: WebSocketPayload, reason: String) -> String?
}

extension EmulatedSystem {
    /// The type's name, on the instance.
    package var name: String { Self.name }
    package static var faultsMatchMessageTypes: Bool { false }
    package static func readMessage(_ message: [UInt8]) -> MessageReading? { nil }
    package static func scriptedReply(_ text: [UInt8], to message: MessageReading, random: any RandomSource) -> [UInt8] { text }
    package static var settings: [SystemSetting] { [] }
    package static var secretFields: Set<String> { [] }
    package static func phoneNumber(_ raw: String) -> String? { nil }
    package static var tokenFields: Set<String> { [] }
    package func stateRefusal(to message: WebSocketPayload, reason: String) -> String? { nil }
}
