import Foundation
import XCTest
import Routes
import MockTestSupport
import TestSupport

/// The seed compiled into the binary is the repository's `seed.json`, byte for byte.
final class BundledSeedTests: XCTestCase {
    func testBundledSeedEqualsSeedJSONByteForByte() throws {
        let file = try Data(contentsOf: URL(fileURLWithPath: TestServer.repositorySeedPath))
        XCTAssertTrue(Data(BundledSeed.json.utf8) == file,
                      "Sources/Routes/Composition/BundledSeed.swift is out of date with seed.json: run scripts/embed-seed.sh")
    }

    func testBundledSeedDecodes() throws {
        let seed = try Seed.bundled()
        XCTAssertEqual(seed.rows.accounts.first?.email, "johndown@exmample.com")
    }
}
