import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest
import MockControl

/// Issue 20 §8: fault rules are capped, so an admin call cannot make every request scan without end.
final class FaultCapTests: MockServerTestCase {
    func testPastTheCapANewRuleIs400AndRemovingOneMakesRoom() throws {
        let rule: [String: Any] = ["path": "/never/*", "action": ["status": 500]]
        for _ in 0..<FaultStore.maxRules { server.app.control.faults.add(try FaultRuleDraft.parse(JSON.serialize(rule))) }
        let refused = try server.request("POST", "/__mock/faults", json: rule)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue((refused.jsonObject?["error"] as? String ?? "").contains("at most \(FaultStore.maxRules)"), refused.text)
        XCTAssertEqual(try server.request("DELETE", "/__mock/faults/1", headers: TestServer.adminWrite).status, 204)
        _ = try server.addFault(rule)
    }
}
