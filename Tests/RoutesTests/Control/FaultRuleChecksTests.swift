import Foundation
import HTTPServer
import Routes
import MockTestSupport
import TestSupport
import XCTest

/// A fault rule that can never fire is refused, and nothing is added.
final class FaultRuleChecksTests: MockServerTestCase {
    func testRulesThatCanNeverFireAreRefusedAndNothingIsAdded() throws {
        let never: [[String: Any]] = [
            ["system": "rows", "path": "/api/users/sms", "action": ["status": 500]],
            ["system": "skyzone", "path": "/rows/*", "action": ["status": 500]],
            ["system": "musbooking", "path": "/feature-flags", "action": ["status": 200]],
            ["method": "WS", "path": "/rows/1", "action": ["status": 500]],
            ["system": "gateway", "path": "/customer-gateway/customer", "action": ["truncate": true]],
            ["path": "/customer-gateway/customer", "action": ["malformedJSON": true]],
            ["path": "/__mock/health", "action": ["status": 500]],
            ["path": "/rows/1", "times": 0, "action": ["status": 500]],
            ["system": "rows", "path": "LOGIN_CUSTOMER", "action": ["status": 500]],
        ]
        for rule in never {
            let r = try server.request("POST", "/__mock/faults", json: rule)
            XCTAssertEqual(r.status, 400, "\(rule): \(r.text)")
            XCTAssertNotNil(r.jsonObject?["error"] as? String)
        }
        XCTAssertEqual(try server.request("GET", "/__mock/faults").text, "[]")
        // Rules that can fire still pass: a rows rule on /rows and /auth/x, a stub, a pattern.
        for rule: [String: Any] in [["system": "rows", "path": "/rows", "action": ["status": 500]],
                                    ["system": "rows", "path": "/auth/x", "action": ["status": 500]],
                                    ["path": "/feature-flags", "action": ["status": 200, "body": "{}"]],
                                    ["system": "musbooking", "path": "/API/*", "action": ["delayMs": 1]],
                                    ["path": "*", "action": ["truncate": true]]] {
            XCTAssertEqual(try server.request("POST", "/__mock/faults", json: rule).status, 201, "\(rule)")
        }
    }
}
