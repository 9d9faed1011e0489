import Foundation
import HTTPServer
import Routes
import TestSupport
import XCTest

/// The journal and fault rules over the wire, for any test target on the whole mock.
extension TestServer {
    /// `GET /__mock/requests` with a query, as parsed entries.
    package func journal(_ query: String = "", file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let r = try request("GET", "/__mock/requests" + (query.isEmpty ? "" : "?" + query))
        XCTAssertEqual(r.status, 200, r.text, file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        return r.jsonArray as? [[String: Any]] ?? []
    }

    /// Posts a fault rule and returns its id (0 on failure, recorded).
    package func addFault(_ rule: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let r = try request("POST", "/__mock/faults", json: rule)
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return r.jsonObject?["id"] as? Int ?? 0
    }
}
