import XCTest
@testable import Stubs
import HTTPServer

/// The JSONPath evaluator on its own: Jayway json-path 2.7's answers (those WireMock 2.35.1
/// gives), and `matchesJsonPath`'s null/absent/error decisions.
final class JSONPathTests: XCTestCase {
    private let store = #"{"store": {"book": [{"title": "A", "price": 8.95, "tags": ["x", "y"]}, {"title": "B", "price": 12.99, "isbn": "1", "tags": []}], "bike": {"color": "red"}}, "limit": 10, "n": 2, "s": "2", "nul": null}"#

    private func read(_ path: String, _ text: String? = nil, options: JSONPathOptions = JSONPathOptions()) throws -> JSONValue {
        let document = try XCTUnwrap(JSONValue.parse(text ?? store))
        var budget = StubBudget()
        return try JSONPath(path, at: "/").read(document, options: options, budget: &budget)
    }

    private func matches(_ path: String, _ sub: String? = nil, _ text: String? = nil) throws -> Bool {
        let pattern: StringPattern
        if let sub {
            pattern = try StringPattern.decode(try XCTUnwrap(JSONValue.parse(#"{"matchesJsonPath": {"expression": "\#(path)", \#(sub)}}"#)), at: "/")
        } else {
            pattern = try StringPattern.decode(.object([(key: "matchesJsonPath", value: .string(path))]), at: "/")
        }
        return pattern.matches(text ?? store, now: Date())
    }

    func testMembersIndexesSlicesUnionsAndWildcards() throws {
        XCTAssertEqual(try read("$.store.bike.color"), "red")
        XCTAssertEqual(try read("$['store']['bike']['color']"), "red")
        XCTAssertEqual(try read("$.store.book[-1].title"), "B")
        XCTAssertEqual(try read("$.store.book[0:1].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[-1:].title"), ["B"])
        XCTAssertEqual(try read("$.store.book[:1].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[0,1].title"), ["A", "B"])
        XCTAssertEqual(try read("$.store.book[*].title"), ["A", "B"])
        XCTAssertEqual(try read("$.store.bike['color','size']"), .object([(key: "color", value: "red")]))
        XCTAssertEqual(try read("$..title"), ["A", "B"])
    }

    func testFilters() throws {
        XCTAssertEqual(try read("$.store.book[?(@.price < $.limit)].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.isbn)].title"), ["B"])
        XCTAssertEqual(try read("$.store.book[?(!@.isbn)].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.title =~ /a/i)].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.title in ['B', 'C'])].title"), ["B"])
        XCTAssertEqual(try read("$.store.book[?(@.title nin ['B'])].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.tags subsetof ['x', 'y', 'z'])].title"), ["A", "B"])
        XCTAssertEqual(try read("$.store.book[?(@.tags anyof ['y'])].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.tags noneof ['y'])].title"), ["B"])
        XCTAssertEqual(try read("$.store.book[?(@.tags size 2)].title"), ["A"])
        XCTAssertEqual(try read("$.store.book[?(@.tags empty true)].title"), ["B"])
        XCTAssertEqual(try read("$.store.book[?(@.tags[0] == 'x' || (@.price > 12 && !(@.title == 'A')))].title"), ["A", "B"])
        XCTAssertEqual(try read("$..[?(@.color == 'red')].color"), ["red"])
        XCTAssertEqual(try read("$.store.book.[?(@.price > 10)].title"), ["B"])
    }

    /// Jayway's loose equality: '2' equals 2 from either side.
    func testLooseComparison() throws {
        XCTAssertEqual(try read("$[?(@.n == '2')].n"), [2])
        XCTAssertEqual(try read("$[?(@.s == 2)].s"), ["2"])
        XCTAssertEqual(try read("$[?(@.s < 3)].s"), [])
    }

    func testFunctions() throws {
        XCTAssertEqual(try read("$.store.book.length()"), 2)
        XCTAssertEqual(try read("$.store.book[0].tags.concat()"), "xy")
        XCTAssertThrowsError(try read("$.store.book[*].price.sum()"))
        XCTAssertEqual(try read("$..price.sum()"), .number(8.95 + 12.99))
        XCTAssertEqual(try read("$.store.bike.keys()"), ["color"])
        XCTAssertTrue(try matches("$.store.book[0].tags.length()", #""equalTo": "2""#))
        XCTAssertTrue(try matches("$..price.max()", #""equalTo": "12.99""#))
        XCTAssertTrue(try matches("$.nums.sum()", #""equalTo": "3.0""#, #"{"nums": [1, 2]}"#))
    }

    /// Jayway 2.7 compiles any function name and looks it up when it evaluates the token:
    /// `first()`, `last()`, `index()` (Jayway 2.8's) fail every evaluation that reaches them.
    func testFunctionsJayway27LacksCompileAndFailWhenEvaluated() throws {
        for path in ["$.store.book.first()", "$.store.book.last()", "$.store.book.index(1)", "$.store.nope().x"] {
            XCTAssertThrowsError(try read(path), path) { error in
                guard case JSONPathFailure.invalid(let message)? = error as? JSONPathFailure else { return XCTFail("\(path): \(error)") }
                XCTAssertTrue(message.hasPrefix("Function with name: "), message)
            }
            XCTAssertFalse(try matches(path), path)
            XCTAssertFalse(try matches(path, #""absent": true"#), path)
        }
        // Scanned, the function takes the scan as its argument (Jayway's inversion): it fails
        // even where the scan finds nothing.
        XCTAssertThrowsError(try read("$..missing.first()"))
        // Inside a filter the failure only fails the item.
        XCTAssertEqual(try read("$.store.book[?(@.tags.first() == 'x')].title"), [])
        // Arguments are still compiled: one that is no path is refused.
        XCTAssertThrowsError(try JSONPath("$.RequestDetail.?(@=='test222')", at: "/x"))
    }

    /// MatchesJsonPathPattern: a definite path to null or nothing, an empty list, an empty
    /// object never match alone; "absent" matches them; an error matches nothing.
    func testNullAbsentAndErrors() throws {
        XCTAssertFalse(try matches("$.nul"))
        XCTAssertFalse(try matches("$.missing"))
        XCTAssertFalse(try matches("$.store.book[?(@.price > 100)]"))
        XCTAssertFalse(try matches("$.e", nil, #"{"e": {}}"#))
        XCTAssertTrue(try matches("$.nul", #""absent": true"#))
        XCTAssertTrue(try matches("$.missing.deeper", #""absent": true"#))
        XCTAssertTrue(try matches("$.store.book[?(@.price > 100)]", #""absent": true"#))
        XCTAssertFalse(try matches("$.nul", #""equalTo": "null""#))
        XCTAssertFalse(try matches("$.a", #""absent": true"#, ""))
        XCTAssertTrue(try matches("$.store.book[*].price", #""equalTo": "12.99""#))
        XCTAssertTrue(try matches("$.store.bike", #""equalTo": "{\n  \"color\" : \"red\"\n}""#))
    }

    /// The template helper reads a missing last member as null (DEFAULT_PATH_LEAF_TO_NULL).
    func testLeafToNull() throws {
        XCTAssertEqual(try read("$..color", options: JSONPathOptions(leafToNull: true)).arrayCount, 5)
        XCTAssertEqual(try read("$.missing", options: JSONPathOptions(leafToNull: true)), .null)
        XCTAssertThrowsError(try read("$.missing"))
    }

    func testWhatJaywayRejectsIsRefused() {
        for bad in ["$.", "$..", "$.a b", "$[?(@.a ==)]", "$['a'", "$.a[?(@.x =~ /(a)\\1/)]"] {
            XCTAssertThrowsError(try JSONPath(bad, at: "/p"), bad)
        }
    }

    func testJavaDoubleText() {
        XCTAssertEqual(JSONPathValues.javaDouble(3), "3.0")
        XCTAssertEqual(JSONPathValues.javaDouble(2.5), "2.5")
        XCTAssertEqual(JSONPathValues.javaDouble(1e7), "1.0E7")
        XCTAssertEqual(JSONPathValues.javaDouble(1.5e-4), "1.5E-4")
    }
}

private extension JSONValue {
    var arrayCount: Int {
        if case .array(let items) = self { return items.count }
        return -1
    }
}
