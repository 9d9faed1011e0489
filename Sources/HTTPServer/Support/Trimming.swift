/// Trimming as Foundation's `trimmingCharacters(in: .whitespaces / .whitespacesAndNewlines)`,
/// which FoundationEssentials lacks: Unicode space separators and tab, plus line breaks if asked.
extension StringProtocol {
    /// The text without leading and trailing whitespace (and line breaks when `newlines`).
    package func trimmingWhitespace(newlines: Bool = true) -> String {
        let scalars = unicodeScalars
        func isSpace(_ s: Unicode.Scalar) -> Bool {
            if s == "\t" || s.properties.generalCategory == .spaceSeparator { return true }
            guard newlines else { return false }
            switch s.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
