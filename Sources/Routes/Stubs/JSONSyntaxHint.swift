/// What was expected where a JSON document breaks ("expected `,` or `}`"), so a syntax error in a
/// mapping file or an admin body says what to add, not only where. The document is re-read up to
/// the parser's error offset with a small state machine; it never decides validity itself.
enum JSONSyntaxHint {
    private enum Expect { case value, nameOrClose, name, colon, commaOrClose, valueOrClose, end }

    /// "expected …" for `bytes` broken at `offset`, naming the unclosed `{`/`[` when the text ends early.
    static func expected(_ bytes: [UInt8], at offset: Int) -> String {
        var open: [(byte: UInt8, at: Int)] = []
        var expect = Expect.value
        var i = 0
        func afterValue() { expect = open.isEmpty ? .end : .commaOrClose }
        while i < min(offset, bytes.count) {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1; continue
            case UInt8(ascii: "{"): open.append((b, i)); expect = .nameOrClose
            case UInt8(ascii: "["): open.append((b, i)); expect = .valueOrClose
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast(); afterValue()
            case UInt8(ascii: ":"): expect = .value
            case UInt8(ascii: ","): expect = open.last?.byte == UInt8(ascii: "{") ? .name : .value
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < bytes.count && bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                if j >= bytes.count { return "expected `\"`: the string at \(place(bytes, i)) is not closed" }
                if expect == .name || expect == .nameOrClose { expect = .colon } else { afterValue() }
                i = j
            default:
                // A number or a word: its end is where the next token starts.
                while i + 1 < bytes.count, !" \t\r\n{}[]:,\"".utf8.contains(bytes[i + 1]) { i += 1 }
                afterValue()
            }
            i += 1
        }
        let close = open.last.map { $0.byte == UInt8(ascii: "{") ? "}" : "]" } ?? ""
        let text: String
        switch expect {
        case .value: text = "expected a value (a string, number, object, array, true, false or null)"
        case .nameOrClose: text = "expected a quoted name or `}`"
        case .name: text = "expected a quoted name (no `,` before `}`)"
        case .colon: text = "expected `:`"
        case .commaOrClose: text = "expected `,` or `\(close)`"
        case .valueOrClose: text = "expected a value or `]`"
        case .end: text = "expected the end of the document"
        }
        guard offset >= bytes.count, let last = open.last else { return text }
        return text + " (the text ends while the `\(Character(Unicode.Scalar(last.byte)))` at \(place(bytes, last.at)) is still open)"
    }

    private static func place(_ bytes: [UInt8], _ offset: Int) -> String {
        let (line, column) = StubFiles.lineColumn(bytes, offset)
        return "line \(line), column \(column)"
    }
}
