import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import EmulationKit

/// With `--state`, the state file follows the main server only: an instance's changes are never
/// written, and a PUT /__mock/state or a reset to a given seed on the main server is.
final class StateFollowsTheMainInstanceTests: TemporaryDirectoryTestCase {
    private func run(_ randomSeed: UInt64, _ body: (TestServer) throws -> Void) throws {
        let server = try TestServer(random: SeededRandomSource(seed: randomSeed))
        // Wired as main.swift wires it: the app a PUT of the state or a reset to a seed puts in
        // place answers behind the durability gate, and the file follows it.
        let persistence = try MockPersistence.start(app: server.app, server: server.server, statePath: statePath, watchSeed: nil, logger: .silent)
        let switcher = AppSwitcher(app: server.app, server: server.server, responder: persistence.responder(for:)) { [store = persistence.store] next in
            store?.reattach(next.persistentParts)
        }
        defer {
            withExtendedLifetime(switcher) { persistence.close() }
            server.stop()
        }
        try body(server)
    }

    private func login(_ port: Int, _ login: String) throws -> Int {
        let client = try TestHTTPClient(port: port)
        let body = Array("login=\(login)&password=pass123".utf8)
        try client.sendRequest("POST", "/api/auth/login", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
        return try client.readResponse().status
    }

    func testAnInstancesChangesNeverReachTheStateFile() throws {
        try run(1) { server in
            let created = try server.request("POST", "/__mock/instances", json: [:] as [String: Any])
            let port = try XCTUnwrap(created.jsonObject?["port"] as? Int)
            let client = try TestHTTPClient(port: port)
            let account = Array(#"{"system": "musbooking", "phone": "9120000001", "password": "pass123"}"#.utf8)
            try client.sendRequest("POST", "/__mock/accounts", headers: [("Content-Type", "application/json")], body: account)
            XCTAssertEqual(try client.readResponse().status, 201)
            XCTAssertEqual(try login(port, "9120000001"), 200)
            XCTAssertEqual(try server.request("POST", "/__mock/accounts",
                                              json: ["system": "musbooking", "phone": "9120000002", "password": "pass123"]).status, 201)
            // A restored snapshot is written too: the account made after it is gone from the file.
            let snapshot = try server.request("GET", "/__mock/state").body
            XCTAssertEqual(try server.request("POST", "/__mock/accounts",
                                              json: ["system": "musbooking", "phone": "9120000003", "password": "pass123"]).status, 201)
            XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: [("Content-Type", "application/json")], body: snapshot).status, 204)
        }
        try run(2) { server in
            XCTAssertEqual(try login(server.port, "9120000002"), 200, "the main server's account was kept")
            XCTAssertEqual(try login(server.port, "9120000001"), 400, "the instance's was not")
            XCTAssertEqual(try login(server.port, "9120000003"), 400, "the restore was written")
        }
    }

    func testRowsAndGatewayAccountsMadeThroughTheAdminAPISurviveARestartAndASnapshot() throws {
        func rowsLogin(_ server: TestServer, _ email: String, _ password: String) throws -> Int {
            try server.request("POST", "/auth/login", json: ["email": email, "password": password]).status
        }
        try run(1) { server in
            XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "rows", "email": "kept@example.com", "password": "secret1"]).status, 201)
            XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/johndown@exmample.com", headers: TestServer.adminWrite).status, 204)
            XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "gateway", "email": "gw@example.com", "password": "secret1"]).status, 201)
        }
        try run(2) { server in
            XCTAssertEqual(try rowsLogin(server, "kept@example.com", "secret1"), 200)
            XCTAssertEqual(try rowsLogin(server, "johndown@exmample.com", "1234567"), 401, "still removed")
            let listed = try server.request("GET", "/__mock/accounts").jsonObject?["gateway"] as? [[String: Any]]
            XCTAssertTrue(listed?.contains { $0["email"] as? String == "gw@example.com" } ?? false)
            // A snapshot holds them too: reset, then restore.
            let snapshot = try server.request("GET", "/__mock/state").body
            XCTAssertEqual(try server.request("POST", "/__mock/reset", headers: TestServer.adminWrite).status, 204)
            XCTAssertEqual(try rowsLogin(server, "kept@example.com", "secret1"), 401)
            XCTAssertEqual(try server.request("PUT", "/__mock/state", headers: [("Content-Type", "application/json")], body: snapshot).status, 204)
            XCTAssertEqual(try rowsLogin(server, "kept@example.com", "secret1"), 200)
            XCTAssertEqual(try rowsLogin(server, "johndown@exmample.com", "1234567"), 401)
        }
    }
}
