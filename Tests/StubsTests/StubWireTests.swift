import Foundation
import HTTPServer
import MockTestSupport
import Routes
import TestSupport
import XCTest

/// Stub answers read whole from a raw socket and parsed strictly: no request text becomes a
/// header line, and a mapping's framing fields never sit beside the server's own (RFC 9112 §6).
final class StubWireTests: MockServerTestCase {
    /// One answer, as a strict client reads it: every line of the head, the body its single
    /// Content-Length or its chunks give, and whatever came after it.
    private struct StrictAnswer {
        let statusLine: String
        let fields: [(name: String, value: String)]
        let body: [UInt8]
        let trailing: [UInt8]

        func values(_ name: String) -> [String] { fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }

        init(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
            let end = try XCTUnwrap(bytes.indices.first { i in i + 3 < bytes.count && Array(bytes[i...(i + 3)]) == Array("\r\n\r\n".utf8) },
                                    "no end of head", file: file, line: line)
            let head = Array(bytes[..<end])
            // Every line ends in CRLF: a bare CR or LF would be a line a lenient client splits.
            XCTAssertFalse(head.enumerated().contains { i, b in (b == 13 && head.indices.contains(i + 1) && head[i + 1] != 10) || (b == 10 && (i == 0 || head[i - 1] != 13)) },
                           "a bare CR or LF in the head", file: file, line: line)
            var lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            statusLine = lines.removeFirst()
            var fields: [(name: String, value: String)] = []
            for text in lines {
                let colon = try XCTUnwrap(text.firstIndex(of: ":"), "not a field: \(text)", file: file, line: line)
                let name = String(text[..<colon])
                XCTAssertTrue(!name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) }, "field name \(name)", file: file, line: line)
                fields.append((name, String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
            }
            self.fields = fields
            let lengths = fields.filter { $0.name.lowercased() == "content-length" }
            let codings = fields.filter { $0.name.lowercased() == "transfer-encoding" }
            var rest = bytes[(end + 4)...]
            // One framing (RFC 9112 §6): a single Content-Length, or chunked alone.
            guard codings.isEmpty else {
                XCTAssertEqual(codings.map(\.value), ["chunked"], "one Transfer-Encoding, chunked", file: file, line: line)
                XCTAssertEqual(lengths.count, 0, "no Content-Length beside chunked", file: file, line: line)
                var body: [UInt8] = []
                while true {
                    let lineEnd = try XCTUnwrap(rest.indices.first { i in i + 1 < rest.endIndex && rest[i] == 13 && rest[i + 1] == 10 },
                                                "a chunk size line", file: file, line: line)
                    let size = try XCTUnwrap(Int(String(decoding: rest[rest.startIndex..<lineEnd], as: UTF8.self), radix: 16), "a hex chunk size", file: file, line: line)
                    rest = rest[(lineEnd + 2)...]
                    XCTAssertGreaterThanOrEqual(rest.count, size + 2, "the chunk is complete", file: file, line: line)
                    guard rest.count >= size + 2 else { break }
                    XCTAssertEqual(Array(rest.dropFirst(size).prefix(2)), [13, 10], "CRLF after the chunk", file: file, line: line)
                    body.append(contentsOf: rest.prefix(size))
                    rest = rest.dropFirst(size + 2)
                    if size == 0 { break }
                }
                self.body = body
                trailing = Array(rest)
                return
            }
            XCTAssertEqual(lengths.count, 1, "one Content-Length", file: file, line: line)
            let length = try XCTUnwrap(lengths.first.flatMap { Int($0.value) }, file: file, line: line)
            XCTAssertGreaterThanOrEqual(rest.count, length, "the body is complete", file: file, line: line)
            body = Array(rest.prefix(length))
            trailing = Array(rest.dropFirst(length))
        }
    }

    private func stub(_ mapping: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let response = try server.request("POST", "/__admin/mappings", jsonText: mapping)
        XCTAssertEqual(response.status, 201, response.text, file: file, line: line)
    }

    /// Sends `target` with `Connection: close` and reads until the server closes.
    private func exchange(_ target: String) throws -> [UInt8] {
        let client = try server.connect()
        try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return try client.readToEnd()
    }

    func testARequestsLineBreakNeverBecomesAHeaderLine() throws {
        try stub(#"{"name": "redirect", "request": {"urlPath": "/redirect"}, "response": {"status": 302, "headers": {"Location": "/next?from={{request.query.from}}", "X-Kept": "yes"}, "transformers": ["response-template"]}}"#)
        let attack = "x%0d%0aSet-Cookie:%20session%3Dattacker%0d%0aContent-Length:%200%0d%0a%0d%0aHTTP/1.1%20200%20OK%0d%0aX-Injected:%201"
        let bytes = try exchange("/redirect?from=" + attack)
        let answer = try StrictAnswer(bytes)
        XCTAssertTrue(answer.statusLine.hasPrefix("HTTP/1.1 302 "), answer.statusLine)
        XCTAssertEqual(answer.trailing, [], "one answer, nothing after it")
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "HTTP/1.1").count - 1, 1, "one status line")
        for injected in ["Set-Cookie", "X-Injected", "attacker"] { XCTAssertFalse(text.contains(injected), injected) }
        XCTAssertEqual(answer.values("Location"), [], "the field is left out")
        XCTAssertEqual(answer.values("X-Kept"), ["yes"])
        let hint = try XCTUnwrap(answer.values("X-Mock-Hint").first)
        XCTAssertTrue(hint.contains("Location") && hint.contains("redirect"), hint)
        // A clean value still goes out.
        let clean = try StrictAnswer(try exchange("/redirect?from=home"))
        XCTAssertEqual(clean.values("Location"), ["/next?from=home"])
        XCTAssertEqual(clean.values("X-Mock-Hint"), [])
    }

    func testLineBreaksAndNULAreRefusedWhereAMappingIsRead() throws {
        let cases: [(String, String)] = [
            (#"{"name": "a\r\nX-Injected: 1", "request": {"url": "/n"}}"#, "/name"),
            (#"{"request": {"url": "/n"}, "response": {"statusMessage": "OK\r\nX-Injected: 1"}}"#, "/response/statusMessage"),
            (#"{"request": {"url": "/n"}, "response": {"headers": {"X-A": "a\u0000b"}}}"#, "/response/headers/X-A"),
            (#"{"request": {"url": "/n"}, "response": {"headers": {"X-A\r\nB": "v"}}}"#, "/response/headers/X-A\r\nB"),
        ]
        for (mapping, pointer) in cases {
            let response = try server.request("POST", "/__admin/mappings", jsonText: mapping)
            XCTAssertEqual(response.status, 422, mapping)
            let errors = try XCTUnwrap(response.jsonObject?["errors"] as? [[String: Any]])
            XCTAssertEqual((errors.first?["source"] as? [String: Any])?["pointer"] as? String, pointer, mapping)
        }
        XCTAssertEqual(try server.request("GET", "/__admin/mappings").jsonObject?["meta"] as? [String: Int], ["total": 0])
    }

    func testTheMappingsFramingNeverReachesTheWireAndItsDateAndServerReplaceTheServers() throws {
        try stub(#"{"request": {"urlPath": "/recorded"}, "response": {"status": 200, "body": "hello", "headers": {"Content-Length": "0", "Transfer-Encoding": "chunked", "Connection": "keep-alive", "Date": "Wed, 20 Sep 2017 05:37:18 GMT", "Server": "GitHub.com", "Content-Type": "text/plain"}}}"#)
        let client = try server.connect()
        // Two requests on one connection: the mapping's Connection does not close it.
        try client.send("GET /recorded HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /recorded HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let bytes = try client.readToEnd()
        let first = try StrictAnswer(bytes)
        XCTAssertEqual(first.body, Array("hello".utf8))
        XCTAssertEqual(first.values("Content-Length"), ["5"])
        XCTAssertEqual(first.values("Date"), ["Wed, 20 Sep 2017 05:37:18 GMT"])
        XCTAssertEqual(first.values("Server"), ["GitHub.com"])
        XCTAssertEqual(first.values("Connection"), [])
        XCTAssertEqual(first.values("Content-Type"), ["text/plain"])
        let second = try StrictAnswer(first.trailing)
        XCTAssertEqual(second.body, Array("hello".utf8))
        XCTAssertEqual(second.values("Connection"), ["close"])
        XCTAssertEqual(second.trailing, [])
    }

    func testAMappingsConnectionCloseClosesAfterTheAnswer() throws {
        try stub(#"{"request": {"urlPath": "/bye"}, "response": {"body": "bye", "headers": {"Connection": "close"}}}"#)
        let client = try server.connect()
        try client.sendRequest("GET", "/bye")
        let answer = try client.readResponse()
        XCTAssertEqual(answer.text, "bye")
        XCTAssertEqual(answer.headers.values("Connection"), ["close"], "the server's own field, once")
        XCTAssertTrue(client.isClosedByPeer())
    }
}
