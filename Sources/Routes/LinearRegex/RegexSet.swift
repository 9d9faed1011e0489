/// Many patterns compiled into one program (as RE2::Set): one pass over a text tells which of
/// them match the whole of it, whatever their number, through a lazy DFA over their union (the
/// Pike VM when its cache fills up).
package struct RegexSet: Sendable {
    /// A thread's DFA over the set: not shareable, so each thread (or caller) keeps its own.
    package final class Cache {
        fileprivate let dfa: LazyDFA
        /// Passes over a text so far.
        package private(set) var passes = 0
        /// Instructions executed so far (DFA transitions and states built, or Pike VM steps).
        package private(set) var steps = 0

        fileprivate init(_ program: RegexProgram, budget: Int) { dfa = LazyDFA(program, budget: budget) }

        fileprivate func count(pass steps: Int) {
            passes += 1
            self.steps += steps
        }
    }

    /// The DFA cache's default bound per `Cache`.
    package static let dfaBudget = 8 << 20

    let program: RegexProgram
    /// Patterns in the set.
    package let count: Int
    private let budget: Int

    /// The union of `patterns`; a match reports a pattern by its index here.
    package init(_ patterns: [RegexPattern], dfaBudget: Int = RegexSet.dfaBudget) {
        program = RegexProgram(union: patterns.map(\.program))
        count = patterns.count
        budget = dfaBudget
    }

    /// Whether the set holds no pattern (nothing matches).
    package var isEmpty: Bool { count == 0 }
    /// Instructions in the union's program.
    package var instructionCount: Int { program.instructions.count }

    /// A DFA cache for one thread.
    package func makeCache() -> Cache { Cache(program, budget: budget) }

    /// The indices (ascending) of the patterns that match the whole of `text`, in one pass.
    /// Without a cache (or when it fills up) the Pike VM answers.
    package func matches(_ text: String, cache: Cache?) -> [Int] {
        guard count > 0 else { return [] }
        return UTF8Text.with(text) { utf8 in
            if let cache {
                let before = cache.dfa.steps
                if let ids = cache.dfa.run(utf8) {
                    cache.count(pass: cache.dfa.steps - before)
                    // Most texts match nothing: no array is made for them.
                    return ids.isEmpty ? [] : ids.map { Int($0) }
                }
            }
            var vm = PikeVM(program, tracksSlots: false)
            let ids = vm.runAll(utf8)
            cache?.count(pass: vm.steps)
            return ids
        }
    }
}
