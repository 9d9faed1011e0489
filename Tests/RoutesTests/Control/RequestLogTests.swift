import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// What the per-request log says at the default level, over real sockets: admin reads are debug
/// (a test polling the outbox would flood it), admin changes and refusals info, and a 413 names
/// the request it refused.
final class RequestLogTests: XCTestCase {
    /// A server on one event loop whose log lines are collected: a request answered after
    /// another on that loop proves the earlier one's line is written.
    private func server(level: LogLevel, configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) throws -> (TestServer, Locked<[String]>) {
        let lines = Locked<[String]>([])
        let logger = Logger(level: level) { line in lines.withLock { $0.append(line) } }
        let server = try TestServer(logger: logger, configure: { config in config.eventLoops = 1; configure(&config) })
        return (server, lines)
    }

    private func barrier(_ server: TestServer) throws {
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
    }

    func testAdminReadsAreDebugAndAdminChangesInfo() throws {
        for level in [LogLevel.info, .debug] {
            let (server, lines) = try server(level: level)
            XCTAssertEqual(try server.request("GET", "/__mock/sms").status, 200)
            XCTAssertEqual(try server.request("GET", "/__mock/requests").status, 200)
            XCTAssertEqual(try server.request("OPTIONS", "/__mock/faults").status, 204, "the console's feature probe")
            XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
            XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: [("Sec-Fetch-Site", "cross-site")]).status, 403, "a refused change")
            XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Host", "evil.example")]).status, 403, "a refused read")
            try barrier(server)
            let log = lines.withLock { $0.joined() }
            XCTAssertEqual(log.contains("GET /__mock/sms 200"), level == .debug, log)
            XCTAssertEqual(log.contains("GET /__mock/requests 200"), level == .debug, log)
            XCTAssertEqual(log.contains("OPTIONS /__mock/faults 204"), level == .debug, log)
            XCTAssertTrue(log.contains("POST /__mock/reset 204"), log)
            XCTAssertTrue(log.contains("POST /__mock/reset 403"), log)
            XCTAssertTrue(log.contains("GET /__mock/sms 403"), log)
            XCTAssertTrue(log.contains("GET /rows/1 403"), "the systems' lines stay at info: \(log)")
        }
    }

    func testA413NamesTheMethodAndPathItRead() throws {
        let (server, lines) = try server(level: .info) { $0.maxBodyBytes = 1000 }
        let plain = try TestHTTPClient(port: server.port)
        try plain.send("POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        XCTAssertEqual(try plain.readResponse().status, 413)
        let chunked = try TestHTTPClient(port: server.port)
        let chunk = String(repeating: "z", count: 600)
        try chunked.send("POST /api/users/register HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n")
        XCTAssertEqual(try chunked.readResponse().status, 413)
        try barrier(server)
        let log = lines.withLock { $0.joined() }
        XCTAssertNotNil(log.range(of: #"POST /auth/login 413 [0-9.]+(µs|ms) hint: request body larger than 1000 bytes"#, options: .regularExpression), log)
        XCTAssertNotNil(log.range(of: #"POST /api/users/register 413 "#, options: .regularExpression), log)
        XCTAssertFalse(log.contains("- - 413"), log)
    }

    func testDurationsBelowAMillisecondAreMicroseconds() throws {
        let (server, lines) = try server(level: .info)
        try barrier(server)
        let line = lines.withLock { $0.joined() }
        // The time the answer took, measured when it is written: never 0 (the loop's cached clock
        // gave 0 to every answer of one wake-up), in µs below a millisecond.
        XCTAssertNotNil(line.range(of: #"GET /rows/1 403 ([1-9][0-9]*µs|[1-9][0-9]*\.[0-9]ms) rows"#, options: .regularExpression), line)
    }
}
