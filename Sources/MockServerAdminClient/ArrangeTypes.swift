import Foundation

/// An account as `GET /__mock/accounts` lists it and `POST /__mock/accounts` returns it: never a
/// password; tokens as their first 4 characters and `…`.
public struct MockAccount: Codable, Sendable, Equatable {
    /// One live login session.
    public struct Session: Codable, Sendable, Equatable {
        public var token: String
        public var expiresAt: Date?
    }

    public var id: String?
    public var login: String?
    public var email: String?
    public var phone: String?
    public var name: String?
    public var isConfirmed: Bool?
    public var sessions: [Session]?
    public var note: String?
}

/// An isolated mock started by `POST /__mock/instances`: point one test or one simulator clone at `baseURL`.
public struct MockInstance: Codable, Sendable, Equatable {
    public var id: String
    public var baseURL: String
    public var port: Int
}

/// Which journal entries a read, a count or a wait is about (`GET /__mock/requests` filters).
public struct MockRequestFilter: Sendable, Equatable {
    public var system: String?
    public var method: String?
    /// Exact, or a pattern with `*`.
    public var path: String?
    public var status: Int?
    /// Text the request body (after redaction) contains.
    public var body: String?
    /// Only entries with (true) or without (false) a hint.
    public var hint: Bool?
    /// Only entries after the one with this id.
    public var since: Int?

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
