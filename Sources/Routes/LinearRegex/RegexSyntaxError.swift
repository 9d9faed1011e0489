/// Why a pattern was refused: a syntax error, a construct that needs backtracking, or a program
/// over the size cap. `offset` counts Unicode scalars from the pattern's start.
package struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the construct.
    package let message: String
    /// Where, in Unicode scalars from the pattern's start.
    package let offset: Int
    /// A valid pattern this engine refuses (a construct that needs backtracking, or a pattern past
    /// its size or nesting limits), not a syntax error.
    package var isRefusedConstruct = false

    /// The message and the offset.
    package var description: String { "\(message) (at offset \(offset))" }

    /// The refusal of a construct only a backtracking engine can run.
    static func needsBacktracking(_ what: String, at offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(message: "\(what) need backtracking; this server matches in linear time and refuses them", offset: offset,
                         isRefusedConstruct: true)
    }
}
