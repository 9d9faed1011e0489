import XCTest
@testable import Stubs
import HTTPServer

/// json-smart 2.4.8's permissive reading (what Jayway parses a body with in WireMock 2.35.1),
/// each answer checked against WireMock through the jsonPath helper.
final class JSONSmartParserTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONSmartParser.parse(text) }

    func testJSONReadsAsJSON() throws {
        XCTAssertEqual(try parse(#"{"a": [1, 2.5, true, null, "x\"y"]}"#),
                       .object([(key: "a", value: .array([.number(1), .number(2.5), .bool(true), .null, .string("x\"y")]))]))
    }

    func testPermissiveForms() throws {
        XCTAssertEqual(try parse("not json"), "not json")
        XCTAssertEqual(try parse("  spaced out  "), "spaced out")
        XCTAssertEqual(try parse("123abc"), "123abc")
        XCTAssertEqual(try parse("{a: b c, 'd': [1 2, 3,], e: tru}"),
                       .object([(key: "a", value: "b c"), (key: "d", value: .array(["1 2", .number(3)])), (key: "e", value: "tru")]))
        XCTAssertEqual(try parse(#"{"a":1} trailing"#), .object([(key: "a", value: .number(1))]))
        XCTAssertEqual(try parse("[,1,,2,]"), .array([.number(1), .number(2)]))
        XCTAssertEqual(try parse(#"["a" "b"]"#), .array(["a", "b"]))
        XCTAssertEqual(try parse("-"), .number(0))
        XCTAssertEqual(try parse(" "), "")
    }

    /// A repeated key keeps its first place and takes the last value (a LinkedHashMap).
    func testRepeatedKey() throws {
        XCTAssertEqual(try parse(#"{"a":1,"b":3,"a":2}"#), .object([(key: "a", value: .number(2)), (key: "b", value: .number(3))]))
    }

    /// Without a backslash a string is taken up to its quote as it is; with one, escape by escape:
    /// control characters and unknown escapes are dropped, `\x41` is a character.
    func testStrings() throws {
        XCTAssertEqual(try parse("{\"a\":\"x\ny\"}"), .object([(key: "a", value: "x\ny")]))
        XCTAssertEqual(try parse("{\"a\":\"x\\u0041\\q\ty\\x41\"}"), .object([(key: "a", value: "xAyA")]))
    }

    func testErrors() {
        for bad in ["[1,2", "{bad", #"{"a":}"#, #"{"a" "b"}"#, #"{"a":"x"#, "}", "[1e5, 1e, 2E+]", "{\"a\":12é}"] {
            XCTAssertThrowsError(try parse(bad), bad)
        }
        XCTAssertThrowsError(try parse(String(repeating: "[", count: JSONSmartParser.maxDepth + 1))) { error in
            guard case .tooDeep? = error as? JSONSmartFailure else { return XCTFail("\(error)") }
        }
    }

    /// `matchesJsonPath` reads the body the same way: `{a:1}` has `$.a`.
    func testMatcherReadsPermissively() throws {
        let pattern = try StringPattern.decode(.object([(key: "matchesJsonPath", value: .string("$.a"))]), at: "/")
        XCTAssertTrue(pattern.matches("{a:1}", now: Date()))
        XCTAssertTrue(pattern.matches(#"{"a":1} and more"#, now: Date()))
        XCTAssertFalse(pattern.matches(#"{"a":1"#, now: Date()))
        XCTAssertFalse(pattern.matches("", now: Date()))
    }

    /// Nesting to the cap parses, one more is refused: within a 512 KiB stack (the Darwin-like
    /// CI run's), where the stub matchers may run on a test's own thread.
    func testNestingToTheCapParsesAndDeeperIsRefused() throws {
        let n = JSONSmartParser.maxDepth
        XCTAssertNoThrow(try parse(String(repeating: "[", count: n) + String(repeating: "]", count: n)))
        XCTAssertNoThrow(try parse(String(repeating: "{a:", count: n) + "1" + String(repeating: "}", count: n)))
        XCTAssertThrowsError(try parse(String(repeating: "[", count: n + 1) + String(repeating: "]", count: n + 1)))
    }

    /// Past the first members an object is indexed: a repeated key still takes the last value in
    /// its first place, and many keys read in linear time (no scan per key).
    func testManyKeysAndARepeatedOneAfterTheIndexStarts() throws {
        let keys = (0..<40).map { "k\($0)" }
        let text = "{" + keys.map { "\($0): 1" }.joined(separator: ",") + ", k3: 2, k30: 3, k39: 4}"
        guard case .object(let members) = try parse(text) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), keys)
        XCTAssertEqual(members[3].value, .number(2))
        XCTAssertEqual(members[30].value, .number(3))
        XCTAssertEqual(members[39].value, .number(4))
        XCTAssertEqual(members[4].value, .number(1))
    }
}
