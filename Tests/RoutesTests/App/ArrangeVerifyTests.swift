import Foundation
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
import XCTest
@testable import MockControl

/// API.md §6.3 over real sockets: outbox parts emptied on their own, the state snapshot and
/// restore, and `waitMs` on the journal and the outbox (no thread held, bounded).
final class ArrangeVerifyTests: MockServerTestCase {
    private func sendSMS(_ phone: String) throws {
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", phone)]).status, 200)
    }

    func testEachOutboxPartIsEmptiedOnItsOwn() throws {
        try sendSMS("9123456789")
        let token = try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password)
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)
        XCTAssertEqual(try server.request("DELETE", "/__mock/sms", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]")
        XCTAssertEqual(try server.request("GET", "/__mock/emails").jsonArray?.count, 1, "the e-mails stay")
        try sendSMS("9123456780")
        XCTAssertEqual(try server.request("DELETE", "/__mock/emails", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/__mock/emails").text, "[]")
        XCTAssertEqual(try server.request("GET", "/__mock/sms").jsonArray?.count, 1, "the SMS stay")
        // Guarded like every state-changing admin request: a browser's cross-site write is refused.
        XCTAssertEqual(try server.request("DELETE", "/__mock/sms", headers: [("Origin", "http://evil.example")]).status, 403)
    }

    func testAStateSnapshotRestoresAccountsSessionsOutboxAndClock() throws {
        let registered = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        XCTAssertEqual(registered.status, 200)
        let token = try server.musbookingLogin("9123456789", "pass123")
        _ = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 60])
        let snapshot = try server.request("GET", "/__mock/state")
        XCTAssertEqual(snapshot.status, 200)
        XCTAssertEqual(snapshot.header("Content-Type"), "application/json; charset=utf-8")
        let document = try XCTUnwrap(snapshot.jsonObject)
        XCTAssertEqual(document["format"] as? String, "mock-server-state")
        XCTAssertEqual(document["version"] as? Int, 1)
        XCTAssertEqual(((document["systems"] as? [String: Any])?["clock"] as? [String: Any])?["offsetSeconds"] as? Double, 60)

        // The world moves on: a reset, then another account.
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.musbookingUser(token).status, 401)
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]")

        let put = try server.request("PUT", "/__mock/state", headers: TestServer.adminWrite + [("Content-Type", "application/json")],
                                     body: snapshot.body)
        XCTAssertEqual(put.status, 204, put.text)
        XCTAssertEqual(try server.musbookingUser(token).status, 200, "the session is back")
        XCTAssertEqual(try server.request("GET", "/__mock/sms").jsonArray?.count, 1, "the code is back in the outbox")
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["offsetSeconds"] as? Double, 60)
        XCTAssertEqual(try server.request("GET", "/__mock/state").jsonObject?["systems"] as? NSDictionary,
                       document["systems"] as? NSDictionary, "the same state again")
    }

    func testABadStateDocumentIs400NamingThePlaceAndChangesNothing() throws {
        let snapshot = try server.request("GET", "/__mock/state")
        try sendSMS("9123456789")
        let before = try server.request("GET", "/__mock/state").jsonObject?["systems"] as? NSDictionary
        var broken = try XCTUnwrap(snapshot.jsonObject)
        var systems = try XCTUnwrap(broken["systems"] as? [String: Any])
        // musbooking decodes; a later part does not restore: the outbox must not be replaced either.
        var musbooking = try XCTUnwrap(systems["musbooking"] as? [String: Any])
        var users = try XCTUnwrap(musbooking["users"] as? [[String: Any]])
        users.append(users[0])
        musbooking["users"] = users
        systems["musbooking"] = musbooking
        broken["systems"] = systems
        let cases: [(String, [UInt8])] = [
            ("user id", Array(try JSONSerialization.data(withJSONObject: broken))),
            ("clock", Array(#"{"format":"mock-server-state","version":1,"systems":{"clock":{"offsetSeconds":"x"}}}"#.utf8)),
            ("missing", Array(#"{"format":"mock-server-state","version":1,"systems":{}}"#.utf8)),
            ("format", Array(#"{"version":1}"#.utf8)),
            ("line", Array("{\"format\": ".utf8)),
        ]
        for (word, body) in cases {
            let r = try server.request("PUT", "/__mock/state", headers: [("Content-Type", "application/json")], body: body)
            XCTAssertEqual(r.status, 400, word)
            let message = r.jsonObject?["error"] as? String ?? ""
            XCTAssertTrue(message.contains(word), "\(word): \(message)")
        }
        XCTAssertEqual(try server.request("GET", "/__mock/state").jsonObject?["systems"] as? NSDictionary, before, "nothing changed")
    }

    func testWaitingForAnSMSAnswersWhenItArrivesWithoutHoldingALoop() throws {
        // More waiters than loops (the test server has 2): none holds a thread.
        var waiting: [TestHTTPClient] = []
        for _ in 0..<3 {
            let client = try server.connect()
            try client.sendRequest("GET", "/__mock/sms?phone=%2B7%20912%20345-67-89&waitMs=30000")
            waiting.append(client)
        }
        let emailWait = try server.connect()
        try emailWait.sendRequest("GET", "/__mock/emails?waitMs=30000")
        // Wait until all four are registered, through the other requests the loops still answer.
        let deadline = Date().addingTimeInterval(5)
        while server.app.control.waiters.count < 4 && Date() < deadline {
            XCTAssertEqual(try server.request("GET", "/__mock/health").status, 200)
        }
        XCTAssertEqual(server.app.control.waiters.count, 4)
        try sendSMS("9120000000")   // another phone: nobody's answer
        try sendSMS("89123456789")
        for client in waiting {
            let r = try client.readResponse()
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual((r.jsonArray?.first as? [String: Any])?["phone"] as? String, "9123456789")
        }
        let token = try server.musbookingLogin(MusbookingSeedData.login, MusbookingSeedData.password)
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)
        XCTAssertEqual(try emailWait.readResponse().jsonArray?.count, 1)
        XCTAssertEqual(server.app.control.waiters.count, 0)
    }

    func testWaitingOnTheJournalWithSinceAndOnTheCount() throws {
        _ = try server.request("GET", "/rows/1")
        let last = try server.journal().last?["id"] as? Int ?? 0
        let next = try server.connect()
        try next.sendRequest("GET", "/__mock/requests?since=\(last)&path=/api/*&waitMs=30000")
        let count = try server.connect()
        try count.sendRequest("GET", "/__mock/requests/count?path=/api/users/sms&atLeast=2&waitMs=30000")
        let deadline = Date().addingTimeInterval(5)
        while server.app.control.waiters.count < 2 && Date() < deadline { _ = try server.request("GET", "/__mock/health") }
        try sendSMS("9123456789")
        let entries = try next.readResponse().jsonArray as? [[String: Any]]
        XCTAssertEqual(entries?.map { $0["path"] as? String }, ["/api/users/sms"])
        XCTAssertEqual(server.app.control.waiters.count, 1, "the count waits for a second one")
        try sendSMS("9123456780")
        XCTAssertEqual(try count.readResponse().jsonObject?["count"] as? Int, 2)
    }

    func testAWaitEndsAtItsDeadlineWithWhatThereIsAndIsBounded() throws {
        let started = Date()
        let r = try server.request("GET", "/__mock/sms?phone=9999999999&waitMs=50")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, "[]")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.05)
        XCTAssertEqual(try server.request("GET", "/__mock/requests/count?path=/nothing&waitMs=10").jsonObject?["count"] as? Int, 0)
        for bad in ["/__mock/sms?waitMs=30001", "/__mock/emails?waitMs=-1", "/__mock/requests?waitMs=x", "/__mock/requests/count?waitMs="] {
            let r = try server.request("GET", bad)
            XCTAssertEqual(r.status, 400, bad)
            XCTAssertNotNil(r.jsonObject?["error"] as? String, bad)
            // Given a value, the hint names the bound (an empty one is the filters' "give it a value").
            if !bad.hasSuffix("=") {
                XCTAssertTrue(r.header("X-Mock-Hint")?.contains("30000 ms") ?? false, "\(bad): \(r.header("X-Mock-Hint") ?? "no hint")")
            }
        }
        // Above the bound is refused, not clamped, and the hint says so and how to wait longer.
        let over = try server.request("GET", "/__mock/requests/count?waitMs=45000")
        XCTAssertEqual(over.status, 400)
        XCTAssertEqual(over.header("X-Mock-Hint"), "waitMs=45000 is above this server's bound of 30000 ms (--max-wait-ms; default and most 30000): to wait longer, ask again when an answer comes back without the match.")
        // Already there: answered at once, whatever the wait.
        try sendSMS("9123456789")
        XCTAssertEqual(try server.request("GET", "/__mock/sms?waitMs=30000").jsonArray?.count, 1)
    }
}

/// `--max-wait-ms` lowers the bound; a wait above it is refused with a hint naming the lowered bound.
final class LoweredWaitBoundTests: XCTestCase {
    func testAWaitAboveTheLoweredBoundIsRefusedNamingIt() throws {
        let server = try TestServer(environment: { $0.maxWaitMs = 200 })
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/__mock/requests?waitMs=200").status, 200)
        for path in ["/__mock/requests?waitMs=201", "/__mock/requests/count?waitMs=30000", "/__mock/sms?waitMs=201", "/__mock/emails?waitMs=1000"] {
            let r = try server.request("GET", path)
            XCTAssertEqual(r.status, 400, path)
            let hint = r.header("X-Mock-Hint") ?? ""
            XCTAssertTrue(hint.contains("bound of 200 ms (--max-wait-ms"), "\(path): \(hint)")
            XCTAssertTrue(hint.hasPrefix("waitMs=") && hint.contains("ask again"), "\(path): \(hint)")
        }
    }
}

/// `POST /__mock/reset {"seed": …}` (API.md §6.3) over real sockets.
final class ResetToSeedTests: MockServerTestCase {
    private func seedJSON(rowsAccount: (String, String)) throws -> [String: Any] {
        var seed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestServer.repositorySeedPath))) as? [String: Any])
        var rows = try XCTUnwrap(seed["rows"] as? [String: Any])
        rows["accounts"] = [["email": rowsAccount.0, "password": rowsAccount.1]]
        seed["rows"] = rows
        return seed
    }

    private func rowsLogin(_ email: String, _ password: String, on connection: TestHTTPClient? = nil) throws -> Int {
        let body = Array(#"{"email": "\#(email)", "password": "\#(password)"}"#.utf8)
        guard let connection else {
            return try server.request("POST", "/auth/login", headers: [("Content-Type", "application/json")], body: body).status
        }
        try connection.sendRequest("POST", "/auth/login", headers: [("Content-Type", "application/json")], body: body)
        return try connection.readResponse().status
    }

    func testAResetToAGivenSeedReplacesTheWorldForEveryConnectionAndABareResetGoesBack() throws {
        let open = try server.connect()   // a keep-alive connection opened before the reset
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567", on: open), 200)
        try sendSMS()
        let r = try server.request("POST", "/__mock/reset", json: ["seed": try seedJSON(rowsAccount: ("given@example.com", "given12"))])
        XCTAssertEqual(r.status, 204, r.text)
        // Every connection, the open one included, sees the given seed at once.
        XCTAssertEqual(try rowsLogin("given@example.com", "given12", on: open), 200)
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567"), 401)
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]", "the outbox is emptied")
        // A bare reset goes back to the start seed.
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567", on: open), 200)
        XCTAssertEqual(try rowsLogin("given@example.com", "given12"), 401)
    }

    func testABadSeedIs400NamingThePlaceAndChangesNothing() throws {
        try sendSMS()
        var seed = try seedJSON(rowsAccount: ("given@example.com", "given12"))
        var rows = try XCTUnwrap(seed["rows"] as? [String: Any])
        rows["totalRows"] = "many"
        seed["rows"] = rows
        for (body, word) in [(["seed": seed], "totalRows"), (["seed": 1], "seed"), (["colour": 1], "colour")] as [([String: Any], String)] {
            let r = try server.request("POST", "/__mock/reset", json: body)
            XCTAssertEqual(r.status, 400, word)
            XCTAssertTrue((r.jsonObject?["error"] as? String ?? "").contains(word), r.text)
        }
        XCTAssertEqual(try server.request("GET", "/__mock/sms").jsonArray?.count, 1, "nothing changed")
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567"), 200)
    }

    private func sendSMS() throws {
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]).status, 200)
    }
}

/// The waiters' bound: past it a wait is refused at once (503 with a hint), and a wait that ends
/// (answered or timed out) makes room again.
final class WaiterBoundTests: XCTestCase {
    func testWaitersAreBoundedAndFreeTheirPlace() {
        let waiters = Waiters(capacity: 1)
        let ready = Locked<HTTPResponse?>(nil)
        var held = RequestContext(), context = RequestContext()
        _ = waiters.wait(ms: 30_000, in: &held, ready: { ready.withLock { $0 } }, timeout: { .json(.ok, [] as JSONValue) })
        XCTAssertNotNil(held.delivery.deferred, "held, not answered")
        XCTAssertEqual(waiters.count, 1)
        let refused = waiters.wait(ms: 30_000, in: &context, ready: { nil }, timeout: { .json(.ok, [] as JSONValue) })
        XCTAssertEqual(refused.status, .serviceUnavailable)
        XCTAssertNotNil(refused.hint)
        // The match arrives: the held answer is completed and its place freed.
        ready.withLock { $0 = .json(.ok, ["found"] as JSONValue) }
        waiters.poke()
        XCTAssertEqual(waiters.count, 0)
        XCTAssertEqual(held.delivery.deferred?.isPending, false)
        XCTAssertNil(waiters.wait(ms: 30_000, in: &context, ready: { nil }, timeout: { .json(.ok, [] as JSONValue) }).hint)
    }
}
