@testable import HTTPServer
import XCTest

/// The outbound client's response reader: framing, interim answers and bounds, fed in pieces.
final class UpstreamResponseParserTests: XCTestCase {
    private func parse(_ text: String, pieces: Int = 1, head: Bool = false, maxBody: Int = 1 << 20, eof: Bool = false) -> UpstreamResponseParser.Event {
        var parser = UpstreamResponseParser(maxHeadBytes: 1024, maxBodyBytes: maxBody, headRequest: head)
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var event = UpstreamResponseParser.Event.needMore
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            event = bytes[offset..<end].withUnsafeBytes { parser.receive($0) }
            offset = end
            if case .needMore = event { continue }
            return event
        }
        return eof ? parser.receiveEOF() : event
    }

    private func answer(_ event: UpstreamResponseParser.Event, file: StaticString = #filePath, line: UInt = #line) -> (OutboundResponse, Bool)? {
        guard case .response(let response, let reusable) = event else { XCTFail("\(event)", file: file, line: line); return nil }
        return (response, reusable)
    }

    func testChunkedByteByByteWithInterimAnswerAndTrailers() throws {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 207 Multi\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5;x=\"y\"\r\nhello\r\n1\r\n!\r\n0\r\nX-T: t\r\n\r\n"
        let (response, reusable) = try XCTUnwrap(answer(parse(text, pieces: text.utf8.count)))
        XCTAssertEqual(response.status, 207)
        XCTAssertEqual(response.reason, "Multi")
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello!")
        XCTAssertEqual(response.headers["X-A"], "1")
        XCTAssertNil(response.headers["Transfer-Encoding"])
        XCTAssertTrue(reusable)
    }

    func testFramingByLengthCloseAndHead() throws {
        let (byLength, reusable) = try XCTUnwrap(answer(parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc", pieces: 3)))
        XCTAssertEqual(byLength.body, Array("abc".utf8))
        XCTAssertNil(byLength.headers["Content-Length"], "Content-Length is framing: the server writes its own")
        XCTAssertFalse(reusable, "Connection: close")
        let (closeDelimited, again) = try XCTUnwrap(answer(parse("HTTP/1.1 200 OK\r\n\r\nto the end", eof: true)))
        XCTAssertEqual(closeDelimited.body, Array("to the end".utf8))
        XCTAssertFalse(again)
        let (head, _) = try XCTUnwrap(answer(parse("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", head: true)))
        XCTAssertEqual(head.body, [])
        XCTAssertEqual(head.headers.fields.map(\.name), ["Content-Length"],
                       "a HEAD answer's length frames nothing: it is kept for the head the server writes")
        XCTAssertEqual(head.headers["Content-Length"], "99")
    }

    func testBoundsAndMalformedAnswersFail() {
        for (text, why) in [("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", "body over the bound"),
                            ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "conflicting lengths"),
                            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size"),
                            ("SSH-2.0-OpenSSH\r\n\r\n", "not HTTP"),
                            ("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n", "obsolete folding"),
                            ("HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 2000) + "\r\n\r\n", "head over the bound")] {
            guard case .failure = parse(text, maxBody: 10) else { return XCTFail(why) }
        }
        guard case .failure = parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", eof: true) else { return XCTFail("cut short") }
    }
}
