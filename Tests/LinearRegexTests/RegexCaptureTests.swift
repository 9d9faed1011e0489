import LinearRegex
import XCTest

/// Groups and the leftmost, highest-priority match a backtracking engine would report.
final class RegexCaptureTests: XCTestCase {
    private func groups(_ m: RegexMatch?, in text: String) -> [String?] {
        guard let m else { return [] }
        return [String(text[m.range])] + m.groups.map { $0.map { String(text[$0]) } }
    }

    func testFirstMatchIsLeftmostWithGroups() throws {
        let regex = try RegexPattern(#"(\d+)-(?<word>[a-z]+)"#)
        let text = "id: 12-ab 34-cd"
        let m = regex.firstMatch(in: text)
        XCTAssertEqual(groups(m, in: text), ["12-ab", "12", "ab"])
        XCTAssertEqual(m.flatMap { $0[name: "word"] }.map { String(text[$0]) }, "ab")
        XCTAssertNil(regex.firstMatch(in: "none here"))
    }

    func testGreedyAndLazyGroups() throws {
        let text = "<a><b>"
        XCTAssertEqual(groups(try RegexPattern("<(.+)>").firstMatch(in: text), in: text), ["<a><b>", "a><b"])
        XCTAssertEqual(groups(try RegexPattern("<(.+?)>").firstMatch(in: text), in: text), ["<a>", "a"])
    }

    func testWholeMatchGroupsFollowPriority() throws {
        let text = "abcd"
        XCTAssertEqual(groups(try RegexPattern("(a|ab)(c|bcd)(d*)").wholeMatch(in: text), in: text), ["abcd", "a", "bcd", ""])
        XCTAssertEqual(groups(try RegexPattern("(a*)(a*)").wholeMatch(in: "aa"), in: "aa"), ["aa", "aa", ""])
        XCTAssertEqual(groups(try RegexPattern("(x)?y").wholeMatch(in: "y"), in: "y"), ["y", nil])
        XCTAssertNil(try RegexPattern("(a)b").wholeMatch(in: "abc"))
    }

    func testGroupsOverNonASCII() throws {
        let text = "prix: 12€ / 😀x"
        XCTAssertEqual(groups(try RegexPattern("(\\d+)(.) / (.)(x)").firstMatch(in: text), in: text), ["12€ / 😀x", "12", "€", "😀", "x"])
    }
}
