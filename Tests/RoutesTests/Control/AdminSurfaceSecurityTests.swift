import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// Issue 13 items 10-11: a web page open in the developer's browser must not read the outbox or
/// reset the server (CORS, simple requests, DNS rebinding), and the echo WebSocket is guarded.
final class AdminSurfaceSecurityTests: XCTestCase {
    private let evil = "http://evil.example"

    func testAdminPathsSendNoCORSHeadersToOtherOriginsButTheSystemsStillDo() throws {
        let server = try TestServer()
        _ = try server.musbookingCode(phone: "9123456789")
        let read = try server.request("GET", "/__mock/sms", headers: [("Origin", evil)])
        XCTAssertEqual(read.status, 403, read.text)
        XCTAssertNil(read.header("Access-Control-Allow-Origin"))
        XCTAssertNil(read.header("Access-Control-Allow-Credentials"))
        XCTAssertFalse(read.text.contains("Код"), "the outbox leaked: \(read.text)")
        XCTAssertTrue(read.text.contains("cross-origin admin request from http://evil.example refused"), read.text)

        // The preflight of a cross-site reset gets nothing a browser would accept.
        for path in ["/__mock/reset", "//__mock/reset", "/__MOCK/reset", "/__mock/sms"] {
            let preflight = try server.request("OPTIONS", path, headers: [
                ("Origin", evil), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "content-type"),
            ])
            XCTAssertNil(preflight.header("Access-Control-Allow-Origin"), path)
            XCTAssertNil(preflight.header("Access-Control-Allow-Methods"), path)
            XCTAssertNil(preflight.header("Access-Control-Allow-Headers"), path)
        }

        // The emulated systems keep answering any origin (apps in web views, dev servers).
        let sms = try server.request("POST", "/api/users/sms", headers: [("Origin", evil)], form: [("phone", "9031112233")])
        XCTAssertEqual(sms.header("Access-Control-Allow-Origin"), evil)
        let preflight = try server.request("OPTIONS", "/auth/login", headers: [("Origin", evil), ("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), evil)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "POST")
    }

    func testTheConsolesOwnOriginIsServed() throws {
        let server = try TestServer()
        let origin = "http://127.0.0.1:\(server.port)"
        let read = try server.request("GET", "/__mock/sms", headers: [("Origin", origin)])
        XCTAssertEqual(read.status, 200)
        XCTAssertNil(read.header("Access-Control-Allow-Origin"), "same-origin needs no CORS")
        let reset = try server.request("POST", "/__mock/reset", headers: [("Origin", origin), ("X-Mock-Admin", "1")])
        XCTAssertEqual(reset.status, 204)
    }

    func testABrowsersCrossSiteWriteIsRefusedAndPlainClientsPass() throws {
        let server = try TestServer()
        _ = try server.musbookingCode(phone: "9123456789")
        // What a cross-site <form> or a no-cors fetch sends: a simple body, and always what a
        // browser adds to a write another site's page started.
        let bodies: [[(String, String)]] = [
            [],
            [("Content-Type", "application/x-www-form-urlencoded")],
            [("Content-Type", "text/plain")],
            [("Content-Type", "multipart/form-data; boundary=x")],
        ]
        let browser: [[(String, String)]] = [
            [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")],
            [("Origin", "http://evil.example")],
            [("Origin", "null")],
            [("Sec-Fetch-Site", "cross-site")],
            [("Sec-Fetch-Site", "same-site")],
            [("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Site", "cross-site")],
        ]
        for body in bodies {
            for shows in browser {
                let refused = try server.request("POST", "/__mock/reset", headers: body + shows)
                XCTAssertEqual(refused.status, 403, "\(body + shows)")
                XCTAssertTrue(refused.text.contains("refused"), refused.text)
                XCTAssertEqual(refused.header("X-Mock-Hint").map { refused.text.contains($0) }, true, "the hint says the same")
            }
        }
        XCTAssertEqual(server.outbox.sms().count, 1, "a refused reset changed state")

        // What WireMock's Java client (text/plain, or no body and no Content-Type), curl and a
        // test's own calls send: none of a browser's marks, so no extra header is needed.
        for plain in bodies + [[("Content-Type", "application/json")], [("x-mock-admin", "1")],
                               [("Sec-Fetch-Site", "same-origin")], [("Sec-Fetch-Site", "none")]] {
            _ = try server.musbookingCode(phone: "9123456789")
            XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: plain).status, 204, "\(plain)")
            XCTAssertEqual(server.outbox.sms().count, 0)
        }
        // Reads stay simple: curl and a browser's address bar work as before.
        XCTAssertEqual(try server.request("GET", "/__mock/emails").status, 200)
    }

    func testAdminRequestsAddressedToAnotherHostAreRefused() throws {
        let server = try TestServer()
        let port = server.port
        for host in ["evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example:\(port)", "10.0.0.7", "[::2]:\(port)"] {
            let r = try server.request("GET", "/__mock/sms", headers: [("Host", host)])
            XCTAssertEqual(r.status, 403, host)
            XCTAssertTrue(r.text.contains("DNS rebinding"), r.text)
            XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: [("Host", host), ("X-Mock-Admin", "1")]).status, 403, host)
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)", "127.1.2.3:\(port)", "app.localhost:\(port)"] {
            XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Host", host)]).status, 200, host)
        }
        // The emulated systems answer whatever name the app uses.
        XCTAssertEqual(try server.request("POST", "/api/users/sms", headers: [("Host", "api.musbooking.test")], form: [("phone", "9123456789")]).status, 200)
    }

    func testTheConfiguredHostIsAccepted() throws {
        let app = MockApp(seed: try Seed.load(path: TestServer.repositorySeedPath), environment: MockEnvironment(logger: .silent),
                          adminHosts: ["mock.lan"])
        let responder = Responder(router: app.makeRouter())
        func get(_ host: String) -> Int {
            responder.respond(to: HTTPRequest(method: .get, target: "/__mock/sms", headers: ["Host": host]), context: RequestContext(remoteAddress: "127.0.0.1")).status.code
        }
        XCTAssertEqual(get("mock.lan:8080"), 200)
        XCTAssertEqual(get("MOCK.LAN"), 200)
        XCTAssertEqual(get("other.lan"), 403)
    }

    func testTheAdminTokenIsNotSubjectToTheBrowserChecks() throws {
        let server = try TestServer(adminToken: "s3cret-token-0123456789")
        let r = server.responder.respond(to: HTTPRequest(method: .post, target: "/__mock/reset",
                                                         headers: ["Host": "mock.lan:8080", "X-Mock-Admin-Token": "s3cret-token-0123456789"]), context: RequestContext(remoteAddress: "10.0.0.7"))
        XCTAssertEqual(r.status.code, 204)
    }

    func testEchoIsGuardedLikeTheOtherAdminPaths() throws {
        let server = try TestServer()
        // A cross-site page opening the WebSocket (browsers send Origin; CORS does not apply to WebSockets).
        XCTAssertThrowsError(try TestWebSocket(port: server.port, path: "/__mock/echo", extraHeaders: [("Origin", evil)])) { error in
            XCTAssertTrue(String(describing: error).contains("403"), "\(error)")
        }
        // A client on another machine: the handshake is not routed to the socket, and the answer is 403.
        let upgrade = HTTPRequest(method: .get, target: "/__mock/echo", headers: [
            "Host": "127.0.0.1", "Upgrade": "websocket", "Connection": "Upgrade",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13",
        ])
        var remote = RequestContext(remoteAddress: "10.0.0.7")
        if case .webSocket = server.responder.router.match(upgrade, context: &remote, isUpgrade: true) { XCTFail("a remote client reached the echo socket") }
        let refused = server.responder.respond(to: upgrade, context: remote)
        XCTAssertEqual(refused.status.code, 403)
        // Loopback still echoes.
        // (The test client sends `Host: 127.0.0.1:<port>`, so that is its own origin.)
        let ws = try TestWebSocket(port: server.port, path: "/__mock/echo", extraHeaders: [("Origin", "http://127.0.0.1:\(server.port)")])
        try ws.send(text: "ok")
        XCTAssertEqual(try ws.receiveMessage(), .text("ok"))
    }
}
