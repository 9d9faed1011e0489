import Foundation
import XCTest
@testable import HTTPServer
import TestSupport

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
