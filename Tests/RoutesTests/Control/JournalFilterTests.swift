import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// The journal's filters: a filter of the wrong type is a 400; `?body=`, `?hint=` and `/__mock/requests/count`.
final class JournalFilterTests: MockServerTestCase {
    func testFiltersOfTheWrongTypeAre400() throws {
        for bad in ["status=", "status=abc", "since=", "limit=", "system=", "system=nope", "method=", "path=", "hint=yes", "body=",
                    "atLeast=1"] {
            let r = try server.request("GET", "/__mock/requests?\(bad)")
            XCTAssertEqual(r.status, 400, "\(bad): \(r.text)")
            XCTAssertNotNil(r.jsonObject?["error"] as? String, bad)
        }
        for bad in ["status=", "atLeast=-1", "atLeast=x", "color=red"] {
            XCTAssertEqual(try server.request("GET", "/__mock/requests/count?\(bad)").status, 400, bad)
        }
    }

    func testBodyAndHintFiltersAndCount() throws {
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9120000000")])
        _ = try server.request("POST", "/api/auth/login", form: [("login", "Test005"), ("password", "123456")])
        _ = try server.request("GET", "/rows/1", headers: [("Authorization", "Bearer x")])
        XCTAssertEqual(try server.journal("body=9123456789").map { $0["path"] as? String }, ["/api/users/sms"])
        // The body is searched after redaction: a password cannot be fished for.
        XCTAssertEqual(try server.journal("body=password%3D123456").count, 0)
        XCTAssertEqual(try server.journal("body=password%3D***").count, 1)
        XCTAssertEqual(try server.journal("hint=true").map { $0["path"] as? String }, ["/rows/1"])
        XCTAssertEqual(try server.journal("hint=false").count, 3)

        var r = try server.request("GET", "/__mock/requests/count")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.jsonObject?["count"] as? Int, 4)
        r = try server.request("GET", "/__mock/requests/count?system=musbooking&path=/api/users/sms&body=912")
        XCTAssertEqual(r.jsonObject?["count"] as? Int, 2)
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?status=403&hint=true").jsonObject?["count"] as? Int, 1)
        let first = try server.journal().first?["id"] as? Int ?? 0
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?since=\(first)").jsonObject?["count"] as? Int, 3)
        // Counting is not limited by the journal page size.
        for _ in 0..<120 { _ = try server.request("GET", "/__mock/health") }
        for _ in 0..<101 { _ = try server.request("GET", "/rows/2") }
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?path=/rows/2").jsonObject?["count"] as? Int, 101)
    }
}
