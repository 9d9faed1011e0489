import XCTest
@testable import HTTPServer
import TestSupport

/// Issue 13 §12: leniencies RFC 9112 does not allow, refused over a real socket with 400 and close.
final class HTTPStrictFramingTests: XCTestCase {
    private let chunkedHead = "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"

    private func assertRefused(_ f: WireFixture, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (r, c) = try f.raw(text)
        XCTAssertEqual(r.status, 400, text.debugDescription, file: file, line: line)
        XCTAssertEqual(r.header("Connection"), "close", text.debugDescription, file: file, line: line)
        XCTAssertTrue(c.isClosedByPeer(), text.debugDescription, file: file, line: line)
    }

    private func assertEchoed(_ f: WireFixture, _ text: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (r, _) = try f.raw(text)
        XCTAssertEqual(r.status, 200, text.debugDescription, file: file, line: line)
        XCTAssertEqual(r.text, body, text.debugDescription, file: file, line: line)
    }

    func testChunkSizeFollowedByJunkIsRefused() throws {
        let f = try WireFixture()
        for sizeLine in ["3 zz", "3zz", "3 3", " 3", "3;", "3;=v", "3;a=", "3;a=\"open", "3;a b", "3;a=\u{0B}"] {
            try assertRefused(f, chunkedHead + "\(sizeLine)\r\nabc\r\n0\r\n\r\n")
        }
    }

    func testChunkExtensionsStayAllowed() throws {
        let f = try WireFixture()
        for sizeLine in ["3;name=value", "3 ; name = value", "3;a;b=c", "3;q=\"quoted; \\\"x\\\"\"", "3\t;flag"] {
            try assertEchoed(f, chunkedHead + "\(sizeLine)\r\nabc\r\n0\r\n\r\n", "abc")
        }
    }

    func testBareLFInChunkFramingIsRefused() throws {
        let f = try WireFixture()
        try assertRefused(f, chunkedHead + "3\nabc\r\n0\r\n\r\n")          // after the size
        try assertRefused(f, chunkedHead + "3\r\nabc\n0\r\n\r\n")          // after the data
        try assertRefused(f, chunkedHead + "3\r\nabc\r\n0\n\r\n")          // after the last chunk
        try assertRefused(f, chunkedHead + "3\r\nabc\r\n0\r\nX-T: 1\n\r\n") // in the trailers
        try assertRefused(f, chunkedHead + "3\r\nabc\r\n0\r\n\n")          // ending the trailers
    }

    func testControlCharactersInHeaderValuesAreRefused() throws {
        let f = try WireFixture()
        for ctl in ["\u{0B}", "\u{0C}", "\u{01}", "\u{1B}", "\u{7F}", "\r"] {
            try assertRefused(f, "GET /hello HTTP/1.1\r\nHost: x\r\nX-Test: a\(ctl)b\r\n\r\n")
        }
        try assertRefused(f, chunkedHead + "3\r\nabc\r\n0\r\nX-T: a\u{0C}b\r\n\r\n")
    }

    func testTabsAndHighOctetsInHeaderValuesStayAllowed() throws {
        let f = try WireFixture()
        let (r, _) = try f.raw("GET /hello HTTP/1.1\r\nHost: x\r\nX-Test: a\tb \u{E9}\r\n\r\n")
        XCTAssertEqual(r.status, 200)
    }

    func testChunkSizeLineGrammar() {
        let parse = { (s: String) in HTTPRequestParser.parseChunkSizeLine(Array(s.utf8)) }
        XCTAssertEqual(parse("3f"), 0x3F)
        XCTAssertEqual(parse("0"), 0)
        XCTAssertEqual(parse("A;x=\"1\""), 10)
        XCTAssertNil(parse("3f zz"))
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("3f "))
        XCTAssertNil(parse("1234567890abcdef"), "16 hex digits could overflow")
    }
}
