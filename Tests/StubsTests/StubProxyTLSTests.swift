import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// https upstreams (OpenSSL 3 loaded at run time): an HTTPS server the test starts on 127.0.0.1
/// with a certificate from a test CA, reached through proxy stubs and the real outbound client.
final class StubProxyTLSTests: XCTestCase {
    private var upstream: HTTPSUpstream?
    private var servers: [TestServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        upstream?.stop()
        upstream = nil
        super.tearDown()
    }

    private func start() throws -> HTTPSUpstream {
        let made = try HTTPSUpstream()
        upstream = made
        return made
    }

    private func server(logger: Logger = .silent, _ configure: @escaping (inout OutboundSettings) -> Void) throws -> TestServer {
        let made = try TestServer(logger: logger, configure: { configure(&$0.outbound) })
        servers.append(made)
        return made
    }

    private func proxy(_ server: TestServer, to base: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"urlPathPattern": "/up/.*"}, "response": {"proxyBaseUrl": "\#(base)", "proxyUrlPrefixToRemove": "/up"}}"#)
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
    }

    func testAVerifiedUpstreamAnswersWithSNIAndChunkedAndLargeBodies() throws {
        let up = try start()
        let ca = try ProxyCAFile(path: up.caFile)
        let server = try server { $0.caFile = ca }
        try proxy(server, to: "https://localhost:\(up.port)")
        let hello = try server.request("GET", "/up/hello")
        XCTAssertEqual(hello.status, 200, hello.text)
        XCTAssertEqual(hello.text, "hello over tls, SNI localhost", "the host name goes out as SNI")
        let chunked = try server.request("GET", "/up/chunked")
        XCTAssertEqual(chunked.status, 200, chunked.text)
        XCTAssertEqual(chunked.body, HTTPSUpstream.large)
        let large = try server.request("GET", "/up/large")
        XCTAssertEqual(large.status, 200)
        XCTAssertEqual(large.body, HTTPSUpstream.large)
        let sent = Array(HTTPSUpstream.large.prefix(900_000))
        let echo = try server.request("POST", "/up/echo", body: sent)
        XCTAssertEqual(echo.status, 200)
        XCTAssertEqual(echo.body, sent, "a large request body is written whole over TLS")
    }

    /// The recorder proxies through the same client: an https target is recorded and replayed.
    func testAnHTTPSUpstreamIsRecordedAndReplayed() throws {
        let up = try start()
        let ca = try ProxyCAFile(path: up.caFile)
        let server = try server { $0.caFile = ca }
        let started = try server.request("POST", "/__admin/recordings/start", jsonText: #"{"targetBaseUrl": "https://localhost:\#(up.port)"}"#)
        XCTAssertEqual(started.status, 200, started.text)
        let live = try server.request("GET", "/hello")
        XCTAssertEqual(live.text, "hello over tls, SNI localhost")
        let stopped = try server.request("POST", "/__admin/recordings/stop")
        XCTAssertEqual(stopped.status, 200, stopped.text)
        let recorded = try XCTUnwrap(stopped.jsonObject?["mappings"] as? [[String: Any]], stopped.text)
        XCTAssertEqual(recorded.count, 1, stopped.text)
        up.stop()
        let replayed = try server.request("GET", "/hello")
        XCTAssertEqual(replayed.status, 200, replayed.text)
        XCTAssertEqual(replayed.text, "hello over tls, SNI localhost", "answered by the recorded stub, the upstream gone")
    }

    func testAnIPAddressUpstreamIsCheckedAgainstTheCertificatesAddress() throws {
        let up = try start()
        let ca = try ProxyCAFile(path: up.caFile)
        let server = try server { $0.caFile = ca }
        try proxy(server, to: "https://127.0.0.1:\(up.port)")
        let hello = try server.request("GET", "/up/hello")
        XCTAssertEqual(hello.status, 200, hello.text)
        XCTAssertEqual(hello.text, "hello over tls, SNI None", "an address is sent without SNI")
    }

    func testAnUntrustedCertificateIsRefusedUnlessTrustIsTurnedOff() throws {
        let up = try start()
        let log = LogCapture()
        let strict = try server(logger: log.logger) { _ in }
        try proxy(strict, to: "https://localhost:\(up.port)")
        let refused = try strict.request("GET", "/up/hello")
        XCTAssertEqual(refused.status, 502)
        XCTAssertTrue(refused.header("X-Mock-Hint")?.contains("certificate verify failed") == true, "\(refused.headers)")

        let all = try server(logger: log.logger) { $0.trustAllTargets = true }
        try proxy(all, to: "https://localhost:\(up.port)")
        XCTAssertEqual(try all.request("GET", "/up/hello").status, 200)
        XCTAssertEqual(try all.request("GET", "/up/hello").status, 200)
        XCTAssertEqual(log.all.filter { $0.contains("its certificate is not verified (--trust-all-proxy-targets)") }.count, 1, "\(log.all)")

        let one = try server { $0.trustedTargets = ["localhost"] }
        try proxy(one, to: "https://localhost:\(up.port)")
        XCTAssertEqual(try one.request("GET", "/up/hello").status, 200)
        let other = try one.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/ip"}, "response": {"proxyBaseUrl": "https://127.0.0.1:\#(up.port)"}}"#)
        XCTAssertEqual(other.status, 201)
        XCTAssertEqual(try one.request("GET", "/ip").status, 502, "--trust-proxy-target localhost does not cover 127.0.0.1")
    }

    func testAMissingOpenSSLIsA502NamingThePackage() throws {
        let log = LogCapture()
        let server = try server(logger: log.logger) { $0.tlsLibrary = "libssl-not-here.so.3" }
        // No upstream needed: the library is loaded once the TCP connection stands, so a listener suffices.
        let listener = try LoopbackUpstream { _ in .silent }
        defer { listener.stop() }
        try proxy(server, to: "https://127.0.0.1:\(listener.port)")
        for _ in 0..<2 {
            let response = try server.request("GET", "/up/x")
            XCTAssertEqual(response.status, 502)
            let hint = response.header("X-Mock-Hint") ?? ""
            XCTAssertTrue(hint.contains("libssl-not-here.so.3") && hint.contains("libssl3"), hint)
        }
        XCTAssertEqual(log.all.filter { $0.contains("[error] https upstream") && $0.contains("apt-get install libssl3") }.count, 1, "one log line, not one a request: \(log.all)")
    }

    func testAWebhookGoesToAnHTTPSURL() throws {
        let up = try start()
        let ca = try ProxyCAFile(path: up.caFile)
        let server = try server { $0.caFile = ca }
        try proxy(server, to: "https://localhost:\(up.port)")
        let hook = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/fire"}, "response": {"status": 204}, "postServeActions": [{"name": "webhook", "parameters": {"method": "POST", "url": "https://localhost:\#(up.port)/hook", "body": "fired {{originalRequest.url}}"}}]}"#)
        XCTAssertEqual(hook.status, 201, hook.text)
        XCTAssertEqual(try server.request("GET", "/fire").status, 204)
        waitUntil("the webhook's arrival") { (try? server.request("GET", "/up/hooks").text) == "fired /fire" }
    }
}
