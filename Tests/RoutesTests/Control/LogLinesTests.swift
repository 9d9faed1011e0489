import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import GatewaySystem

/// What the log says about each thing a test does, over real sockets: a gateway message is one
/// line, a fault says its value, a cut answer says so, account changes and instances are named.
final class LogLinesTests: XCTestCase {
    private func start(_ format: LogFormat = .text) throws -> (TestServer, Locked<[String]>) {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .info, format: format) { line in lines.withLock { $0.append(line) } })
        return (server, lines)
    }

    private let login = #"{"type":"LOGIN_CUSTOMER","sequence_id":"s-7","data":{"email":"fpi@bk.ru","password":"123123"}}"#

    func testAGatewayMessageIsOneLineWithItsTypeIdOutcomeDurationAndSystem() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        let ws = try TestWebSocket(port: server.port, path: CustomerGateway.path)
        try ws.send(text: login)
        _ = try ws.receiveMessage()
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":8,"data":{"email":"nobody@example.com","password":"x"}}"#)
        _ = try ws.receiveMessage()
        let messages = lines.withLock { $0 }.filter { $0.contains(" WS ") }
        XCTAssertEqual(messages.count, 2, "\(lines.withLock { $0 })")
        let first = messages.first ?? ""
        XCTAssertTrue(first.contains("WS LOGIN_CUSTOMER #s-7 → CUSTOMER_API_TOKEN "), first)
        XCTAssertTrue(first.hasSuffix(" gateway\n"), first)
        XCTAssertNotNil(first.range(of: #" [0-9.]+(µs|ms) gateway"#, options: .regularExpression), first)
        XCTAssertTrue(messages.last?.contains("WS LOGIN_CUSTOMER #8 → CUSTOMER_ERROR customer.notFound") ?? false, messages.last ?? "")
        XCTAssertFalse(lines.withLock { $0 }.joined().contains("123123"), "no password in the log")
    }

    /// A connection reuses its message line's object once the reply that carried it is gone: a
    /// reply held by a delay keeps its own, so its line still names its message, not a later one.
    func testADelayedReplysLineKeepsItsOwnMessageWhenLaterOnesAreAnswered() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["delayMs": 200]])
        let ws = try TestWebSocket(port: server.port, path: CustomerGateway.path)
        for id in ["first", "second"] {
            try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"\#(id)","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        }
        let replies = try (0..<2).map { _ in try ws.receiveMessage() }
        // The loop writes a reply's line on the thread that answers the next message: once the
        // third is answered, the lines of the first two are in.
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"third","data":{"email":"nobody@example.com","password":"x"}}"#)
        _ = try ws.receiveMessage()
        XCTAssertEqual(replies.count, 2)
        let messages = lines.withLock { $0 }.filter { $0.contains(" WS LOGIN_CUSTOMER ") }
        XCTAssertEqual(messages.count, 3, "\(messages)")
        XCTAssertEqual(messages.filter { $0.contains("#first → CUSTOMER_API_TOKEN (fault delayMs 200) ") }.count, 1, "\(messages)")
        XCTAssertEqual(messages.filter { $0.contains("#second → CUSTOMER_API_TOKEN ") && !$0.contains("fault") }.count, 1, "\(messages)")
        XCTAssertEqual(messages.last.map { $0.contains("#third → CUSTOMER_ERROR customer.notFound ") }, true, "\(messages)")
    }

    func testInJSONTheMessageLineHasItsFields() throws {
        let (server, lines) = try start(.json)
        defer { server.stop() }
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["noReply": true]])
        let ws = try TestWebSocket(port: server.port, path: CustomerGateway.path)
        try ws.send(text: login)
        try ws.send(text: login)
        _ = try ws.receiveMessage()
        let objects = try lines.withLock { $0 }.map { try XCTUnwrap(JSON.parseObject(Array($0.utf8)), $0) }
        let messages = objects.filter { $0["kind"] as? String == "webSocket" }
        XCTAssertEqual(messages.map { $0["outcome"] as? String }, ["fault noReply", "CUSTOMER_API_TOKEN"], "\(objects)")
        XCTAssertEqual(messages.map { $0["type"] as? String }, ["LOGIN_CUSTOMER", "LOGIN_CUSTOMER"])
        XCTAssertEqual(messages.map { $0["id"] as? String }, ["s-7", "s-7"])
        XCTAssertEqual(messages.map { $0["system"] as? String }, ["gateway", "gateway"])
        XCTAssertNotNil(messages.last?["durationMs"] as? Double)
    }

    func testFaultLinesSayTheirValueAndACutAnswerSaysClosedOrReset() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        _ = try server.addFault(["path": "/rows/*", "times": 1, "action": ["status": 418]])
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 418)
        _ = try server.addFault(["path": "/rows/*", "times": 1, "action": ["close": true]])
        _ = try? server.request("GET", "/rows/2")
        _ = try server.addFault(["path": "/rows/*", "times": 1, "action": ["reset": true]])
        _ = try? server.request("GET", "/rows/3")
        let log = lines.withLock { $0 }
        XCTAssertTrue(log.contains { $0.contains("fault 1 added: any /rows/* → status 418") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("fault 1 fired on GET /rows/1: status 418") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("GET /rows/2 closed ") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("GET /rows/3 reset ") }, "\(log)")
        XCTAssertFalse(log.contains { $0.contains(" 0 ") && $0.contains("GET /rows/") }, "no status 0: \(log)")
    }

    func testAccountChangesAreLoggedByLogin() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "rows", "email": "qa@example.com", "password": "pw1"]).status, 201)
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "musbooking", "phone": "9120000003", "password": "pass123"]).status, 201)
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/qa@example.com", headers: TestServer.adminWrite).status, 204)
        let log = lines.withLock { $0 }
        XCTAssertTrue(log.contains { $0.contains("rows: account qa@example.com created") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("musbooking: account 9120000003 created") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("rows: account qa@example.com deleted") }, "\(log)")
    }

    func testAnInstancesLinesAreMarkedWithTheInstance() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        let r = try server.request("POST", "/__mock/instances", json: [:])
        let id = try XCTUnwrap(r.jsonObject?["id"] as? String, r.text)
        let port = try XCTUnwrap(r.jsonObject?["port"] as? Int)
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/rsschool/nowhere", headers: [], body: [])
        _ = try client.readResponse()
        let log = lines.withLock { $0 }
        XCTAssertTrue(log.contains { $0.contains("[instance \(id.prefix(8))] GET /rsschool/nowhere 404") }, "\(log)")
        XCTAssertFalse(log.contains { $0.contains("GET /__mock/instances") && $0.contains("[instance") }, "the main server's lines are unmarked")
    }

    func testABadClockRequestHasAHint() throws {
        let (server, _) = try start()
        defer { server.stop() }
        for body in [["advanceSeconds": -1], ["seconds": 60]] as [[String: Any]] {
            let r = try server.request("POST", "/__mock/clock", json: body)
            XCTAssertEqual(r.status, 400, r.text)
            XCTAssertTrue((r.header("X-Mock-Hint") ?? "").contains("advanceSeconds"), "\(r.headers)")
        }
    }
}
