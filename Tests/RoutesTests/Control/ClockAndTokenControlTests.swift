import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit
import MockControl

/// `/__mock/clock` and `/__mock/tokens/*` over real sockets.
final class ClockControlTests: MockServerTestCase {
    func testAdvanceMovesEveryReaderAndDeleteAndResetPutItBack() throws {
        let start = server.clock.now()
        var r = try server.request("GET", "/__mock/clock")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.jsonObject?["now"] as? String, ISO8601.string(start))
        XCTAssertEqual(r.jsonObject?["offsetSeconds"] as? Double, 0)

        r = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 86_400.5])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.jsonObject?["offsetSeconds"] as? Double, 86_400.5)
        XCTAssertEqual(r.jsonObject?["now"] as? String, ISO8601.string(start.addingTimeInterval(86_400.5)))
        // The outbox and the systems read the moved clock.
        _ = try server.musbookingCode(phone: "9123456789")
        XCTAssertEqual(server.outbox.sms().last.map { ISO8601.string($0.sentAt) }, ISO8601.string(start.addingTimeInterval(86_400.5)))
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no reply") }
        let expiry = JSONValue.parse(reply)?["data"]?["api_token_expiration_date"]?.string
        XCTAssertGreaterThan(expiry ?? "", ISO8601.string(start.addingTimeInterval(86_400)))
        // The test's own clock still moves underneath.
        server.clock.advance(by: 10)
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["now"] as? String,
                       ISO8601.string(start.addingTimeInterval(86_410.5)))

        r = try server.request("DELETE", "/__mock/clock", headers: TestServer.adminWrite)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.jsonObject?["offsetSeconds"] as? Double, 0)
        XCTAssertEqual(r.jsonObject?["now"] as? String, ISO8601.string(start.addingTimeInterval(10)))

        _ = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 60])
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["offsetSeconds"] as? Double, 0)
    }

    func testOnlyAPositiveNumberOfSecondsIsAccepted() throws {
        for body in [#"{"advanceSeconds": 0}"#, #"{"advanceSeconds": -5}"#, #"{"advanceSeconds": "60"}"#,
                     #"{"advanceSeconds": true}"#, #"{}"#, "[]", "60", #"{"advanceSeconds": 1e300}"#] {
            let r = try server.request("POST", "/__mock/clock", jsonText: body)
            XCTAssertEqual(r.status, 400, body)
            XCTAssertNotNil(r.jsonObject?["error"] as? String, body)
        }
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["offsetSeconds"] as? Double, 0)
    }

    /// Issue 20 §9: repeated advances stop at 100 years ahead in all, so dates never wrap past 9999.
    func testTheOffsetIsBoundedInAllAndDatesStayInRange() throws {
        let step = 3_153_600_000.0 / 4
        for _ in 0..<4 { XCTAssertEqual(try server.request("POST", "/__mock/clock", json: ["advanceSeconds": step]).status, 200) }
        let r = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 1])
        XCTAssertEqual(r.status, 400)
        XCTAssertTrue((r.jsonObject?["error"] as? String ?? "").contains("100 years ahead in all"), r.text)
        let clock = try server.request("GET", "/__mock/clock").jsonObject
        XCTAssertEqual(clock?["offsetSeconds"] as? Double, 3_153_600_000, "unchanged by the refused advance")
        let now = clock?["now"] as? String ?? ""
        XCTAssertTrue(now.hasPrefix("21") && now.count == 20, now)
        XCTAssertEqual(try server.request("DELETE", "/__mock/clock", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 60]).status, 200, "back in range")
    }

    func testResetAlsoEmptiesTheJournalAndRemovesFaults() throws {
        _ = try server.request("GET", "/rows/1")
        _ = try server.addFault(["path": "/rows/*", "action": ["status": 500]])
        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.journal().count, 0)
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
    }
}

final class TokenControlTests: MockServerTestCase {
    func testAnswersAffectedAndRefusesUnknownSystems() throws {
        for name in ["expire", "revoke"] {
            for body: [String: Any] in [[:], ["system": "musbooking"], ["system": "rows", "token": "abc"]] {
                let r = try server.request("POST", "/__mock/tokens/\(name)", json: body)
                XCTAssertEqual(r.status, 200, "\(name) \(body): \(r.text)")
                XCTAssertNotNil(r.jsonObject?["affected"] as? Int)
            }
            XCTAssertEqual(try server.request("POST", "/__mock/tokens/\(name)", headers: TestServer.adminWrite).status, 200, "no body: every system")
            for body in [#"{"system": "nosuch"}"#, #"{"system": 1}"#, #"{"tokens": "x"}"#, "[1]"] {
                let r = try server.request("POST", "/__mock/tokens/\(name)", jsonText: body)
                XCTAssertEqual(r.status, 400, "\(name) \(body)")
                XCTAssertNotNil(r.jsonObject?["error"] as? String)
            }
        }
    }

    /// A system with the hooks gets each call: one token, or all with nil; `affected` adds up.
    func testTheHooksOfEachSystemAreCalled() throws {
        final class Fake: EmulatedSystem, @unchecked Sendable {
            static let name = "fake"
            static let title = "Fake"
            static let seedKey = "fake"
            let calls = Locked<[String]>([])
            init() {}
            init(seed: [String], environment: MockEnvironment) {}
            let summary = "a stand-in with token hooks"
            let endpoints: [Endpoint] = []
            let seedAccount: String? = nil
            let routeGroup = RouteGroup(system: "fake", prefixes: ["/fake"])
            func register(in router: inout Router) {}
            func reset() {}
            func expireTokens(_ token: String?) -> Int { calls.withLock { $0.append("expire \(token ?? "*")") }; return token == nil ? 3 : 1 }
            func revokeTokens(_ token: String?) -> Int { calls.withLock { $0.append("revoke \(token ?? "*")") }; return 2 }
        }
        let fake = Fake()
        let control = ControlPlane(environment: MockEnvironment(clock: ManualClock(), logger: .silent), systems: [fake])
        XCTAssertEqual(try control.tokens(revoke: false, system: nil, token: nil), 3)
        XCTAssertEqual(try control.tokens(revoke: false, system: nil, token: "t1"), 1)
        XCTAssertEqual(try control.tokens(revoke: true, system: nil, token: "t2"), 2)
        XCTAssertThrowsError(try control.tokens(revoke: true, system: "musbooking", token: nil), "not one of this plane's systems")
        XCTAssertEqual(fake.calls.withLock { $0 }, ["expire *", "expire t1", "revoke t2"])
    }
}

/// The clock control reaches the systems' own expiry (issue 8: a musbooking token expired by the clock gets 400).
final class ClockExpiryTests: MockServerTestCase {
    func testAMusbookingTokenExpiresWhenTheClockPassesItsLifetime() throws {
        let token = try server.musbookingLogin("Test005", "123456")
        XCTAssertEqual(try server.musbookingUser(token).status, 200)
        XCTAssertEqual(try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 25 * 3600]).status, 200)
        let expired = try server.musbookingUser(token)
        XCTAssertEqual(expired.status, 400, expired.text)
        XCTAssertEqual(expired.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(try server.request("DELETE", "/__mock/clock", headers: TestServer.adminWrite).status, 200)
        XCTAssertEqual(try server.musbookingUser(token).status, 200, "back to real time, the token is valid again")
    }
}

/// Token controls seen by each system's own clients, over real sockets (API.md §6.1, issue 8).
final class TokenControlPerSystemTests: MockServerTestCase {
    func testAMusbookingTokenExpiredByTheControlGets400WithAHint() throws {
        let token = try server.musbookingLogin("Test005", "123456")
        XCTAssertEqual(try server.musbookingRegister(phone: "9123456789", extra: [("password", "Secret12")]).status, 200)
        let other = try server.musbookingLogin("9123456789", "Secret12")
        let r = try server.request("POST", "/__mock/tokens/expire", json: ["system": "musbooking", "token": token])
        XCTAssertEqual(r.jsonObject?["affected"] as? Int, 1, r.text)
        let expired = try server.musbookingUser(token)
        XCTAssertEqual(expired.status, 400, expired.text)
        XCTAssertEqual(expired.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertTrue(expired.header("X-Mock-Hint")?.contains("expired") ?? false, "\(expired.headers)")
        XCTAssertEqual(try server.musbookingUser(other).status, 200, "only that token")
    }

    func testAMusbookingTokenRevokedGets401AccessDenied() throws {
        let token = try server.musbookingLogin("Test005", "123456")
        XCTAssertEqual(try server.request("POST", "/__mock/tokens/revoke", json: ["system": "musbooking"]).status, 200)
        let revoked = try server.musbookingUser(token)
        XCTAssertEqual(revoked.status, 401, revoked.text)
        XCTAssertEqual(revoked.text, "Access denied")
        let fresh = try server.musbookingLogin("Test005", "123456")
        XCTAssertEqual(try server.musbookingUser(fresh).status, 200, "a new login works")
    }

    func testASkyZoneTokenRevokedGets401OnGetCustomer() throws {
        let signIn = try server.request("POST", "/tokens", json: ["username": "skyzonecustomer@gmail.com", "password": "password1"])
        let token = try XCTUnwrap((signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String, signIn.text)
        XCTAssertEqual(try server.request("GET", "/customer", headers: bearer(token)).status, 200)
        XCTAssertEqual(try server.request("POST", "/__mock/tokens/revoke", json: ["token": token]).jsonObject?["affected"] as? Int, 1)
        let revoked = try server.request("GET", "/customer", headers: bearer(token))
        XCTAssertEqual(revoked.status, 401, revoked.text)
        XCTAssertNotNil(revoked.jsonObject?["error"], revoked.text)
    }

    func testARowsTokenRevokedGets403() throws {
        let login = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String, login.text)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", token)]).status, 200)
        XCTAssertEqual(try server.request("POST", "/__mock/tokens/revoke", json: ["system": "rows"]).status, 200)
        XCTAssertEqual(try server.request("GET", "/rows/1", headers: [("authorization", token)]).status, 403)
    }

    func testAMusbookingTokenExpiredByTheClockGets400() throws {
        let token = try server.musbookingLogin("Test005", "123456")
        let moved = try server.request("POST", "/__mock/clock", json: ["advanceSeconds": 90_000])
        XCTAssertEqual(moved.jsonObject?["offsetSeconds"] as? Double, 90_000, moved.text)
        let expired = try server.musbookingUser(token)
        XCTAssertEqual(expired.status, 400, expired.text)
        XCTAssertNotNil(expired.header("X-Mock-Hint"))
    }
}
