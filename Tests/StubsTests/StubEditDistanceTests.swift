@testable import Stubs
import XCTest

/// The near misses' URL grade: Levenshtein over the longer length, within a per-call budget of
/// table cells, so the unmatched journal against every mapping cannot hold the loop.
final class StubEditDistanceTests: XCTestCase {
    func testAGradedPairTakesItsCellsFromTheBudget() {
        var budget = 100
        XCTAssertEqual(StubEditDistance.fraction("/actual4", "/actual42", budget: &budget), 1.0 / 9.0, accuracy: 1e-9)
        XCTAssertEqual(budget, 100 - 8 * 9)
        XCTAssertEqual(StubEditDistance.fraction("/same", "/same", budget: &budget), 0, "equal texts cost nothing")
        XCTAssertEqual(budget, 28)
    }

    func testPastTheBudgetOrTheLengthADifferentURLIsAPlainMiss() {
        var budget = 71
        XCTAssertEqual(StubEditDistance.fraction("/actual4", "/actual42", budget: &budget), 1, "72 cells do not fit in 71")
        XCTAssertEqual(budget, 71, "nothing taken")
        var plenty = StubEditDistance.cellsPerCall
        let long = "/" + String(repeating: "a", count: StubEditDistance.maxLength)
        XCTAssertEqual(StubEditDistance.fraction(long, long + "b", budget: &plenty), 1)
        XCTAssertEqual(plenty, StubEditDistance.cellsPerCall)
    }

    /// Pairs are graded until the budget is spent, then counted as plain misses: a call fills at
    /// most its budget (`cellsPerCall` in the server, a small one here).
    func testACallFillsAtMostItsBudget() {
        let n = 64
        let a = String(repeating: "x", count: n), b = String(repeating: "x", count: n - 1) + "y"
        var budget = 10 * n * n + 5
        let graded = (0..<100).filter { _ in StubEditDistance.fraction(a, b, budget: &budget) < 1 }.count
        XCTAssertEqual(graded, 10)
        XCTAssertEqual(budget, 5)
    }
}
