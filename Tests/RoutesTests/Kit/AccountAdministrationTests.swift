import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `POST /__mock/accounts` and `DELETE /__mock/accounts/<system>/<id>` (API.md §6.3) over real
/// sockets: accounts in the state a test needs, checked as the sign-up checks them, removed one by one.
final class AccountAdministrationTests: MockServerTestCase {
    private func create(_ account: [String: Any]) throws -> TestResponse {
        try server.request("POST", "/__mock/accounts", json: account)
    }

    func testAConfirmedMusbookingUserLogsInWithoutTheSMSFlow() throws {
        let r = try create(["system": "musbooking", "phone": "+7 912 345-67-89", "password": "pass123", "login": "ivan_92",
                            "name": "Иван", "lastName": "Петров", "email": "ivan@example.ru", "isConfirmed": true,
                            "birthday": "17.05.1990"])
        XCTAssertEqual(r.status, 201, r.text)
        let account = try XCTUnwrap(r.jsonObject)
        XCTAssertEqual(account["phone"] as? String, "9123456789")
        XCTAssertEqual(account["login"] as? String, "ivan_92")
        XCTAssertEqual(account["isConfirmed"] as? Bool, true)
        XCTAssertNil(account["password"], "no passwords in the listing")
        let listed = try server.request("GET", "/__mock/accounts").jsonObject?["musbooking"] as? [[String: Any]]
        XCTAssertTrue(listed?.contains { $0["id"] as? String == account["id"] as? String } ?? false)
        XCTAssertTrue(server.outbox.sms().isEmpty, "nothing was sent")

        let token = try server.musbookingLogin("ivan_92", "pass123")
        let profile = try server.musbookingUser(token).jsonObject ?? [:]
        XCTAssertEqual(profile["isConfirmed"] as? Bool, true)
        XCTAssertEqual(profile["firstName"] as? String, "Иван")
        XCTAssertEqual(profile["lastName"] as? String, "Петров")
        XCTAssertEqual(profile["birthday"] as? String, "17.05.1990 00:00:00")

        // Without a login, the phone is the login; unconfirmed by default.
        let plain = try create(["system": "musbooking", "phone": "9120000001", "password": "pass123", "email": "a@b.ru"])
        XCTAssertEqual(plain.status, 201, plain.text)
        XCTAssertEqual(plain.jsonObject?["isConfirmed"] as? Bool, false)
        XCTAssertFalse(try server.musbookingLogin("9120000001", "pass123").isEmpty)

        // Removed: its session ends and it can no longer log in.
        let id = try XCTUnwrap(account["id"] as? String)
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/musbooking/\(id)", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.musbookingUser(token).status, 401)
        XCTAssertEqual(try server.request("POST", "/api/auth/login", form: [("login", "ivan_92"), ("password", "pass123")]).status, 400)
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/musbooking/\(id)", headers: TestServer.adminWrite).status, 404)
        // The phone is free again: the app's own flow can register it.
        XCTAssertEqual(try server.musbookingRegister(phone: "9123456789", extra: [("password", "pass123")]).status, 200)
    }

    func testBadOrExistingAccountsAreRefusedNamingTheFieldAndChangeNothing() throws {
        let before = try server.request("GET", "/__mock/accounts").text
        let bad: [([String: Any], String)] = [
            (["system": "musbooking", "password": "pass123"], "phone"),
            (["system": "musbooking", "phone": "123", "password": "pass123"], "phone"),
            (["system": "musbooking", "phone": "9123456789", "password": "short"], "password"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "login": "abc"], "login"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "email": "x@"], "email"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "isConfirmed": "yes"], "isConfirmed"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "isConfirmed": true], "isConfirmed"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "birthday": "31.02.2000"], "birthday"),
            (["system": "musbooking", "phone": "9123456789", "password": "pass123", "colour": "red"], "colour"),
            (["system": "skyzone", "email": "a@b.c"], "password"),
            (["system": "skyzone", "externalToken": "t", "externalType": "myspace"], "externalType"),
            (["system": "skyzone", "email": "a@b.c", "password": "p", "firstName": 7], "firstName"),
            (["system": "nope"], "system"),
            (["phone": "9123456789"], "system"),
        ]
        for (account, field) in bad {
            let r = try create(account)
            XCTAssertEqual(r.status, 400, "\(account): \(r.text)")
            XCTAssertTrue((r.jsonObject?["error"] as? String ?? "").contains(field), "\(field): \(r.text)")
        }
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", jsonText: "[1]").status, 400)
        for existing: [String: Any] in [["system": "musbooking", "phone": MusbookingSeedData.phone, "password": "pass123"],
                                        ["system": "musbooking", "phone": "9123456789", "password": "pass123", "login": "TEST005"],
                                        ["system": "skyzone", "email": "SkyZoneCustomer@gmail.com", "password": "x1"]] {
            XCTAssertEqual(try create(existing).status, 409, "\(existing)")
        }
        XCTAssertEqual(try server.request("GET", "/__mock/accounts").text, before, "nothing changed")
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rsschool/1", headers: TestServer.adminWrite).status, 404)
    }

    func testSkyZoneSocialAndPasswordAccountsSignInAndAreRemoved() throws {
        let social = try create(["system": "skyzone", "externalToken": "fb-token-1", "externalType": "facebook", "firstName": "Sky"])
        XCTAssertEqual(social.status, 201, social.text)
        let signIn = try server.request("POST", "/tokens", json: ["external-token": "fb-token-1", "external-type": "facebook"])
        XCTAssertEqual(signIn.status, 200)
        let profile = try XCTUnwrap(signIn.jsonObject?["profile"] as? [String: Any])
        XCTAssertEqual(profile["firstName"] as? String, "Sky")
        XCTAssertEqual(profile["external-type"] as? String, "facebook")
        let token = (signIn.jsonObject?["auth"] as? [String: Any])?["token"] as? String ?? ""

        let mail = try create(["system": "skyzone", "email": "new@sky.zone", "password": "secret", "mobilePhoneNumber": "+1 555"])
        XCTAssertEqual(mail.status, 201, mail.text)
        XCTAssertEqual(try server.request("POST", "/tokens", json: ["username": "new@sky.zone", "password": "secret"]).status, 200)

        let id = try XCTUnwrap(social.jsonObject?["id"] as? String)
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/skyzone/\(id)", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("GET", "/customer", headers: bearer(token)).status, 401, "its sessions ended")
        XCTAssertEqual(try server.request("POST", "/tokens", json: ["external-token": "fb-token-1", "external-type": "facebook"]).status, 401)
        // A reset forgets created accounts.
        _ = try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite)
        XCTAssertEqual(try server.request("POST", "/tokens", json: ["username": "new@sky.zone", "password": "secret"]).status, 401)
    }

    func testRowsAndGatewayAccountsLogInAndAreRemovedAndResetForgetsThem() throws {
        func rowsLogin(_ email: String, _ password: String) throws -> Int {
            try server.request("POST", "/auth/login", json: ["email": email, "password": password]).status
        }
        let rows = try create(["system": "rows", "email": "tester@example.com", "password": "secret1"])
        XCTAssertEqual(rows.status, 201, rows.text)
        XCTAssertEqual(try rowsLogin("tester@example.com", "secret1"), 200)
        XCTAssertEqual(try create(["system": "rows", "email": "tester@example.com", "password": "x"]).status, 409)
        XCTAssertEqual(try create(["system": "rows", "email": "johndown@exmample.com", "password": "x"]).status, 409, "the seed's")
        XCTAssertEqual(try create(["system": "rows", "email": "a@b.c"]).status, 400)
        // The seed's account can be removed too, and a reset brings it back.
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/johndown@exmample.com", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567"), 401)

        let gateway = try create(["system": "gateway", "email": "Customer@Example.com", "password": "secret1"])
        XCTAssertEqual(gateway.status, 201, gateway.text)
        XCTAssertEqual(try create(["system": "gateway", "email": "not-an-address", "password": "x"]).status, 400)
        let ws = try TestWebSocket(port: server.port, path: "/customer-gateway/customer")
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"customer@example.com","password":"secret1"}}"#)
        guard case .text(let reply) = try ws.receiveMessage() else { return XCTFail("no reply") }
        XCTAssertEqual(JSONValue.parse(reply)?["type"]?.string, "CUSTOMER_API_TOKEN", reply)
        let id = try XCTUnwrap(gateway.jsonObject?["id"] as? String)
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/gateway/\(id)", headers: TestServer.adminWrite).status, 204)
        try ws.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"2","data":{"email":"customer@example.com","password":"secret1"}}"#)
        guard case .text(let refused) = try ws.receiveMessage() else { return XCTFail("no reply") }
        XCTAssertEqual(JSONValue.parse(refused)?["type"]?.string, "CUSTOMER_ERROR", refused)

        XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try rowsLogin("johndown@exmample.com", "1234567"), 200)
        XCTAssertEqual(try rowsLogin("tester@example.com", "secret1"), 401)
    }
}
