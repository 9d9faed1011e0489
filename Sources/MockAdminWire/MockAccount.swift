/// One account as `GET /__mock/accounts` lists it, `POST /__mock/accounts` returns it and the web
/// console shows it: who it is and its state, never its password; tokens only as their first 4
/// characters and `…`. The server builds it and the admin client decodes it: one type for both.
public struct MockAccount: Codable, Sendable, Equatable {
    /// A live login session of the account.
    public struct Session: Codable, Sendable, Equatable {
        public var token: String
        public var expiresAt: String?

        /// A session as the server lists it: the token shortened (`shorten`).
        public init(token: String, expiresAt: String? = nil) {
            self.token = MockAccount.shorten(token)
            self.expiresAt = expiresAt
        }
    }

    public var id: String?
    public var login: String?
    public var email: String?
    public var phone: String?
    public var name: String?
    public var isConfirmed: Bool?
    /// nil where the system does not keep sessions (signed, stateless tokens).
    public var sessions: [Session]?
    /// A short remark the console shows as is (e.g. how the account signs in).
    public var note: String?

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

    /// A token as the console and the journal show it: its first 4 characters and `…`.
    public static func shorten(_ token: String) -> String {
        token.count <= 4 ? "…" : String(token.prefix(4)) + "…"
    }
}
