import Foundation
import XCTest
@testable import Routes
import EmulationKit
import MockTestSupport

/// The version the binary reports is the newest one in CHANGELOG.md, so a version people pin
/// always has its notes.
final class ChangelogVersionTests: XCTestCase {
    /// The version of CHANGELOG.md's newest `## VERSION (DATE)` heading.
    private func newestChangelogVersion() throws -> String {
        let root = URL(fileURLWithPath: TestServer.repositorySeedPath).deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // "## Unreleased" collects the changes the next version will carry.
        let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        let newest = try XCTUnwrap(headings.first, "CHANGELOG.md has no \"## VERSION (DATE)\" heading")
        return try XCTUnwrap(newest.dropFirst(3).split(separator: " ").first.map(String.init), "heading \"\(newest)\"")
    }

    func testTheNewestChangelogVersionIsTheOneTheBinaryReports() throws {
        XCTAssertEqual(try newestChangelogVersion(), MockServerVersion.current)
        let parts = MockServerVersion.current.split(separator: ".")
        XCTAssertEqual(parts.count, 3)
        XCTAssertTrue(parts.allSatisfy { Int($0) != nil }, "MAJOR.MINOR.PATCH")
    }

    /// The OpenAPI document served names the same version, so a generated client records which
    /// server it was made from.
    func testTheOpenAPIDocumentsVersionIsTheServersVersion() throws {
        let server = try TestServer()
        defer { server.stop() }
        let document = try XCTUnwrap(try server.request("GET", "/__mock/openapi.json").jsonObject)
        let info = try XCTUnwrap(document["info"] as? [String: Any])
        XCTAssertEqual(info["version"] as? String, try newestChangelogVersion())
        XCTAssertEqual(info["version"] as? String, MockServerVersion.current)
    }
}
