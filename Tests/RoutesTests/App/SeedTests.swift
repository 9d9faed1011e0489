import Foundation
import XCTest
@testable import Routes
import MockTestSupport
import TestSupport

/// A malformed seed stops the server with the file, the place and what is wrong.
final class SeedTests: XCTestCase {
    private func error(for json: String) -> String {
        do {
            _ = try Seed.decode(Data(json.utf8), source: "my-seed.json")
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    private var validSeed: [String: Any] {
        get throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: TestServer.repositorySeedPath))
            return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    func testTheRepositorySeedLoads() throws {
        let seed = try Seed.load(path: TestServer.repositorySeedPath)
        XCTAssertEqual(seed.rows.accounts.first?.email, "johndown@exmample.com")
        XCTAssertEqual(seed.customerGateway.accounts.first?.email, "fpi@bk.ru")
    }

    func testSyntaxErrorNamesFileLineAndColumn() {
        let message = error(for: "{\n  \"rows\": {\n    \"accounts\": [,]\n  }\n}")
        XCTAssertTrue(message.hasPrefix("my-seed.json: not valid JSON at line 3"), message)
    }

    func testMissingKeyNamesThePath() throws {
        var seed = try validSeed
        var rows = try XCTUnwrap(seed["rows"] as? [String: Any])
        rows.removeValue(forKey: "pageSize")
        seed["rows"] = rows
        let text = String(decoding: try JSONSerialization.data(withJSONObject: seed), as: UTF8.self)
        let message = error(for: text)
        XCTAssertTrue(message.contains("my-seed.json"), message)
        XCTAssertTrue(message.contains("rows"), message)
        XCTAssertTrue(message.contains("missing key \"pageSize\""), message)
    }

    func testWrongTypeNamesThePathAndTheType() throws {
        var seed = try validSeed
        var gateway = try XCTUnwrap(seed["customerGateway"] as? [String: Any])
        gateway["tokenLifetimeSeconds"] = "one day"
        seed["customerGateway"] = gateway
        let message = error(for: String(decoding: try JSONSerialization.data(withJSONObject: seed), as: UTF8.self))
        XCTAssertTrue(message.contains("customerGateway.tokenLifetimeSeconds"), message)
        XCTAssertTrue(message.contains("expected"), message)
    }

    func testUnreadableFileIsNamed() {
        XCTAssertThrowsError(try Seed.load(path: "/nonexistent/seed.json")) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/seed.json: cannot read"), "\(error)")
        }
    }
}
