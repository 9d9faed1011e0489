/// A parsed regular expression, before compiling.
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One scalar from the set.
    case set(ScalarSet)
    case concat([RegexNode])
    /// Alternatives, the first preferred.
    case alternate([RegexNode])
    /// `node{min,max}` (`max` nil: unbounded); `lazy`: as few as possible first.
    case repeat_(RegexNode, min: Int, max: Int?, lazy: Bool)
    /// A capturing group, numbered from 1 in the order of its opening parenthesis.
    case capture(RegexNode, index: Int, name: String?)
    case assertion(RegexAssertion)
}

/// A zero-width test at a position, decided from the scalars either side of it.
enum RegexAssertion: UInt8, Sendable {
    /// `^` (without `(?m)`), `\A`: the start of the text.
    case textStart
    /// `^` with `(?m)`: the start of the text or after `\n`.
    case lineStart
    /// `$` (without `(?m)`), `\z`, `\Z`: the end of the text.
    case textEnd
    /// `$` with `(?m)`: the end of the text or before `\n`.
    case lineEnd
    /// `\b`: between a word scalar (`\w`) and a non-word one, either way round.
    case wordBoundary
    /// `\B`
    case notWordBoundary

    /// Whether the test needs the scalar after the position (the lazy DFA defers those).
    var looksAhead: Bool {
        switch self {
        case .textStart, .lineStart: return false
        case .textEnd, .lineEnd, .wordBoundary, .notWordBoundary: return true
        }
    }

    /// Whether it holds between `previous` and `next` (nil: the text's start or end).
    func holds(previous: UInt32?, next: UInt32?) -> Bool {
        switch self {
        case .textStart: return previous == nil
        case .lineStart: return previous == nil || previous == 0x0A
        case .textEnd: return next == nil
        case .lineEnd: return next == nil || next == 0x0A
        case .wordBoundary: return RegexAssertion.isWord(previous) != RegexAssertion.isWord(next)
        case .notWordBoundary: return RegexAssertion.isWord(previous) == RegexAssertion.isWord(next)
        }
    }

    /// `\w` (ASCII), which `\b` uses as RE2 does, so a DFA state can carry it as one bit.
    static func isWord(_ value: UInt32?) -> Bool {
        guard let v = value else { return false }
        return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || v == 0x5F || (v >= 0x61 && v <= 0x7A)
    }
}
