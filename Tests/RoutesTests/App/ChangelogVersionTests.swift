import Foundation
import XCTest
@testable import Routes
import MockTestSupport

/// The version the binary reports is the newest one in CHANGELOG.md, so a version people pin
/// always has its notes.
final class ChangelogVersionTests: XCTestCase {
    func testTheNewestChangelogVersionIsTheOneTheBinaryReports() throws {
        let root = URL(fileURLWithPath: TestServer.repositorySeedPath).deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        // "## Unreleased" collects the changes the next version will carry.
        let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") && $0 != "## Unreleased" }
        let newest = try XCTUnwrap(headings.first, "CHANGELOG.md has no \"## VERSION (DATE)\" heading")
        let version = newest.dropFirst(3).split(separator: " ").first.map(String.init)
        XCTAssertEqual(version, MockServerVersion.current, "CHANGELOG.md's newest heading is \"\(newest)\"")
        let parts = MockServerVersion.current.split(separator: ".")
        XCTAssertEqual(parts.count, 3)
        XCTAssertTrue(parts.allSatisfy { Int($0) != nil }, "MAJOR.MINOR.PATCH")
    }
}
