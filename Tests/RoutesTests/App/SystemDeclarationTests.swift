import Foundation
import MockTestSupport
import TestSupport
import XCTest

/// What the systems' declarations make of the wire: their order, and the error shape of the paths they own.
final class SystemDeclarationTests: MockServerTestCase {
    /// The five systems come first and in their order (the registry's); a system added later comes
    /// after them. The journal's refusal of an unknown system names them in that order.
    func testTheFiveSystemsComeFirstInTheirOrder() throws {
        let r = try server.request("GET", "/__mock/requests?system=nobody")
        XCTAssertEqual(r.status, 400)
        let error = try XCTUnwrap(r.jsonObject?["error"] as? String)
        XCTAssertTrue(error.hasPrefix("\"system\" must be one of rows, gateway, skyzone, musbooking, rsschool"), error)
    }

    func testNotFoundAndMethodNotAllowedTakeTheOwningSystemsShape() throws {
        let mus = try server.request("GET", "/API/Nothing")
        XCTAssertEqual(mus.status, 404)
        XCTAssertEqual(mus.header("Content-Type"), "text/plain; charset=utf-8")
        let sky = try server.request("DELETE", "/customer")
        XCTAssertEqual(sky.status, 405)
        XCTAssertNotNil(sky.jsonObject?["error"] as? String, sky.text)
        let rows = try server.request("GET", "/rows")
        XCTAssertEqual(rows.status, 404)
        XCTAssertEqual(rows.jsonObject?["error"] as? Bool, true, rows.text)
    }
}
