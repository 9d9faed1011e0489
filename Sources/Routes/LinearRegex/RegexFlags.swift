/// The inline flags in force at a point of the pattern (`(?i)`, `(?m)`, `(?s)`, `(?x)`).
struct RegexFlags: Sendable {
    /// `i`: letters match either case (simple Unicode case folding).
    var caseInsensitive = false
    /// `m`: `^` and `$` also match at line starts and ends.
    var multiline = false
    /// `s`: `.` matches line terminators too.
    var dotAll = false
    /// `x`: white space and `#` comments outside classes are ignored.
    var extended = false

    /// Sets (`on`) or clears one flag; false for a letter Java has that this engine does not read.
    mutating func set(_ letter: Unicode.Scalar, _ on: Bool) -> Bool {
        switch letter {
        case "i": caseInsensitive = on
        case "m": multiline = on
        case "s": dotAll = on
        case "x": extended = on
        // `u`: folding is Unicode's already. `d` (Unix lines) is read and changes nothing.
        case "u", "d": break
        default: return false
        }
        return true
    }
}
