/// Jackson's words for the commonest ways a string fails to be JSON, as WireMock 2.35 reports a bad
/// `equalToJson` operand or admin body in its 422 (its clients and tests read them): nothing to
/// read, a first character no JSON value starts with, or a first word that is not `true`, `false`
/// or `null`. Nil where this server cannot say what Jackson would.
enum JacksonSyntaxError {
    /// Jackson quotes the whole text up to this many characters, then cuts it (not reproduced here).
    private static let quotedLimit = 500
    private static let expecting = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')"

    static func message(for text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !" \t\r\n".unicodeScalars.contains($0) }) else {
            return "No content to map due to end-of-input"
        }
        guard scalars.count <= quotedLimit, !text.contains("\r") else { return nil }
        let c = scalars[first]
        if isWordPart(c) && !("0"..."9").contains(c) {
            return unrecognizedWord(scalars, from: first, text: text)
        }
        // Digits, `-` and `+` start numbers, `'` and `/` are read (WireMock allows single quotes and
        // comments), `]`/`}` get a close-marker message: other words, not reproduced.
        let otherMessage = "{[\"'/]}-+".unicodeScalars.contains(c) || ("0"..."9").contains(c)
        guard !otherMessage, (0x21...0x7E).contains(c.value) else { return nil }
        // Jackson's column is the one after the character it stopped at.
        return "Unexpected character ('\(c)' (code \(c.value))): expected a valid value \(expecting)\n at \(source(text, scalars, column: first + 1))"
    }

    /// `Unrecognized token 'tru'`: the word Jackson read (letters, digits, `_`, `$`), unless it is
    /// `true`, `false` or `null` (then the error is further on); `NaN` and `Infinity` are named
    /// as non-standard.
    private static func unrecognizedWord(_ scalars: [Unicode.Scalar], from start: Int, text: String) -> String? {
        var end = start
        while end < scalars.count, isWordPart(scalars[end]) { end += 1 }
        let word = String(String.UnicodeScalarView(scalars[start..<end]))
        guard !["true", "false", "null"].contains(word) else { return nil }
        if word == "NaN" || word == "Infinity" {
            return "Non-standard token '\(word)': enable JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS to allow\n at \(source(text, scalars, column: end))"
        }
        return "Unrecognized token '\(word)': was expecting \(expecting)\n at \(source(text, scalars, column: end))"
    }

    /// `[Source: (String)"…"; line: L, column: C]` for the 0-based offset `column` names (1-based in the text).
    private static func source(_ text: String, _ scalars: [Unicode.Scalar], column offset: Int) -> String {
        var line = 1
        var column = 1
        for scalar in scalars[..<min(offset, scalars.count)] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return "[Source: (String)\"\(text)\"; line: \(line), column: \(column)]"
    }

    /// What Jackson reads as part of a word (ASCII letters and digits, `_`, `$`; other letters too).
    private static func isWordPart(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "$"
    }
}
