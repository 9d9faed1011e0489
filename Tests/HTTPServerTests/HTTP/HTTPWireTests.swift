import Foundation
import XCTest
import HTTPServer
import TestSupport

/// HTTP/1.1 as clients see it on the wire: persistence, pipelining, bodies, methods, headers.
final class HTTPWireTests: XCTestCase {
    var fixture: WireFixture!

    override func setUpWithError() throws { fixture = try WireFixture() }
    override func tearDown() { fixture = nil }

    func testEveryResponseHasDateServerAndContentLength() throws {
        for (method, path) in [("GET", "/hello"), ("GET", "/missing"), ("PUT", "/hello"), ("POST", "/echo")] {
            let r = try fixture.request(method, path)
            XCTAssertNotNil(r.header("Date"), "\(method) \(path)")
            XCTAssertEqual(r.header("Server"), "mock-server")
            XCTAssertEqual(r.header("Content-Length"), String(r.body.count), "\(method) \(path)")
        }
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let c = try fixture.client()
        for i in 0..<5 {
            try c.sendRequest("GET", "/items/\(i)")
            let r = try c.readResponse()
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.jsonObject?["id"] as? String, String(i))
            XCTAssertNil(r.header("Connection"))
        }
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let c = try fixture.client()
        var batch = ""
        for i in 0..<20 { batch += "GET /items/\(i) HTTP/1.1\r\nHost: x\r\n\r\n" }
        batch += "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde"
        try c.send(batch)
        for i in 0..<20 {
            XCTAssertEqual(try c.readResponse().jsonObject?["id"] as? String, String(i))
        }
        XCTAssertEqual(try c.readResponse().text, "abcde")
    }

    func testConnectionCloseIsHonoured() throws {
        let c = try fixture.client()
        try c.sendRequest("GET", "/hello", headers: [("Connection", "close")])
        let r = try c.readResponse()
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Connection"), "close")
        XCTAssertTrue(c.isClosedByPeer())
    }

    func testHTTP10ClosesUnlessKeepAliveIsAsked() throws {
        let (r1, c1) = try fixture.raw("GET /hello HTTP/1.0\r\n\r\n")
        XCTAssertEqual(r1.status, 200)
        XCTAssertEqual(r1.header("Connection"), "close")
        XCTAssertTrue(c1.isClosedByPeer())

        let (r2, c2) = try fixture.raw("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(r2.header("Connection"), "keep-alive")
        try c2.send("GET /hello HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try c2.readResponse().text, "hello\n")
    }

    func testContentLengthBodyArrivingInPieces() throws {
        let c = try fixture.client()
        let body = String(repeating: "Привет, мир! ", count: 500)
        let bytes = Array(body.utf8)
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(bytes.count)\r\n\r\n")
        var i = 0
        while i < bytes.count {
            try c.send(Array(bytes[i..<min(bytes.count, i + 997)]))
            i += 997
        }
        let r = try c.readResponse()
        XCTAssertEqual(r.text, body)
        XCTAssertEqual(r.header("X-Body-Length"), String(bytes.count))
    }

    func testHeadSplitAcrossManyWrites() throws {
        let c = try fixture.client()
        for byte in Array("GET /items/split HTTP/1.1\r\nHost: x\r\n\r\n".utf8) { try c.send([byte]) }
        XCTAssertEqual(try c.readResponse().jsonObject?["id"] as? String, "split")
    }

    func testChunkedBodyWithExtensionsAndTrailers() throws {
        let (r, _) = try fixture.raw("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nHello\r\n7\r\n, world\r\n0\r\nX-Trailer: yes\r\n\r\n")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "Hello, world")
    }

    func testChunkedBodySentByteByByte() throws {
        let c = try fixture.client()
        let text = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\n\r\n"
        for byte in Array(text.utf8) { try c.send([byte]) }
        XCTAssertEqual(try c.readResponse().text, "Wikipedia in\r\n\r\nchunks.")
    }

    func testExpectContinueGetsInterimResponse() throws {
        let c = try fixture.client()
        try c.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try c.readResponse()
        XCTAssertEqual(interim.status, 100)
        try c.send("ping")
        let final = try c.readResponse()
        XCTAssertEqual(final.status, 200)
        XCTAssertEqual(final.text, "ping")
    }

    func testHeadHasGetHeadersAndNoBody() throws {
        let c = try fixture.client()
        try c.sendRequest("HEAD", "/hello")
        let head = try c.readResponse(head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "6")
        // Had a body been sent, it would be read as the next response's status line.
        try c.sendRequest("GET", "/hello")
        XCTAssertEqual(try c.readResponse().text, "hello\n")
    }

    func testUnknownPathIs404AndWrongMethodIs405WithAllow() throws {
        XCTAssertEqual(try fixture.request("GET", "/nope").status, 404)
        let r = try fixture.request("PUT", "/items/1")
        XCTAssertEqual(r.status, 405)
        let allow = Set((r.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        XCTAssertEqual(allow, ["GET", "HEAD", "DELETE", "OPTIONS"])
    }

    func testOptionsAndCORSPreflight() throws {
        let plain = try fixture.request("OPTIONS", "/echo")
        XCTAssertEqual(plain.status, 204)
        XCTAssertEqual(plain.header("Allow"), "POST, OPTIONS")

        let preflight = try fixture.request("OPTIONS", "/echo", headers: [
            ("Origin", "http://localhost:3000"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type, authorization"),
        ])
        XCTAssertEqual(preflight.status, 204)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "http://localhost:3000")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "POST")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Headers"), "content-type, authorization")

        let simple = try fixture.request("GET", "/hello", headers: [("Origin", "http://localhost:3000")])
        XCTAssertEqual(simple.header("Access-Control-Allow-Origin"), "http://localhost:3000")
        XCTAssertEqual(try fixture.request("OPTIONS", "/nope").status, 404)
    }

    func testFormQueryAndMultipartParameters() throws {
        let form = try fixture.request("POST", "/params?fromQuery=1", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                       body: Array("name=%D0%98%D0%B2%D0%B0%D0%BD+%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2&phone=%2B7+912".utf8))
        XCTAssertEqual(form.jsonObject?["name"] as? String, "Иван Петров")
        XCTAssertEqual(form.jsonObject?["phone"] as? String, "+7 912")
        XCTAssertEqual(form.jsonObject?["fromQuery"] as? String, "1")

        let boundary = "XyZ123"
        let multipart = "--\(boundary)\r\nContent-Disposition: form-data; name=\"login\"\r\n\r\nТест\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"code\"\r\n\r\n1234\r\n--\(boundary)--\r\n"
        let mp = try fixture.request("POST", "/params", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: Array(multipart.utf8))
        XCTAssertEqual(mp.jsonObject?["login"] as? String, "Тест")
        XCTAssertEqual(mp.jsonObject?["code"] as? String, "1234")
    }

    func testPercentEncodedPathParameter() throws {
        let r = try fixture.request("GET", "/items/%D0%B0%20b")
        XCTAssertEqual(r.jsonObject?["id"] as? String, "а b")
    }

    func testURLSessionTalksToTheServer() throws {
        #if canImport(FoundationNetworking)
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(fixture.port)/echo"))
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data("from URLSession".utf8)
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let done = expectation(description: "response")
        let result = Locked<(Int, String)?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            let status = (response as? HTTPURLResponse)?.statusCode ?? -1
            result.withLock { $0 = (status, String(decoding: data ?? Data(), as: UTF8.self)) }
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 10)
        let (status, body) = try XCTUnwrap(result.withLock { $0 })
        XCTAssertEqual(status, 200)
        XCTAssertEqual(body, "from URLSession")
        #endif
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
