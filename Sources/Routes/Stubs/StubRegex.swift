/// A compiled regular expression of a mapping (`matches`, `doesNotMatch`, `urlPattern`,
/// `urlPathPattern`): matched against the whole text, as Java's `matches()` does in WireMock.
struct StubRegex: @unchecked Sendable {
    // Regex is immutable once compiled; it is read from any loop thread.
    private let regex: Regex<AnyRegexOutput>
    let source: String

    /// Compiles `source`; a pattern that does not compile is refused with the reason.
    init(_ source: String, at pointer: String) throws(StubProblem) {
        do {
            regex = try Regex(source)
        } catch {
            throw StubProblem(pointer, "the regular expression \"\(source)\" does not compile: \(error)")
        }
        self.source = source
    }

    func matchesWhole(_ text: String) -> Bool {
        (try? regex.wholeMatch(in: text)) != nil
    }
}
