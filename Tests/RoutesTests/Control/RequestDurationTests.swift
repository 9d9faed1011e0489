import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import GatewaySystem

/// A request's duration has one origin, its arrival at the connection: the journal's `durationMs`
/// (arrival → entry recorded) and the log line's (arrival → answer encoded) count from it, so the
/// log's is never the smaller, and time the request spent before its handler ran is in both.
/// Over real sockets; orderings and lower bounds only.
final class RequestDurationTests: XCTestCase {
    private func start() throws -> (TestServer, Locked<[String]>) {
        let lines = Locked<[String]>([])
        let server = try TestServer(logger: Logger(level: .info, format: .json) { line in lines.withLock { $0.append(line) } })
        return (server, lines)
    }

    /// Microseconds, as both the journal and the log write them.
    private func micros(_ ms: Any?) -> Int? { (ms as? Double).map { Int(($0 * 1000).rounded()) } }

    /// The JSON log lines of `kind` whose `key` is `value`, parsed.
    private func logLines(_ lines: Locked<[String]>, kind: String, _ key: String, _ value: String) -> [[String: Any]] {
        lines.withLock { $0 }.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["kind"] as? String == kind && $0[key] as? String == value }
    }

    /// The test holds a request's body after the server has its head (the `100 Continue` says so):
    /// that time is before the handler, so it counts only from the arrival, in the journal and the log.
    func testTimeARequestWaitsForItsBodyIsInItsJournalDurationAndTheLogsIsNoSmaller() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        let body = Array(#"{"email":"johndown@exmample.com","password":"1234567"}"#.utf8)
        let held = try TestHTTPClient(port: server.port)
        try held.send("POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                      + "Content-Length: \(body.count)\r\n\r\n")
        XCTAssertEqual(try held.readResponse().status, 100, "the server has the head")
        // The request has arrived by now.
        let heldFrom = SystemTime.monotonicNanos()
        // While the body is held, the request is not answered, so not journaled (bounded: 5 reads).
        for _ in 0..<5 {
            XCTAssertEqual(try server.journal("path=/auth/login").count, 0)
        }
        let heldUntil = SystemTime.monotonicNanos()
        try held.send(body)
        XCTAssertEqual(try held.readResponse().status, 200)

        let entries = try server.journal("path=/auth/login")
        XCTAssertEqual(entries.count, 1)
        let journal = try XCTUnwrap(micros(entries.first?["durationMs"]), "\(entries)")
        XCTAssertGreaterThanOrEqual(journal, Int((heldUntil - heldFrom) / 1000),
                                    "the journal counts from the arrival of the head, not from the handler")
        server.stop()
        let logged = logLines(lines, kind: "request", "path", "/auth/login")
        XCTAssertEqual(logged.count, 1, "\(lines.withLock { $0 })")
        let log = try XCTUnwrap(micros(logged.first?["durationMs"]), "\(logged)")
        XCTAssertGreaterThanOrEqual(log, journal, "one origin: the log line ends later than the entry is recorded")
    }

    /// A gateway message: its journal entry and its log line count from the message's arrival too.
    func testAGatewayMessagesLogDurationIsNoSmallerThanItsJournalDuration() throws {
        let (server, lines) = try start()
        defer { server.stop() }
        let ws = try TestWebSocket(port: server.port, path: CustomerGateway.path)
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"s-1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        _ = try ws.receiveMessage()
        let entries = try server.journal("method=WS")
        XCTAssertEqual(entries.count, 1, "\(entries)")
        let journal = try XCTUnwrap(micros(entries.first?["durationMs"]), "\(entries)")
        server.stop()
        let logged = logLines(lines, kind: "webSocket", "type", "LOGIN_CUSTOMER")
        XCTAssertEqual(logged.count, 1, "\(lines.withLock { $0 })")
        let log = try XCTUnwrap(micros(logged.first?["durationMs"]), "\(logged)")
        XCTAssertGreaterThanOrEqual(log, journal, "one origin: the line is written when the reply goes out, after the entry")
    }
}
