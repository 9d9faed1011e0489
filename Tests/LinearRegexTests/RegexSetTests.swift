import LinearRegex
import XCTest

/// Many patterns at the cost of one pass.
final class RegexSetTests: XCTestCase {
    func testWhichPatternsMatch() throws {
        let set = RegexSet(try ["/users/\\d+", "/users/.*", "/orders/[a-z]+", "(?i)/USERS/1"].map { try RegexPattern($0) })
        let cache = set.makeCache()
        XCTAssertEqual(set.matches("/users/1", cache: cache), [0, 1, 3])
        XCTAssertEqual(set.matches("/users/x", cache: cache), [1])
        XCTAssertEqual(set.matches("/orders/abc", cache: cache), [2])
        XCTAssertEqual(set.matches("/nothing", cache: cache), [])
        XCTAssertEqual(set.matches("/users/1", cache: nil), [0, 1, 3], "the Pike VM agrees")
        XCTAssertEqual(set.matches("/orders/abc", cache: nil), [2])
        XCTAssertEqual(cache.passes, 4)
    }

    func testTenThousandPatternsOnePass() throws {
        let patterns = try (0..<10_000).map { try RegexPattern("/bench/p\($0)/[a-z]+/\\d+") }
        let set = RegexSet(patterns)
        let cache = set.makeCache()
        XCTAssertEqual(set.matches("/bench/p4321/items/7", cache: cache), [4321])
        let path = "/auth/login"
        XCTAssertEqual(set.matches(path, cache: cache), [])
        let warmBefore = cache.steps
        XCTAssertEqual(set.matches(path, cache: cache), [])
        // Warm: at most one transition per scalar, whatever the number of patterns.
        XCTAssertLessThanOrEqual(cache.steps - warmBefore, path.unicodeScalars.count)
        XCTAssertEqual(cache.passes, 3)
    }

    func testSetsWithAssertions() throws {
        let set = RegexSet(try ["^a\\b.*", ".*b$", "(?m)a$\\n.*"].map { try RegexPattern($0) })
        let cache = set.makeCache()
        XCTAssertEqual(set.matches("a b", cache: cache), [0, 1])
        XCTAssertEqual(set.matches("ab", cache: cache), [1])
        XCTAssertEqual(set.matches("a\nx", cache: cache), [2])
        XCTAssertEqual(set.matches("a\nx", cache: nil), [2])
    }
}
