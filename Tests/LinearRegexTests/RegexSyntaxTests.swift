import LinearRegex
import XCTest

/// The syntax WireMock mappings use, checked on both engines (the Pike VM and the lazy DFA must agree).
final class RegexSyntaxTests: XCTestCase {
    /// Asserts `pattern` matches (or not) the whole of each text, on both engines.
    private func check(_ pattern: String, _ cases: [String: Bool], file: StaticString = #filePath, line: UInt = #line) throws {
        let regex = try RegexPattern(pattern)
        for (text, expected) in cases {
            var steps = 0
            XCTAssertEqual(regex.matchesWhole(text, using: .pikeVM, steps: &steps), expected, "Pike VM: \(pattern) on \(text)", file: file, line: line)
            XCTAssertEqual(regex.matchesWhole(text, using: .lazyDFA, steps: &steps), expected, "DFA: \(pattern) on \(text)", file: file, line: line)
            XCTAssertEqual(regex.matchesWhole(text), expected, file: file, line: line)
        }
    }

    func testLiteralsAndEscapes() throws {
        try check("/api/v1/users", ["/api/v1/users": true, "/api/v1/users/": false, "/api/v1/user": false, "": false])
        try check(#"a\.b\/c\\d"#, [#"a.b/c\d"#: true, "axb/c\\d": false])
        try check(#"\t\n\r\u0041\x42\x{1F600}"#, ["\t\n\rAB😀": true, "\t\n\rAB": false])
        try check(#"\Q(a+)*\E!"#, ["(a+)*!": true, "aaa!": false])
        try check(#"\d+-\w+\s\S"#, ["12-ab_9 x": true, "12-ab_9  ": false, "x-ab c": false])
        try check(#"\D\W"#, ["a!": true, "1!": false, "aa": false])
        try check("\\p{Alpha}+\\P{Digit}", ["abc!": true, "abc1": false])
    }

    func testClasses() throws {
        try check("[a-c]+", ["abcabc": true, "abd": false])
        try check("[^/]+", ["segment": true, "a/b": false, "": false])
        try check("[a-z&&[^aeiou]]+", ["xyz": true, "xaz": false])
        try check("[\\d.-]+", ["1.2-3": true, "1,2": false])
        try check("[]a]+", ["]a]": true])
        try check("[é-ë]", ["ê": true, "e": false])
    }

    func testDotAlternationAndGroups() throws {
        try check("/users/.*", ["/users/": true, "/users/1/x": true, "/users\n": false, "/users/a\nb": false])
        try check("(?s)a.b", ["a\nb": true])
        try check("/(cats|dogs)/(?:\\d+)", ["/cats/12": true, "/dogs/1": true, "/cows/1": false, "/cats/": false])
        try check("a|", ["a": true, "": true, "b": false])
        try check("(a|ab)(c|bcd)(d*)", ["abcd": true, "abcdd": true, "abc": true])
    }

    func testQuantifiers() throws {
        try check("a{3}", ["aaa": true, "aa": false, "aaaa": false])
        try check("a{2,}", ["aa": true, "aaaaa": true, "a": false])
        try check("a{2,3}", ["aa": true, "aaa": true, "aaaa": false])
        try check("a{0,2}b?", ["": true, "aab": true, "aaab": false])
        try check("a+?b*?", ["aaab": true])
        try check("/users/{id}", ["/users/{id}": true, "/users/1": false])
        try check("x{1,2}{", ["xx{": true])
    }

    func testAnchorsAndWordBoundaries() throws {
        try check("^/a$", ["/a": true, "/ab": false])
        try check(".*\\bcat\\b.*", ["a cat sat": true, "concatenate": false, "cat": true])
        try check(".*\\Bcat\\B.*", ["concatenate": true, "a cat": false])
        try check("(?m)a$\\nb", ["a\nb": true])
        try check("(?m)a\n^b", ["a\nb": true])
        try check("a^b|a\n^b", ["ab": false, "a\nb": false])
        try check("a^b", ["ab": false])
    }

    func testCaseInsensitivity() throws {
        try check("(?i)/Users/[a-c]+", ["/USERS/ABC": true, "/users/abc": true, "/users/abd": false])
        try check("a(?i)b", ["aB": true, "AB": false])
        try check("(?i:a)b", ["Ab": true, "AB": false])
        // Simple (one-scalar) folding only: ß does not become SS.
        try check("(?i)straße", ["STRASSE": false, "STRAßE": true])
        try check("(?i)ä", ["Ä": true])
        try check("(?x) a b # comment\n c", ["abc": true])
    }

    func testNonASCIIIsOneScalar() throws {
        try check("/caf./[^x]", ["/café/ü": true, "/cafe/x": false])
        try check(".{2}", ["😀😀": true, "😀": false])
    }
}
