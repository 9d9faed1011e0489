import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// `POST /__mock/instances` (API.md §6.3) over real sockets: each instance a complete mock on its
/// own port whose state, outbox, journal, faults, clock and resets are its own; bounded.
final class InstanceTests: MockServerTestCase {
    /// Starts an instance and returns its port.
    private func startInstance(_ body: [String: Any] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> (id: String, port: Int) {
        let r = try server.request("POST", "/__mock/instances", json: body)
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        let port = r.jsonObject?["port"] as? Int ?? 0
        XCTAssertEqual(r.jsonObject?["baseURL"] as? String, "http://127.0.0.1:\(port)", file: file, line: line)
        return (r.jsonObject?["id"] as? String ?? "", port)
    }

    private func request(_ port: Int, _ method: String, _ path: String, headers: [(String, String)] = [], body: String = "") throws -> TestResponse {
        let client = try TestHTTPClient(port: port)
        try client.sendRequest(method, path, headers: headers, body: Array(body.utf8))
        return try client.readResponse()
    }

    private let form = [("Content-Type", "application/x-www-form-urlencoded")]

    func testInstancesAreIsolatedFromEachOtherAndFromTheMainServer() throws {
        let a = try startInstance(["smsCode": "4321"]), b = try startInstance()
        XCTAssertNotEqual(a.port, b.port)
        XCTAssertNotEqual(a.port, server.port)
        // State and outbox: a registration on A exists only on A.
        XCTAssertEqual(try request(a.port, "POST", "/api/users/sms", headers: form, body: "phone=9123456789").status, 200)
        let sms = try request(a.port, "GET", "/__mock/sms").jsonArray as? [[String: Any]]
        XCTAssertEqual(sms?.first?["code"] as? String, "4321", "its own smsCode")
        XCTAssertEqual(try request(b.port, "GET", "/__mock/sms").text, "[]")
        XCTAssertEqual(try server.request("GET", "/__mock/sms").text, "[]")
        XCTAssertEqual(try request(a.port, "POST", "/api/users/register", headers: form,
                                   body: "name=A&phone=9123456789&code=4321&password=pass123").status, 200)
        XCTAssertEqual(try request(b.port, "POST", "/api/auth/login", headers: form, body: "login=9123456789&password=pass123").status, 400)
        // Faults, clock and journal are its own too.
        XCTAssertEqual(try request(b.port, "POST", "/__mock/faults", headers: [("Content-Type", "application/json")],
                                   body: #"{"path": "/rows/*", "action": {"status": 500}}"#).status, 201)
        XCTAssertEqual(try request(b.port, "GET", "/rows/1").status, 500)
        XCTAssertEqual(try request(a.port, "GET", "/rows/1").status, 403)
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403)
        XCTAssertEqual(try request(a.port, "POST", "/__mock/clock", headers: [("Content-Type", "application/json")],
                                   body: #"{"advanceSeconds": 3600}"#).status, 200)
        XCTAssertEqual(try server.request("GET", "/__mock/clock").jsonObject?["offsetSeconds"] as? Double, 0)
        XCTAssertEqual(try request(b.port, "GET", "/__mock/requests/count?path=/api/*").jsonObject?["count"] as? Int, 1,
                       "B's journal holds only B's login")
        // A reset of one touches no other.
        XCTAssertEqual(try request(b.port, "POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try request(a.port, "POST", "/api/auth/login", headers: form, body: "login=9123456789&password=pass123").status, 200)
        // Listed, and stopped one by one.
        let listed = try server.request("GET", "/__mock/instances").jsonArray as? [[String: Any]]
        XCTAssertEqual(Set(listed?.compactMap { $0["id"] as? String } ?? []), [a.id, b.id])
        XCTAssertEqual(try server.request("DELETE", "/__mock/instances/\(a.id)", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try server.request("DELETE", "/__mock/instances/\(a.id)", headers: TestServer.adminWrite).status, 404)
        XCTAssertEqual(try server.request("GET", "/__mock/instances").jsonArray?.count, 1)
        XCTAssertEqual(try request(b.port, "GET", "/__mock/health").status, 200)
    }

    func testAnInstanceStartsFromAGivenSeedAndBadInputIs400() throws {
        var seed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestServer.repositorySeedPath))) as? [String: Any])
        var rows = try XCTUnwrap(seed["rows"] as? [String: Any])
        rows["accounts"] = [["email": "other@example.com", "password": "secret9"]]
        seed["rows"] = rows
        let instance = try startInstance(["seed": seed])
        XCTAssertEqual(try request(instance.port, "POST", "/auth/login", headers: [("Content-Type", "application/json")],
                                   body: #"{"email": "other@example.com", "password": "secret9"}"#).status, 200)
        XCTAssertEqual(try request(instance.port, "POST", "/auth/login", headers: [("Content-Type", "application/json")],
                                   body: #"{"email": "johndown@exmample.com", "password": "1234567"}"#).status, 401)
        rows["pageSize"] = "twenty"
        seed["rows"] = rows
        let bad = try server.request("POST", "/__mock/instances", json: ["seed": seed])
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue((bad.jsonObject?["error"] as? String ?? "").contains("pageSize"), bad.text)
        for body: [String: Any] in [["smsCode": "12ab"], ["smsCode": 1234], ["seed": "x"], ["colour": 1]] {
            XCTAssertEqual(try server.request("POST", "/__mock/instances", json: body).status, 400, "\(body)")
        }
        XCTAssertEqual(try server.request("GET", "/__mock/instances").jsonArray?.count, 1, "nothing half-made")
        // An instance makes no instances of its own.
        XCTAssertEqual(try request(instance.port, "POST", "/__mock/instances", headers: TestServer.adminWrite).status, 503)
    }

    func testInstancesAreBoundedWithAHint() throws {
        for _ in 0..<4 { _ = try startInstance() }   // the test server allows 4
        let r = try server.request("POST", "/__mock/instances", headers: TestServer.adminWrite)
        XCTAssertEqual(r.status, 503)
        XCTAssertTrue((r.header("X-Mock-Hint") ?? "").contains("--max-instances"), r.header("X-Mock-Hint") ?? "")
        let id = try XCTUnwrap((try server.request("GET", "/__mock/instances").jsonArray?.first as? [String: Any])?["id"] as? String)
        XCTAssertEqual(try server.request("DELETE", "/__mock/instances/\(id)", headers: TestServer.adminWrite).status, 204)
        _ = try startInstance()
    }
}
