import MockTestSupport
import Routes
import TestSupport
import XCTest

final class PinLoginTests: MockServerTestCase {
    func testThePinSignsInAndTheTokenReadsTheName() throws {
        XCTAssertEqual(try server.request("POST", "/pin/login", json: ["pin": "0000"]).status, 401)
        let login = try server.request("POST", "/pin/login", json: ["pin": "1234"])
        XCTAssertEqual(login.status, 200, login.text)
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String)
        let me = try server.request("GET", "/pin/me", headers: [("Authorization", "Bearer \(token)")])
        XCTAssertEqual(me.jsonObject?["name"] as? String, "Pin Person")
    }

    func testTheJournalHidesThePin() throws {
        XCTAssertEqual(try server.request("POST", "/pin/login", json: ["pin": "1234"]).status, 200)
        let journal = try server.request("GET", "/__mock/requests?system=pin")
        XCTAssertEqual(journal.status, 200, journal.text)
        XCTAssertTrue(journal.text.contains("***"), journal.text)
        XCTAssertFalse(journal.text.contains("1234"), journal.text)
    }
}
