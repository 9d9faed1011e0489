import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Faults that act on the wire (delay, close, reset, truncate), seen from a real client.
final class FaultDeliveryTests: MockServerTestCase {
    private let secure = Array(#"{"sequence": "132"}"#.utf8)
    private var secureHeaders: [(String, String)] { [("Content-Type", "application/json")] }

    func testCloseEndsTheConnectionWithoutAnAnswer() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["close": true]])
        let client = try server.connect()
        try client.sendRequest("POST", "/rsschool/secure", headers: secureHeaders, body: secure)
        let (bytes, error) = FaultDeliveryTests.readToEnd(client.fd)
        XCTAssertEqual(bytes, [], "no bytes before the end")
        XCTAssertEqual(error, 0, "an orderly EOF, not a reset")
        XCTAssertEqual(try server.request("POST", "/rsschool/secure", headers: secureHeaders, body: secure).status, 200, "times: 1")
    }

    func testResetIsAConnectionError() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["reset": true]])
        let client = try server.connect()
        try client.sendRequest("POST", "/rsschool/secure", headers: secureHeaders, body: secure)
        let (bytes, error) = FaultDeliveryTests.readToEnd(client.fd)
        XCTAssertEqual(bytes, [])
        XCTAssertEqual(error, ECONNRESET)
    }

    func testTruncateSendsTheHeadAndHalfTheBody() throws {
        let whole = try server.request("POST", "/rsschool/secure", headers: secureHeaders, body: secure)
        XCTAssertEqual(whole.status, 200)
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["truncate": true]])
        let client = try server.connect()
        try client.sendRequest("POST", "/rsschool/secure", headers: secureHeaders, body: secure)
        let (bytes, error) = FaultDeliveryTests.readToEnd(client.fd)
        XCTAssertEqual(error, 0)
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        XCTAssertEqual(parts.count, 2, text)
        XCTAssertTrue(parts[0].hasPrefix("HTTP/1.1 200 OK"), parts[0])
        XCTAssertTrue(parts[0].contains("Content-Length: \(whole.body.count)"), "the real length is announced: \(parts[0])")
        XCTAssertEqual(Array(parts.last?.utf8 ?? "".utf8), Array(whole.body.prefix(whole.body.count / 2)), "a short read against Content-Length")
    }

    /// While one answer is held by a delay, other connections are answered: the loop is not blocked.
    /// The delay is a minute so the held answer cannot arrive while the test looks.
    func testADelayedAnswerIsHeldWhileOtherConnectionsAreServed() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["delayMs": 60_000]])
        let fired = server.app.control.events.subscribe()
        defer { fired.cancel() }
        let delayed = try server.connect()
        try delayed.sendRequest("POST", "/rsschool/secure", headers: secureHeaders, body: secure)
        // Wait until the fault has fired (the rule is used up) before the other requests are sent.
        XCTAssertEqual(fired.next(timeout: 5)?.kind, "fault")
        for _ in 0..<3 {
            XCTAssertEqual(try server.request("POST", "/rsschool/secure", headers: secureHeaders, body: secure).status, 200)
        }
        var byte: UInt8 = 0
        let n = recv(delayed.fd, &byte, 1, Int32(MSG_DONTWAIT))
        XCTAssertEqual(n, -1, "the delayed answer is still held")
        XCTAssertTrue(errno == EAGAIN || errno == EWOULDBLOCK)
    }

    /// A delayed answer arrives whole, and a request pipelined behind it waits its turn.
    func testADelayedAnswerArrivesAndPipelinedAnswersStayInOrder() throws {
        _ = try server.addFault(["path": "/rsschool/secure", "times": 1, "action": ["delayMs": 20]])
        let client = try server.connect()
        let wrong = Array(#"{"sequence": "123"}"#.utf8)
        let first = "POST /rsschool/secure HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(secure.count)\r\n\r\n"
        let second = "POST /rsschool/secure HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(wrong.count)\r\n\r\n"
        try client.send(Array(first.utf8) + secure + Array(second.utf8) + wrong)
        XCTAssertEqual(try client.readResponse().status, 200, "the delayed answer comes first")
        XCTAssertEqual(try client.readResponse().status, 401, "then the one pipelined behind it")
        let entries = try server.journal("path=/rsschool/secure")
        XCTAssertEqual(entries.map { (($0["fault"] as? [String: Any])?["action"] as? [String: Any])?["delayMs"] as? Int }, [20, nil])
    }

    /// Reads until the peer ends the stream: the bytes, and 0 for EOF or the errno of the error.
    static func readToEnd(_ fd: Int32) -> ([UInt8], Int32) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]); continue }
            return (bytes, n == 0 ? 0 : errno)
        }
    }
}

/// Gateway message faults seen from a real WebSocket client: reply and noReply are in
/// `FaultTests`; here delay and close code.
final class GatewayFaultDeliveryTests: MockServerTestCase {
    private let login = #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"123123"}}"#

    private func message(_ sequenceId: String) -> String {
        login.replacingOccurrences(of: #""sequence_id":"1""#, with: #""sequence_id":"\#(sequenceId)""#)
    }

    func testADelayedReplyComesAfterItsDelayAndLaterRepliesDoNotWaitForIt() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["delayMs": 20]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: login)
        try ws.send(text: message("2"))
        var sequence: [String] = []
        for _ in 0..<2 {
            guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
            XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN")
            sequence.append(JSONValue.parse(reply)?["sequence_id"]?.string ?? "")
        }
        XCTAssertEqual(Set(sequence), ["1", "2"], "both replies, the delayed one included")
        // Journaled as the replies went out: the undelayed one usually first, but not by contract.
        let entries = try server.journal("system=gateway")
        XCTAssertEqual(entries.map { (($0["fault"] as? [String: Any])?["action"] as? [String: Any])?["delayMs"] as? Int ?? 0 }.sorted(), [0, 20])
    }

    /// RFC 6455 §5.5.2: a pong "as soon as practical". With a delay far longer than the test,
    /// the pong and the undelayed reply arrive while the delayed reply has not: order, not time.
    func testAPingAndAnUndelayedMessageBehindADelayedOneAreAnsweredAtOnce() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["delayMs": 30_000]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: login)   // held for 30 s
        try ws.sendFrame(opcode: WebSocketOpcode.ping, payload: Array("keep-alive".utf8))
        try ws.send(text: message("2"))
        let pong = try ws.receiveFrame()
        XCTAssertEqual(pong.opcode, WebSocketOpcode.pong)
        XCTAssertEqual(pong.payload, Array("keep-alive".utf8), "the ping's payload, echoed")
        let reply = try ws.receiveFrame()
        XCTAssertEqual(reply.opcode, WebSocketOpcode.text)
        XCTAssertEqual(JSONValue.parse(String(decoding: reply.payload, as: UTF8.self))?["sequence_id"]?.string, "2",
                       "the undelayed reply, before the delayed one")
        // A second ping after it: still answered while the delayed reply waits.
        try ws.sendFrame(opcode: WebSocketOpcode.ping, payload: [])
        XCTAssertEqual(try ws.receiveFrame().opcode, WebSocketOpcode.pong)
    }

    /// A close code waits for the replies before it: the delayed one goes out first.
    func testACloseCodeBehindADelayedReplyWaitsForIt() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["delayMs": 20]])
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["closeCode": 4001]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: login)
        try ws.send(text: message("2"))
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["sequence_id"]?.string, "1")
        XCTAssertEqual(try ws.receiveClose(), 4001)
    }

    func testCloseCodeClosesTheSocketWithThatCode() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_*", "times": 1, "action": ["closeCode": 4001]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: login)
        XCTAssertEqual(try ws.receiveClose(), 4001)
        let entries = try server.journal("system=gateway")
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual((entries.first?["fault"] as? [String: Any]).flatMap { ($0["action"] as? [String: Any])?["closeCode"] as? Int }, 4001)
        // A new socket is answered normally: the rule was used up.
        let again = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try again.send(text: login)
        guard case .text(let reply) = try again.receiveMessage() else { return XCTFail("no text reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN")
    }

    func testAReplyAndNoReplyFromARealClient() throws {
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["noReply": true]])
        _ = try server.addFault(["system": "gateway", "path": "LOGIN_CUSTOMER", "times": 1, "action": ["reply": "maintenance"]])
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: login) // no reply
        try ws.send(text: login) // "maintenance"
        try ws.send(text: login) // the real answer
        XCTAssertEqual(try ws.receiveMessage(), .text("maintenance"))
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN")
    }
}
