import Foundation

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
