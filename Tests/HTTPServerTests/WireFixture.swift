import Foundation
import HTTPServer
import TestSupport

/// A real server on an ephemeral port with a few generic routes, for transport tests.
final class WireFixture {
    let server: Server

    init(logger: Logger = .silent, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var router = Router()
        router.get("/hello") { _ in .text(.ok, "hello\n") }
        router.post("/echo") { request in
            var r = HTTPResponse(status: .ok, body: request.body)
            r.headers.set("Content-Type", request.headers["Content-Type"] ?? "application/octet-stream")
            r.headers.set("X-Body-Length", String(request.body.count))
            return r
        }
        router.post("/params") { request in
            var all = request.queryParameters
            let body = request.mediaType == "multipart/form-data" ? request.multipartFields() : request.urlEncodedFields()
            if case .success(let fields) = body { all.append(contentsOf: fields) }
            return .json(.ok, object: Dictionary(all.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }))
        }
        router.get("/items/:id") { _, c in .json(.ok, object: ["id": c.pathParameters["id"] ?? ""]) }
        router.delete("/items/:id") { _ in .empty(.noContent) }
        router.webSocket("/echo-ws") { [$0] }
        var config = ServerConfiguration()
        config.port = 0
        config.eventLoops = 2
        config.shutdownGrace = 1
        try config.applyTestEnvironment()
        configure(&config)
        server = Server(configuration: config, responder: Responder(router: router), logger: logger)
        try server.start()
    }

    var port: Int { server.port }

    func client() throws -> TestHTTPClient { try TestHTTPClient(port: port) }

    /// One request on a fresh connection.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> TestResponse {
        let c = try client()
        try c.sendRequest(method, target, headers: headers, body: body)
        return try c.readResponse(head: method == "HEAD")
    }

    /// Sends raw bytes on a fresh connection and reads one response.
    func raw(_ text: String) throws -> (TestResponse, TestHTTPClient) {
        let c = try client()
        try c.send(text)
        return (try c.readResponse(), c)
    }

    deinit {
        server.shutdown()
        server.waitUntilStopped()
    }
}
