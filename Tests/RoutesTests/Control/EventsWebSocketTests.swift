import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `GET /__mock/events` over a real WebSocket: one JSON message per event, in order, guarded.
final class EventsWebSocketTests: MockServerTestCase {
    private func events() throws -> TestWebSocket {
        try TestWebSocket(port: server.port, path: "/__mock/events")
    }

    private func next(_ ws: TestWebSocket, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        guard case .text(let text) = try ws.receiveMessage() else {
            XCTFail("a binary event", file: file, line: line)
            return [:]
        }
        let object = try XCTUnwrap(JSON.parseObject(Array(text.utf8)), text, file: file, line: line)
        XCTAssertEqual(Set(object.keys), ["kind", "at", "data"], text, file: file, line: line)
        return object
    }

    /// A test waits for the SMS on the socket instead of polling `/__mock/sms`.
    func testAnSMSArrivesAsAnEvent() throws {
        let ws = try events()
        let r = try server.request("POST", "/api/users/sms", form: [("phone", "+7 (912) 345-67-89")])
        XCTAssertEqual(r.status, 200, r.text)
        let sms = try next(ws)
        XCTAssertEqual(sms["kind"] as? String, "sms")
        let data = try XCTUnwrap(sms["data"] as? [String: Any])
        XCTAssertEqual(data["phone"] as? String, "9123456789")
        XCTAssertEqual(data["code"] as? String, server.outbox.sms().last?.code)
        let at = try XCTUnwrap(sms["at"] as? String)
        XCTAssertTrue(at.hasSuffix("Z") && at.contains("T"), at)
        // Then the request that sent it, as its journal entry.
        let request = try next(ws)
        XCTAssertEqual(request["kind"] as? String, "request")
        XCTAssertEqual((request["data"] as? [String: Any])?["path"] as? String, "/api/users/sms")
    }

    func testEventsOfEveryKindArriveInOrder() throws {
        let ws = try events()
        _ = try server.request("GET", "/rows/1")                                                    // request
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])           // sms, request
        let code = try XCTUnwrap(server.outbox.sms().last?.code)
        let register = try server.request("POST", "/api/users/register",
                                          form: [("name", "Иван"), ("phone", "9123456789"), ("code", code), ("email", "ivan@example.ru")])
        XCTAssertEqual(register.status, 200, register.text)                                         // sms (password), request
        let login = try server.musbookingLogin("9123456789", try XCTUnwrap(register.jsonObject?["password"] as? String))   // request
        _ = try server.request("POST", "/api/users/send-confirm", headers: bearer(login))           // email, request
        _ = try server.addFault(["path": "/rsschool/*", "times": 1, "action": ["status": 503]])
        _ = try server.request("POST", "/rsschool/authorize", json: ["login": "username", "password": "password"]) // fault, request
        _ = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 60])               // clock
        _ = try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite)              // reset

        var kinds: [String] = []
        var paths: [String] = []
        while kinds.last != "reset" {
            let event = try next(ws)
            let kind = try XCTUnwrap(event["kind"] as? String)
            kinds.append(kind)
            if kind == "request" { paths.append((event["data"] as? [String: Any])?["path"] as? String ?? "") }
            if kind == "fault" { XCTAssertEqual(((event["data"] as? [String: Any])?["action"] as? [String: Any])?["status"] as? Int, 503) }
            if kind == "clock" { XCTAssertEqual((event["data"] as? [String: Any])?["offsetSeconds"] as? Double, 60) }
        }
        XCTAssertEqual(kinds, ["request", "sms", "request", "sms", "request", "request", "email", "request",
                               "fault.added", "fault", "fault.usedUp", "request", "clock", "reset"])
        XCTAssertEqual(paths, ["/rows/1", "/api/users/sms", "/api/users/register", "/api/auth/login",
                               "/api/users/send-confirm", "/rsschool/authorize"])
    }

    /// Two subscribers see the same events; one closing does not disturb the other.
    func testEverySubscriberGetsEveryEventAndClosingCancelsOnlyItsOwn() throws {
        let first = try events()
        let second = try events()
        _ = try server.request("GET", "/rows/1")
        XCTAssertEqual(try next(first)["kind"] as? String, "request")
        XCTAssertEqual(try next(second)["kind"] as? String, "request")
        try first.close()
        XCTAssertEqual(try first.receiveClose(), 1000)
        _ = try server.request("GET", "/rows/2")
        XCTAssertEqual((try next(second)["data"] as? [String: Any])?["path"] as? String, "/rows/2")
    }

    /// A subscriber that never reads is closed once its unread output passes the cap; publishing
    /// never waits for it. The client reads nothing until the server has said it closed it.
    func testASubscriberThatDoesNotReadIsDropped() throws {
        let closed = DispatchSemaphore(value: 0)
        let logger = Logger(level: .warning) { line in if line.contains("output unread") { closed.signal() } }
        let small = try TestServer(logger: logger, configure: {
            $0.outputHighWaterBytes = 16 * 1024
            $0.maxPendingOutputBytes = 64 * 1024
        })
        defer { small.stop() }
        let ws = try TestWebSocket(port: small.port, path: "/__mock/events", timeout: 10)
        let blob = String(repeating: "x", count: 64 * 1024)
        // 32 MiB in all: more than the kernel's socket buffers and the cap together.
        for _ in 0..<512 { small.app.control.events.publish(kind: "request", at: Date()) { ["blob": .string(blob)] } }
        XCTAssertEqual(closed.wait(timeout: .now() + 10), .success, "the server closed the subscriber that does not read")
        var received = 0
        while true {
            do {
                _ = try ws.receiveMessage()
                received += 1
            } catch {
                // Closed by the server (EOF mid-frame or a close frame), not a read timeout.
                XCTAssertFalse("\(error)".contains("within the timeout"), "\(error)")
                break
            }
        }
        XCTAssertLessThan(received, 512, "the socket was closed before every event was delivered")
    }

    /// The handshake goes through the admin guard: a page reaching the server under another
    /// name (DNS rebinding) or from another origin is refused, with the guard's reason.
    func testTheGuardRefusesAHandshakeForAnotherHostOrOrigin() throws {
        let handshake = [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                         ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13")]
        let rebound = try server.connect()
        try rebound.sendRequest("GET", "/__mock/events", headers: [("Host", "evil.example:\(server.port)")] + handshake)
        let refused = try rebound.readResponse()
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertNil(refused.header("Sec-WebSocket-Accept"))
        XCTAssertTrue(refused.text.contains("DNS rebinding"), refused.text)
        XCTAssertThrowsError(try TestWebSocket(port: server.port, path: "/__mock/events", extraHeaders: [("Origin", "http://evil.example")])) { error in
            XCTAssertTrue("\(error)".contains("403"), "\(error)")
        }
        let plain = try server.request("GET", "/__mock/events")
        XCTAssertEqual(plain.status, 426)
        XCTAssertEqual(plain.header("Upgrade"), "websocket")
        // The loopback console's own page is admitted.
        _ = try TestWebSocket(port: server.port, path: "/__mock/events", extraHeaders: [("Origin", "http://127.0.0.1:\(server.port)")])
    }
}
