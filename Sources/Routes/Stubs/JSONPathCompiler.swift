import HTTPServer

/// Jayway's `PathCompiler`, read for read: the same tokens from the same text, the same texts
/// refused. Paths inside filters and function arguments nest; `maxDepth` and `maxTokens` keep
/// a mapping's path from making the compiler or the evaluator recurse without bound.
struct JSONPathCompiler {
    static let maxDepth = 8
    static let maxTokens = 128

    private var c: JSONPathCursor
    private var tokens: [JSONPath.Token] = []
    private let depth: Int

    private init(_ cursor: JSONPathCursor, depth: Int) {
        c = cursor
        self.depth = depth
    }

    /// `JsonPath.compile`: a path not starting with `$` or `@` is read as `$.` + path.
    static func compile(_ text: String, depth: Int = 0) throws(JSONPathSyntaxError) -> JSONPath {
        guard let first = text.unicodeScalars.first else { throw JSONPathSyntaxError("the path is empty") }
        var cursor = JSONPathCursor(text)
        cursor.trim()
        if first != "$" && first != "@" {
            cursor = JSONPathCursor("$." + text)
            cursor.trim()
        }
        if cursor.lastIsPeriod { throw JSONPathSyntaxError("Path must not end with a '.' or '..'") }
        return try compileRead(cursor, source: text, depth: depth)
    }

    /// Jayway's inner `new PathCompiler(text).compile()`: no `$.` added, no trimming.
    static func compileRead(_ cursor: JSONPathCursor, source: String, depth: Int) throws(JSONPathSyntaxError) -> JSONPath {
        guard depth <= maxDepth else { throw JSONPathSyntaxError("paths nest more than \(maxDepth) deep (filters and function arguments)") }
        var compiler = JSONPathCompiler(cursor, depth: depth)
        let isRoot = try compiler.readContext()
        return invertScanFunction(JSONPath(source: source, tokens: compiler.tokens, isRootPath: isRoot))
    }

    /// `$..x.sum()` is `sum` of `$..x` (Jayway's `invertScannerFunctionRelationship`).
    private static func invertScanFunction(_ path: JSONPath) -> JSONPath {
        guard path.isFunctionPath, case .scan? = path.tokens.first,
              let k = path.tokens.firstIndex(where: { JSONPath.isFunction($0) }) else { return path }
        let argument = JSONPath(source: path.source, tokens: Array(path.tokens[..<k]), isRootPath: true)
        let function: JSONPath.Token
        switch path.tokens[k] {
        case .function(let known, _): function = .function(known, [.path(argument)])
        // Jayway fails on the name before it reads any argument.
        default: function = path.tokens[k]
        }
        let tokens = [function] + path.tokens[(k + 1)...]
        return JSONPath(source: path.source, tokens: tokens, isRootPath: path.isRootPath)
    }

    private static func isWhitespace(_ ch: Unicode.Scalar) -> Bool { ch == " " || ch == "\t" || ch == "\n" || ch == "\r" }
    private static func isDigit(_ ch: Unicode.Scalar) -> Bool { ch >= "0" && ch <= "9" }

    private mutating func append(_ token: JSONPath.Token) throws(JSONPathSyntaxError) {
        guard tokens.count < JSONPathCompiler.maxTokens else { throw JSONPathSyntaxError("more than \(JSONPathCompiler.maxTokens) steps") }
        tokens.append(token)
    }

    private func fail(_ message: String) -> JSONPathSyntaxError { JSONPathSyntaxError(message) }

    /// True for `$`, false for `@`.
    private mutating func readContext() throws(JSONPathSyntaxError) -> Bool {
        while c.inBounds && JSONPathCompiler.isWhitespace(c.current) { c.position += 1 }
        let root = c.current
        guard c.inBounds, root == "$" || root == "@" else { throw fail("Path must start with '$' or '@'") }
        if c.isTail { return root == "$" }
        c.position += 1
        guard c.current == "." || c.current == "[" else {
            throw fail("Illegal character at position \(c.position) expected '.' or '['")
        }
        try readNext()
        return root == "$"
    }

    private mutating func more() throws(JSONPathSyntaxError) {
        if !c.isTail { try readNext() }
    }

    private mutating func readNext() throws(JSONPathSyntaxError) {
        switch c.current {
        case "[":
            if try readBracketProperty() { return }
            if try readArray() { return }
            if try readWildcard() { return }
            if try readFilter() { return }
            throw fail("Could not parse token starting at position \(c.position). Expected ?, ', 0-9, * ")
        case ".":
            try readDot()
        case "*":
            guard try readWildcard() else { throw fail("Could not parse token starting at position \(c.position)") }
        default:
            guard try readPropertyOrFunction() else { throw fail("Could not parse token starting at position \(c.position)") }
        }
    }

    private mutating func readDot() throws(JSONPathSyntaxError) {
        if c.currentIs(".") && c.nextIs(".") {
            try append(.scan)
            c.position += 2
        } else if !c.inBounds(c.position + 1) {
            throw fail("Path must not end with a '.")
        } else {
            c.position += 1
        }
        if c.currentIs(".") { throw fail("Character '.' on position \(c.position) is not valid.") }
        try readNext()
    }

    private mutating func readPropertyOrFunction() throws(JSONPathSyntaxError) -> Bool {
        if c.currentIs("[") || c.currentIs("*") || c.currentIs(".") || c.currentIs(" ") || !c.inBounds { return false }
        let start = c.position
        var read = start, endAt = 0, isFunction = false
        while c.inBounds(read) {
            let ch = c.text[read]
            if ch == " " { throw fail("Use bracket notion ['my prop'] if your property contains blank characters. position: \(c.position)") }
            if ch == "." || ch == "[" { endAt = read; break }
            if ch == "(" { isFunction = true; endAt = read; break }
            read += 1
        }
        if endAt == 0 { endAt = c.end + 1 }
        var parameters: [JSONPath.Parameter] = []
        if isFunction {
            var open = 1, i = read + 1
            while i <= c.end {
                if c.text[i] == ")" { open -= 1 } else if c.text[i] == "(" { open += 1 }
                if open == 0 { break }
                i += 1
            }
            let name = c.string(start, endAt)
            if open != 0 { throw fail("Arguments to function: '\(name)' are not closed properly.") }
            if c.inBounds(read + 1) {
                if c.text[read + 1] != ")" {
                    c.position = endAt + 1
                    parameters = try readParameters(name)
                } else {
                    c.position = read + 1
                }
            } else {
                c.position = read
            }
        } else {
            c.position = endAt
        }
        let name = c.string(start, endAt)
        if isFunction {
            if let function = JSONPathFunction(rawValue: name) {
                try append(.function(function, parameters))
            } else {
                try append(.unknownFunction(name))
            }
        } else {
            try append(.properties([name]))
        }
        try more()
        return true
    }

    /// Jayway's `parseFunctionParameters`: JSON texts (`{`, a digit or `"` first) and paths
    /// (`$` or `@` first), separated by commas at the top level; anything else is dropped.
    private mutating func readParameters(_ name: String) throws(JSONPathSyntaxError) -> [JSONPath.Parameter] {
        enum Kind { case json, path }
        var kind: Kind?
        var parens = 1, brackets = 0, braces = 0, quotes = 0
        var done = false
        var prior: Unicode.Scalar = "\0"
        var parameters: [JSONPath.Parameter] = []
        var text = String.UnicodeScalarView()
        while c.inBounds && !done {
            let ch = c.current
            c.position += 1
            if kind == nil {
                if JSONPathCompiler.isWhitespace(ch) { continue }
                if ch == "{" || JSONPathCompiler.isDigit(ch) || ch == "\"" { kind = .json } else if ch == "$" || ch == "@" { kind = .path }
            }
            var closesOrSeparates = false
            switch ch {
            case "\"": if prior != "\\" && quotes > 0 { quotes -= 1 } else { quotes += 1 }
            case "(": parens += 1
            case "{": braces += 1
            case "[": brackets += 1
            case "}":
                if braces == 0 { throw fail("Unexpected close brace '}' at character position: \(c.position)") }
                braces -= 1
            case "]":
                if brackets == 0 { throw fail("Unexpected close bracket ']' at character position: \(c.position)") }
                brackets -= 1
            case ")":
                parens -= 1
                if parens < 0 || prior == "(" { text.append(ch) }
                closesOrSeparates = true
            case ",": closesOrSeparates = true
            default: break
            }
            if closesOrSeparates && quotes == 0 && braces == 0 && brackets == 0 && ((parens == 0 && ch == ")") || parens == 1) {
                done = parens == 0
                if let k = kind {
                    let value = String(text)
                    switch k {
                    case .json:
                        guard let json = JSONValue.parse(value) else { throw fail("the argument \(value) of \(name)() is not JSON") }
                        parameters.append(.json(json))
                    case .path:
                        parameters.append(.path(try JSONPathCompiler.compileRead(JSONPathCursor(value), source: value, depth: depth + 1)))
                    }
                    text = String.UnicodeScalarView()
                    kind = nil
                }
            }
            if kind != nil && !(ch == "," && braces == 0 && brackets == 0 && parens == 1) { text.append(ch) }
            prior = ch
        }
        if braces != 0 || parens != 0 || brackets != 0 { throw fail("Arguments to function: '\(name)' are not closed properly.") }
        return parameters
    }

    private mutating func readFilter() throws(JSONPathSyntaxError) -> Bool {
        guard c.currentIs("[") else { return false }
        let open = c.position
        let question = c.indexOfNextSignificant(after: open, "?")
        if question == -1 { return false }
        let paren = c.indexOfNextSignificant(after: question, "(")
        if paren == -1 { return false }
        guard let close = c.matchingClose(paren, "(", ")", skipRegex: true) else { return false }
        guard c.nextSignificantIs(after: close, "]") else { return false }
        let closeStatement = c.indexOfNextSignificant(after: close, "]")
        let criteria = c.text[open...closeStatement]
        try append(.filter(try JSONPathFilterCompiler.compile(criteria, depth: depth + 1)))
        c.position = closeStatement + 1
        try more()
        return true
    }

    private mutating func readWildcard() throws(JSONPathSyntaxError) -> Bool {
        let inBracket = c.currentIs("[")
        if inBracket && !c.nextSignificantIs(after: c.position, "*") { return false }
        if !c.currentIs("*") && !c.inBounds(c.position + 1) { return false }
        if inBracket {
            let star = c.indexOfNextSignificant(after: c.position, "*")
            guard c.nextSignificantIs(after: star, "]") else {
                throw fail("Expected wildcard token to end with ']' on position \(star + 1)")
            }
            c.position = c.indexOfNextSignificant(after: star, "]") + 1
        } else {
            c.position += 1
        }
        try append(.wildcard)
        try more()
        return true
    }

    private mutating func readArray() throws(JSONPathSyntaxError) -> Bool {
        guard c.currentIs("[") else { return false }
        let next = c.nextSignificant(after: c.position)
        guard JSONPathCompiler.isDigit(next) || next == "-" || next == ":" else { return false }
        let begin = c.position + 1
        let endAt = c.nextIndex(of: "]", from: begin)
        if endAt == -1 { return false }
        let expression = c.string(begin, endAt).trimmingASCIIWhitespace()
        if expression == "*" { return false }
        for ch in expression.unicodeScalars where !JSONPathCompiler.isDigit(ch) && ch != "," && ch != "-" && ch != ":" && ch != " " {
            return false
        }
        if expression.contains(":") {
            try append(try JSONPathCompiler.slice(expression))
        } else {
            // Java's split on \s*,\s* keeping empty pieces; each must be an int.
            let pieces = expression.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingASCIIWhitespace() }
            var indexes: [Int] = []
            for piece in pieces {
                guard let n = Int32(piece) else { throw fail("Failed to parse token in ArrayIndexOperation: \(piece)") }
                indexes.append(Int(n))
            }
            try append(.indexes(indexes))
        }
        c.position = endAt + 1
        try more()
        return true
    }

    /// `ArraySliceOperation.parse`: Java's `split(":")` drops trailing empty pieces.
    private static func slice(_ expression: String) throws(JSONPathSyntaxError) -> JSONPath.Token {
        for ch in expression.unicodeScalars where !isDigit(ch) && ch != "-" && ch != ":" {
            throw JSONPathSyntaxError("Failed to parse SliceOperation: \(expression)")
        }
        var pieces = expression.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        while pieces.last == "" { pieces.removeLast() }
        func read(_ i: Int) throws(JSONPathSyntaxError) -> Int? {
            guard pieces.count > i, !pieces[i].isEmpty else { return nil }
            guard let n = Int32(pieces[i]) else { throw JSONPathSyntaxError("Failed to parse SliceOperation: \(expression)") }
            return Int(n)
        }
        let from = try read(0), to = try read(1)
        if from == nil && to == nil { throw JSONPathSyntaxError("Failed to parse SliceOperation: \(expression)") }
        return .slice(from: from, to: to)
    }

    private mutating func readBracketProperty() throws(JSONPathSyntaxError) -> Bool {
        guard c.currentIs("[") else { return false }
        let quote = c.nextSignificant(after: c.position)
        guard quote == "'" || quote == "\"" else { return false }
        var properties: [String] = []
        var start = c.position + 1, read = start, endAt = 0
        var inProperty = false, escaped = false, lastWasComma = false
        while c.inBounds(read) {
            let ch = c.text[read]
            if escaped {
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == "]" && !inProperty {
                if lastWasComma { throw fail("Found empty property at index \(read)") }
                break
            } else if ch == quote {
                if inProperty {
                    let next = c.nextSignificant(after: read)
                    if next != "]" && next != "," {
                        throw fail("Property must be separated by comma or Property must be terminated close square bracket at index \(read)")
                    }
                    endAt = read
                    properties.append(JSONPathCompiler.unescape(c.string(start, endAt)))
                    inProperty = false
                } else {
                    start = read + 1
                    inProperty = true
                    lastWasComma = false
                }
            } else if ch == "," && !inProperty {
                if lastWasComma { throw fail("Found empty property at index \(read)") }
                lastWasComma = true
            }
            read += 1
        }
        if inProperty { throw fail("Property has not been closed - missing closing \(quote)") }
        let close = c.indexOfNextSignificant(after: endAt, "]")
        guard close != -1, !properties.isEmpty else { throw fail("Could not parse token starting at position \(c.position)") }
        c.position = close + 1
        try append(.properties(properties))
        try more()
        return true
    }

    /// Jayway's `Utils.unescape`: backslash escapes as in Java string literals.
    static func unescape(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = String.UnicodeScalarView()
        var scalars = s.unicodeScalars.makeIterator()
        while let ch = scalars.next() {
            guard ch == "\\", let e = scalars.next() else { out.append(ch); continue }
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "b": out.append("\u{8}")
            case "f": out.append("\u{c}")
            case "u":
                var hex = ""
                for _ in 0..<4 { if let h = scalars.next() { hex.unicodeScalars.append(h) } }
                if let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) { out.append(u) } else { out.append(contentsOf: ("\\u" + hex).unicodeScalars) }
            default: out.append(e)
            }
        }
        return String(out)
    }
}
