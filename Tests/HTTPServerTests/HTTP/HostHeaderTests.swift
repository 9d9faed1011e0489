import Foundation
import XCTest
@testable import HTTPServer
import TestSupport

/// RFC 9112 §3.2: exactly one Host.
final class HostHeaderTests: XCTestCase {
    func testTwoHostHeadersAreRefused() throws {
        let f = try WireFixture()
        let (r, _) = try f.raw("GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        XCTAssertEqual(r.status, 400)
    }
}
