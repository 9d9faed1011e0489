import Foundation
import HTTPServer
import Routes

/// The whole mock (seed.json of this repository, a manual clock, seeded randomness) for one test.
///
/// TEMPORARY: until the socket server lands, requests are dispatched in-process through
/// `Responder`; the API stays the same when they go over real sockets.
public final class TestServer: @unchecked Sendable {
    public let app: MockApp
    public let clock: ManualClock
    public let outbox: Outbox
    public let responder: Responder

    /// The repository's `seed.json`, found from this file's path.
    public static var repositorySeedPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("seed.json").path
    }

    public init(seedPath: String = TestServer.repositorySeedPath, clock: ManualClock = ManualClock(),
                random: any RandomSource = SeededRandomSource(seed: 42),
                adminToken: String? = nil,
                configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        self.clock = clock
        let env = MockEnvironment(clock: clock, random: random, logger: .silent)
        outbox = env.outbox
        app = MockApp(seed: try Seed.load(path: seedPath), environment: env, adminToken: adminToken)
        responder = Responder(router: app.makeRouter())
    }

    /// Sends one request and waits for its response.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [],
                        body: [UInt8] = []) throws -> TestResponse {
        var h = HTTPHeaders()
        for (n, v) in headers { h.add(n, v) }
        let r = responder.respond(to: HTTPRequest(method: HTTPMethod(method), target: path, headers: h, body: body))
        return TestResponse(status: r.status.code, headers: r.headers, body: method == "HEAD" ? [] : r.body)
    }

    /// Sends a JSON body (any Foundation JSON object) with `Content-Type: application/json`.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: Any) throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: json)
        return try request(method, path, headers: headers + [("Content-Type", "application/json")], body: Array(data))
    }

    /// Sends a raw JSON text body with `Content-Type: application/json`.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], jsonText: String) throws -> TestResponse {
        try request(method, path, headers: headers + [("Content-Type", "application/json")], body: Array(jsonText.utf8))
    }

    /// Sends an `application/x-www-form-urlencoded` body.
    public func request(_ method: String, _ path: String, headers: [(String, String)] = [], form: [(String, String)]) throws -> TestResponse {
        let body = form.map { "\(TestServer.formEscape($0.0))=\(TestServer.formEscape($0.1))" }.joined(separator: "&")
        return try request(method, path, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    /// Percent-escapes for a form value (space as `+`).
    public static func formEscape(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._* ")
        return (s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s).replacingOccurrences(of: " ", with: "+")
    }

    public func stop() {}
}
