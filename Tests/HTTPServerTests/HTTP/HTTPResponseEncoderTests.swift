import XCTest
@testable import HTTPServer

/// The encoder writes the head into a buffer sized beforehand: every piece must be counted.
final class HTTPResponseEncoderTests: XCTestCase {
    private let date = Array("Sun, 22 Nov 2026 03:00:00 GMT".utf8)

    private func encode(_ response: HTTPResponse, omitBody: Bool = false, keepAlive: Bool = true,
                        version: HTTPVersion = .http1_1, after prefix: [UInt8] = []) -> String {
        var out = prefix
        HTTPResponseEncoder.encode(response, omitBody: omitBody, keepAlive: keepAlive, requestVersion: version,
                                   date: date, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func testHeadersBodyAndCustomReason() {
        var response = HTTPResponse(status: HTTPStatus(code: 299, reasonPhrase: "Fine Ünïcode"),
                                    headers: ["Content-Type": "text/plain; charset=utf-8", "X-Long": String(repeating: "é", count: 300)],
                                    body: Array("héllo".utf8))
        response.headers.add("X-Empty", "")
        XCTAssertEqual(encode(response, after: Array("prev".utf8)),
                       "prevHTTP/1.1 299 Fine Ünïcode\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nServer: mock-server\r\n"
                       + "Content-Length: 6\r\nContent-Type: text/plain; charset=utf-8\r\nX-Long: \(String(repeating: "é", count: 300))\r\n"
                       + "X-Empty: \r\n\r\nhéllo")
    }

    func testHeadOmitsTheBodyButKeepsItsLength() {
        let response = HTTPResponse(status: .ok, body: Array(repeating: 65, count: 12_345))
        XCTAssertEqual(encode(response, omitBody: true, keepAlive: false),
                       "HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nServer: mock-server\r\nContent-Length: 12345\r\n"
                       + "Connection: close\r\n\r\n")
    }

    func testNoContentAndHTTP10KeepAlive() {
        XCTAssertEqual(encode(HTTPResponse(status: .noContent, body: [1, 2]), version: .http1_0),
                       "HTTP/1.1 204 No Content\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nServer: mock-server\r\n"
                       + "Connection: keep-alive\r\n\r\n")
    }

    /// Defence in depth: whatever added to an answer, the server's own or one with fields from
    /// outside (a stub's), a CR, LF or NUL in a name, a value or the reason phrase never reaches
    /// the wire; a clean 500 goes instead.
    func testAHeadWithALineBreakIsRefusedForACleanError() {
        let bad: [HTTPResponse] = [
            HTTPResponse(status: .ok, headers: ["Location": "/x\r\nSet-Cookie: a=1"]),
            HTTPResponse(status: .ok, headers: ["X-A": "no\nline"]),
            HTTPResponse(status: .ok, headers: ["X-A": "a long value of more than eight bytes\0 with a NUL"]),
            HTTPResponse(status: .ok, headers: ["X-A\r\nB": "v"]),
            HTTPResponse(status: HTTPStatus(code: 200, reasonPhrase: "OK\r\nX: 1")),
        ]
        for response in bad + bad.map({ var outside = $0; outside.outsideFields = true; return outside }) {
            var out: [UInt8] = []
            XCTAssertFalse(HTTPResponseEncoder.encode(response, omitBody: false, keepAlive: true, requestVersion: .http1_1, date: date, into: &out))
            let text = String(decoding: out, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("HTTP/1.1 500 "), text)
            XCTAssertFalse(text.contains("Set-Cookie") || text.contains("X: 1") || text.contains("line"), text)
        }
        var out: [UInt8] = []
        var tab = HTTPResponse(status: .ok, headers: ["X-Tab": "a\tb and more than eight bytes"])
        tab.outsideFields = true
        XCTAssertTrue(HTTPResponseEncoder.encode(tab, omitBody: false, keepAlive: true, requestVersion: .http1_1, date: date, into: &out),
                      "a tab is allowed")
    }

    /// The scan reads eight bytes at a time, its last word overlapping the one before: a break
    /// at any place of a line of any length is found, and a clean line of any length passes.
    func testALineBreakAnywhereInAnyLengthIsFound() {
        for length in 1...40 {
            let clean = String(repeating: "v", count: length)
            var out: [UInt8] = []
            XCTAssertTrue(HTTPResponseEncoder.encode(HTTPResponse(status: .ok, headers: ["X": clean]), omitBody: false, keepAlive: true,
                                                     requestVersion: .http1_1, date: date, into: &out), "\(length)")
            for place in 0..<length {
                for breaker in ["\r", "\n", "\0"] {
                    var value = Array(clean)
                    value[place] = Character(breaker)
                    var out: [UInt8] = []
                    XCTAssertFalse(HTTPResponseEncoder.encode(HTTPResponse(status: .ok, headers: ["X": String(value)]), omitBody: false,
                                                              keepAlive: true, requestVersion: .http1_1, date: date, into: &out),
                                   "length \(length), place \(place)")
                }
            }
        }
    }

    /// A stub's own Date or Server replaces the server's (a recorded one), never doubles it.
    func testTheResponsesDateAndServerReplaceTheServers() {
        var response = HTTPResponse(status: .ok, headers: ["date": "Wed, 20 Sep 2017 05:37:18 GMT", "SERVER": "GitHub.com"])
        response.outsideFields = true
        XCTAssertEqual(encode(response), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\ndate: Wed, 20 Sep 2017 05:37:18 GMT\r\nSERVER: GitHub.com\r\n\r\n")
        var server = HTTPResponse(status: .ok, headers: ["Server": "x"])
        server.outsideFields = true
        XCTAssertEqual(encode(server), "HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nContent-Length: 0\r\nServer: x\r\n\r\n")
    }

    /// An outside answer's own Content-Length is never written as given: the head has one, the
    /// body's, except for HEAD, where the given one stands for the body not sent (a proxied HEAD).
    func testAnOutsideContentLengthIsNeverWrittenTwice() {
        var response = HTTPResponse(status: .ok, headers: ["Content-Length": "1234", "X-A": "b"], body: Array("ok".utf8))
        response.outsideFields = true
        XCTAssertEqual(encode(response), "HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nServer: mock-server\r\nContent-Length: 2\r\nX-A: b\r\n\r\nok")
        var head = HTTPResponse(status: .ok, headers: ["content-length": "1234"])
        head.outsideFields = true
        XCTAssertEqual(encode(head, omitBody: true), "HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 03:00:00 GMT\r\nServer: mock-server\r\nContent-Length: 1234\r\n\r\n")
    }

    func testDecimals() {
        for value in [0, 7, 10, 99, 100, 65_535, 1_000_000_007, Int.max] {
            var out = [UInt8](repeating: 0, count: 20)
            let count = out.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                var w = ByteWriter(base, capacity: buffer.count)
                w.putDecimal(value)
                return w.position
            }
            XCTAssertEqual(String(decoding: out[..<count], as: UTF8.self), String(value))
            XCTAssertEqual(ByteWriter.decimalCount(value), String(value).count)
        }
    }

    /// A write past the capacity is dropped whole and flagged (the encoder's size sum was short),
    /// never written past the buffer.
    func testAWriteThatDoesNotFitIsDroppedAndFlagged() {
        var out = [UInt8](repeating: 0, count: 8)
        let (position, dropped) = out.withUnsafeMutableBufferPointer { buffer -> (Int, Bool) in
            guard let base = buffer.baseAddress else { return (0, false) }
            var w = ByteWriter(base, capacity: 4)
            w.put("abc")
            XCTAssertFalse(w.dropped)
            w.put("de")
            w.putDecimal(12)
            w.put(UInt8(ascii: "z"))
            return (w.position, w.dropped)
        }
        XCTAssertEqual(position, 4)
        XCTAssertTrue(dropped)
        XCTAssertEqual(Array(out[..<4]), Array("abcz".utf8))
        XCTAssertEqual(Array(out[4...]), [0, 0, 0, 0], "nothing past the capacity")
    }

    /// A body written in chunks: one chunk then the last, the size in hex; the count the
    /// dribble uses to find the head agrees with what is written, at every hex width.
    func testChunkedBodyAndItsCount() {
        for count in [0, 1, 15, 16, 255, 256, 4096, 70_000] {
            var out: [UInt8] = []
            HTTPResponseEncoder.appendChunked([UInt8](repeating: 0x61, count: count), last: true, into: &out)
            XCTAssertEqual(out.count, HTTPResponseEncoder.chunkedCount(count), "\(count)")
            let expected = count == 0 ? "0\r\n\r\n" : String(count, radix: 16) + "\r\n" + String(repeating: "a", count: count) + "\r\n0\r\n\r\n"
            XCTAssertEqual(String(decoding: out, as: UTF8.self), expected, "\(count)")
        }
    }
}
