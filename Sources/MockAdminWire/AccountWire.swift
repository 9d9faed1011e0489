#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An account as `GET /__mock/accounts` lists it and `POST /__mock/accounts` returns it: never a
/// password; tokens as their first 4 characters and `…`.
public struct MockAccount: Codable, Sendable, Equatable {
    /// One live login session.
    public struct Session: Codable, Sendable, Equatable {
        /// The token's first 4 characters and `…` (enough to tell sessions apart, too little to use).
        public var token: String
        /// When the token stops working, for systems whose tokens expire.
        public var expiresAt: Date?

        /// A session of `token`, kept as its first 4 characters and `…` (``MockAccount/shorten(_:)``),
        /// as the server shows it.
        public init(token: String, expiresAt: Date? = nil) {
            self.token = MockAccount.shorten(token)
            self.expiresAt = expiresAt
        }

        private enum CodingKeys: String, CodingKey { case token, expiresAt }

        /// Reads a session as the server writes it (`expiresAt` in the one date form of `/__mock/`).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            token = try c.decode(String.self, forKey: .token)
            expiresAt = try c.decodeWireDateIfPresent(forKey: .expiresAt)
        }

        /// Writes the session in the server's shape (no `expiresAt` when it has none).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(token, forKey: .token)
            try c.encodeWireDateIfPresent(expiresAt, forKey: .expiresAt)
        }
    }

    /// The id `MockAdminClient.removeAccount(system:id:)` takes; nil for systems whose accounts
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

    /// An account with the members given (the server lists its accounts this way; a test may
    /// build its own expectation).
    public init(id: String? = nil, login: String? = nil, email: String? = nil, phone: String? = nil, name: String? = nil,
                isConfirmed: Bool? = nil, sessions: [Session]? = nil, note: String? = nil) {
        self.id = id
        self.login = login
        self.email = email
        self.phone = phone
        self.name = name
        self.isConfirmed = isConfirmed
        self.sessions = sessions
        self.note = note
    }

    /// A token as the console and the journal show it: its first 4 characters and `…` (only `…`
    /// for a token of 4 characters or fewer).
    public static func shorten(_ token: String) -> String {
        token.count <= 4 ? "…" : String(token.prefix(4)) + "…"
    }
}

/// An isolated mock started by `POST /__mock/instances`: point one test or one simulator clone at `baseURL`.
public struct MockInstance: Codable, Sendable, Equatable {
    /// What `MockAdminClient.removeInstance(_:)` takes.
    public var id: String
    /// `http://127.0.0.1:<port>`: the instance's own base URL (its `/__mock/` included).
    public var baseURL: String
    /// The port it listens on.
    public var port: Int

    /// An instance with these parts (the server lists its instances this way).
    public init(id: String, baseURL: String, port: Int) {
        self.id = id
        self.baseURL = baseURL
        self.port = port
    }
}
