import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import MockControl

/// Issue 28 R12: the admin door. A token of at least 16 characters, compared in constant time;
/// wrong tokens logged and, past a limit, answered 429 per peer; the console cookie an HMAC under
/// a per-process secret, with an expiry, for the host it was issued to; the addressed host read
/// from an absolute-form target, every `Origin` checked, and the `Host`'s port compared.
final class AdminDoorTests: XCTestCase {
    private let token = "door-token-0123456789"
    private let lanHost = TestServer.lanHost

    private func respond(_ server: TestServer, _ method: HTTPMethod, _ target: String,
                         _ headers: HTTPHeaders = [:], from address: String = "10.0.0.7") -> HTTPResponse {
        server.respondFromLAN(method, target, headers, from: address)
    }

    private func signIn(_ server: TestServer) throws -> (cookie: String, setCookie: String) {
        let login = respond(server, .get, "/__mock/?token=" + token)
        XCTAssertEqual(login.status.code, 303)
        let header = try XCTUnwrap(login.headers["Set-Cookie"])
        return (String(header.split(separator: ";")[0]), header)
    }

    func testTheCookieExpiresAndServesOnlyTheHostItWasIssuedFor() throws {
        let server = try TestServer(adminToken: token)
        let (cookie, header) = try signIn(server)
        XCTAssertTrue(header.contains("Max-Age=\(AdminGuard.cookieLifetime)"), header)
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": cookie]).status.code, 200)
        // The same cookie sent to another name of the server (a rebinding page, or a forged Host).
        let foreign = respond(server, .get, "/__mock/sms", ["Cookie": cookie, "Host": "evil.example:8080"])
        XCTAssertEqual(foreign.status.code, 403)
        // An expired cookie, made with this process's secret, is refused; a live one is accepted.
        let guardian = AdminGuard(adminToken: token)
        let now = Int(Date().timeIntervalSince1970)
        let expired = try XCTUnwrap(guardian.cookieValue(host: lanHost, expires: now - 1))
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": "mock_admin=\(expired)"]).status.code, 403)
        let live = try XCTUnwrap(guardian.cookieValue(host: lanHost, expires: now + 600))
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": "mock_admin=\(live)"]).status.code, 200)
        // The old cookie, a fixed digest of the token that anyone knowing the token could compute.
        let digest = SHA1.hash(Array("mock-server admin cookie\n\(token)".utf8)).map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": "mock_admin=\(digest)"]).status.code, 403)
        // A cookie for another token (same host, same expiry) is worthless here.
        let otherToken = try XCTUnwrap(AdminGuard(adminToken: "another-token-0123456789").cookieValue(host: lanHost, expires: now + 600))
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["Cookie": "mock_admin=\(otherToken)"]).status.code, 403)
    }

    func testWrongTokensAreLoggedAndPastTheLimitAnswered429PerPeer() throws {
        let lines = Locked<[String]>([])
        let server = try TestServer(adminToken: token, logger: Logger(level: .warning, sink: { line in lines.withLock { $0.append(line) } }))
        let limit = 10
        for i in 1...limit {
            let wrong = try server.request("GET", "/__mock/sms", headers: [("X-Mock-Admin-Token", "guess-\(i)-0123456789")])
            XCTAssertEqual(wrong.status, 403, "guess \(i)")
        }
        let throttled = try server.request("GET", "/__mock/sms", headers: [("X-Mock-Admin-Token", "guess-11-0123456789")])
        XCTAssertEqual(throttled.status, 429, throttled.text)
        let wait = try XCTUnwrap(Int(throttled.header("Retry-After") ?? ""), "Retry-After")
        XCTAssertTrue((1...60).contains(wait), "\(wait)")
        XCTAssertNotNil(throttled.header("X-Mock-Hint"))
        // While throttled even the right token is refused: answers must not tell a guess apart.
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("X-Mock-Admin-Token", token)]).status, 429)
        XCTAssertEqual(respond(server, .get, "/__mock/?token=" + token, ["Host": "127.0.0.1:\(server.port)"], from: "127.0.0.1").status.code, 429)
        // Loopback without a token, and another peer with the right one, are not affected.
        XCTAssertEqual(try server.request("GET", "/__mock/sms").status, 200)
        XCTAssertEqual(respond(server, .get, "/__mock/sms", ["X-Mock-Admin-Token": token], from: "10.0.0.8").status.code, 200)
        let logged = lines.withLock { $0 }.filter { $0.contains("wrong X-Mock-Admin-Token from 127.0.0.1") }
        XCTAssertEqual(logged.count, limit, "one line per wrong token up to the limit, then none: \(logged)")
        XCTAssertFalse(lines.withLock { $0 }.joined().contains("guess-"), "the guesses themselves are not logged")
    }

    func testTheConsoleAddressCountsWrongTokensToo() throws {
        let server = try TestServer(adminToken: token)
        for _ in 0..<10 { XCTAssertEqual(respond(server, .get, "/__mock/?token=wrong-guess-0123456789").status.code, 403) }
        let throttled = respond(server, .get, "/__mock/?token=" + token)
        XCTAssertEqual(throttled.status.code, 429)
        XCTAssertNotNil(throttled.headers["Retry-After"])
    }

    func testAnAbsoluteFormTargetIsJudgedByItsAuthority() throws {
        let server = try TestServer()
        let client = try server.connect()
        try client.send("GET http://evil.example:\(server.port)/__mock/sms HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n")
        let refused = try client.readResponse()
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertTrue(refused.text.contains("evil.example"), refused.text)
        let own = try server.connect()
        try own.send("GET http://127.0.0.1:\(server.port)/__mock/sms HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        XCTAssertEqual(try own.readResponse().status, 200, "the authority, not Host, names the addressed host")
    }

    func testEveryOriginHeaderIsChecked() throws {
        let server = try TestServer()
        let own = "http://127.0.0.1:\(server.port)"
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Origin", own)]).status, 200)
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Origin", own), ("Origin", own)]).status, 200)
        let second = try server.request("GET", "/__mock/sms", headers: [("Origin", own), ("Origin", "http://evil.example")])
        XCTAssertEqual(second.status, 403, second.text)
        XCTAssertTrue(second.text.contains("evil.example"), second.text)
    }

    func testTheHostsPortMustBeTheListeningPort() throws {
        let server = try TestServer()
        let other = server.port == 1 ? 2 : 1
        let refused = try server.request("GET", "/__mock/sms", headers: [("Host", "127.0.0.1:\(other)")])
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertTrue(refused.text.contains("port \(server.port)"), refused.text)
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Host", "localhost:\(server.port)")]).status, 200)
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Host", "[::1]:\(server.port)")]).status, 200)
        // No port means 80, which this server is not on.
        XCTAssertEqual(try server.request("GET", "/__mock/sms", headers: [("Host", "localhost")]).status, 403)
    }

    func testTheCommandLineWantsALongTokenOrGeneratesOne() throws {
        let short = try TestExecutable(["--port", "0", "--admin-token", "1"])
        let (status, stderr) = try short.finish()
        XCTAssertEqual(status, 64)
        XCTAssertTrue(stderr.contains("at least 16 characters"), stderr)

        let generated = try TestExecutable(["--port", "0", "--admin-token", "--log-level", "warning"])
        defer { generated.stopNow() }
        let banner = try generated.banner()
        let line = try XCTUnwrap(banner.split(separator: "\n").first { $0.contains("Admin token (generated") }, banner)
        let value = try XCTUnwrap(line.split(separator: " ").first { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, String(line))
        let port = try TestExecutable.port(inBanner: banner)
        let client = try TestHTTPClient(port: port)
        try client.sendRequest("GET", "/__mock/?token=" + value)
        XCTAssertEqual(try client.readResponse().status, 303, "the printed token signs the console in")
    }
}
