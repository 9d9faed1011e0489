import Dispatch
import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import MockControl

/// Issue 28 R10: a capped collection checks its count and adds under one lock, so adds racing
/// at the cap never pass it together.
final class CapRaceTests: MockServerTestCase {
    func testFaultAddsRacingAtTheCapFillItExactly() throws {
        let rule: [String: Any] = ["path": "/never/*", "action": ["status": 500]]
        let room = 8
        for _ in 0..<(FaultStore.maxRules - room) {
            XCTAssertNotNil(server.app.control.faults.add(try FaultRuleDraft.parse(JSON.serialize(rule))))
        }
        let body = try JSONSerialization.data(withJSONObject: rule)
        // 64 adds for 8 places, from 16 keep-alive connections spread over both loops.
        let statuses = Locked<[Int]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            guard let client = try? TestHTTPClient(port: port) else { return }
            for _ in 0..<4 {
                guard (try? client.sendRequest("POST", "/__mock/faults", headers: [("Content-Type", "application/json")], body: Array(body))) != nil,
                      let response = try? client.readResponse() else { return }
                statuses.withLock { $0.append(response.status) }
            }
        }
        let all = statuses.withLock { $0 }
        XCTAssertEqual(all.count, 64)
        XCTAssertEqual(all.filter { $0 == 201 }.count, room, "\(all)")
        XCTAssertEqual(all.filter { $0 == 400 }.count, 64 - room)
        let listed = try server.request("GET", "/__mock/faults")
        XCTAssertEqual(listed.jsonArray?.count, FaultStore.maxRules)
    }
}
