import Foundation
import XCTest
import MockTestSupport
import TestSupport

/// The router's own 404 and 405 answers keep the error shape of the system that owns the path.
final class RouterErrorShapeTests: MockServerTestCase {

    func testMusbookingAnswersPlainText() throws {
        let missing = try server.request("GET", "/api/nope")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(missing.text, "Not Found: /api/nope")
        let wrongMethod = try server.request("GET", "/api/users/send-confirm")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.header("Allow"), "POST, OPTIONS")
        XCTAssertEqual(wrongMethod.text, "Method GET not allowed on /api/users/send-confirm")
    }

    func testSkyZoneAndRSSchoolAnswerErrorObjects() throws {
        let put = try server.request("PUT", "/customer")
        XCTAssertEqual(put.status, 405)
        XCTAssertEqual(put.jsonObject?["error"] as? String, "Method PUT not allowed on /customer")
        let missing = try server.request("GET", "/rsschool/nope")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.jsonObject?["error"] as? String, "Not Found: /rsschool/nope")
    }

    func testEverythingElseKeepsTheRowsAppsVaporShape() throws {
        let missing = try server.request("GET", "/nope")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.jsonObject?["error"] as? Bool, true)
        XCTAssertEqual(missing.jsonObject?["reason"] as? String, "Not Found: /nope")
        let wrongMethod = try server.request("GET", "/auth/login")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.jsonObject?["reason"] as? String, "Method GET not allowed on /auth/login")
    }
}
