import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// The console from a phone or a colleague's machine (API.md §6): `/__mock/?token=<token>` sets
/// an HttpOnly, SameSite=Strict cookie that stands for the `X-Mock-Admin-Token` header.
final class AdminTokenCookieTests: XCTestCase {
    private let remote = "10.0.0.7"
    private let lanHost = TestServer.lanHost

    private func respond(_ server: TestServer, _ method: HTTPMethod, _ target: String,
                         _ headers: HTTPHeaders = [:], from address: String = "10.0.0.7") -> HTTPResponse {
        server.respondFromLAN(method, target, headers, from: address)
    }

    /// The `name=value` part of the Set-Cookie of a token login, after checking its attributes.
    private func signIn(_ server: TestServer, token: String, path: String = "/__mock/") throws -> String {
        let login = respond(server, .get, path + "?token=" + token)
        XCTAssertEqual(login.status.code, 303)
        XCTAssertEqual(login.headers["Location"], "/__mock/", "the token leaves the address bar")
        let cookie = try XCTUnwrap(login.headers["Set-Cookie"])
        let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(attributes.contains("HttpOnly"), cookie)
        XCTAssertTrue(attributes.contains("SameSite=Strict"), cookie)
        XCTAssertTrue(attributes.contains("Path=/__mock"), cookie)
        XCTAssertFalse(cookie.contains(token), "the secret itself is not stored in the browser: \(cookie)")
        return String(attributes[0])
    }

    func testATokenURLSetsACookieThatOpensTheConsoleAndItsAPIToAnotherMachine() throws {
        let server = try TestServer(adminToken: "s3cret-token-0123456789")
        XCTAssertEqual(respond(server, .get, "/__mock/").status.code, 403, "without the cookie")
        XCTAssertEqual(respond(server, .get, "/__mock/?token=wrong").status.code, 403)
        XCTAssertNil(respond(server, .get, "/__mock/?token=wrong").headers["Set-Cookie"])
        let cookie = try signIn(server, token: "s3cret-token-0123456789")
        let second = try signIn(server, token: "s3cret-token-0123456789", path: "/__mock")
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": second]).status.code, 200)

        let page = respond(server, .get, "/__mock/", ["Cookie": "theme=dark; " + cookie])
        XCTAssertEqual(page.status.code, 200)
        XCTAssertTrue(page.headers["Content-Security-Policy"]?.contains("connect-src 'self' ws://\(lanHost);") ?? false)
        // What the page then does: reads, and writes with its X-Mock-Admin marker.
        _ = try server.musbookingCode(phone: "9123456789")
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": cookie]).status.code, 200)
        XCTAssertEqual(respond(server, .post, "/__mock/reset", ["Cookie": cookie, "X-Mock-Admin": "1",
                                                             "Origin": "http://\(lanHost)"]).status.code, 204)
        XCTAssertEqual(server.outbox.sms().count, 0)
    }

    func testTheCookieKeepsThePageChecksAndNothingElseStandsForIt() throws {
        let server = try TestServer(adminToken: "s3cret-token-0123456789")
        let cookie = try signIn(server, token: "s3cret-token-0123456789")
        _ = try server.musbookingCode(phone: "9123456789")
        // Another port of the same host is the same site, so its form would carry the cookie:
        // its write shows Sec-Fetch-Site: same-site (and its Origin), and both are still refused.
        XCTAssertEqual(respond(server, .post, "/__mock/reset", ["Cookie": cookie, "Sec-Fetch-Site": "same-site"]).status.code, 403)
        XCTAssertEqual(respond(server, .post, "/__mock/reset", ["Cookie": cookie, "Origin": "http://\(lanHost.dropLast(4))3000"]).status.code, 403)
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": cookie, "Origin": "http://\(lanHost.dropLast(4))3000"]).status.code, 403)
        XCTAssertEqual(server.outbox.sms().count, 1)
        // A wrong value, another name, the token itself as the value, or a server started with
        // another token: no entry.
        for wrong in ["mock_admin=0000", "other=" + cookie.dropFirst("mock_admin=".count), "mock_admin=s3cret"] {
            XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": String(wrong)]).status.code, 403, String(wrong))
        }
        let other = try TestServer(adminToken: "another-token-0123456789")
        XCTAssertEqual(respond(other, .get, "/__mock/sms", ["Cookie": cookie]).status.code, 403)
        // Loopback is unchanged, cookie or not.
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Host": "127.0.0.1"], from: "127.0.0.1").status.code, 200)
    }

    func testWithoutAnAdminTokenTheTokenURLIsTheConsoleGuardedAsUsual() throws {
        let server = try TestServer()
        let remote = respond(server, .get, "/__mock/?token=anything")
        XCTAssertEqual(remote.status.code, 403)
        XCTAssertNil(remote.headers["Set-Cookie"])
        let local = respond(server, .get, "/__mock/?token=anything", ["Host": "127.0.0.1"], from: "127.0.0.1")
        XCTAssertEqual(local.status.code, 200)
        XCTAssertNil(local.headers["Set-Cookie"])
    }

    /// Over real sockets from a non-loopback peer: inside a network namespace the test makes itself
    /// (loopback plus 192.0.2.1, nothing leaves it), the server listens on every interface, as
    /// `--host 0.0.0.0` does for a phone, and the client connects to 192.0.2.1.
    func testOverRealSocketsFromANonLoopbackAddress() throws {
        try inPrivateNetwork(module: "RoutesTests") { try overRealSockets(from: PrivateNetwork.address) }
    }

    private func overRealSockets(from address: String) throws {
        let server = try TestServer(adminToken: "s3cret-token-0123456789", configure: { $0.host = "0.0.0.0" })
        let host = "\(address):\(server.port)"
        func get(_ target: String, _ headers: [(String, String)] = []) throws -> TestResponse {
            let client = try TestHTTPClient(host: address, port: server.port)
            try client.sendRequest("GET", target, headers: [("Host", host)] + headers)
            return try client.readResponse()
        }
        let refused = try get("/__mock/")
        XCTAssertEqual(refused.status, 403, "the peer is \(address), not loopback")
        XCTAssertTrue(refused.text.contains("?token="), refused.text)
        let login = try get("/__mock/?token=s3cret-token-0123456789")
        XCTAssertEqual(login.status, 303)
        let cookie = try XCTUnwrap(login.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        XCTAssertEqual(try get("/__mock/", [("Cookie", cookie)]).status, 200)
        XCTAssertEqual(try get("/__mock/sms", [("Cookie", cookie)]).status, 200)
        // The console's event stream, which a browser opens with the same cookie.
        let events = try get("/__mock/events", [("Cookie", cookie), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                                 ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
                                                 ("Origin", "http://\(host)")])
        XCTAssertEqual(events.status, 101)
    }
}
