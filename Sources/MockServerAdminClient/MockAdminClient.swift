import Foundation
// The wire types (MockSMS, MockFaultAction, MockAccount, …) are the server's own; users of the
// client name them without a second import.
@_exported import MockAdminWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of the mock's `/__mock/` admin API over URLSession, for tests that run in another
/// process than the server (an XCUITest driving an app): read the outbox, wait for an SMS,
/// reset, health, and the test controls (journal, faults, clock, tokens). It does not link the server.
public struct MockAdminClient: Sendable {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// Sent as `X-Mock-Admin-Token` when set (a server started with `--admin-token`, reached over the LAN).
    public let adminToken: String?
    private let session: URLSession

    /// A client of the mock at `baseURL` (`http://127.0.0.1:8080`, or an embedded server's
    /// `baseURL`); `adminToken` when the server runs with `--admin-token` and is reached from
    /// another machine; `session` to send the requests through a session of your own.
    public init(baseURL: URL, adminToken: String? = nil, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.session = session
    }

    /// A failed admin call: the status and body the server answered, or what went wrong.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The method and path, then the status and body the server answered and its `X-Mock-Hint`
        /// (or what went wrong).
        public let description: String
    }

    /// True when `GET /__mock/health` answers 200.
    public func health() async -> Bool {
        (try? await send(.health, expecting: 200)) != nil
    }

    /// Every SMS, oldest first; with `phone`, only those to it (written in any form).
    public func sms(phone: String? = nil) async throws -> [MockSMS] {
        let data = try await send(.sms, query: phone.map { ["phone": $0] } ?? [:], expecting: 200)
        return try decode([MockSMS].self, data)
    }

    /// Every e-mail, oldest first; with `to`, only those to that address (any case).
    public func emails(to address: String? = nil) async throws -> [MockEmail] {
        let data = try await send(.emails, query: address.map { ["to": $0] } ?? [:], expecting: 200)
        return try decode([MockEmail].self, data)
    }

    /// The code of the newest SMS to `phone`, if any.
    public func latestCode(phone: String) async throws -> String? {
        try await sms(phone: phone).last { $0.code != nil }?.code
    }

    /// `POST /__mock/reset`: every system back to its seed, the outbox emptied.
    public func reset() async throws {
        _ = try await send(.reset, body: Data("{}".utf8), expecting: 204)
    }

    /// Sends `route` with its `:name` segments filled by `values` (each percent-encoded as one
    /// segment, `MockAdminRoute.path(_:)`) and fails unless the answer has `status`.
    func send(_ route: MockAdminRoute, _ values: String..., query: [String: String] = [:], body: Data? = nil,
              expecting status: Int) async throws -> Data {
        let method = route.method
        // An empty value would leave an empty segment, which the router reads as the shorter
        // path: `removeStub(id: "")` would be `DELETE /__admin/mappings`, every stub.
        for (name, value) in zip(route.parameters, values) where value.isEmpty {
            throw Failure(description: "\(method) \(route.pattern): :\(name) is empty")
        }
        let path = route.path(values)
        // The path is encoded already: it goes after the base URL's own path as it is
        // (appendingPathComponent would encode its escapes a second time).
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw Failure(description: "bad base URL \(baseURL)")
        }
        let basePath = components.percentEncodedPath
        components.percentEncodedPath = (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + path
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        guard let url = components.url else { throw Failure(description: "bad URL for \(path)") }
        // Never from a cache: on Darwin URLSession.shared keeps answers by protocol policy, and a
        // poll of the outbox must see the server's state now.
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = method
        if let body { request.httpBody = body }
        if body != nil || method != "GET" {
            // A JSON Content-Type makes it a non-simple request, which admin writes require.
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let adminToken { request.setValue(adminToken, forHTTPHeaderField: "X-Mock-Admin-Token") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "\(method) \(path): no HTTP response") }
        guard http.statusCode == status else {
            // A stub error's body is WireMock's document; the server's own sentence is the hint.
            let hint = http.value(forHTTPHeaderField: "X-Mock-Hint").map { " (hint: \($0))" } ?? ""
            throw Failure(description: "\(method) \(path): \(http.statusCode) \(String(decoding: data, as: UTF8.self))\(hint)")
        }
        return data
    }

    /// The wire types read their dates themselves (the one ISO 8601 form of `/__mock/`).
    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw Failure(description: "unexpected admin answer: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
    }
}
