import Foundation
import XCTest
@testable import HTTPServer
import TestSupport

/// Start, busy ports and a graceful stop that lets the request in flight finish.
final class ServerLifecycleTests: XCTestCase {
    func testBusyPortFailsWithAClearError() throws {
        let first = try WireFixture()
        var config = ServerConfiguration()
        config.port = first.port
        config.eventLoops = 2
        let second = Server(configuration: config, responder: Responder(router: Router()), logger: .silent)
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertTrue("\(error)".contains("already in use"), "\(error)")
        }
        XCTAssertEqual(try first.request("GET", "/hello").status, 200)
    }

    func testShutdownFinishesTheRequestInFlightAndStopsAccepting() throws {
        let f = try WireFixture { $0.shutdownGrace = 10 }
        let port = f.port
        let c = try f.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf-")
        // Make sure the server has seen the head before it is told to stop.
        let probe = try f.client()
        try probe.sendRequest("GET", "/hello")
        XCTAssertEqual(try probe.readResponse().status, 200)

        f.server.shutdown()
        XCTAssertTrue(probe.isClosedByPeer(), "idle connections are closed at once")
        try c.send("done!")
        let r = try c.readResponse()
        XCTAssertEqual(r.text, "half-done!")
        XCTAssertEqual(r.header("Connection"), "close")
        f.server.waitUntilStopped()
        XCTAssertThrowsError(try TestHTTPClient(port: port), "no longer accepting")
    }

    /// `localhost` is both loopbacks: macOS resolves it to ::1 first, many Linux images to
    /// 127.0.0.1 only, and clients try either; one port, with one loop or several (SO_REUSEPORT).
    func testLocalhostAnswersOnBothLoopbacksAndStopsOnBoth() throws {
        for loops in [1, 2] {
            let f = try WireFixture { $0.host = "localhost"; $0.eventLoops = loops }
            for address in ["127.0.0.1", "::1"] {
                let c = try TestHTTPClient(host: address, port: f.port)
                try c.sendRequest("GET", "/hello")
                XCTAssertEqual(try c.readResponse().text, "hello\n", "\(address), \(loops) loop(s)")
            }
            f.server.shutdown()
            f.server.waitUntilStopped()
            for address in ["127.0.0.1", "::1"] {
                XCTAssertThrowsError(try TestHTTPClient(host: address, port: f.port), "\(address) no longer accepting")
            }
        }
    }

    func testANumericHostListensOnThatAddressOnly() throws {
        let f = try WireFixture { $0.host = "::1" }
        let c = try TestHTTPClient(host: "::1", port: f.port)
        try c.sendRequest("GET", "/hello")
        XCTAssertEqual(try c.readResponse().status, 200)
        XCTAssertThrowsError(try TestHTTPClient(host: "127.0.0.1", port: f.port), "IPv4 is not served")
    }
}

/// The parser alone, on byte sequences the wire tests do not reach.
final class HTTPRequestParserTests: XCTestCase {
    private func parse(_ text: String, maxBody: Int = 1 << 20) -> [Result<HTTPRequest, HTTPRequestParser.Failure>] {
        var parser = HTTPRequestParser(limits: .init(maxHeaderBytes: 16384, maxRequestLineBytes: 8192, maxBodyBytes: maxBody))
        var results: [Result<HTTPRequest, HTTPRequestParser.Failure>] = []
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buf in
            var offset = 0
            loop: while true {
                switch parser.next(buf, offset: &offset) {
                case .needMore: break loop
                case .request(let r): results.append(.success(r))
                case .failure(let f): results.append(.failure(f)); break loop
                }
            }
        }
        return results
    }

    func testBareLineFeedsAndLeadingEmptyLinesAreTolerated() throws {
        let results = parse("\r\n\r\nGET /a?x=1 HTTP/1.1\nHost: h\nX-A:  spaced  \n\n")
        let r = try XCTUnwrap(try results.first?.get())
        XCTAssertEqual(r.path, "/a")
        XCTAssertEqual(r.query, "x=1")
        XCTAssertEqual(r.headers["x-a"], "spaced")
    }

    func testAbsoluteFormTargetIsServedByItsPath() throws {
        let r = try XCTUnwrap(try parse("GET http://example.com:8080/rows/2?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n").first?.get())
        XCTAssertEqual(r.path, "/rows/2")
        XCTAssertEqual(r.query, "q=1")
    }

    func testTwoRequestsInOneBuffer() throws {
        let results = parse("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhiGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(try results[0].get().bodyText, "hi")
        XCTAssertEqual(try results[1].get().path, "/b")
    }

    func testHTTP2PrefaceIsRefused() {
        guard case .failure(let f)? = parse("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").first else { return XCTFail("expected a failure") }
        XCTAssertEqual(f.status.code, 505)
    }

    func testChunkSizeOverflowIsRejected() {
        guard case .failure(let f)? = parse("POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n").first else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(f.status.code, 400)
    }

    func testChunkBiggerThanTheBodyLimitIsRejectedUpFront() {
        guard case .failure(let f)? = parse("POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n", maxBody: 100).first else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(f.status.code, 413)
    }
}

/// Routing and the decoding helpers handlers rely on.
final class RouterAndDecodingTests: XCTestCase {
    func testPatternsTrailingSlashAndParameters() {
        var router = Router()
        router.get("/api/categories/:id") { r in .text(.ok, r.pathParameters["id"] ?? "") }
        var request = HTTPRequest(method: .get, target: "/api/categories/7/")
        guard case .http(let handler) = router.match(&request) else { return XCTFail("no match") }
        XCTAssertEqual(handler(request).body, Array("7".utf8))
        var other = HTTPRequest(method: .get, target: "/api/categories/7/extra")
        guard case .notFound = router.match(&other) else { return XCTFail("should not match") }
    }

    func testStaticRoutesIgnoreEmptySegmentsAndStaticWinsOverParameters() {
        var router = Router()
        router.post("/auth/login") { _ in .text(.ok, "static") }
        router.post("/auth/:action") { _ in .text(.ok, "param") }
        router.get("/auth/:action") { r in .text(.ok, r.pathParameters["action"] ?? "") }
        for path in ["/auth/login", "/auth/login/", "//auth//login"] {
            var request = HTTPRequest(method: .post, target: path)
            guard case .http(let handler) = router.match(&request) else { return XCTFail(path) }
            XCTAssertEqual(handler(request).body, Array("static".utf8), path)
        }
        var head = HTTPRequest(method: .head, target: "/auth/x")
        guard case .http(let handler) = router.match(&head) else { return XCTFail("HEAD falls back to GET") }
        XCTAssertEqual(handler(head).body, Array("x".utf8))
        var put = HTTPRequest(method: .put, target: "/auth/login")
        guard case .methodNotAllowed(let allowed) = router.match(&put) else { return XCTFail("405 expected") }
        XCTAssertEqual(Set(allowed), [.post, .get, .head, .options])
    }

    func testPercentDecoding() {
        XCTAssertEqual(FormDecoding.percentDecode("a+b%20c%D0%96", plusIsSpace: true), "a b cЖ")
        XCTAssertEqual(FormDecoding.percentDecode("a+b", plusIsSpace: false), "a+b")
        XCTAssertEqual(FormDecoding.percentDecode("100%", plusIsSpace: true), "100%")
        XCTAssertEqual(FormDecoding.percentDecode("%zz%4", plusIsSpace: true), "%zz%4")
        XCTAssertEqual(FormDecoding.percentDecode("%FF", plusIsSpace: true), "\u{FFFD}")
    }

    func testFormParsingKeepsOrderAndIgnoresCase() {
        let p = FormDecoding.parseForm("Login=a&PASSWORD=b&flag&=x&login=c")
        XCTAssertEqual(p["login"], "a")
        XCTAssertEqual(p["password"], "b")
        XCTAssertEqual(p["flag"], "")
        XCTAssertEqual(p.items.count, 5)
    }

    func testMultipartBoundaryAndMalformedBodies() {
        XCTAssertEqual(Multipart.boundary(fromContentType: "multipart/form-data; boundary=\"abc def\""), "abc def")
        XCTAssertNil(Multipart.boundary(fromContentType: "application/json"))
        XCTAssertNil(Multipart.parse(body: Array("no boundary here".utf8), boundary: "b"))
        XCTAssertNil(Multipart.parse(body: Array("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nunterminated".utf8), boundary: "b"))
    }
}

/// RFC 9112 §3.2: exactly one Host.
final class HostHeaderTests: XCTestCase {
    func testTwoHostHeadersAreRefused() throws {
        let f = try WireFixture()
        let (r, _) = try f.raw("GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        XCTAssertEqual(r.status, 400)
    }
}
