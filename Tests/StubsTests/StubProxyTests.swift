import Foundation
import HTTPServer
import MockTestSupport
import Routes
@testable import Stubs
import TestSupport
import XCTest

/// Proxying (`proxyBaseUrl`, `--proxy-all`) against upstreams the test starts on 127.0.0.1,
/// through the real server and its outbound client.
final class StubProxyTests: MockServerTestCase {
    private var upstreams: [LoopbackUpstream] = []

    override func tearDown() {
        for upstream in upstreams { upstream.stop() }
        upstreams = []
        super.tearDown()
    }

    private func upstream(_ answer: @escaping @Sendable (LoopbackUpstream.Seen) -> LoopbackUpstream.Action) throws -> LoopbackUpstream {
        let made = try LoopbackUpstream(answer: answer)
        upstreams.append(made)
        return made
    }

    private func stub(_ mapping: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try stub(server, mapping, file: file, line: line)
    }

    private func stub(_ on: TestServer, _ mapping: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try on.request("POST", "/__admin/mappings", jsonText: mapping)
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
    }

    private func journal(_ on: TestServer? = nil) throws -> [[String: Any]] {
        try XCTUnwrap(try (on ?? server).request("GET", "/__mock/requests").jsonArray as? [[String: Any]])
    }

    func testAProxyStubPassesTheUpstreamsAnswerByteForByte() throws {
        let body = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let up = try upstream { _ in
            .send(LoopbackUpstream.response("201 Made Here", [("X-Up", "one"), ("X-Up", "two"), ("Connection", "X-Hop"), ("X-Hop", "gone"),
                                                              ("Keep-Alive", "timeout=5"), ("Content-Type", "application/octet-stream")], body: body))
        }
        try stub(#"{"name": "pass", "request": {"urlPathPattern": "/api-up/.*"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)/base", "proxyUrlPrefixToRemove": "/api-up", "additionalProxyRequestHeaders": {"X-Extra": "yes"}, "headers": {"X-Stub": "s"}}}"#)
        let sent: [UInt8] = Array("payload \u{1}\u{2}".utf8)
        let response = try server.request("POST", "/api-up/things?q=1", headers: [("X-Client", "c"), ("Connection", "keep-alive, X-Private"), ("X-Private", "p")], body: sent)
        XCTAssertEqual(response.status, 201, response.text)
        XCTAssertEqual(response.body, body)
        XCTAssertEqual(response.headers.values("X-Up"), ["one", "two"])
        XCTAssertEqual(response.header("Content-Type"), "application/octet-stream")
        XCTAssertNil(response.header("X-Hop"), "a field the upstream's Connection names is hop-by-hop")
        XCTAssertNil(response.header("Keep-Alive"))
        XCTAssertEqual(response.header("X-Stub"), "s", "the mapping's own headers go on the upstream's answer")
        XCTAssertNotNil(response.header("Matched-Stub-Id"))
        let seen = try XCTUnwrap(up.requests.first)
        XCTAssertEqual(seen.requestLine, "POST /base/things?q=1 HTTP/1.1")
        XCTAssertEqual(seen.header("Host"), "127.0.0.1:\(up.port)", "Host is the upstream's unless --preserve-host-header")
        XCTAssertEqual(seen.header("X-Extra"), "yes")
        XCTAssertEqual(seen.header("X-Client"), "c")
        XCTAssertNil(seen.header("X-Private"), "a field the client's Connection names stays on this hop")
        XCTAssertNil(seen.header("Connection"))
        XCTAssertEqual(seen.body, sent)
        let entry = try XCTUnwrap(try journal().first)
        XCTAssertEqual(entry["status"] as? Int, 201)
        XCTAssertEqual((entry["stub"] as? [String: Any])?["name"] as? String, "pass")
    }

    func testChunkedCloseDelimitedAndLargeBodiesArriveWhole() throws {
        let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let up = try upstream { seen in
            if seen.requestLine.hasPrefix("GET /chunked ") {
                var bytes = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-T\r\n\r\n".utf8)
                var offset = 0, size = 1
                while offset < large.count {
                    let n = min(size, large.count - offset)
                    bytes += Array((String(n, radix: 16) + ";ext=1\r\n").utf8) + large[offset..<offset + n] + [13, 10]
                    offset += n
                    size = size * 3 + 1
                }
                return .send(bytes + Array("0\r\nX-T: 1\r\n\r\n".utf8))
            }
            if seen.requestLine.hasPrefix("GET /until-close ") {
                return .sendAndClose(Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nto the end".utf8))
            }
            return .send(LoopbackUpstream.response("200 OK", body: large))
        }
        try stub(#"{"request": {"urlPattern": "/(chunked|until-close|large)"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        let chunked = try server.request("GET", "/chunked")
        XCTAssertEqual(chunked.status, 200)
        XCTAssertEqual(chunked.body.count, large.count)
        XCTAssertTrue(chunked.body == large, "the de-chunked body is the upstream's, byte for byte")
        XCTAssertNil(chunked.header("Trailer"))
        let whole = try server.request("GET", "/large")
        XCTAssertTrue(whole.body == large)
        let closing = try server.request("GET", "/until-close")
        XCTAssertEqual(closing.text, "to the end")
    }

    func testARedirectIsPassedBackNotFollowed() throws {
        let up = try upstream { _ in .send(LoopbackUpstream.response("302 Found", [("Location", "/elsewhere")])) }
        try stub(#"{"request": {"url": "/go"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        let response = try server.request("GET", "/go")
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.header("Location"), "/elsewhere")
        XCTAssertEqual(up.requests.count, 1)
    }

    /// A HEAD through a proxy says the upstream's length, not the empty body's (RFC 9110 §9.3.2).
    func testAProxiedHeadKeepsTheUpstreamsContentLength() throws {
        let up = try upstream { seen in
            seen.requestLine.hasPrefix("HEAD ")
                ? .send(Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1234\r\n\r\n".utf8))
                : .send(LoopbackUpstream.response("200 OK", body: Array("ok".utf8)))
        }
        try stub(#"{"request": {"urlPath": "/sized"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        let head = try server.request("HEAD", "/sized")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "1234")
        XCTAssertEqual(head.body, [])
        let get = try server.request("GET", "/sized")
        XCTAssertEqual(get.header("Content-Length"), "2", "a GET keeps its own body's length")
    }

    func testConnectionsToAnUpstreamAreKeptForTheNextRequest() throws {
        let up = try upstream { _ in .send(LoopbackUpstream.response("200 OK", body: Array("ok".utf8))) }
        try stub(#"{"request": {"url": "/again"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        // One event loop: the pool is per loop.
        let one = try TestServer(configure: { $0.eventLoops = 1 })
        try stub(one, #"{"request": {"url": "/again"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        for _ in 0..<3 { XCTAssertEqual(try one.request("GET", "/again").text, "ok") }
        XCTAssertEqual(up.requests.count, 3)
        XCTAssertEqual(up.connections, 1)
    }

    func testAResetRefusedOrMalformedUpstreamIs502NamingIt() throws {
        let resetting = try upstream { _ in .reset }
        let garbage = try upstream { _ in .sendAndClose(Array("SMTP ready\r\n\r\n".utf8)) }
        let closed = try LoopbackUpstream.closedPort()
        try stub(#"{"request": {"url": "/reset"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(resetting.port)"}}"#)
        try stub(#"{"request": {"url": "/refused"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(closed)"}}"#)
        try stub(#"{"request": {"url": "/garbage"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(garbage.port)"}}"#)
        for (path, port) in [("/reset", resetting.port), ("/refused", closed), ("/garbage", garbage.port)] {
            let response = try server.request("GET", path)
            XCTAssertEqual(response.status, 502, path)
            XCTAssertTrue(response.header("X-Mock-Hint")?.contains("127.0.0.1:\(port)") ?? false, "\(path): \(response.header("X-Mock-Hint") ?? "no hint")")
        }
        let statuses = try journal().compactMap { $0["status"] as? Int }
        XCTAssertEqual(statuses, [502, 502, 502], "each failure is journaled")
    }

    func testAnUpstreamThatNeverAnswersIs504() throws {
        let silent = try upstream { _ in .silent }
        let short = try TestServer(configure: { $0.outbound.readTimeout = 0.2 })
        try stub(short, #"{"request": {"url": "/slow"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(silent.port)"}}"#)
        let response = try short.request("GET", "/slow")
        XCTAssertEqual(response.status, 504)
        XCTAssertTrue(response.header("X-Mock-Hint")?.contains("127.0.0.1:\(silent.port)") ?? false)
        XCTAssertEqual(silent.requests.count, 1)
    }

    func testOutboundControlRefusesHostsNotListed() throws {
        let up = try upstream { _ in .send(LoopbackUpstream.response("200 OK")) }
        let limited = try TestServer(configure: { $0.outbound.policy = .hosts(["upstream.test"]) })
        try stub(limited, #"{"request": {"url": "/out"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        let response = try limited.request("GET", "/out")
        XCTAssertEqual(response.status, 502)
        XCTAssertTrue(response.header("X-Mock-Hint")?.contains("--outbound") ?? false, response.header("X-Mock-Hint") ?? "")
        XCTAssertEqual(up.connections, 0, "nothing was sent")
        let loopback = try TestServer(configure: { $0.outbound.policy = .loopback })
        try stub(loopback, #"{"request": {"url": "/out"}, "response": {"proxyBaseUrl": "http://127.0.0.1:\#(up.port)"}}"#)
        XCTAssertEqual(try loopback.request("GET", "/out").status, 200)
    }

    func testProxyAllAnswersWhatNoStubOrRouteDoesButNeverTheAdminPaths() throws {
        let up = try upstream { seen in .send(LoopbackUpstream.response("200 OK", body: Array("upstream \(seen.requestLine)".utf8))) }
        let upstream = try Upstream(baseURL: "http://127.0.0.1:\(up.port)")
        let proxied = try TestServer(proxyAll: ProxyAll(upstream: upstream, preserveHost: true))
        try stub(proxied, #"{"request": {"url": "/stubbed"}, "response": {"body": "stub"}}"#)
        XCTAssertEqual(try proxied.request("GET", "/stubbed").text, "stub")
        XCTAssertEqual(try proxied.request("GET", "/nowhere?x=1", headers: [("Host", "app.test")]).text, "upstream GET /nowhere?x=1 HTTP/1.1")
        XCTAssertEqual(up.requests.last?.header("Host"), "app.test", "--preserve-host-header keeps the client's Host")
        // An unknown path under a system's prefix goes upstream; the system's own route answers itself.
        XCTAssertEqual(try proxied.request("DELETE", "/api/no-such-endpoint").text, "upstream DELETE /api/no-such-endpoint HTTP/1.1")
        XCTAssertNotEqual(try proxied.request("GET", "/api/Categories/1/").text.hasPrefix("upstream"), true)
        let before = up.requests.count
        XCTAssertEqual(try proxied.request("GET", "/__mock/no-such-thing").status, 404)
        XCTAssertEqual(try proxied.request("GET", "/__admin/no-such-thing").status, 404)
        XCTAssertEqual(up.requests.count, before, "the admin paths are never proxied")
    }

    func testOtherSchemesAndHalfGivenProxyFieldsAreRefusedAtLoad() throws {
        let ftp = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "ftp://upstream.test"}}"#)
        XCTAssertEqual(ftp.status, 422)
        XCTAssertTrue(ftp.text.contains("is not an http:// or https:// URL"), ftp.text)
        XCTAssertTrue(ftp.text.contains("/response/proxyBaseUrl"), ftp.text)
        let https = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "https://upstream.test"}}"#)
        XCTAssertEqual(https.status, 201, https.text)
        let orphan = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyUrlPrefixToRemove": "/a"}}"#)
        XCTAssertEqual(orphan.status, 422)
        let withBody = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1", "body": "x"}}"#)
        XCTAssertEqual(withBody.status, 422)
        XCTAssertTrue(withBody.text.contains("/response/body"), withBody.text)
    }

    /// WireMock renders these under response-template; this server does not, and says so.
    func testTemplatedProxyFieldsAreRefusedAtLoad() throws {
        let base = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "{{request.headers.X-Uri}}", "transformers": ["response-template"]}}"#)
        XCTAssertEqual(base.status, 422)
        XCTAssertTrue(base.text.contains("templated proxyBaseUrl"), base.text)
        let header = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1", "additionalProxyRequestHeaders": {"X-Origin-Url": "{{request.url}}"}, "transformers": ["response-template"]}}"#)
        XCTAssertEqual(header.status, 422)
        XCTAssertTrue(header.text.contains("/response/additionalProxyRequestHeaders/X-Origin-Url"), header.text)
        // Without the transformer WireMock sends the braces as written, and so does this server.
        let plain = try server.request("POST", "/__admin/mappings", jsonText: #"{"request": {"url": "/s"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1", "additionalProxyRequestHeaders": {"X-Origin-Url": "{{request.url}}"}}}"#)
        XCTAssertEqual(plain.status, 201, plain.text)
    }
}
