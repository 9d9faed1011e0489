import LinearRegex

/// A compiled regular expression of a mapping (`matches`, `doesNotMatch`, `urlPattern`,
/// `urlPathPattern`): matched against the whole text, as Java's `matches()` does in WireMock,
/// in time linear in the text (LinearRegex), so no request can hold a thread or the store's lock.
struct StubRegex: Sendable {
    let pattern: RegexPattern
    var source: String { pattern.source }

    /// Compiles `source` with `.` matching line terminators too, as WireMock compiles every stub
    /// regex (`Pattern.DOTALL`, its `AbstractRegexPattern`): a multi-line body matches
    /// `.*foo.*` there. A pattern that does not compile, or needs backtracking, is refused with the reason.
    init(_ source: String, at pointer: String) throws(StubProblem) {
        do {
            pattern = try RegexPattern(source, dotAll: true)
        } catch {
            var problem = StubProblem(pointer, "the regular expression \"\(source)\" is refused: \(error)")
            // A syntax error Java's Pattern refuses too (in its own words, not reproduced here).
            problem.wireMockAlsoRefuses = !error.isRefusedConstruct
            throw problem
        }
    }

    func matchesWhole(_ text: String) -> Bool { pattern.matchesWhole(text) }
}
