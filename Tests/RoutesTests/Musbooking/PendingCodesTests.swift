@testable import Routes
import XCTest
@testable import MusbookingSystem

/// The bounded FIFO of pending SMS codes, as a pure unit.
final class PendingCodesTests: XCTestCase {
    func testBoundedOldestFirstAndReplacementsRefreshAPhone() {
        var codes = PendingCodes(capacity: 100)
        var dropped: [String] = []
        for i in 0..<10_000 {
            if let phone = codes.set("c\(i)", for: "p\(i % 1_000)") { dropped.append(phone) }
        }
        XCTAssertEqual(codes.count, 100)
        XCTAssertEqual(codes["p999"], "c9999")
        XCTAssertEqual(codes["p900"], "c9900")
        XCTAssertNil(codes["p899"])
        XCTAssertEqual(dropped.count, 10_000 - 100)
        XCTAssertEqual(dropped.first, "p0")

        var small = PendingCodes(capacity: 2)
        XCTAssertNil(small.set("1", for: "a"))
        XCTAssertNil(small.set("2", for: "b"))
        XCTAssertNil(small.set("3", for: "a"), "a newer code for a phone replaces, it does not add")
        XCTAssertEqual(small.set("4", for: "c"), "b", "b is now the oldest")
        small.remove("a")
        XCTAssertEqual(small.count, 1)
        XCTAssertNil(small.set("5", for: "d"))
    }
}
