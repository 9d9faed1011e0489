/// Jackson's words for the commonest ways a string fails to be JSON, as WireMock 2.35 reports a bad
/// `equalToJson` operand in its 422 body (its clients and tests read them): nothing to read, or a
/// first character no JSON value starts with. Nil where this server cannot say what Jackson would.
enum JacksonSyntaxError {
    /// Jackson quotes the whole text up to this many characters, then cuts it (not reproduced here).
    private static let quotedLimit = 500

    static func message(for text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !" \t\r\n".unicodeScalars.contains($0) }) else {
            return "No content to map due to end-of-input"
        }
        let c = scalars[first]
        // Letters and digits start words and numbers (Jackson's other messages); `'` and `/` are
        // allowed there (WireMock reads single quotes and comments); `]`/`}` get a close-marker message.
        let otherMessage = "{[\"'/]}-+".unicodeScalars.contains(c) || c.properties.isAlphabetic || ("0"..."9").contains(c)
        guard !otherMessage, (0x21...0x7E).contains(c.value), scalars.count <= quotedLimit, !text.contains("\r") else { return nil }
        var line = 1
        var column = 1
        for scalar in scalars[..<first] {
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        // Jackson's column is the one after the character it stopped at.
        return "Unexpected character ('\(c)' (code \(c.value))): expected a valid value (JSON String, Number, Array, Object or token "
            + "'null', 'true' or 'false')\n at [Source: (String)\"\(text)\"; line: \(line), column: \(column + 1)]"
    }
}
