import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
import MockServerAdminClient
import MockServerKit

/// The admin client's arrange, isolate and verify calls against a real server over HTTP.
final class AdminClientArrangeTests: AdminClientTestCase {
    func testAccountsOutboxStateAndResetWithASeed() async throws {
        let (server, admin) = try start()
        let user = try await admin.createAccount(system: "musbooking", fields: ["phone": "+7 912 345-67-89", "password": "pass123",
                                                                                 "email": "a@b.ru", "isConfirmed": true])
        XCTAssertEqual(user.phone, "9123456789")
        XCTAssertEqual(user.isConfirmed, true)
        let sky = try await admin.createAccount(system: "skyzone", fields: ["externalToken": "t-1", "externalType": "twitter", "firstName": "Sky"])
        let listed = try await admin.accounts()
        XCTAssertEqual(listed["skyzone"]?.contains { $0.id == sky.id }, true)
        let snapshot = try await admin.state()
        try await admin.removeAccount(system: "musbooking", id: try XCTUnwrap(user.id))
        let value1 = try await call(server, "POST", "/api/auth/login", form: "login=9123456789&password=pass123").status
        XCTAssertEqual(value1, 400)
        try await admin.restoreState(snapshot)
        let value2 = try await call(server, "POST", "/api/auth/login", form: "login=9123456789&password=pass123").status
        XCTAssertEqual(value2, 200)

        let value3 = try await call(server, "POST", "/api/users/sms", form: "phone=9120000000").status
        XCTAssertEqual(value3, 200)
        try await admin.clearSMS()
        let value4 = try await admin.sms()
        XCTAssertEqual(value4, [])
        try await admin.clearEmails()

        let seed = Data(EmbeddedMockServer.bundledSeedJSON.utf8)
        try await admin.reset(seed: seed)
        let value5 = try await call(server, "POST", "/api/auth/login", form: "login=9123456789&password=pass123").status
        XCTAssertEqual(value5, 400)
        do {
            try await admin.reset(seed: Data("[]".utf8))
            XCTFail("a seed that is not an object was sent")
        } catch is MockAdminClient.Failure {}
    }

    func testInstancesCountsAndWaits() async throws {
        let (server, admin) = try start()
        try await admin.waitUntilHealthy(timeout: 5)
        let instance = try await admin.createInstance(smsCode: "2468")
        let value6 = try await admin.instances().map(\.id)
        XCTAssertEqual(value6, [instance.id])
        let clone = MockAdminClient(baseURL: try XCTUnwrap(URL(string: instance.baseURL)))
        // The wait is registered first, the SMS sent after: the answer comes when it arrives.
        // Any SMS (new: false): whether the wait or the SMS reaches the server first, the answer is the same.
        async let waited = clone.waitForSMS(to: "9123456789", new: false, timeout: 10)
        let value7 = try await call(instance.baseURL, "POST", "/api/users/sms", form: "phone=%2B79123456789").status
        XCTAssertEqual(value7, 200)
        let sms = try await waited
        XCTAssertEqual(sms.code, "2468")
        let value8 = try await admin.sms()
        XCTAssertEqual(value8, [], "the main server's outbox is its own")
        let value9 = try await clone.requestCount(MockRequestFilter(system: "musbooking", body: "9123456789"))
        XCTAssertEqual(value9, 1)
        let value10 = try await clone.waitForRequests(MockRequestFilter(path: "/api/users/sms"), count: 1, timeout: 5)
        XCTAssertEqual(value10, 1)
        let value11 = try await clone.requests(MockRequestFilter(hint: false)).count
        XCTAssertEqual(value11, 1)
        do {
            try await clone.waitForRequests(MockRequestFilter(path: "/nothing"), timeout: 0.1)
            XCTFail("nothing matched, yet the wait returned")
        } catch let failure as MockAdminClient.Failure {
            XCTAssertTrue(failure.description.contains("fewer than 1"), failure.description)
        }

        // An e-mail: the confirmation link of a created, unconfirmed user.
        _ = try await clone.createAccount(system: "musbooking", fields: ["phone": "9120000001", "password": "pass123", "email": "e@x.ru"])
        async let mail = clone.waitForEmail(to: "E@x.ru", new: false, timeout: 10)
        var request = URLRequest(url: try XCTUnwrap(URL(string: instance.baseURL + "/api/auth/login?login=9120000001&password=pass123")))
        let (data, _) = try await URLSession.shared.data(for: request)
        let token = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String)
        request = URLRequest(url: try XCTUnwrap(URL(string: instance.baseURL + "/api/users/send-confirm")))
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        _ = try await URLSession.shared.data(for: request)
        let received = try await mail
        XCTAssertNotNil(received.link)

        try await admin.removeInstance(instance.id)
        let value12 = try await admin.instances()
        XCTAssertEqual(value12, [])
        _ = server
    }

    /// Each value the client puts in a path is one segment (MockAdminRoute.path): an id with a
    /// `/`, a space, a `%` and Cyrillic reaches the account route whole, and a base URL with a
    /// trailing slash is joined without a doubled one.
    func testValuesInPathsArriveWhole() async throws {
        let (server, admin) = try start()
        do {
            try await admin.removeAccount(system: "musbooking", id: "a/b c%ё")
            XCTFail("there is no such account")
        } catch let failure as MockAdminClient.Failure {
            XCTAssertTrue(failure.description.contains("404"), failure.description)
            XCTAssertTrue(failure.description.contains("no musbooking account with id a/b c%ё"), failure.description)
        }
        let slashed = MockAdminClient(baseURL: try XCTUnwrap(URL(string: server.baseURL.absoluteString + "/")))
        let healthy = await slashed.health()
        XCTAssertTrue(healthy)
        let faults = try await slashed.faults()
        XCTAssertEqual(faults, [])
    }
}
