import Foundation

/// An account as `GET /__mock/accounts` lists it and `POST /__mock/accounts` returns it: never a
/// password; tokens as their first 4 characters and `…`.
public struct MockAccount: Codable, Sendable, Equatable {
    /// One live login session.
    public struct Session: Codable, Sendable, Equatable {
        /// The token's first 4 characters and `…` (enough to tell sessions apart, too little to use).
        public var token: String
        /// When the token stops working, for systems whose tokens expire.
        public var expiresAt: Date?
    }

    /// The id ``MockAdminClient/removeAccount(system:id:)`` takes; nil for systems whose accounts
    /// are removed by their login (rows: the e-mail; RSSchool has one fixed account).
    public var id: String?
    /// What the person signs in with.
    public var login: String?
    /// The e-mail address, for systems that keep one.
    public var email: String?
    /// The normalised phone (`9123456789`), for systems that keep one.
    public var phone: String?
    /// The person's name, for systems that keep one.
    public var name: String?
    /// Whether the account was confirmed (musbooking's e-mail link); nil where the system has no such step.
    public var isConfirmed: Bool?
    /// The live login sessions; nil where the system keeps none (signed, stateless tokens).
    public var sessions: [Session]?
    /// A short remark the console shows as is (how the account signs in, …).
    public var note: String?
}

/// An isolated mock started by `POST /__mock/instances`: point one test or one simulator clone at `baseURL`.
public struct MockInstance: Codable, Sendable, Equatable {
    /// What ``MockAdminClient/removeInstance(_:)`` takes.
    public var id: String
    /// `http://127.0.0.1:<port>`: the instance's own base URL (its `/__mock/` included).
    public var baseURL: String
    /// The port it listens on.
    public var port: Int
}

/// Which journal entries a read, a count or a wait is about (`GET /__mock/requests` filters).
///
/// A member left nil matches everything; the members given must all match:
///
///     MockRequestFilter(system: "musbooking", path: "/api/users/*", status: 400)
public struct MockRequestFilter: Sendable, Equatable {
    /// Only this system's requests: `rows`, `gateway`, `skyzone`, `musbooking` or `rsschool`.
    public var system: String?
    /// Only this method: `GET`, `POST`, …, or `WS` for a gateway message.
    public var method: String?
    /// Exact, or a pattern with `*`.
    public var path: String?
    /// Only requests answered with this status.
    public var status: Int?
    /// Text the request body (after redaction) contains.
    public var body: String?
    /// Only entries with (true) or without (false) a hint.
    public var hint: Bool?
    /// Only entries after the one with this id.
    public var since: Int?

    /// A filter of the members given (each optional; see the properties).
    public init(system: String? = nil, method: String? = nil, path: String? = nil, status: Int? = nil,
                body: String? = nil, hint: Bool? = nil, since: Int? = nil) {
        self.system = system
        self.method = method
        self.path = path
        self.status = status
        self.body = body
        self.hint = hint
        self.since = since
    }

    var query: [String: String] {
        var query: [String: String] = [:]
        query["system"] = system
        query["method"] = method
        query["path"] = path
        query["status"] = status.map(String.init)
        query["body"] = body
        query["hint"] = hint.map { $0 ? "true" : "false" }
        query["since"] = since.map(String.init)
        return query
    }
}
