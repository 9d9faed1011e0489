/// Whether a text log gets ANSI colour: only on a terminal that shows it. Xcode's run console is a
/// pseudo-terminal that prints escapes raw and sets no `TERM` (or `dumb`); `NO_COLOR` turns colour
/// off anywhere (https://no-color.org).
package enum TerminalColour {
    /// True on a terminal whose TERM is set and not "dumb", unless NO_COLOR is set and not empty.
    package static func wanted(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal, (environment["NO_COLOR"] ?? "").isEmpty else { return false }
        let term = environment["TERM"] ?? ""
        return !term.isEmpty && term != "dumb"
    }
}
