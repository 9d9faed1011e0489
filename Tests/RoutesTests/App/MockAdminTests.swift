import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import EmulationKit

/// The `/__mock` routes: health, the SMS and e-mail outbox, reset, and who may use them.
final class MockAdminTests: XCTestCase {
    func testHealth() throws {
        let server = try TestServer()
        let r = try server.request("GET", "/__mock/health")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(r.jsonObject?["status"] as? String, "ok")
    }

    func testSMSOutboxListsOldestFirstAndFiltersByPhoneInAnyForm() throws {
        let server = try TestServer()
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]")
        let a = try server.musbookingCode(phone: "+7 (912) 345-67-89")
        server.clock.advance(by: 60)
        let b = try server.musbookingCode(phone: "89031112233")
        server.clock.advance(by: 60)
        let c = try server.musbookingCode(phone: "9123456789")

        let all = try server.request("GET", "/__mock/sms")
        XCTAssertEqual(all.status, 200)
        XCTAssertEqual(all.header("Content-Type"), "application/json; charset=utf-8")
        let items = try XCTUnwrap(all.jsonArray as? [[String: Any]])
        XCTAssertEqual(items.map { $0["code"] as? String }, [a, b, c])
        XCTAssertEqual(items.map { $0["phone"] as? String }, ["9123456789", "9031112233", "9123456789"])
        XCTAssertEqual(Set(items[0].keys), ["phone", "text", "code", "sentAt"])
        XCTAssertEqual(items[0]["text"] as? String, "Код подтверждения: \(a)")
        let start = ManualClock().now()
        XCTAssertEqual(items.map { $0["sentAt"] as? String },
                       [0, 60, 120].map { ISO8601.string(start.addingTimeInterval($0)) })
        XCTAssertTrue((items[0]["sentAt"] as? String ?? "").hasSuffix("Z"))

        for written in ["9123456789", "89123456789", "%2B7%20(912)%20345-67-89", "+7+912+345+67+89"] {
            let filtered = try server.request("GET", "/__mock/sms?phone=\(written)").jsonArray as? [[String: Any]]
            XCTAssertEqual(filtered?.map { $0["code"] as? String }, [a, c], written)
        }
        XCTAssertEqual(try server.request("GET", "/__mock/sms?phone=9000000000").text, "[]")
    }

    func testEmailOutboxFiltersByAddressIgnoringCase() throws {
        let server = try TestServer()
        XCTAssertEqual(try server.request("GET", "/__mock/emails").text, "[]")
        let token = try server.musbookingLogin("Test005", "123456")
        _ = try server.request("POST", "/api/users/send-confirm", headers: bearer(token))
        _ = try server.request("POST", "/api/users/restore", form: [("login", "Test005")])

        let all = try XCTUnwrap(try server.request("GET", "/__mock/emails").jsonArray as? [[String: Any]])
        XCTAssertEqual(all.count, 2)
        XCTAssertEqual(Set(all[0].keys), ["to", "subject", "body", "link", "sentAt"])
        XCTAssertEqual(all[0]["subject"] as? String, "Подтверждение почты")
        XCTAssertEqual(all[0]["link"] as? String, "http://127.0.0.1:\(server.port)/api/users/confirm?id=3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b11")
        XCTAssertEqual(all[1]["subject"] as? String, "Восстановление пароля")
        // Keys stay present when a message has no link or code.
        XCTAssertTrue(all[1]["link"] is NSNull)
        XCTAssertEqual(Set(all[1].keys), ["to", "subject", "body", "link", "sentAt"])

        let filtered = try server.request("GET", "/__mock/emails?to=TEST005%40Mail.COM").jsonArray as? [[String: Any]]
        XCTAssertEqual(filtered?.count, 2)
        XCTAssertEqual(try server.request("GET", "/__mock/emails?to=someone@else.ru").text, "[]")
    }

    func testResetRestoresTheSeedEmptiesTheOutboxAndEndsTokens() throws {
        let server = try TestServer()
        let register = try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")])
        XCTAssertEqual(register.status, 200)
        let seedToken = try server.musbookingLogin("Test005", "123456")
        _ = try server.request("POST", "/api/users/send-confirm", headers: bearer(seedToken))
        XCTAssertFalse(server.outbox.sms().isEmpty)

        let reset = try server.request("POST", "/__mock/reset", headers: [("X-Mock-Admin", "1")])
        XCTAssertEqual(reset.status, 204)
        XCTAssertEqual(reset.body, [])
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]")
        XCTAssertEqual(try server.request("GET", "/__mock/emails").text, "[]")
        assertText(try server.request("POST", "/api/auth/login", form: [("login", "9123456789"), ("password", "pass123")]),
                   400, "Пользователь не найден: 9123456789")
        assertText(try server.musbookingUser(seedToken), 401, "Access denied")
        // The phone is free again and the seed account works.
        XCTAssertEqual(try server.request("POST", "/api/users/sms", form: [("phone", "9123456789")]).status, 200)
        _ = try server.musbookingLogin("Test005", "123456")
        XCTAssertEqual(try server.request("GET", "/__mock/reset").status, 405)
    }

    /// A request as if from another machine; sockets in tests are always loopback, so in-process.
    private func remote(_ server: TestServer, _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders(),
                        from address: String = "10.0.0.7") -> HTTPResponse {
        server.responder.respond(to: HTTPRequest(method: method, target: target, headers: headers), context: RequestContext(remoteAddress: address))
    }

    func testAdminRoutesAnswerOnlyLoopbackClientsByDefault() throws {
        let server = try TestServer()
        _ = try server.musbookingCode(phone: "9123456789")
        for (method, target) in [(HTTPMethod.get, "/__mock/sms"), (.get, "/__mock/emails"), (.post, "/__mock/reset")] {
            XCTAssertEqual(remote(server, method, target).status.code, 403, target)
            XCTAssertEqual(remote(server, method, target, headers: ["X-Mock-Admin-Token": "guess"]).status.code, 403, target)
            XCTAssertEqual(remote(server, method, target, from: "::ffff:192.168.0.3").status.code, 403, target)
        }
        // The refused reset did nothing.
        XCTAssertEqual(server.outbox.sms().count, 1)
        // Loopback in all its forms is let in.
        for address in ["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"] {
            XCTAssertEqual(remote(server, .get, "/__mock/sms", from: address).status.code, 200, address)
        }
        // Health is deliberately open (MockAdmin does not guard it): CI probes it from anywhere.
        XCTAssertEqual(remote(server, .get, "/__mock/health").status.code, 200)
    }

    func testAdminTokenOpensTheRoutesToOtherMachines() throws {
        let server = try TestServer(adminToken: "s3cret-token-0123456789")
        _ = try server.musbookingCode(phone: "9123456789")
        let ok = remote(server, .get, "/__mock/sms", headers: ["x-mock-admin-token": "s3cret-token-0123456789"])
        XCTAssertEqual(ok.status.code, 200)
        XCTAssertEqual((JSON.parse(ok.body) as? [Any])?.count, 1)
        XCTAssertEqual(remote(server, .get, "/__mock/sms").status.code, 403)
        XCTAssertEqual(remote(server, .get, "/__mock/sms", headers: ["X-Mock-Admin-Token": "S3CRET-TOKEN-0123456789"]).status.code, 403)
        XCTAssertEqual(remote(server, .post, "/__mock/reset", headers: ["X-Mock-Admin-Token": "s3cret-token-0123456789"]).status.code, 204)
        XCTAssertEqual(server.outbox.sms().count, 0)
        // Over the socket (loopback): without the header as before, with a wrong one refused.
        XCTAssertEqual(try server.request("GET", "/__mock/emails").status, 200)
        XCTAssertEqual(try server.request("GET", "/__mock/emails", headers: [("X-Mock-Admin-Token", "wrong")]).status, 403)
        XCTAssertEqual(try server.request("GET", "/__mock/emails", headers: [("X-Mock-Admin-Token", "s3cret-token-0123456789")]).status, 200)
    }
}
