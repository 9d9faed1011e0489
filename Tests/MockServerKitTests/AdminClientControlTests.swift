import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import MockServerAdminClient
import MockServerKit

/// The admin client's test controls against a real server over HTTP. The admin guard refuses
/// state-changing requests without a JSON Content-Type, so every write that succeeds here sent one.
final class AdminClientControlTests: AdminClientTestCase {
    private func musbookingToken(_ server: EmbeddedMockServer) async throws -> String {
        let login = try await call(server, "POST", "/api/auth/login", form: "login=Test005&password=123456")
        XCTAssertEqual(login.status, 200, login.body)
        let object = try JSONSerialization.jsonObject(with: Data(login.body.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["token"] as? String)
    }

    func testTheJournalIsReadFilteredAndCleared() async throws {
        let (server, admin) = try start()
        _ = try await call(server, "GET", "/rows/1")
        _ = try await call(server, "POST", "/api/users/sms", form: "phone=9123456789")
        _ = try await call(server, "GET", "/rows/2")
        let all = try await admin.requests()
        XCTAssertEqual(all.map(\.path), ["/rows/1", "/api/users/sms", "/rows/2"])
        XCTAssertEqual(all.first?.status, 403)
        XCTAssertEqual(all.first?.clientIp, "127.0.0.1", "the peer, over the socket")
        let musbooking = try await admin.requests(system: "musbooking")
        XCTAssertEqual(musbooking.map(\.method), ["POST"])
        let rows = try await admin.requests(path: "/rows/*", limit: 1)
        XCTAssertEqual(rows.map(\.path), ["/rows/2"], "the newest one")
        let after = try await admin.requests(since: all[0].id)
        XCTAssertEqual(after.map(\.id), all.dropFirst().map(\.id))
        try await admin.clearRequests()
        let cleared = try await admin.requests()
        XCTAssertEqual(cleared, [])
    }

    /// The server writes its journal through the wire type: decoded and encoded again, an entry is
    /// what the server sent, member for member (nulls, a repeated header joined, a fault, no stub).
    func testAJournalEntryEncodesAgainAsTheServerWroteIt() async throws {
        let (server, admin) = try start()
        _ = try await admin.addFault(path: "/rows/1", times: 1, action: .respond(status: 503, body: "down", headers: [:]))
        _ = try await call(server, "GET", "/rows/1")
        _ = try await call(server, "POST", "/api/users/sms", form: "phone=9123456789&password=secret")
        let raw = try await call(server, "GET", "/__mock/requests")
        XCTAssertEqual(raw.status, 200, raw.body)
        let sent = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(raw.body.utf8)) as? [[String: Any]])
        XCTAssertEqual(sent.count, 2)
        XCTAssertTrue(sent[0]["hint"] is NSNull, "an absent hint is written as null")
        XCTAssertNotNil(sent[0]["fault"])
        let decoded = try JSONDecoder().decode([MockJournalEntry].self, from: Data(raw.body.utf8))
        let again = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(decoded)) as? [[String: Any]])
        XCTAssertEqual(again.count, sent.count)
        for (one, other) in zip(sent, again) {
            XCTAssertEqual(NSDictionary(dictionary: one), NSDictionary(dictionary: other))
        }
    }

    func testFaultsAreAddedFiredListedAndRemoved() async throws {
        let (server, admin) = try start()
        let id = try await admin.addFault(method: "POST", path: "/rsschool/secure", times: 1,
                                          action: .respond(status: 503, body: "down", headers: ["Retry-After": "1"]))
        let listed = try await admin.faults()
        XCTAssertEqual(listed.map(\.id), [id])
        XCTAssertEqual(listed.first?.remaining, 1)
        XCTAssertEqual(listed.first?.action, .respond(status: 503, body: "down", headers: ["Retry-After": "1"]))
        let faulted = try await call(server, "POST", "/rsschool/secure", form: "x=1")
        XCTAssertEqual(faulted.status, 503)
        XCTAssertEqual(faulted.body, "down")
        let entry = try await admin.requests(path: "/rsschool/secure").last
        XCTAssertEqual(entry?.fault?.id, id)
        let usedUp = try await admin.faults()
        XCTAssertEqual(usedUp, [], "times: 1 is used up")

        let close = try await admin.addFault(path: "/rows/*", action: .close)
        let gateway = try await admin.addFault(path: "LOGIN_CUSTOMER", system: "gateway", action: .closeCode(4000))
        try await admin.removeFault(close)
        let left = try await admin.faults()
        XCTAssertEqual(left.map(\.id), [gateway])
        XCTAssertEqual(left.first?.system, "gateway")
        do {
            try await admin.removeFault(close)
            XCTFail("removing a removed rule succeeded")
        } catch let failure as MockAdminClient.Failure {
            XCTAssertTrue(failure.description.contains("404"), failure.description)
        }
        try await admin.addFault(path: "/rows/*", action: .delay(milliseconds: 1))
        try await admin.removeAllFaults()
        let none = try await admin.faults()
        XCTAssertEqual(none, [])
    }

    func testTheClockMovesForwardAndBack() async throws {
        let (server, admin) = try start()
        let token = try await musbookingToken(server)
        let moved = try await admin.advanceClock(seconds: 90_000)
        XCTAssertEqual(moved.offsetSeconds, 90_000)
        let read = try await admin.clock()
        XCTAssertEqual(read.offsetSeconds, 90_000)
        let expired = try await call(server, "GET", "/api/users/user", bearer: token)
        XCTAssertEqual(expired.status, 400, "a musbooking token expired by the clock")
        let back = try await admin.resetClock()
        XCTAssertEqual(back.offsetSeconds, 0)
        let valid = try await call(server, "GET", "/api/users/user", bearer: token)
        XCTAssertEqual(valid.status, 200)
    }

    func testTokensAreExpiredAndRevoked() async throws {
        let (server, admin) = try start()
        let first = try await musbookingToken(server)
        let expiredCount = try await admin.expireTokens(system: "musbooking", token: first)
        XCTAssertEqual(expiredCount, 1)
        let expired = try await call(server, "GET", "/api/users/user", bearer: first)
        XCTAssertEqual(expired.status, 400)
        let second = try await musbookingToken(server)
        let revokedCount = try await admin.revokeTokens(system: "musbooking")
        XCTAssertGreaterThanOrEqual(revokedCount, 1)
        let revoked = try await call(server, "GET", "/api/users/user", bearer: second)
        XCTAssertEqual(revoked.status, 401)
        XCTAssertEqual(revoked.body, "Access denied")
        let everyone = try await admin.revokeTokens()
        XCTAssertGreaterThanOrEqual(everyone, 0)
        do {
            _ = try await admin.expireTokens(system: "nosuch")
            XCTFail("an unknown system was accepted")
        } catch let failure as MockAdminClient.Failure {
            XCTAssertTrue(failure.description.contains("400"), failure.description)
        }
    }
}
