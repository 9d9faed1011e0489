#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of the request journal (`GET /__mock/requests`), secrets already redacted.
public struct MockJournalEntry: Codable, Sendable, Equatable {
    /// The fault that fired on the request.
    public struct Fault: Codable, Sendable, Equatable {
        /// The rule's id.
        public var id: Int
        /// What it did instead of (or before) the normal answer.
        public var action: MockFaultAction

        /// Rule `id`, which did `action`.
        public init(id: Int, action: MockFaultAction) {
            self.id = id
            self.action = action
        }
    }

    /// The stub mapping that answered a request (`system` is then `stubs`).
    public struct Stub: Codable, Sendable, Equatable {
        /// The mapping's id (a UUID, lower case).
        public var id: String
        /// The mapping's name; nil when it has none.
        public var name: String?

        /// The mapping with this `id` and `name`.
        public init(id: String, name: String?) {
            self.id = id
            self.name = name
        }

        private enum CodingKeys: String, CodingKey { case id, name }

        /// Writes `{"id": …, "name": …}`, `name` null when the mapping has none.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(name, forKey: .name)
        }
    }

    /// Increasing; a filter's `since` takes it to read only newer entries.
    public var id: Int
    /// When the request arrived, by the mock's clock (to the second; entries of one second are
    /// ordered by ``id``).
    public var at: Date
    /// The system that owns the path; nil for a path no system owns.
    public var system: String?
    /// The peer's IP address (`127.0.0.1`, `::1`); for a gateway message, its connection's. Nil
    /// from a server older than this field.
    public var clientIp: String?
    /// `GET`, `POST`, …, or `WS` for a gateway message.
    public var method: String
    /// The request path; for a gateway message its type.
    public var path: String
    /// The query string, without `?` (empty when there is none).
    public var query: String
    /// The status sent; nil when the connection was closed or reset instead.
    public var status: Int?
    /// From the request's arrival to its answer's hand-over, in milliseconds.
    public var durationMs: Double
    /// The request's headers, secrets shortened.
    public var requestHeaders: [String: String]
    /// The request body as text (secrets redacted, cut at 4,096 bytes).
    public var requestBody: String
    /// The answer's body as text (secrets redacted, cut at 4,096 bytes).
    public var responseBody: String
    /// The `X-Mock-Hint` the mock answered with, saying why it refused the request; nil when none.
    public var hint: String?
    /// True when a body was cut at 4,096 bytes.
    public var truncated: Bool?
    /// The fault rule that fired on this request, if one did.
    public var fault: Fault?
    /// The stub mapping that answered this request, if one did.
    public var stub: Stub?

    /// An entry as the server writes it, from the request's header fields: a repeated field is
    /// shown once, its values joined by `, ` as HTTP joins them. `truncated` is nil rather than false.
    public init(id: Int, at: Date, system: String?, clientIp: String?, method: String, path: String, query: String, status: Int?,
                durationMs: Double, requestHeaders fields: [(name: String, value: String)], requestBody: String, responseBody: String,
                hint: String?, truncated: Bool, fault: Fault?, stub: Stub?) {
        self.id = id
        self.at = at
        self.system = system
        self.clientIp = clientIp
        self.method = method
        self.path = path
        self.query = query
        self.status = status
        self.durationMs = durationMs
        var headers: [String: String] = [:]
        headers.reserveCapacity(fields.count)
        for field in fields {
            headers[field.name] = headers[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        requestHeaders = headers
        self.requestBody = requestBody
        self.responseBody = responseBody
        self.hint = hint
        self.truncated = truncated ? true : nil
        self.fault = fault
        self.stub = stub
    }

    private enum CodingKeys: String, CodingKey {
        case id, at, system, clientIp, method, path, query, status, durationMs, requestHeaders, requestBody, responseBody, hint, truncated, fault, stub
    }

    /// Reads an entry as the server writes it (`at` in the one date form of `/__mock/`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        at = try c.decodeWireDate(forKey: .at)
        system = try c.decodeIfPresent(String.self, forKey: .system)
        clientIp = try c.decodeIfPresent(String.self, forKey: .clientIp)
        method = try c.decode(String.self, forKey: .method)
        path = try c.decode(String.self, forKey: .path)
        query = try c.decode(String.self, forKey: .query)
        status = try c.decodeIfPresent(Int.self, forKey: .status)
        durationMs = try c.decode(Double.self, forKey: .durationMs)
        requestHeaders = try c.decode([String: String].self, forKey: .requestHeaders)
        requestBody = try c.decode(String.self, forKey: .requestBody)
        responseBody = try c.decode(String.self, forKey: .responseBody)
        hint = try c.decodeIfPresent(String.self, forKey: .hint)
        truncated = try c.decodeIfPresent(Bool.self, forKey: .truncated)
        fault = try c.decodeIfPresent(Fault.self, forKey: .fault)
        stub = try c.decodeIfPresent(Stub.self, forKey: .stub)
    }

    /// Writes the entry in the server's shape (`at` as `2026-11-22T11:14:30Z`; `system`,
    /// `clientIp`, `status` and `hint` null when absent; `requestHeaders` by name, whatever the encoder).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeWireDate(at, forKey: .at)
        try c.encode(system, forKey: .system)
        try c.encode(clientIp, forKey: .clientIp)
        try c.encode(method, forKey: .method)
        try c.encode(path, forKey: .path)
        try c.encode(query, forKey: .query)
        try c.encode(status, forKey: .status)
        try c.encode(durationMs, forKey: .durationMs)
        try c.encode(NamedFields(fields: requestHeaders), forKey: .requestHeaders)
        try c.encode(requestBody, forKey: .requestBody)
        try c.encode(responseBody, forKey: .responseBody)
        try c.encode(hint, forKey: .hint)
        try c.encodeIfPresent(truncated, forKey: .truncated)
        try c.encodeIfPresent(fault, forKey: .fault)
        try c.encodeIfPresent(stub, forKey: .stub)
    }
}

/// The mock's clock (`/__mock/clock`).
public struct MockClock: Codable, Sendable, Equatable {
    /// The mock's time now.
    public var now: Date
    /// How far the clock is ahead of real time.
    public var offsetSeconds: Double

    /// The clock at `now`, `offsetSeconds` ahead of real time.
    public init(now: Date, offsetSeconds: Double) {
        self.now = now
        self.offsetSeconds = offsetSeconds
    }

    private enum CodingKeys: String, CodingKey { case now, offsetSeconds }

    /// Reads the clock as the server writes it (`now` in the one date form of `/__mock/`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        now = try c.decodeWireDate(forKey: .now)
        offsetSeconds = try c.decode(Double.self, forKey: .offsetSeconds)
    }

    /// Writes the clock in the server's shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeWireDate(now, forKey: .now)
        try c.encode(offsetSeconds, forKey: .offsetSeconds)
    }
}
