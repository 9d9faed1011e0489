import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit
@testable import GatewaySystem
@testable import StatePersistence

/// API.md §6.3: deleting an account ends its sessions, for the systems whose tokens are signed
/// (rows, gateway) too: a token carries its account's tag, and a deletion voids the tag.
final class AccountDeletionEndsSessionsTests: TemporaryDirectoryTestCase {
    private let seedEmail = "johndown@exmample.com", seedPassword = "1234567"

    private func rowsToken(_ server: TestServer, _ email: String, _ password: String) throws -> String {
        let login = try server.request("POST", "/auth/login", json: ["email": email, "password": password])
        return try XCTUnwrap(login.jsonObject?["token"] as? String, login.text)
    }

    private func rows(_ server: TestServer, _ token: String) throws -> TestResponse {
        try server.request("GET", "/rows/1", headers: [("Authorization", token)])
    }

    func testADeletedRowsAccountsTokenGetsTheUnknownTokenAnswerAndOthersKeepWorking() throws {
        let server = try TestServer()
        defer { server.stop() }
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "rows", "email": "a@example.com", "password": "pw1"]).status, 201)
        let doomed = try rowsToken(server, "a@example.com", "pw1")
        let seeded = try rowsToken(server, seedEmail, seedPassword)
        let unknown = try rows(server, "00000000-0000-4000-8000-000000000000")
        XCTAssertEqual(try rows(server, doomed).status, 200)

        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/a@example.com", headers: TestServer.adminWrite).status, 204)
        let refused = try rows(server, doomed)
        XCTAssertEqual(refused.status, unknown.status, refused.text)
        XCTAssertEqual(refused.text, unknown.text, "the unknown-token answer, byte for byte")
        XCTAssertTrue((refused.header("X-Mock-Hint") ?? "").contains("deleted"), "\(refused.headers)")
        XCTAssertEqual(try rows(server, seeded).status, 200, "another account's session goes on")

        // Created again: the old token stays void, a new login works.
        XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "rows", "email": "a@example.com", "password": "pw1"]).status, 201)
        XCTAssertEqual(try rows(server, doomed).status, 403)
        XCTAssertEqual(try rows(server, try rowsToken(server, "a@example.com", "pw1")).status, 200)

        // A seed account deleted: its sessions end too.
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/\(seedEmail)", headers: TestServer.adminWrite).status, 204)
        XCTAssertEqual(try rows(server, seeded).status, 403)
    }

    func testADeletedGatewayCustomersTokenIsNoLongerIssued() throws {
        let server = try TestServer()
        defer { server.stop() }
        let created = try server.request("POST", "/__mock/accounts", json: ["system": "gateway", "email": "c@example.com", "password": "pw1"])
        XCTAssertEqual(created.status, 201, created.text)
        let id = try XCTUnwrap(created.jsonObject?["id"] as? String)
        let socket = try TestWebSocket(port: server.port, path: CustomerGateway.path)
        try socket.send(text: #"{"type":"LOGIN_CUSTOMER","sequence_id":"1","data":{"email":"C@example.com","password":"pw1"}}"#)
        guard case .text(let reply) = try socket.receiveMessage() else { return XCTFail("a text reply") }
        let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]
        let token = try XCTUnwrap((object?["data"] as? [String: Any])?["api_token"] as? String, reply)
        let gateway = try XCTUnwrap(server.app.system(named: "gateway") as? CustomerGateway)
        XCTAssertTrue(gateway.isIssued(token))
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/gateway/\(id)", headers: TestServer.adminWrite).status, 204)
        XCTAssertFalse(gateway.isIssued(token))
    }

    /// The deletion is in the state file: a restart keeps the token void; and a file written
    /// before tokens carried accounts (no `endedAccounts`) still loads, its tokens valid.
    func testTheDeletionSurvivesARestartAndAnOlderFileStillLoads() throws {
        let first = try TestServer(random: SeededRandomSource(seed: 1))
        var store = try StateStore.open(path: statePath, parts: first.app.persistentParts, logger: .silent)
        let token = try rowsToken(first, seedEmail, seedPassword)
        XCTAssertEqual(try first.request("DELETE", "/__mock/accounts/rows/\(seedEmail)", headers: TestServer.adminWrite).status, 204)
        store.close()
        first.stop()
        let rowsState = try XCTUnwrap(try stateSystems(statePath)["rows"] as? [String: Any])
        XCTAssertEqual((rowsState["endedAccounts"] as? [String])?.count, 1, "\(rowsState)")

        let second = try TestServer(random: SeededRandomSource(seed: 2))
        store = try StateStore.open(path: statePath, parts: second.app.persistentParts, logger: .silent)
        XCTAssertEqual(try rows(second, token).status, 403)
        store.close()
        second.stop()

        // The older form: a key and no account tags; a token issued under that key is valid.
        let old = SignedTokens(random: SeededRandomSource(seed: 3))
        let oldToken = old.issue()
        let key = old.snapshot.tokenKey
        try FileManager.default.removeItem(atPath: statePath)
        let text = #"{"format": "mock-server-state", "version": 1, "systems": {"rows": {"tokenKey": "\#(key)"}}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: statePath))
        let third = try TestServer(random: SeededRandomSource(seed: 4))
        defer { third.stop() }
        store = try StateStore.open(path: statePath, parts: third.app.persistentParts, logger: .silent)
        defer { store.close() }
        XCTAssertEqual(try rows(third, oldToken).status, 200)
    }
}
