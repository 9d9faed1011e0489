import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// Issue 28: `GET /__mock/accounts` past 500 accounts of a system says so and pages on, instead of
/// stopping silently.
final class AccountPagesTests: MockServerTestCase {
    func testASystemPastTheLimitIsNamedAndItsNextPageIsReachable() throws {
        let client = try server.connect()
        let created = 505
        for i in 0..<created {
            let body = Array(#"{"system": "skyzone", "email": "page\#(i)@example.com", "password": "secret1"}"#.utf8)
            try client.sendRequest("POST", "/__mock/accounts", headers: [("Content-Type", "application/json")], body: body)
            XCTAssertEqual(try client.readResponse().status, 201)
        }
        let seeded = try XCTUnwrap(server.app.system(named: "skyzone")?.accountListing(AccountPage(limit: 1))?.total) - created
        let total = created + seeded

        let first = try server.request("GET", "/__mock/accounts")
        XCTAssertEqual(first.status, 200)
        let firstPage = try XCTUnwrap(first.jsonObject?["skyzone"] as? [[String: Any]])
        XCTAssertEqual(firstPage.count, AccountSummary.listLimit)
        XCTAssertEqual(first.header("X-Mock-Truncated"), "skyzone=\(total)", "only the system that was cut")
        let hint = try XCTUnwrap(first.header("X-Mock-Hint"))
        XCTAssertTrue(hint.contains("?system=skyzone&offset=500"), hint)
        XCTAssertNotNil(first.jsonObject?["musbooking"], "the other systems are listed whole")

        let second = try server.request("GET", "/__mock/accounts?system=skyzone&offset=500")
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(second.jsonObject?.keys.sorted(), ["skyzone"])
        let secondPage = try XCTUnwrap(second.jsonObject?["skyzone"] as? [[String: Any]])
        XCTAssertEqual(secondPage.count, total - AccountSummary.listLimit)
        XCTAssertEqual(second.header("X-Mock-Truncated"), "skyzone=\(total)", "a later page is a part too")
        let ids = Set((firstPage + secondPage).compactMap { $0["id"] as? String })
        XCTAssertEqual(ids.count, total, "the two pages hold every account once")

        let small = try server.request("GET", "/__mock/accounts?system=musbooking&limit=1")
        XCTAssertEqual((small.jsonObject?["musbooking"] as? [Any])?.count, 1)
        XCTAssertEqual(try server.request("GET", "/__mock/accounts?limit=0").status, 400)
        XCTAssertEqual(try server.request("GET", "/__mock/accounts?limit=501").status, 400)
        XCTAssertEqual(try server.request("GET", "/__mock/accounts?system=nope").status, 400)
    }

    func testWholeListsCarryNoTruncationHeader() throws {
        let all = try server.request("GET", "/__mock/accounts")
        XCTAssertEqual(all.status, 200)
        XCTAssertNil(all.header("X-Mock-Truncated"))
        XCTAssertNil(all.header("X-Mock-Hint"))
    }
}
