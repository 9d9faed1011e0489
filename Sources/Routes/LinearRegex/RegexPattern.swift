/// A compiled regular expression that matches in time linear in the text: Java's syntax as
/// WireMock reads it, minus what needs backtracking (refused by name when compiling). Sendable:
/// the program is immutable, and its DFA cache is taken by one thread at a time.
package struct RegexPattern: Sendable {
    /// Which machine answers a whole-match question.
    package enum Engine: Sendable {
        /// The lazy DFA, or the Pike VM when the cache is busy or full.
        case automatic
        case pikeVM
        /// The lazy DFA only (tests); nil when its cache is busy or full.
        case lazyDFA
    }

    /// The DFA cache's bound per pattern.
    package static let dfaBudget = 1 << 18

    /// The pattern as written.
    package let source: String
    let program: RegexProgram
    /// Named groups' numbers.
    package let names: [String: Int]
    /// Capturing groups, named ones included.
    let groupCount: Int
    private let dfa: SharedDFA

    /// Compiles `source`; refuses a syntax error, a construct that needs backtracking, or a
    /// program over `maxInstructions`, saying which. `dotAll`: `.` matches line terminators too,
    /// as Java's `Pattern.DOTALL`, which WireMock compiles every stub regex with.
    package init(_ source: String, dotAll: Bool = false) throws(RegexSyntaxError) {
        var parser = RegexParser(source, dotAll: dotAll)
        let node = try parser.parse()
        program = try RegexCompiler.compile(node, groups: parser.groupCount)
        names = parser.names
        groupCount = parser.groupCount
        self.source = source
        dfa = SharedDFA(program, budget: RegexPattern.dfaBudget)
    }

    /// Instructions in the compiled program (a match costs at most this many per scalar).
    package var instructionCount: Int { program.instructions.count }
    /// The cap on `instructionCount`.
    static var maxInstructions: Int { RegexCompiler.maxInstructions }

    /// Whether the whole of `text` matches (Java's `matches()`).
    package func matchesWhole(_ text: String) -> Bool {
        var steps = 0
        return matchesWhole(text, using: .automatic, steps: &steps) ?? false
    }

    /// Whether the whole of `text` matches, adding the instructions executed to `steps`; nil
    /// only for `.lazyDFA` when its cache is busy or full.
    package func matchesWhole(_ text: String, using engine: Engine, steps: inout Int) -> Bool? {
        UTF8Text.with(text) { utf8 in
            if engine != .pikeVM, let ids = dfa.run(utf8, steps: &steps) { return !ids.isEmpty }
            if engine == .lazyDFA { return nil }
            var vm = PikeVM(program, tracksSlots: false)
            let found = vm.run(utf8, mode: .whole) != nil
            steps += vm.steps
            return found
        }
    }

    /// The match of the whole text with its groups (Java's `matches()` then `group(n)`).
    package func wholeMatch(in text: String) -> RegexMatch? {
        var steps = 0
        return match(text, mode: .whole, steps: &steps)
    }

    /// The leftmost match in `text` with its groups (Java's `find()`), the Pike VM's steps
    /// added to `steps`.
    package func firstMatch(in text: String, steps: inout Int) -> RegexMatch? {
        match(text, mode: .find, steps: &steps)
    }

    /// The leftmost match in `text` with its groups (Java's `find()`).
    package func firstMatch(in text: String) -> RegexMatch? {
        var steps = 0
        return match(text, mode: .find, steps: &steps)
    }

    private func match(_ text: String, mode: PikeVM.Mode, steps: inout Int) -> RegexMatch? {
        let slots: [Int]? = UTF8Text.with(text) { utf8 in
            var vm = PikeVM(program, tracksSlots: true)
            defer { steps += vm.steps }
            return vm.run(utf8, mode: mode)
        }
        return slots.map { RegexMatch(slots: $0, in: text, names: names) }
    }
}
