import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `/__mock/requests` over real sockets: entries, filters, bounds, and no secret left readable.
final class RequestJournalTests: MockServerTestCase {
    func testEntriesHaveEveryFieldOldestFirstAndAdminPathsAreLeftOut() throws {
        _ = try server.request("POST", "/auth/login", json: ["email": "johndown@exmample.com", "password": "1234567"])
        _ = try server.request("GET", "/rows/1", headers: [("authorization", "Bearer abcdefgh-1234")])
        _ = try server.request("GET", "/nowhere?x=1")
        _ = try server.request("DELETE", "/rows/1")
        _ = try server.request("GET", "/__mock/sms")
        let entries = try server.journal()
        XCTAssertEqual(entries.map { $0["path"] as? String }, ["/auth/login", "/rows/1", "/nowhere", "/rows/1"])
        XCTAssertEqual(entries.map { $0["status"] as? Int }, [200, 403, 404, 405])
        XCTAssertEqual(entries.map { $0["system"] as? String }, ["rows", "rows", nil, "rows"])
        let ids = entries.compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, 4)
        let first = entries[0]
        XCTAssertEqual(Set(first.keys), ["id", "at", "system", "clientIp", "method", "path", "query", "status", "durationMs",
                                         "requestHeaders", "requestBody", "responseBody", "hint"])
        XCTAssertEqual(first["clientIp"] as? String, "127.0.0.1")
        XCTAssertEqual(first["method"] as? String, "POST")
        XCTAssertTrue(first["hint"] is NSNull)
        XCTAssertNotNil(first["durationMs"] as? Double)
        XCTAssertEqual(first["at"] as? String, "2027-01-15T08:00:00Z")
        XCTAssertEqual((first["requestHeaders"] as? [String: Any])?["Content-Type"] as? String, "application/json")
        XCTAssertEqual(entries[1]["hint"] as? String, try server.request("GET", "/rows/1", headers: [("authorization", "Bearer x")]).header("X-Mock-Hint"))
        XCTAssertEqual(entries[2]["query"] as? String, "x=1")
        XCTAssertEqual(try server.journal("path=/__mock/*").count, 0)
    }

    func testFiltersAndLimits() throws {
        for page in 1...5 { _ = try server.request("GET", "/rows/\(page)") }
        _ = try server.request("POST", "/rsschool/authorize", json: ["login": "username", "password": "password"])
        _ = try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")])
        XCTAssertEqual(try server.journal("system=rows").count, 5)
        XCTAssertEqual(try server.journal("method=post").map { $0["path"] as? String }, ["/rsschool/authorize", "/api/users/sms"])
        XCTAssertEqual(try server.journal("path=/rows/3").count, 1)
        XCTAssertEqual(try server.journal("path=/rows/*").count, 5)
        XCTAssertEqual(try server.journal("path=*/SMS").count, 1, "patterns ignore letter case")
        XCTAssertEqual(try server.journal("status=200&system=rsschool").count, 1)
        let all = try server.journal()
        let ids = all.compactMap { $0["id"] as? Int }
        XCTAssertEqual(try server.journal("limit=2").compactMap { $0["id"] as? Int }, Array(ids.suffix(2)), "newest, oldest first")
        XCTAssertEqual(try server.journal("since=\(ids[1])&limit=2").compactMap { $0["id"] as? Int }, [ids[2], ids[3]], "oldest after since")
        XCTAssertEqual(try server.journal("since=\(ids.last ?? 0)").count, 0)
        for bad in ["limit=0", "limit=x", "status=abc", "since=-1", "color=red"] {
            let r = try server.request("GET", "/__mock/requests?\(bad)")
            XCTAssertEqual(r.status, 400, bad)
            XCTAssertNotNil(r.jsonObject?["error"] as? String, bad)
        }
        XCTAssertEqual(try server.request("DELETE", "/__mock/requests", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.journal().count, 0)
        _ = try server.request("GET", "/rows/1")
        XCTAssertGreaterThan(try server.journal().first?["id"] as? Int ?? 0, ids.last ?? 0, "ids keep increasing after a clear")
    }

    func testTheRingKeepsTheNewestEntriesAndSizeZeroTurnsItOff() throws {
        let small = try TestServer(journalSize: 3)
        for page in 1...7 { _ = try small.request("GET", "/rows/\(page)") }
        XCTAssertEqual(try small.journal().map { $0["path"] as? String }, ["/rows/5", "/rows/6", "/rows/7"])
        XCTAssertEqual(try small.journal("limit=100000").count, 3)
        small.stop()
        let off = try TestServer(journalSize: 0)
        _ = try off.request("GET", "/rows/1")
        XCTAssertEqual(try off.journal().count, 0)
        off.stop()
    }

    /// API.md: "each body cut at 4,096 bytes". The cut is made on the bytes received; what is shown
    /// can be shorter only because a redacted secret (`"password":"…"` → `"***"`) is shorter, or
    /// because the cut backs off to the start of a split UTF-8 character (at most 3 bytes).
    func testBodiesAreCutAt4096BytesAndMarked() throws {
        let long = String(repeating: "a", count: 10_000)
        _ = try server.request("POST", "/rsschool/authorize", jsonText: #"{"login": ""# + long + #"", "password": "password"}"#)
        _ = try server.request("GET", "/rows/2")
        _ = try server.request("POST", "/rsschool/authorize", jsonText: #"{"password": "password", "login": ""# + long + "\"}")
        // `{"login": "` is 11 bytes: an odd offset puts the cut inside a 2-byte Cyrillic letter.
        _ = try server.request("POST", "/rsschool/authorize", jsonText: #"{"login": ""# + String(repeating: "ж", count: 5000) + #""}"#)
        let entries = try server.journal()
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(entries[0]["truncated"] as? Bool, true)
        XCTAssertEqual((entries[0]["requestBody"] as? String)?.utf8.count, 4096, "no secret in the first 4,096 bytes: cut exactly there")
        XCTAssertNil(entries[1]["truncated"], "a page under 4,096 bytes is whole")
        XCTAssertEqual((entries[1]["responseBody"] as? String).map { JSON.parse(Array($0.utf8)) != nil }, true)
        let redacted = try XCTUnwrap(entries[2]["requestBody"] as? String)
        XCTAssertTrue(redacted.hasPrefix(#"{"password": "***", "login": "aaa"#), redacted.prefix(40).description)
        XCTAssertEqual(redacted.utf8.count, 4096 - "password".count + "***".count, "cut at 4,096, then the secret redacted")
        let cyrillic = try XCTUnwrap(entries[3]["requestBody"] as? String)
        XCTAssertEqual(cyrillic.utf8.count, 4095, "the split letter is left out, not shown as U+FFFD")
        XCTAssertFalse(cyrillic.contains("\u{FFFD}"))
        XCTAssertTrue(cyrillic.hasSuffix("жж"))
        XCTAssertEqual(entries[3]["truncated"] as? Bool, true)
    }

    func testGatewayMessagesAreEntriesWithMethodWS() throws {
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"A1","data":{"email":"fpi@bk.ru","password":"123123"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no text reply") }
        let token = try XCTUnwrap(JSONValue.parse(reply)?["data"]?["api_token"]?.string)
        let entries = try server.journal("system=gateway")
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0]["method"] as? String, "WS")
        XCTAssertEqual(entries[0]["path"] as? String, "LOGIN_CUSTOMER")
        XCTAssertEqual(entries[0]["status"] as? Int, 101)
        let text = try server.request("GET", "/__mock/requests").text
        XCTAssertFalse(text.contains("123123"), "the gateway password leaked")
        XCTAssertFalse(text.contains(token), "the API token leaked")
        XCTAssertTrue(text.contains(String(token.prefix(4)) + "…"))
        XCTAssertEqual(try server.journal("method=WS&path=LOGIN_*").count, 1)
    }

    /// API.md §6.1 and issue 8: no password, code or whole token anywhere after a full journey.
    func testAFullMusbookingJourneyLeavesNoSecretInTheJournal() throws {
        let code = try server.musbookingCode(phone: "+7 (912) 345-67-89")
        let register = try server.request("POST", "/api/users/register",
                                          form: [("name", "Иван"), ("phone", "9123456789"), ("code", code), ("email", "ivan@example.ru")])
        XCTAssertEqual(register.status, 200, register.text)
        let generated = try XCTUnwrap(register.jsonObject?["password"] as? String)
        let login = try server.request("GET", "/api/auth/login?login=9123456789&password=\(generated)")
        XCTAssertEqual(login.status, 200, login.text)
        let token = try XCTUnwrap(login.jsonObject?["token"] as? String)
        XCTAssertEqual(try server.musbookingUser(token).status, 200)
        _ = try server.request("POST", "/api/users/change", headers: bearer(token), form: [("fcm", "push-1")])
        XCTAssertEqual(try server.request("POST", "/api/users/send-confirm", headers: bearer(token)).status, 200)
        let link = try XCTUnwrap(server.outbox.emails().last?.link.flatMap(URLComponents.init(string:)))
        XCTAssertEqual(try server.request("GET", link.path + "?" + (link.query ?? "")).status, 200, "confirmed from the e-mail's link")
        let parts = multipart([("login", "9123456789"), ("password", "Multi99x")])
        _ = try server.request("POST", "/api/auth/login", headers: [("Content-Type", parts.contentType)], body: parts.body)
        _ = try server.request("POST", "/api/users/restore", form: [("phone", "9123456789"), ("sms", "true")])
        let newPassword = try XCTUnwrap(server.outbox.sms().last?.code)
        let token2 = try server.musbookingLogin("9123456789", newPassword)
        _ = try server.request("POST", "/api/auth/login", jsonText: #"{"login": "9123456789", "password": "JsonSecret1"}"#)

        // A second account registered with a password of its own, and its login.
        let code2 = try server.musbookingCode(phone: "9000000001")
        XCTAssertEqual(try server.request("POST", "/api/users/register",
                                          form: [("name", "Пётр"), ("phone", "9000000001"), ("code", code2), ("login", "petr.login"), ("password", "Given777")]).status, 200)
        let token3 = try server.musbookingLogin("petr.login", "Given777")

        let text = try server.request("GET", "/__mock/requests?limit=1000").text
        XCTAssertEqual(try server.journal("limit=1000").count, 14)
        for secret in [code, generated, token, "Multi99x", newPassword, token2, "JsonSecret1", code2, "Given777", token3] {
            XCTAssertFalse(text.contains(secret), "\(secret) is readable in the journal")
        }
        XCTAssertTrue(text.contains("Bearer \(token.prefix(4))…"), "the token's first characters are shown")
        XCTAssertTrue(text.contains("***"))
        XCTAssertTrue(text.contains("Иван"), "other fields stay readable")
    }
}
