import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport
@testable import StatePersistence

/// Issue 28 R9: rows and gateway accounts reach the change log one record per account (as
/// musbooking's do), not the whole part on each change; a restart has them all.
final class SignedTokenAccountsLogTests: TemporaryDirectoryTestCase {
    private func logText() throws -> String {
        let generation = try XCTUnwrap(ChangeLog.generations(of: statePath).last)
        return try String(contentsOfFile: ChangeLog.path(for: statePath, generation: generation), encoding: .utf8)
    }

    func testEachAccountIsOneRecordAndARestartHasThemAll() throws {
        var server = try TestServer()
        var store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        for i in 0..<3 {
            XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "rows", "email": "r\(i)@example.com", "password": "secret1"]).status, 201)
            XCTAssertEqual(try server.request("POST", "/__mock/accounts", json: ["system": "gateway", "email": "g\(i)@example.com", "password": "secret1"]).status, 201)
            store.flush()
        }
        XCTAssertEqual(try server.request("DELETE", "/__mock/accounts/rows/r1@example.com", headers: [("X-Mock-Admin", "1")]).status, 204)
        store.flush()
        let log = try logText()
        XCTAssertEqual(log.components(separatedBy: #"{"p":"rows","c":"addedAccounts","k":"#).count - 1, 4, "3 upserts and 1 delete:\n\(log)")
        XCTAssertEqual(log.components(separatedBy: #"{"p":"gateway","c":"addedAccounts","k":"#).count - 1, 3, log)
        XCTAssertFalse(log.contains(#""p":"rows","w":1"#) || log.contains(#""p":"gateway","w":1"#), "no part written whole")
        store.closeForTests()   // as a SIGKILL leaves it
        server = try TestServer()
        store = try StateStore.open(path: statePath, parts: server.app.persistentParts, logger: .silent)
        defer { store.close() }
        for (email, status) in [("r0@example.com", 200), ("r1@example.com", 401), ("r2@example.com", 200), ("johndown@exmample.com", 401)] {
            let password = email.hasPrefix("john") ? "wrong" : "secret1"
            XCTAssertEqual(try server.request("POST", "/auth/login", json: ["email": email, "password": password]).status, status, email)
        }
        let gateway = try server.request("GET", "/__mock/accounts").text
        XCTAssertTrue(["g0@example.com", "g1@example.com", "g2@example.com"].allSatisfy(gateway.contains), gateway)
    }
}
