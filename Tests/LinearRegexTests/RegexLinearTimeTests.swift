import LinearRegex
import XCTest

/// "Linear" checked by instructions executed, not by timing: patterns that take a backtracking
/// engine exponential time stay within c × text length × program size.
final class RegexLinearTimeTests: XCTestCase {
    func testCatastrophicPatternOnTenThousandScalars() throws {
        let regex = try RegexPattern("(a+)+$")
        let text = String(repeating: "a", count: 10_000) + "b"
        let n = text.unicodeScalars.count + 1, m = regex.instructionCount
        var pike = 0
        XCTAssertEqual(regex.matchesWhole(text, using: .pikeVM, steps: &pike), false)
        XCTAssertLessThanOrEqual(pike, 2 * n * m, "Pike VM: \(pike) steps for n=\(n), m=\(m)")
        XCTAssertGreaterThan(pike, 0)
        var dfa = 0
        XCTAssertEqual(regex.matchesWhole(text, using: .lazyDFA, steps: &dfa), false)
        XCTAssertLessThanOrEqual(dfa, 2 * n * m)
        // Warm, the DFA reads each scalar once.
        var warm = 0
        XCTAssertEqual(regex.matchesWhole(text, using: .lazyDFA, steps: &warm), false)
        XCTAssertLessThanOrEqual(warm, n + 2 * m)
        var find = 0
        XCTAssertNil(try RegexPattern("(a+)+c").firstMatch(in: text, steps: &find))
        XCTAssertLessThanOrEqual(find, 3 * n * m)
    }

    func testStepsGrowLinearly() throws {
        let regex = try RegexPattern("(x+x+)+y")
        func steps(_ count: Int) -> Int {
            var s = 0
            _ = regex.matchesWhole(String(repeating: "x", count: count), using: .pikeVM, steps: &s)
            return s
        }
        let small = steps(1_000), large = steps(4_000)
        XCTAssertLessThan(Double(large) / Double(small), 4.5, "\(small) → \(large)")
    }

    func testDFACacheIsBoundedAndFallsBack() throws {
        // (a|b)*a(a|b){12} needs 2^13 DFA states: more than the cache holds.
        let regex = try RegexPattern("(a|b)*a(a|b){12}")
        var text = ""
        var seed: UInt32 = 7
        for _ in 0..<5_000 {
            seed = seed &* 1_103_515_245 &+ 12_345
            text += (seed >> 16) & 1 == 0 ? "a" : "b"
        }
        text += "a" + String(repeating: "b", count: 12)
        var steps = 0
        XCTAssertEqual(regex.matchesWhole(text, using: .pikeVM, steps: &steps), true)
        XCTAssertTrue(regex.matchesWhole(text), "the automatic engine falls back to the Pike VM")
    }
}
