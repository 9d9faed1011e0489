import LinearRegex
import XCTest

/// What needs backtracking is refused by name, and so are programs over the size cap.
final class RegexRefusalTests: XCTestCase {
    private func refusal(_ pattern: String) -> String? {
        do {
            _ = try RegexPattern(pattern)
            return nil
        } catch {
            return error.message
        }
    }

    func testBacktrackingConstructsAreRefusedByName() {
        let cases = [
            #"(a)\1"#: "backreferences (\\1)",
            #"(?<x>a)\k<x>"#: "backreferences (\\k<name>)",
            "a(?=b)": "lookahead assertions",
            "a(?!b)": "negative lookahead assertions",
            "(?<=a)b": "lookbehind assertions",
            "(?<!a)b": "negative lookbehind assertions",
            "a*+": "possessive quantifiers",
            "a{1,2}+": "possessive quantifiers",
            "(?>a+)b": "atomic groups",
        ]
        for (pattern, construct) in cases {
            let message = refusal(pattern)
            XCTAssertTrue(message?.hasPrefix(construct) == true, "\(pattern): \(message ?? "compiled")")
            XCTAssertTrue(message?.contains("need backtracking; this server matches in linear time and refuses them") == true, pattern)
        }
    }

    func testSyntaxErrors() {
        for pattern in ["(a", "a)", "[a-", "*a", "a**", "\\", "[z-a]", "a{3,2}", "\\q", "(?<1a>x)", "(?Q)", "\\p{L}", "\\uZZZZ"] {
            XCTAssertNotNil(refusal(pattern), pattern)
        }
    }

    func testProgramSizeIsCapped() {
        XCTAssertNil(refusal("a{1000}"))
        XCTAssertTrue(refusal("(a{1000}){1000}")?.contains("instructions") == true)
        XCTAssertTrue(refusal("a{1001}")?.contains("repetition counts above 1000") == true)
        var deep = String(repeating: "(", count: 200)
        deep += String(repeating: ")", count: 200)
        XCTAssertTrue(refusal(deep)?.contains("nested deeper") == true)
        // The deepest nesting accepted parses and compiles within a 512 KiB stack (the test
        // runs so under scripts/darwin-like.sh), groups and classes alike.
        let deepest = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        XCTAssertNil(refusal(deepest))
        XCTAssertEqual(try RegexPattern(deepest).matchesWhole("a"), true)
        let classes = String(repeating: "[", count: 100) + "a" + String(repeating: "]", count: 100)
        XCTAssertNil(refusal(classes))
    }
}
