import Foundation
import XCTest
import HTTPServer
@testable import Routes
import MockTestSupport
import TestSupport

/// Issue 20 §3 and §5 over real sockets: a change is answered only once it is in the state file;
/// one that cannot be written is answered 503 with a hint, and health says degraded until it can.
final class DurableStateTests: TemporaryDirectoryTestCase {
    private func sendSMS(_ server: TestServer, _ phone: String) throws -> TestResponse {
        try server.request("POST", "/api/users/sms", form: [("phone", phone)])
    }

    func testAnAnsweredChangeIsAlreadyInTheFile() throws {
        let server = try TestServer()
        let persistence = try MockPersistence.start(app: server.app, server: server.server, statePath: statePath,
                                                    watchSeed: nil, logger: .silent)
        defer { persistence.close() }
        for phone in ["9030000001", "9030000002", "9030000003"] {
            XCTAssertEqual(try sendSMS(server, phone).status, 200)
            // Read at once, no waiting: the answer came after the write.
            XCTAssertTrue(statePhones(statePath).contains(phone), phone)
        }
        XCTAssertEqual(try server.request("GET", "/rows/1").status, 403, "a request that changes nothing is not held")
    }

    func testAChangeThatCannotBeWrittenIs503AndHealthIsDegradedUntilItCan() throws {
        let server = try TestServer()
        let log = LogCapture()
        let persistence = try MockPersistence.start(app: server.app, server: server.server, statePath: statePath,
                                                    watchSeed: nil, logger: log.logger)
        defer { persistence.close() }
        XCTAssertEqual(try sendSMS(server, "9030000001").status, 200)
        // Every write fails now, as on a full disk (the log's own failure path: ENOSPC from write or fsync).
        let store = try XCTUnwrap(persistence.store)
        store.logged.simulatedFailure.withLock { $0 = "No space left on device" }
        for phone in ["9030000002", "9030000003"] {
            let refused = try sendSMS(server, phone)
            XCTAssertEqual(refused.status, 503)
            XCTAssertTrue(refused.header("X-Mock-Hint")?.contains("--state") ?? false, refused.header("X-Mock-Hint") ?? "")
        }
        let health = try server.request("GET", "/__mock/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(health.jsonObject?["status"] as? String, "degraded")
        XCTAssertEqual(log.all.filter { $0.contains("cannot write") }.count, 1, "one line, not one per retry: \(log.all)")
        store.logged.simulatedFailure.withLock { $0 = nil }
        XCTAssertEqual(try sendSMS(server, "9030000004").status, 200, "written again once it can be")
        XCTAssertEqual(try server.request("GET", "/__mock/health").jsonObject?["status"] as? String, "ok")
        // What was refused stayed in memory and is in the file now.
        XCTAssertTrue(Set(statePhones(statePath)).isSuperset(of: ["9030000002", "9030000003", "9030000004"]))
    }
}
