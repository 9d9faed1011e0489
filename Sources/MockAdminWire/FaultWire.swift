#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a fault rule does (`POST /__mock/faults` `action`): HTTP actions, and for gateway rules
/// (`system: "gateway"`, `path`: a message type) `delay`, `reply`, `noReply` and `closeCode`.
///
/// Give one to `MockAdminClient.addFault(method:path:system:times:action:)`:
///
///     try await admin.addFault(path: "/api/auth/login", times: 1, action: .respond(status: 503))
///     try await admin.addFault(path: "/rows/*", action: .delay(milliseconds: 2_000))
///     try await admin.addFault(path: "LOGIN_CUSTOMER", system: "gateway", action: .noReply)
///
/// A rule fires on the requests it matches (`times` of them, or until removed), and the journal
/// entry of each request it fired on names it (``MockJournalEntry/fault``). The server checks a
/// posted action and lists its rules in this shape; a substituted answer's headers are sent in
/// the order of their names.
public enum MockFaultAction: Codable, Sendable, Equatable {
    /// Answer normally after this many milliseconds (other connections are served meanwhile).
    case delay(milliseconds: Int)
    /// Answer this instead (the handler does not run).
    case respond(status: Int, body: String? = nil, headers: [String: String] = [:])
    /// Close the connection without an answer.
    case close
    /// Close the connection with a TCP reset.
    case reset
    /// The real status line and headers, half the body, then close.
    case truncate
    /// The real status with a body that is not valid JSON.
    case malformedJSON
    /// Gateway: send this text frame instead of the reply.
    case reply(String)
    /// Gateway: no reply at all.
    case noReply
    /// Gateway: close the WebSocket with this code.
    case closeCode(Int)

    private struct Fields: Codable {
        var delayMs: Int?, status: Int?, body: String?, headers: NamedFields?
        var close: Bool?, reset: Bool?, truncate: Bool?, malformedJSON: Bool?
        var reply: String?, noReply: Bool?, closeCode: Int?
    }

    private var fields: Fields {
        var f = Fields()
        switch self {
        case .delay(let ms): f.delayMs = ms
        case .respond(let status, let body, let headers):
            f.status = status
            f.body = body
            f.headers = headers.isEmpty ? nil : NamedFields(fields: headers)
        case .close: f.close = true
        case .reset: f.reset = true
        case .truncate: f.truncate = true
        case .malformedJSON: f.malformedJSON = true
        case .reply(let text): f.reply = text
        case .noReply: f.noReply = true
        case .closeCode(let code): f.closeCode = code
        }
        return f
    }

    /// Writes the action as the server takes it: one object with the action's field
    /// (`{"delayMs": 2000}`, `{"status": 503, "body": "…"}`, `{"close": true}`, …).
    public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }

    /// Reads an action as the server lists it (`GET /__mock/faults`, a journal entry's `fault`).
    public init(from decoder: any Decoder) throws {
        let f = try Fields(from: decoder)
        if let ms = f.delayMs { self = .delay(milliseconds: ms) }
        else if let status = f.status { self = .respond(status: status, body: f.body, headers: f.headers?.fields ?? [:]) }
        else if f.close == true { self = .close }
        else if f.reset == true { self = .reset }
        else if f.truncate == true { self = .truncate }
        else if f.malformedJSON == true { self = .malformedJSON }
        else if let text = f.reply { self = .reply(text) }
        else if f.noReply == true { self = .noReply }
        else if let code = f.closeCode { self = .closeCode(code) }
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a fault action with no known field"))
        }
    }
}

/// A fault rule as `GET /__mock/faults` lists it.
public struct MockFaultRule: Codable, Sendable, Equatable {
    /// What `MockAdminClient.removeFault(_:)` takes.
    public var id: Int
    /// Only requests with this method; nil: any.
    public var method: String?
    /// The path it matches, exact or a pattern with `*`; for a gateway rule, a message type.
    public var path: String
    /// Only this system's requests; nil: whichever system owns the path.
    public var system: String?
    /// How many times it was given to fire; nil: until removed.
    public var times: Int?
    /// How many more times it fires; nil when it fires until removed.
    public var remaining: Int?
    /// What it does to the requests it matches.
    public var action: MockFaultAction

    /// A rule with these parts (the server lists its rules this way; a test may build its own
    /// expectation).
    public init(id: Int, method: String?, path: String, system: String?, times: Int?, remaining: Int?, action: MockFaultAction) {
        self.id = id
        self.method = method
        self.path = path
        self.system = system
        self.times = times
        self.remaining = remaining
        self.action = action
    }

    private enum CodingKeys: String, CodingKey { case id, method, path, system, times, remaining, action }

    /// Reads a rule as `GET /__mock/faults` lists it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        method = try c.decodeIfPresent(String.self, forKey: .method)
        path = try c.decode(String.self, forKey: .path)
        system = try c.decodeIfPresent(String.self, forKey: .system)
        times = try c.decodeIfPresent(Int.self, forKey: .times)
        remaining = try c.decodeIfPresent(Int.self, forKey: .remaining)
        action = try c.decode(MockFaultAction.self, forKey: .action)
    }

    /// Writes the rule as the server lists it: every member, `null` for the ones it lacks.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(method, forKey: .method)
        try c.encode(path, forKey: .path)
        try c.encode(system, forKey: .system)
        try c.encode(times, forKey: .times)
        try c.encode(remaining, forKey: .remaining)
        try c.encode(action, forKey: .action)
    }
}

